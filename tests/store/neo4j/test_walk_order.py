"""A walk reads each entity's facts in its order from the walk indexes (reads.hop).

Held to the definition it replaced, on a real Neo4j: every fact touching the entities
over SUBJECT or OBJECT, filtered, sorted by (importance, validFrom) descending and seq
ascending, the first ``limit``. The ties are a real conversation's: one episode's facts
share importance and validFrom.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import neo4j
import pytest

from graphmem.models import Entity, Fact, utcnow
from graphmem.store.base import WriteBatch
from graphmem.store.neo4j import Neo4jStore, reads, records
from graphmem.temporal import TimeFilter, timeline_key
from tests.neo4j_fixtures import browse, reopen_from_version

DIM = 384  # the session database's vector indexes
JAN, FEB = datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 2, 1, tzinfo=UTC)
KEY = "user:maya"

#: The definition the walk indexes replaced: sort every fact of the entities, then filter.
SORT_THEM_ALL = """
MATCH (n:Entity)<-[:SUBJECT|OBJECT]-(f:Fact) WHERE n.id IN $ids
WITH DISTINCT f WHERE f.tenant = $tenant AND f.scopeKey IN $keys
  AND NOT f.status IN ['archived', 'retraction', 'forgotten'] AND f.validFrom <= $now
  AND ($history OR f.validUntil IS NULL OR $now < f.validUntil)
RETURN f.id AS id ORDER BY f.importance DESC, f.validFrom DESC, f.seq ASC LIMIT $limit
"""


@pytest.fixture
def tenant() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


@pytest.fixture
def store(neo4j_uri: Any) -> Iterator[Neo4jStore]:
    opened = Neo4jStore(neo4j_uri.uri, neo4j_uri.user, neo4j_uri.password, embedding_dim=DIM)
    opened.open()
    yield opened
    opened.close()


def _entity(tenant: str, name: str) -> Entity:
    return Entity(tenant=tenant, scope_key=KEY, name=name, type="person")


def _fact(subject: Entity, predicate: str, obj: Entity, importance: float,
          valid_from: datetime = JAN, **update: object) -> Fact:
    made = Fact(tenant=subject.tenant, scope_key=KEY, subject_id=subject.id,
                subject_name=subject.name, predicate=predicate, object_id=obj.id,
                object_name=obj.name, text=f"{subject.name} {predicate} {obj.name}",
                timeline_key=timeline_key(KEY, subject.id, predicate, "many", obj.id),
                valid_from=valid_from, importance=importance)
    return made.model_copy(update=update)


class World:
    def __init__(self, tenant: str) -> None:
        self.maya, self.bob, self.acme, self.cafe = (
            _entity(tenant, n) for n in ("Maya", "Bob", "Acme", "Cafe"))
        m, b, a, c = self.maya, self.bob, self.acme, self.cafe
        self.facts = [
            _fact(m, "WORKS_AT", a, 0.5), _fact(m, "KNOWS", b, 0.5),  # tied
            _fact(b, "LIKES", m, 0.9, FEB),  # Maya as the object
            _fact(m, "LIKES", m, 0.5),  # a loop: Maya at both ends
            _fact(a, "NEAR", c, 0.7), _fact(b, "VISITS", c, 0.5),
            _fact(m, "VISITS", c, 0.3, valid_until=FEB),  # closed: with history only
            *(_fact(m, f"TRIED_{i}", c, 0.4) for i in range(12)),  # one episode's dozen
        ]
        self.entities = [m, b, a, c]


def _assert_same(store: Neo4jStore, driver: neo4j.Driver, tenant: str, world: World) -> None:
    w = world
    now = utcnow()
    for ids in ([w.maya.id], [w.bob.id], [w.maya.id, w.bob.id], [w.acme.id, w.cafe.id],
                [w.maya.id, w.bob.id, w.acme.id, w.cafe.id]):
        for history in (False, True):
            for limit in (1, 2, 5, 60):
                got = [f.id for f in store.facts_about(
                    tenant, [KEY], ids, TimeFilter(include_history=history), limit,
                    embeddings=False)]
                want = [r["id"] for r in browse(driver, SORT_THEM_ALL, ids=ids, tenant=tenant,
                                                keys=[KEY], now=now, history=history,
                                                limit=limit)]
                assert got == want, (ids, history, limit)


@pytest.mark.neo4j
def test_the_walk_order_is_the_sorted_order_through_every_change(
        store: Neo4jStore, neo4j_driver: neo4j.Driver, tenant: str) -> None:
    world = World(tenant)
    store.write(tenant, WriteBatch(entities=world.entities, facts=world.facts))
    _assert_same(store, neo4j_driver, tenant, world)

    raised = world.facts[1].model_copy(update={"importance": 0.95})
    store.write(tenant, WriteBatch(facts=[raised]))  # an update keeps its seq
    _assert_same(store, neo4j_driver, tenant, world)
    first = store.facts_about(tenant, [KEY], [world.maya.id], TimeFilter(), 1)
    assert [f.id for f in first] == [raised.id]

    moved = world.facts[0].model_copy(update={"object_id": world.cafe.id,
                                              "object_name": "Cafe"})
    store.write(tenant, WriteBatch(facts=[moved]))
    _assert_same(store, neo4j_driver, tenant, world)

    store.write(tenant, WriteBatch(delete_fact_ids=[world.facts[2].id]))
    _assert_same(store, neo4j_driver, tenant, world)


@pytest.mark.neo4j
def test_another_tenant_or_scope_is_never_walked(
        store: Neo4jStore, tenant: str) -> None:
    world = World(tenant)
    store.write(tenant, WriteBatch(entities=world.entities, facts=world.facts))
    assert store.facts_about(f"{tenant}x", [KEY], [world.maya.id], TimeFilter(), 60) == []
    assert store.facts_about(tenant, ["user:else"], [world.maya.id], TimeFilter(), 60) == []


@pytest.mark.neo4j
def test_a_busy_entity_is_read_only_as_far_as_the_limit(
        store: Neo4jStore, neo4j_driver: neo4j.Driver, tenant: str) -> None:
    """The point of the walk indexes: the index hands the facts over in order, so a hop
    reads about ``limit`` of an entity's 300 facts, not all of them and a sort."""
    world = World(tenant)
    many = [_fact(world.maya, f"DID_{i}", world.cafe, (i % 97) / 97) for i in range(300)]
    store.write(tenant, WriteBatch(entities=world.entities, facts=many))
    query, params = reads.facts_about(tenant, [KEY], [world.maya.id], TimeFilter(), utcnow(),
                                      5, embeddings=False)
    summary = neo4j_driver.execute_query("PROFILE " + query, records.utc_params(params)).summary
    seeks = [op for op in _operators(summary.profile)
             if op["operatorType"].startswith("NodeIndexSeek")
             and "subjectId, importance" in op["args"].get("Details", "")]
    assert seeks and all(op["rows"] <= 10 for op in seeks), seeks
    assert not [op for op in _operators(summary.profile) if op["operatorType"].startswith(
        ("Sort", "Top")) and op["rows"] > 10]


def _operators(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("children", []):
        yield from _operators(child)


@pytest.mark.neo4j
def test_an_older_database_gets_the_walk_order_on_open(
        store: Neo4jStore, neo4j_driver: neo4j.Driver, neo4j_uri: Any, tenant: str) -> None:
    """A version-5 database (facts without ``negSeq``) is brought to version 6 on open, and
    its walks read in the same order as before."""
    world = World(tenant)
    store.write(tenant, WriteBatch(entities=world.entities, facts=world.facts))
    browse(neo4j_driver, "MATCH (f:Fact) WHERE f.tenant = $t REMOVE f.negSeq", t=tenant)
    assert store.facts_about(tenant, [KEY], [world.maya.id], TimeFilter(), 60) == []
    reopen_from_version(neo4j_driver, neo4j_uri, 5, DIM)
    assert browse(neo4j_driver, "MATCH (f:Fact) WHERE f.tenant = $t AND f.negSeq <> -f.seq"
                                " RETURN count(f) AS n", t=tenant) == [{"n": 0}]
    _assert_same(store, neo4j_driver, tenant, world)
