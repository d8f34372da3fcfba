"""A search's vector candidates ranked in this process, from a copy kept current by scope clocks.

:class:`CachedRanking` decides, per search, whether the copy
(:class:`graphmem.store.neo4j.vector_cache.VectorCache`) can answer, and then ranks it
(:meth:`CachedRanking.candidates`). The search's one query checks the candidates against
its time filter, reads what changed in the scopes since the copy's clocks, and ranks the
changed nodes itself (``search.channels``); :meth:`CachedRanking.absorb` then applies the
changes to the copy and says whether the answer is the one a ranking of the whole scope
on the server would give. When it is not, or when the copy cannot answer, the server ranks
as before:

- a scope never copied is copied beside the searches (``submit``), whole;
- a scope holding fewer nodes than its copy (a deletion) is dropped and copied again;
- a change of more nodes than one query reads (``most_changes``) is read by a whole copy;
- scopes of ``exact_scan_limit`` nodes or more are never copied: the vector index
  answers for them, as before.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from neo4j import Record

from graphmem.store.base import ChannelPlan
from graphmem.store.neo4j import scope_clocks
from graphmem.store.neo4j.reads import Query
from graphmem.store.neo4j.search import Candidates
from graphmem.store.neo4j.vector_cache import VectorCache

log = logging.getLogger(__name__)

#: Candidates sent per hit asked for: the server keeps the first that pass the time filter.
CANDIDATES_PER_HIT = 4
#: ... and at least this many.
MIN_CANDIDATES = 64
#: How long a scope found too large to copy is not tried again.
TOO_LARGE_SECONDS = 60.0


class CachedRanking:
    """See the module docstring. ``read`` runs a read query; ``submit`` runs a function
    beside the searches (returning its future)."""

    def __init__(self, cache: VectorCache, read: Callable[[Query], list[Record]],
                 submit: Callable[[Callable[[], None]], Future[None]], *,
                 most_changes: int, exact_scan_limit: int) -> None:
        self.cache = cache
        self._read = read
        self._submit = submit
        self.most_changes = most_changes
        self.exact_scan_limit = exact_scan_limit
        self._loading: set[tuple[str, str]] = set()
        self._too_large: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()
        #: Searches the copy answered, and those it left to the server (for benchmarks).
        self.answered = self.left = 0

    def candidates(self, tenant: str, plan: ChannelPlan) -> Candidates | None:
        """The plan's vector candidates from the copy, and the clocks it is at; None when a
        scope has no copy (one is made beside) or is too large to copy."""
        keys = plan.scope_keys
        since: dict[str, list[dict[str, Any]]] = {"fact": [], "message": []}
        for key in keys:
            for kind, scopes in since.items():
                position = self.cache.position(tenant, key, kind)
                if position is None:
                    self._copy_beside(tenant, key)
                    self._count(answered=False)
                    return None
                scopes.append({"key": key, "since": position[0], "clock": position[1]})
        facts = self.cache.rank(tenant, keys, "fact", plan.embedding,
                                max(CANDIDATES_PER_HIT * plan.limit, MIN_CANDIDATES))
        turns = (self.cache.rank(tenant, keys, "message", plan.embedding,
                                 max(CANDIDATES_PER_HIT * plan.turn_limit, MIN_CANDIDATES))
                 if plan.turn_limit else ([], 0))
        if facts is None or turns is None:  # a copy dropped meanwhile (the memory bound)
            self._count(answered=False)
            return None
        return Candidates(facts[0], turns[0], facts[1], turns[1], since["fact"],
                          since["message"], self.most_changes, self.exact_scan_limit)

    def placeholder(self, plan: ChannelPlan) -> Candidates:
        """Candidates holding nothing, shaped as :meth:`candidates` would return them for
        ``plan``: the search's query text is the same, so running it with these plans the
        query a copied scope's searches send (``Neo4jStore.prepare_searches``)."""
        since = [{"key": key, "since": 0, "clock": 0} for key in plan.scope_keys]
        return Candidates([], [], 0, 0, since, list(since), self.most_changes,
                          self.exact_scan_limit)

    def absorb(self, tenant: str, row: dict[str, Any], plan: ChannelPlan,
               candidates: Candidates) -> bool:
        """Apply the changes the search read (``row`` of ``search.channels``) to the copy;
        whether its vector channels answered as the server's ranking of the whole scopes
        would (else the caller asks the server)."""
        exact = True
        read = [("fact", row["factChanges"], candidates.fact_since)]
        if plan.turn_limit:
            read.append(("message", row["turnChanges"], candidates.turn_since))
        for kind, changes, since in read:
            clocks = {s["key"]: s["clock"] for s in since}
            counted = 0
            for change in changes:
                counted += int(change["count"])
                # newest first: a full list of nodes all newer than the copy may lack some
                behind = (len(change["rows"]) >= self.most_changes
                          and all(int(r["stamp"]) > clocks[change["key"]]
                                  for r in change["rows"]))
                if behind or not self.cache.update(tenant, kind, change):
                    self.cache.drop(tenant, str(change["key"]))
                    self._copy_beside(tenant, str(change["key"]))
                    exact = False
            if counted >= self.exact_scan_limit:
                exact = False  # grew past the limit: the vector index answers
        exact = exact and candidates.enough(row, plan)
        self._count(answered=exact)
        return exact

    def _count(self, *, answered: bool) -> None:
        with self._lock:
            if answered:
                self.answered += 1
            else:
                self.left += 1

    def _copy_beside(self, tenant: str, key: str) -> None:
        """Copy one scope whole beside the searches, unless it is being copied, or was found
        too large lately."""
        with self._lock:
            if (tenant, key) in self._loading:
                return
            if time.monotonic() < self._too_large.get((tenant, key), 0.0):
                return
            self._too_large.pop((tenant, key), None)  # expired, or never found too large
            self._loading.add((tenant, key))

        def load() -> None:
            try:
                rows = self._read(scope_clocks.whole_scope(tenant, key, self.exact_scan_limit))
                if rows:
                    self.cache.load(tenant, rows[0])
                else:
                    with self._lock:
                        self._too_large[(tenant, key)] = time.monotonic() + TOO_LARGE_SECONDS
            finally:
                with self._lock:
                    self._loading.discard((tenant, key))

        self._submit(load).add_done_callback(_log_failure)


def _log_failure(future: Future[None]) -> None:
    error = future.exception()
    if error is not None:
        log.warning("copying a scope's vectors failed (the server ranks it): %s", error)
