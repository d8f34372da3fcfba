"""Timeline versions: the store's guard against two writers deciding on one timeline at once."""

from __future__ import annotations

import pytest

from graphmem.embed.base import Embedder
from graphmem.errors import TimelineConflictError
from graphmem.ingest.pipeline import Ingestor
from graphmem.store.base import GraphStore, WriteBatch
from tests.ingest.helpers import ALICE, ScriptedExtractor, fact


def test_a_write_advances_the_versions_of_the_timelines_it_touches(
        store: GraphStore, embedder: Embedder, tenant: str) -> None:
    ingestor = Ingestor(store, ScriptedExtractor({}), embedder)
    lisbon = ingestor.add_facts(tenant, [fact("LIVES_IN", "Lisbon", 3)]).created[0]
    key = lisbon.timeline_key

    assert store.timeline_versions(tenant, [key, "elsewhere"]) == {key: 1, "elsewhere": 0}
    ingestor.add_facts(tenant, [fact("LIVES_IN", "Porto", 5)])
    assert store.timeline_versions(tenant, [key]) == {key: 2}
    store.write(tenant, WriteBatch(delete_fact_ids=[lisbon.id]))  # a delete touches it too
    assert store.timeline_versions(tenant, [key]) == {key: 3}
    assert store.timeline_versions(tenant + "x", [key]) == {key: 0}  # per tenant


def test_a_stale_version_fails_the_whole_write(store: GraphStore, embedder: Embedder,
                                               tenant: str) -> None:
    ingestor = Ingestor(store, ScriptedExtractor({}), embedder)
    lisbon = ingestor.add_facts(tenant, [fact("LIVES_IN", "Lisbon", 3)]).created[0]
    key = lisbon.timeline_key
    moved = lisbon.model_copy(update={"id": "fact-moved", "object_name": "Porto"})

    with pytest.raises(TimelineConflictError, match="1 timeline") as raised:
        store.write(tenant, WriteBatch(facts=[moved], timeline_versions={key: 0}))

    assert raised.value.keys == [key]
    assert store.get_facts(tenant, ["fact-moved"]) == []
    assert store.timeline_versions(tenant, [key]) == {key: 1}
    store.write(tenant, WriteBatch(facts=[moved], timeline_versions={key: 1}))
    assert [f.id for f in store.get_facts(tenant, ["fact-moved"])] == ["fact-moved"]
    assert store.timeline_versions(tenant, [key]) == {key: 2}


def test_deleting_a_scope_forgets_its_timelines(store: GraphStore, embedder: Embedder,
                                               tenant: str) -> None:
    created = Ingestor(store, ScriptedExtractor({}), embedder).add_facts(
        tenant, [fact("LIVES_IN", "Lisbon", 3)]).created[0]

    store.delete_scope(tenant, ALICE.key)

    assert store.timeline_versions(tenant, [created.timeline_key]) == {created.timeline_key: 0}
