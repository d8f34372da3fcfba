"""Concurrent writers of one timeline, each with its own lock (as separate processes have).

The store's timeline versions must leave exactly one current value and a
supersession chain that runs forwards in time, whoever commits first.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from graphmem.embed.base import Embedder
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Fact, FactStatus
from graphmem.store.base import GraphStore
from graphmem.temporal import rebuild_timeline
from tests.ingest.helpers import ALICE, ScriptedExtractor, fact

WRITERS = 8


def check_one_timeline(facts: list[Fact], values: set[str]) -> None:
    """Exactly one current value, every write kept, SUPERSEDES never backwards, and the
    stored derived fields those the timeline's facts imply."""
    live = [f for f in facts if f.status is FactStatus.ACTIVE]
    assert {f.object_name for f in live} == values, facts
    assert len(live) == len(values)
    assert len([f for f in live if f.valid_until is None]) == 1, live
    by_id = {f.id: f for f in facts}
    for f in live:
        if f.superseded_by is not None:
            assert by_id[f.superseded_by].valid_from >= f.valid_from
            assert by_id[f.superseded_by].supersedes == [f.id]
    assert rebuild_timeline(facts, now=max(f.recorded_at for f in facts)) == []


def test_writers_without_a_shared_lock_leave_one_current_value(
        store: GraphStore, embedder: Embedder, tenant: str) -> None:
    Ingestor(store, ScriptedExtractor({}), embedder).add_facts(
        tenant, [fact("LIVES_IN", "Lisbon", 1)])  # Alice exists before the race
    start = threading.Barrier(WRITERS)

    def write(i: int) -> str:
        ingestor = Ingestor(store, ScriptedExtractor({}), embedder, lock=threading.RLock())
        start.wait()
        # months out of order, so some writers land before facts already stored
        return ingestor.add_facts(tenant, [fact("WORKS_AT", f"Company {i}", 1 + (i * 5) % 12)]
                                  ).created[0].timeline_key

    with ThreadPoolExecutor(WRITERS) as pool:
        keys = set(pool.map(write, range(WRITERS)))

    assert len(keys) == 1
    check_one_timeline(store.facts_in_timelines(tenant, list(keys)),
                       {f"Company {i}" for i in range(WRITERS)})


def test_writers_without_a_shared_lock_create_a_new_name_once(
        store: GraphStore, embedder: Embedder, tenant: str) -> None:
    """Each writer looks up "Bob" and "Initech", finds neither and creates both; all but
    one of those writes must turn out stale and resolve again to the first one's."""
    start = threading.Barrier(WRITERS)

    def write(i: int) -> tuple[str, str]:
        ingestor = Ingestor(store, ScriptedExtractor({}), embedder, lock=threading.RLock())
        start.wait()
        result = ingestor.add_facts(tenant, [fact("WORKS_AT", "Initech", 1 + i, subject="Bob")])
        stored = [*result.created, *result.confirmed]  # the same fact may be there already
        return stored[0].subject_id, stored[0].object_id

    with ThreadPoolExecutor(WRITERS) as pool:
        pairs = set(pool.map(write, range(WRITERS)))

    assert len(pairs) == 1, pairs
    assert [e.name for e in store.find_entities(tenant, [ALICE.key], ["bob"])] == ["Bob"]
    assert [e.name for e in store.find_entities(tenant, [ALICE.key], ["initech"])] == ["Initech"]
