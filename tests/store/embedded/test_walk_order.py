"""The mirror keeps each entity's facts in a walk's order; every change must reorder them.

``facts_about`` reads each entity's facts most important first from an order the mirror
keeps (made on first use, dropped when one of the entity's facts changes), instead of
sorting all of them per walk. These tests hold it to the definition it replaced: the
stable sort of ``fact_ids_touching`` by (importance, valid_from), after the scope and time
filters, with the ties of a real conversation (one episode's facts share both).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphmem.models import Entity, Fact, utcnow
from graphmem.store.base import WriteBatch
from graphmem.store.embedded import EmbeddedStore
from graphmem.temporal import TimeFilter, timeline_key

TENANT = "t"
KEY = "user:maya"
JAN, FEB = datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 2, 1, tzinfo=UTC)


def _entity(name: str, scope_key: str = KEY) -> Entity:
    return Entity(tenant=TENANT, scope_key=scope_key, name=name, type="person")


def _fact(subject: Entity, predicate: str, obj: Entity, importance: float,
          valid_from: datetime = JAN, **update: object) -> Fact:
    fact = Fact(tenant=TENANT, scope_key=subject.scope_key, subject_id=subject.id,
                subject_name=subject.name, predicate=predicate, object_id=obj.id,
                object_name=obj.name, text=f"{subject.name} {predicate} {obj.name}",
                timeline_key=timeline_key(subject.scope_key, subject.id, predicate, "many",
                                          obj.id),
                valid_from=valid_from, importance=importance)
    return fact.model_copy(update=update)


def _reference(store: EmbeddedStore, entity_ids: list[str], limit: int,
               time: TimeFilter) -> list[str]:
    """What ``facts_about`` answered before the kept order: sort them all, per walk."""
    now = utcnow()
    index = store._index  # noqa: SLF001 (the definition is over the mirror's own graph)
    facts = [f for i in index.fact_ids_touching(entity_ids)
             if (f := index.fact(TENANT, i)) is not None and f.scope_key == KEY
             and time.matches(f, now)]
    return [f.id for f in heapq.nlargest(limit, facts, key=lambda f: (f.importance,
                                                                        f.valid_from))]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EmbeddedStore]:
    opened = EmbeddedStore(tmp_path / "walk.db", embedding_dim=8)
    opened.open()
    yield opened
    opened.close()


MAYA, BOB, ACME, CAFE = _entity("Maya"), _entity("Bob"), _entity("Acme"), _entity("Cafe")
OTHER = _entity("Maya", scope_key="user:other")


def _seed() -> list[Fact]:
    return [
        _fact(MAYA, "WORKS_AT", ACME, 0.5),
        _fact(MAYA, "KNOWS", BOB, 0.5),  # ties with the one above: same episode
        _fact(BOB, "LIKES", MAYA, 0.9, FEB),  # Maya as the object
        _fact(MAYA, "LIKES", MAYA, 0.5),  # a loop: touches Maya twice
        _fact(ACME, "NEAR", CAFE, 0.7),
        _fact(BOB, "VISITS", CAFE, 0.5),
        _fact(MAYA, "VISITS", CAFE, 0.3, valid_until=FEB),  # closed: seen with history only
    ]


def _assert_same(store: EmbeddedStore) -> None:
    for ids in ([MAYA.id], [BOB.id], [MAYA.id, BOB.id], [BOB.id, MAYA.id], [ACME.id, CAFE.id],
                [MAYA.id, BOB.id, ACME.id, CAFE.id]):
        for time in (TimeFilter(), TimeFilter(include_history=True)):
            for limit in (0, 1, 2, 3, 60):
                got = [f.id for f in store.facts_about(TENANT, [KEY], ids, time, limit,
                                                       embeddings=False)]
                assert got == _reference(store, ids, limit, time), (ids, time, limit)


def test_the_kept_order_is_the_sorted_order_with_its_ties(store: EmbeddedStore) -> None:
    facts = _seed()
    store.write(TENANT, WriteBatch(entities=[MAYA, BOB, ACME, CAFE], facts=facts))
    _assert_same(store)
    found = [f.id for f in store.facts_about(TENANT, [KEY], [MAYA.id], TimeFilter(), 60)]
    # Bob LIKES Maya first (0.9), then the tied 0.5s in the order they were written
    assert found == [facts[2].id, facts[0].id, facts[1].id, facts[3].id]


def test_each_kind_of_change_reorders(store: EmbeddedStore) -> None:
    facts = _seed()
    store.write(TENANT, WriteBatch(entities=[MAYA, BOB, ACME, CAFE], facts=facts))
    _assert_same(store)  # every order made before the changes below

    raised = facts[1].model_copy(update={"importance": 0.95})
    store.write(TENANT, WriteBatch(facts=[raised]))
    _assert_same(store)
    assert store.facts_about(TENANT, [KEY], [MAYA.id], TimeFilter(), 1)[0].id == raised.id

    moved = facts[0].model_copy(update={"object_id": CAFE.id, "object_name": "Cafe"})
    store.write(TENANT, WriteBatch(facts=[moved]))  # another end: Acme loses it, Cafe gains it
    _assert_same(store)
    assert moved.id not in [f.id for f in store.facts_about(TENANT, [KEY], [ACME.id],
                                                             TimeFilter(), 60)]

    store.record_access(TENANT, [facts[3].id, facts[3].id], utcnow())  # not an order change
    _assert_same(store)

    closed = facts[3].model_copy(update={"valid_until": FEB})  # superseded: same place
    store.write(TENANT, WriteBatch(facts=[closed]))
    assert MAYA.id in store._index._ranked  # noqa: SLF001 (the kept order was kept)
    _assert_same(store)

    store.write(TENANT, WriteBatch(delete_fact_ids=[facts[2].id]))
    _assert_same(store)

    later = _fact(MAYA, "OWNS", CAFE, 0.5, FEB)  # a new tie, later valid: before the others
    store.write(TENANT, WriteBatch(facts=[later]))
    _assert_same(store)

    store.write(TENANT, WriteBatch(delete_entity_ids=[BOB.id]))
    _assert_same(store)


def test_another_scope_and_tenant_stay_out(store: EmbeddedStore) -> None:
    store.write(TENANT, WriteBatch(entities=[MAYA, BOB, OTHER], facts=[
        _fact(MAYA, "KNOWS", BOB, 0.1),
        _fact(OTHER, "KNOWS", MAYA, 0.9)]))  # same entity id as an end, another scope
    found = store.facts_about(TENANT, [KEY], [MAYA.id], TimeFilter(), 60)
    assert [f.subject_id for f in found] == [MAYA.id]
    assert store.facts_about("another", [KEY], [MAYA.id], TimeFilter(), 60) == []


def test_a_second_process_sees_the_first_ones_reorder(tmp_path: Path) -> None:
    path = tmp_path / "two.db"
    first, second = (EmbeddedStore(path, embedding_dim=8) for _ in range(2))
    first.open()
    second.open()
    try:
        facts = _seed()
        first.write(TENANT, WriteBatch(entities=[MAYA, BOB, ACME, CAFE], facts=facts))
        _assert_same(second)
        first.write(TENANT, WriteBatch(facts=[facts[1].model_copy(update={"importance": 1.0})],
                                       delete_fact_ids=[facts[2].id]))
        found = second.facts_about(TENANT, [KEY], [MAYA.id], TimeFilter(), 1)
        assert [f.id for f in found] == [facts[1].id]
        _assert_same(second)
        first.record_access(TENANT, [f.id for f in found], utcnow())  # the other's search
        second.facts_about(TENANT, [KEY], [MAYA.id], TimeFilter(), 1)  # sees the change
        assert MAYA.id in second._index._ranked  # noqa: SLF001 (and keeps its order)
        _assert_same(second)
    finally:
        first.close()
        second.close()
