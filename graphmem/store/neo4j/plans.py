"""The search's kept plans made again as the store grows.

The search's queries keep their plan (:data:`graphmem.store.neo4j.reads.KEEP_PLAN`): planning
one takes seconds, and Neo4j would otherwise plan it again whenever the counts move, which a
growing store does all the time. But a plan made on a small store was then kept when the store
had grown a hundredfold: ``bench/search_latency.py``, whose first searches plan the query at
1,000 facts, searched 10,000 facts in 116-125 ms (p50) with that plan and in 30 ms with one
made at 10,000.

So every :attr:`Replanner.check_every` seconds at most, a search asks whether the database's
facts have grown :attr:`Replanner.growth` times since the search was last planned (once there
are :attr:`Replanner.plan_from` of them). If so, each of the search's queries is planned again
with the latest parameters it ran with (``EXPLAIN`` with ``replan=force``), away from any
request (the store runs it on a side thread); the searches after it use the new plan. Which
plan a search runs never changes its results, only their time.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field

from graphmem.store.neo4j.reads import KEEP_PLAN, Query

logger = logging.getLogger(__name__)

#: How many facts the database holds, from Neo4j's count store (no scan).
COUNT_FACTS: Query = ("MATCH (f:Fact) RETURN count(f) AS n", {})


def log_failure(done: Future[bool]) -> None:
    """A replan that failed (the store closing, the server gone) costs only time: say so."""
    if not done.cancelled() and (err := done.exception()) is not None:
        logger.warning("planning the search again failed: %s", err)


def planned_again(query: Query) -> Query:
    r"""A kept-plan ``query`` planned afresh and cached, not run.

    >>> planned_again(("CYPHER replan=skip\nRETURN $x", {"x": 1}))
    ('CYPHER replan=force EXPLAIN\nRETURN $x', {'x': 1})
    """
    text, params = query
    if not text.startswith(KEEP_PLAN):
        raise ValueError("only a query that keeps its plan is planned again")
    return "CYPHER replan=force EXPLAIN\n" + text[len(KEEP_PLAN):], params


@dataclass
class Replanner:
    """Decides when the search's kept plans are made again, and makes them.

    ``count_facts`` reads how many facts the database holds; ``explain`` runs a query's
    ``EXPLAIN``. :meth:`searched` is called with each search's queries, and says whether to run
    :meth:`replan_if_grown` (on another thread).
    """

    count_facts: Callable[[], int]
    explain: Callable[[Query], object]
    #: Seconds between two counts of the facts.
    check_every: float = 30.0
    #: How many times larger the store must have grown since the plans were made.
    growth: float = 2.0
    #: Below this many facts, any plan serves.
    plan_from: int = 2_000
    clock: Callable[[], float] = time.monotonic
    #: How many times the plans were made again (for tests and logs).
    replanned: int = 0
    _planned_at: int | None = None
    _checked_at: float | None = None
    _latest: dict[str, Query] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def searched(self, queries: list[Query]) -> bool:
        """Remember ``queries`` (one search's); True when it is time to count the facts."""
        now = self.clock()
        with self._lock:
            for query in queries:
                self._latest[query[0]] = query
            if self._checked_at is not None and now - self._checked_at < self.check_every:
                return False
            self._checked_at = now
            return True

    def replan_if_grown(self) -> bool:
        """Count the facts; plan the remembered queries again if the store has grown enough
        since they were planned (the first count only records the size). True if it did."""
        facts = self.count_facts()
        with self._lock:
            if self._planned_at is None:
                self._planned_at = facts
                return False
            if facts < self.plan_from or facts < self.growth * max(self._planned_at, 1):
                return False
            self._planned_at = facts
            queries = list(self._latest.values())
        for query in queries:
            self.explain(planned_again(query))
        with self._lock:
            self.replanned += 1
        return True
