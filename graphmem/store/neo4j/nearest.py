"""Nearest-neighbour reads of one vector channel, outside a search's one query: the
store's ``vector_facts``, ``vector_turns``, ``vector_entities`` and entity resolution's
``nearest_entities``.

The rule is the one :func:`graphmem.store.neo4j.search.channels` unrolls into its query
(:class:`~graphmem.store.neo4j.search.VectorRule`). A scope of fewer than
``exact_scan_limit`` nodes is ranked within itself, found through its range index (by
its sketches first when it is large enough for them to pay:
``search_reads.vector_scan_scope``). A larger one goes to the vector index, which holds
every tenant and cannot filter: it is asked for as many candidates as the scope's share
of the index needs to yield the hits asked for, the candidates are filtered, and the
search widens (up to ``max_candidates``) while too few are kept. Never a scan of all
nodes. The index holds the large scopes only (:mod:`.vector_scopes`); the first query
ranks the others exactly, and the best of both is kept.

Here the widening is a loop of round trips, each query planned once; the search's one
query cannot loop and unrolls it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from neo4j import Record

from graphmem.models import utcnow
from graphmem.store.base import Scored, ScoredEntity
from graphmem.store.neo4j import records, resolution, search, search_reads
from graphmem.store.neo4j.reads import Query
from graphmem.temporal import TimeFilter

#: How many more candidates than asked a ranked channel fetches before filtering.
OVERSAMPLE = 4
#: A scope with fewer nodes than this is ranked exactly, without the vector index. The
#: index holds every tenant and cannot filter, so the candidates it must be asked for grow
#: with the whole database while a scan grows only with the scope (about 25 us a node):
#: at 200k facts a 2,000-fact scope took 130-180 ms through the index, 50 ms scanned...
EXACT_SCAN_LIMIT = 5000
#: ...a larger one asks the index for as many candidates as its share of the label
#: suggests, times this margin, at least MIN_CANDIDATES...
SHARE_MARGIN = 1.5
MIN_CANDIDATES = 50
#: ...and widens the search, while too few are in scope, up to this many.
MAX_CANDIDATES = 4096

Read = Callable[[Query], list[Record]]


def rule(exact_scan_limit: int = EXACT_SCAN_LIMIT,
         shortlist: int | None = None) -> search.VectorRule:
    """The vector rule with this module's constants, for a store's current settings."""
    return search.VectorRule(exact_scan_limit, SHARE_MARGIN, MIN_CANDIDATES, MAX_CANDIDATES,
                             OVERSAMPLE, shortlist)


def nearest(read: Read, vectors: search.VectorRule, index: str, tenant: str,
            scope_keys: list[str], embedding: list[float], limit: int,
            time: TimeFilter | None = None) -> list[Scored]:
    """The ``limit`` nearest nodes of ``index`` in scope (and in ``time``), best first."""
    if not scope_keys or limit <= 0 or not any(embedding):
        return []
    now = utcnow()
    row = read(search_reads.vector_scan_scope(index, tenant, scope_keys, embedding,
                                              vectors.exact_scan_limit, time, now, k=limit,
                                              shortlist=vectors.shortlist))[0]
    ranked = _scored(row["hits"])
    if row["exact"]:
        return ranked
    k = first_candidates(vectors, row, limit)
    kept, complete = _index_pass(read, index, tenant, scope_keys, embedding, k, time, now,
                                 limit)
    while len(kept) < limit and not complete and k < vectors.max_candidates:
        k = min(k * vectors.oversample, vectors.max_candidates)
        kept, complete = _index_pass(read, index, tenant, scope_keys, embedding, k, time, now,
                                     limit)
    return search.best(kept + ranked, limit, lambda hit: hit.id, lambda hit: hit.score)


def nearest_entities(read: Read, vectors: search.VectorRule, tenant: str,
                     scope_keys: list[str], embeddings: list[list[float]],
                     limit: int) -> list[list[ScoredEntity]]:
    """:func:`nearest` of the entities for many vectors, as whole entities: one query ranks a
    small scope exactly for all of them; a large one takes one more per widening."""
    found: list[list[ScoredEntity]] = [[] for _ in embeddings]
    asked = [i for i, vector in enumerate(embeddings) if any(vector)]
    if not scope_keys or limit <= 0 or not asked:
        return found
    wanted = [embeddings[i] for i in asked]
    row = read(resolution.nearest_entities_scan(tenant, scope_keys, wanted,
                                                vectors.exact_scan_limit, limit))[0]
    for i, hits in zip(asked, row["found"], strict=True):
        found[i] = _scored_entities(hits)
    if row["exact"]:
        return found
    ranked = {i: found[i] for i in asked}
    k = first_candidates(vectors, row, limit)
    while asked:
        rows = read(resolution.nearest_entities_index(tenant, scope_keys, wanted, k, limit))
        wider = []
        for i, r in zip(asked, rows, strict=True):
            indexed = _scored_entities(r["hits"])
            found[i] = search.best(indexed + ranked[i], limit, lambda hit: hit.entity.id,
                                   lambda hit: hit.score)
            if len(indexed) < limit and int(r["seen"]) >= k and k < vectors.max_candidates:
                wider.append(i)
        asked, k = wider, min(k * vectors.oversample, vectors.max_candidates)
        wanted = [embeddings[i] for i in asked]
    return found


def first_candidates(vectors: search.VectorRule, row: Mapping[str, Any], limit: int) -> int:
    """How many candidates the first index pass asks for: enough for ``limit`` in scope if the
    scope's share of the index (``size`` of ``total``) holds among them, with a margin."""
    share = max(int(row["size"]), 1) / max(int(row["total"]), 1)
    return min(max(int(limit * vectors.share_margin / share), vectors.min_candidates),
               vectors.max_candidates)


def _index_pass(read: Read, index: str, tenant: str, scope_keys: list[str],
                embedding: list[float], k: int, time: TimeFilter | None, now: datetime,
                limit: int) -> tuple[list[Scored], bool]:
    """The best in-scope hits among the index's k nearest, and whether the index had no more."""
    row = read(search_reads.vector_search(index, tenant, scope_keys, embedding, k, time, now,
                                          limit=limit))[0]
    return _scored(row["hits"]), int(row["seen"]) < k


def _scored(hits: list[dict[str, Any]]) -> list[Scored]:
    return [Scored(id=str(h["id"]), score=float(h["score"])) for h in hits]


def _scored_entities(hits: list[dict[str, Any]]) -> list[ScoredEntity]:
    return [ScoredEntity(entity=records.entity_from(h["n"]), score=float(h["score"]))
            for h in hits]
