"""The graph channel: walk from the entities a query names, over relations valid at query time."""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from graphmem.models import Fact
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


def seed_entities(store: GraphStore, tenant: str, scope_keys: list[str], text: str,
                  limit: int = 8) -> list[str]:
    """Entities named in the query: exact name or alias matches, else the best BM25 name matches."""
    exact = [e.id for e in store.find_entities(tenant, scope_keys, query_ngrams(text))]
    if exact:
        return exact[:limit]
    return [s.id for s in store.fulltext_entities(tenant, scope_keys, text, limit)]


def walk(store: GraphStore, tenant: str, scope_keys: list[str], seeds: list[str], *,
         time: TimeFilter, depth: int, per_hop: int) -> Iterator[tuple[int, list[Fact], list[str]]]:
    """Breadth-first from the seeds: per hop (1, 2, ...), the facts about the frontier and the
    entities they reach for the first time (the next frontier)."""
    frontier = list(dict.fromkeys(seeds))
    visited = set(frontier)
    for hop in range(1, depth + 1):
        if not frontier:
            return
        facts = store.facts_about(tenant, scope_keys, frontier, time, per_hop)
        frontier = []
        for fact in facts:
            for end in (fact.subject_id, fact.object_id):
                if end and end not in visited:
                    visited.add(end)
                    frontier.append(end)
        yield hop, facts, frontier


def expand(store: GraphStore, tenant: str, scope_keys: list[str], seeds: list[str], *,
           time: TimeFilter, depth: int = 2, decay: float = 0.5,
           per_hop: int = 60) -> list[tuple[Fact, float]]:
    """Facts within ``depth`` hops of the seeds, scored 1, decay, decay^2... by hop.

    Within a hop, more important facts come first. A fact reached twice keeps
    its best score.
    """
    found: dict[str, tuple[Fact, float]] = {}
    for hop, facts, _ in walk(store, tenant, scope_keys, seeds, time=time, depth=depth,
                              per_hop=per_hop):
        weight = decay ** (hop - 1)
        for fact in facts:
            if fact.id not in found:
                found[fact.id] = (fact, weight * (0.5 + 0.5 * fact.importance))
    return sorted(found.values(), key=lambda pair: pair[1], reverse=True)


def rank_by_query(walked: list[tuple[Fact, float]], query: list[float]) -> list[Fact]:
    """Order walked facts by hop weight times similarity to the query.

    A walk from the asking user reaches every fact about them; without the
    query's say, the graph channel would rank them all alike.
    """
    q = np.asarray(query, dtype=np.float32)

    def score(pair: tuple[Fact, float]) -> float:
        fact, weight = pair
        if fact.embedding is None:
            return 0.0
        return weight * max(0.0, float(np.asarray(fact.embedding, dtype=np.float32) @ q))

    return [fact for fact, _ in sorted(walked, key=score, reverse=True)]
