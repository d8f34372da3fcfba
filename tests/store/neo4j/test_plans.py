"""The search's kept plans, made again as the store grows (graphmem.store.neo4j.plans)."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem.models import Entity, Fact
from graphmem.store.base import ChannelPlan, WriteBatch
from graphmem.store.neo4j import Neo4jStore
from graphmem.store.neo4j.plans import Replanner, log_failure, planned_again
from graphmem.store.neo4j.reads import KEEP_PLAN, Query
from graphmem.temporal import TimeFilter

#: The session's database holds 384-dimensional vector indexes (the other Neo4j tests' too).
DIM = 384
SEARCH: Query = (KEEP_PLAN + "MATCH (f:Fact) RETURN f", {"q": 1})
SIDE: Query = (KEEP_PLAN + "MATCH (e:Entity) RETURN e", {"q": 2})


class Counted:
    """A fake database: a fact count the test sets, and the EXPLAINs it was sent."""

    def __init__(self) -> None:
        self.facts = 0
        self.explained: list[Query] = []
        self.now = 0.0

    def replanner(self, **settings: Any) -> Replanner:
        return Replanner(lambda: self.facts, self.explained.append, clock=lambda: self.now,
                         **settings)


def test_the_first_count_records_the_size_the_plans_were_made_at() -> None:
    db = Counted()
    db.facts = 1_000
    planner = db.replanner(plan_from=2_000)
    assert planner.searched([SEARCH])
    assert not planner.replan_if_grown()
    db.facts = 1_999
    assert not planner.replan_if_grown()  # grown, but not twice
    db.facts = 2_000
    assert planner.replan_if_grown()
    assert db.explained == [planned_again(SEARCH)] and planner.replanned == 1
    db.facts = 3_999
    assert not planner.replan_if_grown()  # twice the size planned at last is 4,000
    db.facts = 4_000
    assert planner.replan_if_grown()


def test_a_small_store_keeps_any_plan() -> None:
    db = Counted()
    planner = db.replanner(plan_from=2_000)
    planner.searched([SEARCH])
    planner.replan_if_grown()  # planned on an empty store
    db.facts = 1_500
    assert not planner.replan_if_grown()
    db.facts = 2_000
    assert planner.replan_if_grown()


def test_facts_are_counted_once_a_period_and_every_query_is_planned_again() -> None:
    db = Counted()
    planner = db.replanner(check_every=30.0, plan_from=1)
    assert planner.searched([SEARCH, SIDE])
    planner.replan_if_grown()
    db.now = 29.0
    assert not planner.searched([SEARCH])
    db.now = 30.0
    newer = (SEARCH[0], {"q": 3})
    assert planner.searched([newer])
    db.facts = 10
    assert planner.replan_if_grown()
    assert sorted(db.explained, key=str) == sorted([planned_again(newer), planned_again(SIDE)],
                                                   key=str)  # each text once, latest params


def test_only_a_kept_plan_is_planned_again() -> None:
    assert planned_again(SEARCH)[0].startswith("CYPHER replan=force EXPLAIN\n")
    with pytest.raises(ValueError, match="keeps its plan"):
        planned_again(("MATCH (n) RETURN n", {}))


def test_a_failed_replan_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    failed: Future[bool] = Future()
    failed.set_exception(RuntimeError("the store is closed"))
    done: Future[bool] = Future()
    done.set_result(True)
    with caplog.at_level(logging.WARNING, logger="graphmem.store.neo4j.plans"):
        log_failure(failed)
        log_failure(done)
    assert [r.getMessage() for r in caplog.records] == [
        "planning the search again failed: the store is closed"]


# -- on a real Neo4j ---------------------------------------------------------------------
@pytest.fixture
def store(neo4j_uri: Any) -> Iterator[Neo4jStore]:
    opened = Neo4jStore(neo4j_uri.uri, neo4j_uri.user, neo4j_uri.password, embedding_dim=DIM,
                        replan_check_seconds=0.0)
    opened.open()
    yield opened
    opened.close()


@pytest.mark.neo4j
def test_a_search_plans_its_queries_again_on_the_server_and_finds_the_same(
        store: Neo4jStore) -> None:
    """The forced ``EXPLAIN`` is valid Cypher for both of the search's queries on a real
    server, runs beside the searches, and changes none of their results."""
    tenant = f"t{uuid.uuid4().hex[:12]}"
    when = datetime(2024, 1, 1, tzinfo=UTC)
    alice = Entity(tenant=tenant, scope_key="user:alice", name="Alice", embedding=[1.0] * DIM)
    facts = [Fact(tenant=tenant, scope_key="user:alice", subject_id=alice.id,
                  subject_name="Alice", predicate="LIKES", object_id=alice.id,
                  object_name=f"thing {i}", text=f"Alice likes thing {i}", valid_from=when,
                  timeline_key=f"k{i}", embedding=[float(i + 1)] + [1.0] * (DIM - 1))
             for i in range(5)]
    store.write(tenant, WriteBatch(entities=[alice], facts=facts))
    store.replanner.growth, store.replanner.plan_from = 1.0, 1  # plan again at each check
    plan = ChannelPlan(scope_keys=["user:alice"], text="Alice likes thing",
                       embedding=[1.0] * DIM,
                       time=TimeFilter(), limit=5, turn_limit=5, names=["alice"],
                       seed_names=["alice"], name_text="Alice")
    before = store.search_channels(tenant, plan)  # the first count: the size planned at
    _wait_for(lambda: store.replanner._planned_at is not None)
    after = store.search_channels(tenant, plan)
    _wait_for(lambda: store.replanner.replanned == 1)
    again = store.search_channels(tenant, plan)
    for hits in (after, again):
        assert [s.id for s in hits.bm25] == [s.id for s in before.bm25]
        assert [s.id for s in hits.vector] == [s.id for s in before.vector]
        assert [[f.id for f in hop] for hop in hits.walked] == [
            [f.id for f in hop] for hop in before.walked]
    assert before.bm25 and before.vector and before.walked


def _wait_for(done: Any, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the replan did not run"
        time.sleep(0.05)
