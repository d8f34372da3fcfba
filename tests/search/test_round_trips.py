"""A search on Neo4j waits for the server twice at most: every channel in one query, then
the reads that depend on its answer (the slot's facts, what the found turns said), together.
So it does with its scope's vectors copied in the process (the changes since are read by
that one query) and without."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem.embed.base import Embedder
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Message
from graphmem.search.engine import SearchEngine
from graphmem.search.models import SearchRequest
from graphmem.store.base import ChannelPlan
from graphmem.store.neo4j import Neo4jStore
from graphmem.store.neo4j.plans import COUNT_FACTS
from tests.ingest.helpers import ALICE, ScriptedExtractor, day, fact, said
from tests.store_fixtures import open_store

NOW = datetime(2025, 1, 1, tzinfo=UTC)


class Waits:
    """Counts a store's reads, and how many times the caller waited for the server: reads
    that overlap in time count as one wait. The replanner's count of the facts, which a
    store's first search sends on a side thread after it has answered, is not one.

    The reads of each group in ``together`` (numbered from 0 in the order they start) wait,
    before going to the server, until all of their group have started: reads sent side by
    side pass at once, while reads sent one after the other would wait for a read that never
    starts and fail. So overlap is a fact of how they were sent, not of how fast a loaded
    machine ran them."""

    def __init__(self, store: Neo4jStore, monkeypatch: pytest.MonkeyPatch,
                 together: tuple[frozenset[int], ...] = ()) -> None:
        self.spans: list[tuple[float, float]] = []
        self._lock = threading.Lock()
        self._started = 0
        barriers = {n: barrier for group in together if len(group) > 1
                    for barrier in [threading.Barrier(len(group), timeout=30)] for n in group}
        read = store._read

        def counted(query: Any) -> Any:
            if query == COUNT_FACTS:  # the replanner's count, sent beside and never waited for
                return read(query)
            with self._lock:
                number, self._started = self._started, self._started + 1
            # timed from before the barrier: once all of a group have started they were sent
            # side by side, even if a loaded machine then runs one thread before the other
            start = time.perf_counter()
            if number in barriers:
                barriers[number].wait()  # BrokenBarrierError: not sent side by side
            try:
                return read(query)
            finally:
                with self._lock:
                    self.spans.append((start, time.perf_counter()))

        monkeypatch.setattr(store, "_read", counted)

    def sequential(self) -> int:
        waits, end = 0, float("-inf")
        for start, stop in sorted(self.spans):
            if start >= end:
                waits += 1
            end = max(end, stop)
        return waits


@pytest.fixture
def neo4j_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Neo4jStore]:
    store = open_store("neo4j", tmp_path, request)
    assert isinstance(store, Neo4jStore)
    yield store
    store.close()


@pytest.mark.neo4j
def test_a_search_waits_twice_at_most(neo4j_store: Neo4jStore, embedder: Embedder,
                                      tenant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ingestor = Ingestor(neo4j_store, ScriptedExtractor({
        "I work at Acme now": [said("WORKS_AT", "Acme")]}), embedder, clock=lambda: NOW)
    ingestor.add_facts(tenant, [fact("WORKS_AT", "Initech", 1, text="Alice works at Initech."),
                                fact("LIKES", "hiking", 2, text="Alice likes hiking.")])
    ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=[
        Message(id="m1", speaker="Alice", content="I work at Acme now", timestamp=day(5))]))
    engine = SearchEngine(neo4j_store, embedder, clock=lambda: NOW)
    ranking = neo4j_store.cached_ranking
    assert ranking is not None
    try:
        # first as a process without a copy of the scope's vectors, then with one
        for copied in (False, True):
            neo4j_store.cached_ranking = ranking if copied else None
            if copied:
                _copy_scope(neo4j_store, tenant)
            for question, reads in (("hiking", 1), ("Where does Alice work?", 3)):
                # without a copy, the side query ranking part of the scope's vectors runs
                # beside the channels' one
                side = 1 if neo4j_store.side_share and not copied else 0
                total = reads + side
                # then the reads that depend on the channels (the slot's facts, the turns')
                groups = (frozenset(range(1 + side)),
                          frozenset({total - 2, total - 1}) if reads > 1 else frozenset())
                waits = Waits(neo4j_store, monkeypatch, groups)
                answered = ranking.answered
                found = engine.search(tenant, SearchRequest(scope=ALICE, query=question,
                                                            include_turns=question != "hiking"))
                assert found.results
                assert len(waits.spans) == total and waits.sequential() <= 2
                assert ranking.answered == answered + copied
    finally:
        neo4j_store.cached_ranking = ranking
        engine.close()


def _copy_scope(store: Neo4jStore, tenant: str) -> None:
    """Have the store copy Alice's vectors (beside a search, as a server does), and wait."""
    ranking = store.cached_ranking
    assert ranking is not None
    ranking.candidates(tenant, ChannelPlan(scope_keys=[ALICE.key], text="", embedding=[1.0],
                                           limit=1))
    deadline = time.monotonic() + 30
    while ranking.cache.since(tenant, ALICE.key, "fact") is None:
        assert time.monotonic() < deadline, "the scope was never copied"
        time.sleep(0.02)
