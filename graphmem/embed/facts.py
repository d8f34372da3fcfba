"""Vectors for facts: each fact's text, embedded once, before it is written."""

from __future__ import annotations

from graphmem.embed.base import Embedder
from graphmem.models import Fact, FactStatus


def embed_facts(embedder: Embedder, facts: list[Fact]) -> list[Fact]:
    """The facts, with a vector on each that lacks one (retraction markers never need one)."""
    missing = [f for f in facts if f.embedding is None and f.status is not FactStatus.RETRACTION]
    if not missing:
        return facts
    vectors = embedder.embed([f.text for f in missing])
    filled = {f.id: f.model_copy(update={"embedding": [float(x) for x in vectors[i]]})
              for i, f in enumerate(missing)}
    return [filled.get(f.id, f) for f in facts]
