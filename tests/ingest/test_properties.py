"""Property-based tests on random timelines (hypothesis), on both stores.

Invariants that must hold whatever order facts arrive in:
* at any ``as_of``, at most one current value per functional (subject, predicate);
* the supersedes graph has no cycle and always points back in time;
* deleting an episode and adding it again gives the same graph;
* the two stores give the same answers (checked by the same expectations).
"""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.embed.base import Embedder
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Fact, Message
from graphmem.store.base import FactQuery, GraphStore
from graphmem.temporal import TimeFilter
from tests.ingest.helpers import ALICE, ScriptedExtractor, said

OBJECTS = ["Acme", "Globex", "Initech"]
# (month, predicate, object, retract?) ; WORKS_AT is functional, LIKES is multi-valued
op = st.tuples(st.integers(1, 12), st.sampled_from(["WORKS_AT", "LIKES"]),
               st.sampled_from(OBJECTS), st.booleans())
# Distinct months: two different values stated for the same instant are ordered by
# when graphmem learned them, so re-adding one of them legitimately changes the winner.
timelines = st.lists(op, min_size=1, max_size=8, unique_by=lambda o: o[0])

PROPERTY_SETTINGS = settings(max_examples=25, deadline=None,
                             suppress_health_check=[HealthCheck.function_scoped_fixture])


def _episodes(ops: list[tuple[int, str, str, bool]]) -> tuple[ScriptedExtractor, list[EpisodeInput]]:
    script = {}
    inputs = []
    for i, (month, predicate, obj, retract) in enumerate(ops):
        text = f"statement {i}"
        script[text] = [said(predicate, obj, action="retract" if retract else "assert")]
        inputs.append(EpisodeInput(scope=ALICE, episode_id=f"op{i}", messages=[
            Message(id=f"m{i}", speaker="Alice", content=text,
                    timestamp=datetime(2024, month, 1, tzinfo=UTC))]))
    return ScriptedExtractor(script), inputs


def _all(store: GraphStore, tenant: str) -> list[Fact]:
    return store.list_facts(tenant, FactQuery(scope_keys=ALICE.visible_keys, limit=1000,
                                              time=TimeFilter(include_history=True)))


def _shape(facts: list[Fact]) -> set[tuple[object, ...]]:
    by_id = {f.id: f for f in facts}
    return {(f.predicate, f.object_name, f.valid_from, f.valid_until,
             by_id[f.superseded_by].object_name if f.superseded_by in by_id else None)
            for f in facts}


def _check_invariants(store: GraphStore, tenant: str) -> None:
    facts = _all(store, tenant)
    by_id = {f.id: f for f in facts}
    for month in range(1, 14):
        at = datetime(2024, month, 1, tzinfo=UTC) if month <= 12 else datetime(2025, 6, 1, tzinfo=UTC)
        current = store.list_facts(tenant, FactQuery(scope_keys=ALICE.visible_keys,
                                                     time=TimeFilter(as_of=at)))
        functional = Counter(f.predicate for f in current if f.predicate == "WORKS_AT")
        assert functional["WORKS_AT"] <= 1, f"two current employers at {at}"
    for fact in facts:
        seen = {fact.id}
        nxt = fact.superseded_by
        while nxt is not None:
            assert nxt not in seen, "supersedes cycle"
            seen.add(nxt)
            assert by_id[nxt].valid_from >= fact.valid_from
            nxt = by_id[nxt].superseded_by


@PROPERTY_SETTINGS
@given(ops=timelines, victim=st.integers(0, 7))
def test_random_timelines_keep_their_invariants(store: GraphStore, embedder: Embedder,
                                                ops: list[tuple[int, str, str, bool]],
                                                victim: int) -> None:
    tenant = f"p{uuid.uuid4().hex[:12]}"
    extractor, inputs = _episodes(ops)
    ingestor = Ingestor(store, extractor, embedder)
    results = [ingestor.ingest(tenant, data) for data in inputs]
    _check_invariants(store, tenant)

    before = _shape(_all(store, tenant))
    victim %= len(inputs)
    ingestor.delete_episode(tenant, results[victim].episode_id or "")
    _check_invariants(store, tenant)
    ingestor.ingest(tenant, inputs[victim])
    _check_invariants(store, tenant)
    assert _shape(_all(store, tenant)) == before


@PROPERTY_SETTINGS
@given(ops=timelines)
def test_arrival_order_does_not_change_the_timeline(store: GraphStore, embedder: Embedder,
                                                    ops: list[tuple[int, str, str, bool]]) -> None:
    unique = [o for o in ops if not o[3]]
    shapes = []
    for order in (unique, list(reversed(unique))):
        tenant = f"p{uuid.uuid4().hex[:12]}"
        extractor, inputs = _episodes(order)
        ingestor = Ingestor(store, extractor, embedder)
        for data in inputs:
            ingestor.ingest(tenant, data)
        shapes.append(_shape(_all(store, tenant)))
    assert shapes[0] == shapes[1]
