"""The Neo4j store's in-process copy of a scope's fact vectors (graphmem.store.neo4j.vector_mirror).

The copy only changes where the facts' vector channel is ranked, never what it
answers: each test compares a store ranking from its copy with one that ranks on the
server (``mirror_vectors=0``), on the same real Neo4j, after writes by a third store
(another process, as far as the copy can tell). The copy itself is tested without a
server at the end.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from graphmem.models import Entity, Fact
from graphmem.store.base import ChannelPlan, WriteBatch
from graphmem.store.neo4j import Neo4jStore
from graphmem.store.neo4j.vector_mirror import VectorMirror, VectorRow
from graphmem.store.text import scope_token
from graphmem.temporal import TimeFilter

DIM = 384
T0 = datetime(2024, 1, 1, tzinfo=UTC)
SCOPE = "user:alice"


def unit(seed: int, near: list[float] | None = None, noise: float = 1.0) -> list[float]:
    v = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32) * noise
    if near is not None:
        v += np.asarray(near, dtype=np.float32)
    return [float(x) for x in v / np.linalg.norm(v)]


@pytest.fixture
def tenant() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


@pytest.fixture
def stores(neo4j_uri: Any) -> Iterator[tuple[Neo4jStore, Neo4jStore, Neo4jStore]]:
    """(copying, ranking on the server, writing): three connections, as three processes."""
    opened = [Neo4jStore(neo4j_uri.uri, neo4j_uri.user, neo4j_uri.password, embedding_dim=DIM,
                         mirror_vectors=mirror) for mirror in (100_000, 0, 0)]
    for store in opened:
        store.open()
    yield opened[0], opened[1], opened[2]
    for store in opened:
        store.close()


class People:
    """Alice, Tea and facts near or far from one query vector."""

    def __init__(self, tenant: str) -> None:
        self.tenant = tenant
        self.alice, self.tea = (Entity(tenant=tenant, scope_key=SCOPE, name=n)
                                for n in ("Alice", "Tea"))
        self.query = unit(1)

    def fact(self, seed: int, noise: float, **kw: Any) -> Fact:
        fields: dict[str, Any] = {
            "tenant": self.tenant, "scope_key": SCOPE, "subject_id": self.alice.id,
            "subject_name": "Alice", "predicate": "LIKES", "object_id": self.tea.id,
            "object_name": "Tea", "text": f"fact {seed}", "valid_from": T0,
            "embedding": unit(seed, self.query, noise), **kw}
        return Fact(**fields)

    def plan(self, limit: int = 5, time: TimeFilter | None = None) -> ChannelPlan:
        return ChannelPlan(scope_keys=[SCOPE], text="", embedding=self.query,
                           time=time or TimeFilter(), limit=limit, turn_limit=0)


def ranked(store: Neo4jStore, tenant: str, plan: ChannelPlan) -> list[tuple[str, float]]:
    return [(h.id, round(h.score, 5)) for h in store.search_channels(tenant, plan).vector]


def copied(store: Neo4jStore, tenant: str) -> bool:
    assert store._mirror is not None
    return store._mirror.versions([scope_token(tenant, SCOPE)]) is not None


@pytest.mark.neo4j
def test_the_copy_answers_what_the_server_ranks_and_follows_other_writers(
        stores: tuple[Neo4jStore, Neo4jStore, Neo4jStore], tenant: str) -> None:
    copying, server, writer = stores
    people = People(tenant)
    first = [people.fact(10 + i, 0.3 * i) for i in range(12)]
    writer.write(tenant, WriteBatch(entities=[people.alice, people.tea], facts=first))
    plan = people.plan()

    assert ranked(copying, tenant, plan) == ranked(server, tenant, plan)  # no copy yet
    copying.warm_vector_copies(tenant, [SCOPE])
    assert copied(copying, tenant)
    assert ranked(copying, tenant, plan) == ranked(server, tenant, plan)

    # another process writes: a new nearest fact, a re-embedded one, a closed one, a deleted one
    newest = people.fact(99, 0.01)
    moved = first[5].model_copy(update={"embedding": unit(98, people.query, 0.02)})
    closed = first[0].model_copy(update={"valid_until": T0 + timedelta(days=3)})
    writer.write(tenant, WriteBatch(facts=[newest, moved, closed],
                                    delete_fact_ids=[first[1].id]))
    mirrored = ranked(copying, tenant, plan)
    assert mirrored == ranked(server, tenant, plan)
    assert [i for i, _ in mirrored[:2]] == [newest.id, moved.id]
    assert first[1].id not in dict(mirrored) and closed.id not in dict(mirrored)

    # the copy took what it was sent: the next search still agrees, with no new writes
    assert ranked(copying, tenant, plan) == ranked(server, tenant, plan)
    as_of = people.plan(time=TimeFilter(as_of=T0 + timedelta(days=1)))
    assert ranked(copying, tenant, as_of) == ranked(server, tenant, as_of)
    assert closed.id in dict(ranked(copying, tenant, as_of))


@pytest.mark.neo4j
def test_when_the_copys_best_are_out_of_time_the_server_ranks_the_scope(
        stores: tuple[Neo4jStore, Neo4jStore, Neo4jStore], tenant: str) -> None:
    copying, server, writer = stores
    people = People(tenant)
    ended = T0 + timedelta(days=1)
    near_but_over = [people.fact(200 + i, 0.05, valid_until=ended) for i in range(12)]
    far_and_current = [people.fact(300 + i, 2.0) for i in range(3)]
    writer.write(tenant, WriteBatch(entities=[people.alice, people.tea],
                                    facts=near_but_over + far_and_current))
    copying.warm_vector_copies(tenant, [SCOPE])
    plan = people.plan(limit=2)  # the copy proposes 8: all over

    mirrored = ranked(copying, tenant, plan)
    assert len(mirrored) == 2
    assert {i for i, _ in mirrored} <= {f.id for f in far_and_current}
    assert mirrored == ranked(server, tenant, plan)


@pytest.mark.neo4j
def test_each_write_advances_its_scopes_clock_and_stamps_its_facts(
        stores: tuple[Neo4jStore, Neo4jStore, Neo4jStore], tenant: str) -> None:
    _, server, writer = stores
    people = People(tenant)
    a, b = people.fact(1, 1.0), people.fact(2, 1.0)
    writer.write(tenant, WriteBatch(entities=[people.alice, people.tea], facts=[a]))
    writer.write(tenant, WriteBatch(facts=[b]))
    server.write(tenant, WriteBatch(facts=[a.model_copy(update={"text": "fact 1 again"})]))
    rows = server._read(("MATCH (c:VectorClock {tag: $tag}) "
                         "MATCH (f:Fact) WHERE f.id IN $ids "
                         "RETURN c.version AS clock, collect([f.id, f.vclock]) AS stamps",
                         {"tag": scope_token(tenant, SCOPE), "ids": [a.id, b.id]}))
    assert rows[0]["clock"] == 3
    assert dict(rows[0]["stamps"]) == {a.id: 3, b.id: 2}


# -- the copy alone -----------------------------------------------------------------
def test_nearest_ranks_by_cosine_across_scopes_and_skips_removed_vectors() -> None:
    mirror = VectorMirror(dim=3, max_vectors=100)
    mirror.load("s1", 1, [VectorRow("a", 1, [1.0, 0.0, 0.0]), VectorRow("b", 1, [0.0, 2.0, 0.0])])
    mirror.load("s2", 4, [VectorRow("c", 4, [1.0, 1.0, 0.0])])
    found, held = mirror.nearest(["s1", "s2"], [3.0, 0.0, 0.0], 2)
    assert [i for i, _ in found] == ["a", "c"] and held == 3
    assert found[1][1] == pytest.approx(2 ** -0.5)
    assert mirror.advance("s1", 2, [VectorRow("a", 2, None)]) == []
    found, held = mirror.nearest(["s1"], [1.0, 0.0, 0.0], 5)
    assert [i for i, _ in found] == ["b"] and held == 1
    assert mirror.versions(["s1", "s2"]) == [2, 4]
    assert mirror.versions(["s1", "s3"]) is None


def test_a_listed_fact_the_copy_lacks_is_reported_missing() -> None:
    mirror = VectorMirror(dim=2, max_vectors=100)
    mirror.load("s", 5, [VectorRow("a", 5, [1.0, 0.0])])
    listed = [VectorRow("a", 5, None, sent=False), VectorRow("late", 5, None, sent=False),
              VectorRow("bare", 5, None, sent=False, has_vector=False)]
    assert mirror.advance("s", 6, listed) == ["late"]
    assert mirror.versions(["s"]) == [6]


def test_the_least_recently_searched_scopes_are_dropped_first() -> None:
    mirror = VectorMirror(dim=2, max_vectors=4)
    for tag in ("old", "mid"):
        mirror.load(tag, 1, [VectorRow(f"{tag}{i}", 1, [1.0, float(i)]) for i in range(2)])
    assert mirror.versions(["old"]) == [1]  # searched: now the most recent
    mirror.load("new", 1, [VectorRow(f"n{i}", 1, [1.0, float(i)]) for i in range(2)])
    assert mirror.versions(["mid"]) is None
    assert mirror.versions(["old"]) == [1] and mirror.versions(["new"]) == [1]
    assert mirror.held() == 4


def test_a_scope_is_loaded_once_at_a_time() -> None:
    mirror = VectorMirror(dim=2, max_vectors=10)
    assert mirror.to_load(["s", "s", "t"]) == ["s", "t"]
    assert mirror.to_load(["s"]) == []
    mirror.cancel_load("s")
    assert mirror.to_load(["s"]) == ["s"]
