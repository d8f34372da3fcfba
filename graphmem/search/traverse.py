"""The graph channel: walk from the entities a query names, over relations valid at query time."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from graphmem.models import Entity, Fact
from graphmem.store.base import GraphStore
from graphmem.names import normalize_name
from graphmem.temporal import TimeFilter

_WORD = re.compile(r"[\w'-]+", re.UNICODE)


def query_ngrams(text: str, max_n: int = 3) -> list[str]:
    """Normalised 1..3-word n-grams of a query: the names it might mention."""
    words = _WORD.findall(text)
    grams = {normalize_name(" ".join(words[i:i + n]))
             for n in range(1, max_n + 1) for i in range(len(words) - n + 1)}
    return sorted(g for g in grams if len(g) > 1)


def choose_seeds(exact: list[Entity], seed_names: set[str], named: Callable[[], list[str]],
                 limit: int) -> list[str]:
    """The walk's seeds: the exactly named entities one of ``seed_names`` names, else the best
    BM25 name matches (``named``, read only when needed)."""
    chosen = [e.id for e in exact if _names_of(e) & seed_names]
    return chosen[:limit] if chosen else named()[:limit]


def _names_of(entity: Entity) -> set[str]:
    return {normalize_name(n) for n in (entity.name, *entity.aliases)}


def walk(store: GraphStore, tenant: str, scope_keys: list[str], seeds: list[str], *,
         time: TimeFilter, depth: int = 2, per_hop: int = 60,
         embeddings: bool = True) -> list[list[Fact]]:
    """The facts of each hop from the seeds, hop 1 first: the ``per_hop`` most important
    facts touching the hop's frontier, the entities not reached before; without their
    vectors if ``embeddings`` is false."""
    hops: list[list[Fact]] = []
    frontier = list(dict.fromkeys(seeds))
    visited = set(frontier)
    for _ in range(depth):
        if not frontier:
            break
        facts = store.facts_about(tenant, scope_keys, frontier, time, per_hop,
                                  embeddings=embeddings)
        hops.append(facts)
        nxt: list[str] = []
        for fact in facts:
            for end in (fact.subject_id, fact.object_id):
                if end not in visited:
                    visited.add(end)
                    nxt.append(end)
        frontier = nxt
    return hops


def hop_weights(hops: list[list[Fact]], decay: float = 0.5) -> list[tuple[Fact, float]]:
    """Walked facts scored 1, decay, decay^2... by hop, most important first within a hop;
    a fact reached twice keeps its best score."""
    found: dict[str, tuple[Fact, float]] = {}
    weight = 1.0
    for facts in hops:
        for fact in facts:
            if fact.id not in found:
                found[fact.id] = (fact, weight * (0.5 + 0.5 * fact.importance))
        weight *= decay
    return sorted(found.values(), key=lambda pair: pair[1], reverse=True)


#: Each fact's similarity to the query vector, by fact id (see :func:`similarities`).
Similarities = Callable[[list[Fact], list[float]], dict[str, float]]


def similarities(facts: list[Fact], query: list[float]) -> dict[str, float]:
    """Each fact's dot product with the (normalised) query vector; none without a vector."""
    with_vector = [f for f in facts if f.embedding is not None]
    if not with_vector:
        return {}
    # one matrix from all the lists: converting them one by one cost more than the walk
    rows = np.array([f.embedding for f in with_vector], dtype=np.float32)
    scores = rows @ np.asarray(query, dtype=np.float32)
    return {f.id: float(s) for f, s in zip(with_vector, scores)}


def rank_by_query(walked: list[tuple[Fact, float]], similarity: dict[str, float]) -> list[Fact]:
    """Order walked facts by hop weight times similarity to the query.

    A walk from the asking user reaches every fact about them; without the
    query's say, the graph channel would rank them all alike.
    """
    def score(pair: tuple[Fact, float]) -> float:
        fact, weight = pair
        return weight * max(0.0, similarity.get(fact.id, 0.0))

    return [fact for fact, _ in sorted(walked, key=score, reverse=True)]
