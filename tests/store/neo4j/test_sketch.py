"""Sketches beside the stored vectors, and the two-step ranking of a large scope that reads
them (graphmem.store.neo4j.sketch, search_reads.vector_scan_scope)."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import neo4j
import numpy as np
import pytest

from graphmem.models import Entity, Episode, Fact, Message
from graphmem.store.base import ChannelPlan, WriteBatch
from graphmem.store.neo4j import Neo4jStore, schema
from graphmem.store.neo4j.store import SIDE_SHARE
from graphmem.store.neo4j.sketch import (MIN_SKETCHED_DIM, SKETCH_DIM, projection, shortlist,
                                         sketch)
from graphmem.temporal import TimeFilter
from tests.neo4j_fixtures import browse, reopen_from_version

#: The session's database holds 384-dimensional vector indexes (the other Neo4j tests' too).
DIM = 384
T0 = datetime(2024, 1, 1, tzinfo=UTC)


def unit(rng: np.random.Generator, near: np.ndarray | None = None,
         noise: float = 1.0) -> np.ndarray:
    v = rng.standard_normal(DIM).astype(np.float32) * noise
    if near is not None:
        v += near
    return v / np.linalg.norm(v)


# -- the projection ----------------------------------------------------------------------
def test_the_projection_never_changes() -> None:
    """Stored sketches were made with it: a different matrix would rank every store wrongly
    without an error. A deliberate change renames it and migrates (see the module)."""
    matrix = projection(DIM)
    assert matrix.shape == (DIM, SKETCH_DIM) and not matrix.flags.writeable
    assert hashlib.sha256(matrix.tobytes()).hexdigest()[:16] == "20f0e43192eebd6d"


def test_the_projection_is_sparse_and_signed_evenly() -> None:
    matrix = projection(DIM)
    plus, minus = float(np.mean(matrix == 1.0)), float(np.mean(matrix == -1.0))
    assert abs(plus - 1 / 6) < 0.01 and abs(minus - 1 / 6) < 0.01
    assert set(np.unique(matrix).tolist()) == {-1.0, 0.0, 1.0}


def test_no_sketch_for_a_missing_short_or_zero_vector() -> None:
    assert sketch(None) is None
    assert sketch([0.5] * MIN_SKETCHED_DIM) is None
    assert sketch([0.0] * DIM) is None
    made = sketch([0.5] * (MIN_SKETCHED_DIM + 1))
    assert made is not None and len(made) == SKETCH_DIM


def test_the_shortlist_grows_with_the_hits_asked_for() -> None:
    assert shortlist(10) == shortlist(40) == 400
    assert shortlist(100) == 800


def test_two_steps_find_what_ranking_every_whole_vector_finds() -> None:
    """2,000 vectors in 50 topics, the shape of a user's facts at 100k facts (the search
    latency bench's store), two of a topic at cosine 0.55 as related sentences' MiniLM
    vectors: a query's 40 best by whole vectors against the 40 best of the sketches'
    shortlist, re-ranked by whole vectors."""
    rng = np.random.default_rng(7)
    topics = [unit(rng) for _ in range(50)]
    scope = np.stack([unit(rng, topics[i % 50] * 20) for i in range(2000)])
    sketches = np.stack([np.asarray(sketch(v.tolist())) for v in scope])
    found_10 = found_40 = 0.0
    queries = 100
    for q in range(queries):
        query = unit(rng, topics[q % 50] * 20)
        exact = np.argsort(-(scope @ query))
        short = np.asarray(sketch(query.tolist()))
        rough = sketches @ short / np.linalg.norm(sketches, axis=1)
        kept = np.argsort(-rough)[:shortlist(40)]
        two_step = kept[np.argsort(-(scope[kept] @ query))]
        found_10 += len(set(exact[:10]) & set(two_step[:10])) / 10
        found_40 += len(set(exact[:40]) & set(two_step[:40])) / 40
    assert found_10 / queries >= 0.99
    assert found_40 / queries >= 0.97


# -- on a real Neo4j ---------------------------------------------------------------------
@pytest.fixture
def tenant() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


@pytest.fixture
def stores(neo4j_uri: Any) -> Iterator[tuple[Neo4jStore, Neo4jStore]]:
    """A store whose shortlist is 20 (scopes of more than 40 nodes ranked in two steps) and
    one that ranks by whole vectors alone."""
    two_step, whole = (Neo4jStore(neo4j_uri.uri, neo4j_uri.user, neo4j_uri.password,
                                  embedding_dim=DIM, sketch_shortlist=n) for n in (20, 0))
    for opened in (two_step, whole):
        opened.open()
    yield two_step, whole
    for opened in (two_step, whole):
        opened.close()


@pytest.fixture
def driver(neo4j_driver: neo4j.Driver) -> neo4j.Driver:
    return neo4j_driver


def _scope(tenant: str, near: int = 10, far: int = 190) -> tuple[list[Fact], np.ndarray]:
    """``near`` facts close to the returned query vector, ``far`` unrelated ones."""
    rng = np.random.default_rng(11)
    query = unit(rng)
    alice = Entity(tenant=tenant, scope_key="user:alice", name="Alice", id=f"ent_{tenant}")
    vectors = [unit(rng, query * (20.0 + 2 * i)) for i in range(near)] + [
        unit(rng) for _ in range(far)]
    facts = [Fact(tenant=tenant, scope_key="user:alice", subject_id=alice.id,
                  subject_name="Alice", predicate="LIKES", object_id=alice.id,
                  object_name=f"thing {i}", text=f"Alice likes thing {i}", valid_from=T0,
                  timeline_key=f"k{i}", embedding=v.tolist()) for i, v in enumerate(vectors)]
    return facts, query


@pytest.mark.neo4j
def test_a_large_scope_ranked_in_two_steps_finds_the_whole_vectors_best(
        stores: tuple[Neo4jStore, Neo4jStore], tenant: str) -> None:
    two_step, whole = stores
    facts, query = _scope(tenant)
    two_step.write(tenant, WriteBatch(facts=facts))
    asked = query.tolist()
    expected = whole.vector_facts(tenant, ["user:alice"], asked, TimeFilter(), 10)
    found = two_step.vector_facts(tenant, ["user:alice"], asked, TimeFilter(), 10)
    assert {h.id for h in expected} == {f.id for f in facts[:10]}  # the near ones
    assert [h.id for h in found] == [h.id for h in expected]
    assert [h.score for h in found] == pytest.approx([h.score for h in expected], abs=1e-6)
    # the search's one call, the ranking in the side transaction beside it
    plan = ChannelPlan(scope_keys=["user:alice"], text="thing", embedding=asked,
                       time=TimeFilter(), limit=10)
    assert two_step.side_share == SIDE_SHARE
    assert [h.id for h in two_step.search_channels(tenant, plan).vector] == [
        h.id for h in expected]


@pytest.mark.neo4j
def test_a_node_without_a_sketch_is_ranked_by_its_whole_vector(
        stores: tuple[Neo4jStore, Neo4jStore], driver: neo4j.Driver, tenant: str) -> None:
    """Written by a graphmem before sketches and not migrated yet (another process still
    writing): it is ranked by its whole vector in both steps, never dropped."""
    two_step, whole = stores
    facts, query = _scope(tenant)
    two_step.write(tenant, WriteBatch(facts=facts))
    browse(driver, "MATCH (f:Fact) WHERE f.tenant = $t AND f.id IN $ids REMOVE f.sketch",
           t=tenant, ids=[f.id for f in facts[:5]])
    asked = query.tolist()
    found = two_step.vector_facts(tenant, ["user:alice"], asked, TimeFilter(), 10)
    expected = whole.vector_facts(tenant, ["user:alice"], asked, TimeFilter(), 10)
    assert [h.id for h in found] == [h.id for h in expected]


@pytest.mark.neo4j
def test_every_vector_written_has_its_sketch_and_loses_it_with_the_vector(
        stores: tuple[Neo4jStore, Neo4jStore], driver: neo4j.Driver, tenant: str) -> None:
    store, _ = stores
    rng = np.random.default_rng(3)
    alice = Entity(tenant=tenant, scope_key="user:alice", name="Alice",
                   embedding=unit(rng).tolist())
    liked = Fact(tenant=tenant, scope_key="user:alice", subject_id=alice.id,
                 subject_name="Alice", predicate="LIKES", object_id=alice.id,
                 object_name="tea", text="Alice likes tea", valid_from=T0, timeline_key="k",
                 embedding=unit(rng).tolist())
    episode = Episode(tenant=tenant, scope_key="user:alice", reference_time=T0,
                      messages=[Message(role="user", content="I like tea")])
    turn = unit(rng).tolist()
    store.write(tenant, WriteBatch(entities=[alice], facts=[liked], episodes=[episode],
                                   turn_vectors={episode.id: [turn]}))
    stored = browse(driver, "MATCH (n) WHERE n.tenant = $t AND (n:Fact OR n:Entity OR n:Message)"
                            " RETURN n.id AS id, n.sketch AS sketch", t=tenant)
    wanted = {alice.id: alice.embedding, liked.id: liked.embedding, f"{episode.id}:0": turn}
    assert {r["id"] for r in stored} == set(wanted)
    for row in stored:
        assert row["sketch"] == pytest.approx(sketch(wanted[row["id"]]), rel=1e-5)
    store.write(tenant, WriteBatch(facts=[liked.model_copy(update={"embedding": None})]))
    assert browse(driver, "MATCH (f:Fact {id: $id}) RETURN f.sketch AS s, f.embedding AS e",
                  id=liked.id) == [{"s": None, "e": None}]


@pytest.mark.neo4j
def test_an_older_database_gets_its_sketches_on_open(
        stores: tuple[Neo4jStore, Neo4jStore], driver: neo4j.Driver, neo4j_uri: Any,
        tenant: str) -> None:
    """A version-4 database (vectors without sketches) is brought to version 5 on open,
    and sketching again changes nothing."""
    store, _ = stores
    facts, _ = _scope(tenant, near=3, far=3)
    store.write(tenant, WriteBatch(facts=facts))
    browse(driver, "MATCH (f:Fact) WHERE f.tenant = $t REMOVE f.sketch", t=tenant)
    reopen_from_version(driver, neo4j_uri, 4, DIM)
    rows = browse(driver, "MATCH (f:Fact) WHERE f.tenant = $t RETURN f.id AS id,"
                          " f.sketch AS sketch", t=tenant)
    by_id = {f.id: f.embedding for f in facts}
    assert len(rows) == len(facts)
    for row in rows:
        assert row["sketch"] == pytest.approx(sketch(by_id[row["id"]]), rel=1e-5)
    schema.sketch_vectors(lambda q, p: browse(driver, q, **p))
    assert browse(driver, "MATCH (f:Fact) WHERE f.tenant = $t RETURN f.id AS id,"
                          " f.sketch AS sketch", t=tenant) == rows
    assert browse(driver, "MATCH (s:GraphmemSchema) RETURN s.version AS v") == [
        {"v": schema.SCHEMA_VERSION}]
