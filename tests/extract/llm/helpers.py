"""Helpers for the LLM extractor's tests: episodes, and answers as the model writes them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from graphmem.extract.base import SELF, CandidateFact, ExtractedFact, Extraction
from graphmem.extract.llm import LLMExtractor
from graphmem.models import Episode, Message, Scope

KEY = "sk-test-secret-0123456789abcdef"
WHEN = datetime(2024, 3, 1, 9, 30, tzinfo=UTC)
ALICE = Scope(user_id="alice")

Make = Callable[..., LLMExtractor]


def episode(*lines: tuple[str | None, str], tenant: str = "acme") -> Episode:
    messages = [Message(id=f"m{i + 1}", speaker=speaker, content=text, timestamp=WHEN)
                for i, (speaker, text) in enumerate(lines)]
    return Episode(tenant=tenant, scope_key=ALICE.key, messages=messages, reference_time=WHEN,
                   content="\n".join(f"{s}: {t}" for s, t in lines))


def said(subject: str = "Alice", predicate: str = "WORKS_AT", obj: str = "Acme",
         **fields: Any) -> dict[str, Any]:
    """One fact as the model would write it."""
    return {"subject": subject, "predicate": predicate, "object": obj, "cardinality": "one",
            "category": "fact", "importance": 0.6, "confidence": 0.9, "valid_from": None,
            "valid_until": None, "action": "assert", "message_id": "m1",
            "text": f"{subject} {predicate.lower()} {obj}."} | fields


def answer(*facts: dict[str, Any], entities: list[dict[str, Any]] | None = None,
           decisions: list[dict[str, Any]] | None = None, language: str = "en") -> dict[str, Any]:
    return {"entities": entities or [], "facts": list(facts), "decisions": decisions or [],
            "language": language}


def candidate(fact_id: str, obj: str = "Acme") -> CandidateFact:
    return CandidateFact(id=fact_id, text=f"Alice works at {obj}.", subject="Alice",
                         predicate="WORKS_AT", object=obj, valid_from=datetime(2023, 1, 1, tzinfo=UTC))


class FixedExtractor:
    """A stand-in for the rule extractor as the fallback."""

    name = "fixed"
    uses_candidates = False

    def extract(self, episode: Episode, candidates: list[CandidateFact]) -> Extraction:
        return Extraction(facts=[ExtractedFact(subject=SELF, predicate="LIKES", object="tea",
                                               text="The user likes tea.")])


ALICE_AT_ACME = episode(("Alice", "I work at Acme now, as a data engineer."))


def extract_concurrently(extractor: LLMExtractor, episode: Episode, threads: int) -> None:
    """``threads`` extractions of ``episode`` started at once; returns when all are done."""
    running = [threading.Thread(target=extractor.extract, args=(episode, []))
               for _ in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
