"""What only the Neo4j store promises, on a real server.

The contract both stores share lives in ``test_contract.py``; here: the graph
reads naturally in Neo4j Browser, Fact nodes and typed relationships agree,
indexes exist and are ONLINE, vector search goes through the index, the schema
is versioned, driver errors are translated, and a transient error is retried.
The model <-> property mapping tests at the end need no server.
"""

from __future__ import annotations

import logging
import re
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import neo4j
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.embed.hashed import HashEmbedder
from graphmem.errors import SchemaError, StoreError, StoreUnavailableError
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import (
    Category,
    Cardinality,
    Entity,
    Resolved,
    Episode,
    Evidence,
    Fact,
    FactStatus,
    Message,
    Retraction,
)
from graphmem.store.neo4j import reads, schema, search_reads
from graphmem.store.base import Mention, Reminder, WriteBatch
from graphmem.names import normalize_name
from graphmem.store.neo4j import Neo4jStore
from graphmem.store.neo4j.records import (
    entity_from as _entity,
    entity_row as _entity_row,
    episode_from as _episode,
    episode_row as _episode_row,
    fact_from as _fact,
    fact_row as _fact_row,
    to_datetime as _datetime,
)
from graphmem.store.text import scope_token
from graphmem.temporal import TimeFilter
from tests.ingest.helpers import ALICE, ScriptedExtractor, day, fact, said
from tests.neo4j_fixtures import browse

DIM = 384
T0 = datetime(2024, 1, 1, tzinfo=UTC)




def unit(seed: int, near: list[float] | None = None, noise: float = 1.0) -> list[float]:
    v = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32) * noise
    if near is not None:
        v += np.asarray(near, dtype=np.float32)
    return (v / np.linalg.norm(v)).tolist()


def a_fact(tenant: str, subject: Entity, obj: Entity, predicate: str = "LIKES", **kw: Any) -> Fact:
    fields: dict[str, Any] = {
        "tenant": tenant, "scope_key": subject.scope_key, "subject_id": subject.id,
        "subject_name": subject.name, "predicate": predicate, "object_id": obj.id,
        "object_name": obj.name, "text": f"{subject.name} {predicate.lower()} {obj.name}",
        "valid_from": T0, **kw}
    return Fact(**fields)


# -- fixtures -------------------------------------------------------------------
@pytest.fixture
def tenant() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


def _store(server: Any, **kw: Any) -> Neo4jStore:
    return Neo4jStore(server.uri, server.user, server.password, embedding_dim=DIM, **kw)


@pytest.fixture
def store(neo4j_uri: Any) -> Iterator[Neo4jStore]:
    opened = _store(neo4j_uri)
    opened.open()
    yield opened
    opened.close()


@pytest.fixture
def driver(neo4j_uri: Any) -> Iterator[neo4j.Driver]:
    """A plain driver: what a Neo4j Browser user would run, not graphmem's code."""
    with neo4j.GraphDatabase.driver(neo4j_uri.uri, auth=neo4j_uri.auth) as plain:
        yield plain


# -- the graph reads naturally ---------------------------------------------------
@pytest.mark.neo4j
def test_browser_query_finds_the_current_employer(store: Neo4jStore, driver: neo4j.Driver,
                                                  tenant: str) -> None:
    ingestor = Ingestor(store, ScriptedExtractor({}), HashEmbedder())
    ingestor.add_facts(tenant, [fact("WORKS_AT", "Acme", 1), fact("WORKS_AT", "Globex", 5)])

    current = browse(driver, "MATCH (p:Entity {name: 'Alice'})-[r:WORKS_AT]->(o)"
                             " WHERE p.tenant = $t AND r.validUntil IS NULL RETURN o.name AS name",
                     t=tenant)
    assert current == [{"name": "Globex"}]
    history = browse(driver, "MATCH (p:Entity {name: 'Alice', tenant: $t})-[r:WORKS_AT]->(o)"
                             " RETURN o.name AS name, r.validFrom AS since, r.validUntil AS until"
                             " ORDER BY r.validFrom", t=tenant)
    assert [h["name"] for h in history] == ["Acme", "Globex"]
    assert history[0]["until"].to_native() == day(5) and history[1]["until"] is None
    in_march = browse(driver, "MATCH (:Entity {name: 'Alice', tenant: $t})-[r:WORKS_AT]->(o)"
                              " WHERE r.validFrom <= datetime('2024-03-01T00:00:00Z')"
                              " AND (r.validUntil IS NULL OR r.validUntil > datetime('2024-03-01'))"
                              " RETURN o.name AS name", t=tenant)
    assert in_march == [{"name": "Acme"}]
    chain = browse(driver, "MATCH (new:Fact {tenant: $t})-[:SUPERSEDES]->(old:Fact)"
                           " RETURN new.objectName AS new, old.objectName AS old", t=tenant)
    assert chain == [{"new": "Globex", "old": "Acme"}]
    ends = browse(driver, "MATCH (s:Entity)<-[:SUBJECT]-(f:Fact {tenant: $t})-[:OBJECT]->(o:Entity)"
                          " RETURN s.name AS s, f.predicate AS p, o.name AS o ORDER BY o", t=tenant)
    assert ends == [{"s": "Alice", "p": "WORKS_AT", "o": "Acme"},
                    {"s": "Alice", "p": "WORKS_AT", "o": "Globex"}]
    assert_relationships_match_facts(driver, tenant)


def assert_relationships_match_facts(driver: neo4j.Driver, tenant: str) -> None:
    """Every non-marker Fact has exactly one typed relationship, with the same values."""
    rels = browse(driver, "MATCH (s:Entity {tenant: $t})-[r]->(o:Entity) WHERE r.factId IS NOT NULL"
                          " RETURN r.factId AS id, type(r) AS type, s.id AS s, o.id AS o,"
                          " r.validFrom AS vf, r.validUntil AS vu, r.status AS status,"
                          " r.text AS text, r.category AS category", t=tenant)
    facts = browse(driver, "MATCH (f:Fact {tenant: $t}) WHERE f.status <> 'retraction'"
                           " RETURN f.id AS id, f.predicate AS type, f.subjectId AS s,"
                           " f.objectId AS o, f.validFrom AS vf, f.validUntil AS vu,"
                           " f.status AS status, f.text AS text, f.category AS category",
                   t=tenant)
    assert sorted(rels, key=lambda r: r["id"]) == sorted(facts, key=lambda f: f["id"])


@pytest.mark.neo4j
def test_episodes_messages_and_provenance_read_naturally(store: Neo4jStore, driver: neo4j.Driver,
                                                        tenant: str) -> None:
    extractor = ScriptedExtractor({"I work at Acme": [said("WORKS_AT", "Acme")],
                                   "I quit Acme": [said("WORKS_AT", "Acme", action="retract")]})
    ingestor = Ingestor(store, extractor, HashEmbedder())
    first = ingestor.ingest(tenant, EpisodeInput(scope=ALICE, reference_time=day(2), messages=[
        Message(id="m1", content="I work at Acme", speaker="Alice")]))
    second = ingestor.ingest(tenant, EpisodeInput(scope=ALICE, reference_time=day(6), messages=[
        Message(id="m2", content="I quit Acme", speaker="Alice")]))

    turns = browse(driver, "MATCH (e:Episode {tenant: $t})-[:HAS_MESSAGE]->(m:Message)"
                           " RETURN e.id AS episode, m.clientId AS id, m.speaker AS speaker,"
                           " m.content AS content ORDER BY m.timestamp", t=tenant)
    assert [(t["episode"], t["id"], t["content"]) for t in turns] == [
        (first.episode_id, "m1", "I work at Acme"), (second.episode_id, "m2", "I quit Acme")]
    asserted = browse(driver, "MATCH (e:Episode {id: $e})-[:ASSERTS]->(f:Fact)"
                              " RETURN f.predicate AS p, f.objectName AS o", e=first.episode_id)
    assert asserted == [{"p": "WORKS_AT", "o": "Acme"}]
    mentioned = browse(driver, "MATCH (e:Episode {id: $e})-[:MENTIONS]->(n:Entity)"
                               " RETURN n.name AS name ORDER BY name", e=first.episode_id)
    assert [m["name"] for m in mentioned] == ["Acme", "Alice"]
    retracted = browse(driver, "MATCH (e:Episode {id: $e})-[:RETRACTS]->(f:Fact)"
                               " RETURN f.objectName AS o, f.validUntil AS until",
                       e=second.episode_id)
    assert [(r["o"], r["until"].to_native()) for r in retracted] == [("Acme", day(6))]
    # the retraction marker is a Fact node but never a WORKS_AT relationship
    rels = browse(driver, "MATCH (:Entity {tenant: $t})-[r:WORKS_AT]->() RETURN r.validUntil AS u",
                  t=tenant)
    assert [r["u"].to_native() for r in rels] == [day(6)]
    assert_relationships_match_facts(driver, tenant)
    episode = store.get_episode(tenant, first.episode_id)
    assert episode is not None and episode.messages[0].id == "m1"


@pytest.mark.neo4j
def test_times_are_stored_as_datetimes_and_read_back_to_the_microsecond(
        store: Neo4jStore, driver: neo4j.Driver, tenant: str) -> None:
    """Writes send times as text and reads take them as integers (the driver's DateTime
    conversion is slow); Browser users must still find DateTimes they can compare."""
    old = datetime(1961, 4, 12, 6, 7, 8, 123456, tzinfo=UTC)  # before 1970: negative epoch
    late = datetime(2999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    alice, tea = (Entity(tenant=tenant, scope_key="user:alice", name=n, created_at=old)
                  for n in ("Alice", "Tea"))
    likes = a_fact(tenant, alice, tea).model_copy(update={
        "valid_from": old, "valid_until": late, "recorded_at": old + timedelta(microseconds=1),
        "last_accessed": late, "timeline_key": "user:alice|likes"})
    episode = Episode(tenant=tenant, scope_key="user:alice", reference_time=old,
                      recorded_at=late, messages=[Message(id="m1", content="I like tea",
                                                          timestamp=old)])
    store.write(tenant, WriteBatch(episodes=[episode], entities=[alice, tea], facts=[likes]))

    assert store.get_facts(tenant, [likes.id]) == [likes]
    assert store.facts_in_timelines(tenant, [likes.timeline_key]) == [likes]
    assert store.get_entities(tenant, [alice.id])[0].created_at == old
    assert store.get_episode(tenant, episode.id) == episode
    stored = browse(driver, "MATCH (f:Fact {id: $id}) RETURN valueType(f.validFrom) AS type,"
                            " f.validFrom < datetime('1970-01-01T00:00Z') AS before1970,"
                            " f.validUntil = datetime($late) AS late", id=likes.id, late=late)
    assert stored == [{"type": "ZONED DATETIME NOT NULL", "before1970": True, "late": True}]
    turns = browse(driver, "MATCH (m:Message {episodeId: $e}) RETURN m.timestamp AS at,"
                           " m.recordedAt AS recorded", e=episode.id)
    assert [(t["at"].to_native(), t["recorded"].to_native()) for t in turns] == [(old, late)]

    closed = likes.model_copy(update={"valid_until": None, "last_accessed": None})
    store.write(tenant, WriteBatch(facts=[closed]))  # a time set to nothing is removed
    keys = set(browse(driver, "MATCH (f:Fact {id: $id}) RETURN keys(f) AS keys",
                      id=likes.id)[0]["keys"])
    assert "validFrom" in keys and not keys & {"validUntil", "lastAccessed"}
    assert store.get_facts(tenant, [likes.id]) == [closed]


@pytest.mark.neo4j
def test_fact_and_relationship_move_and_vanish_together(store: Neo4jStore, driver: neo4j.Driver,
                                                        tenant: str) -> None:
    alice, tea, coffee = (Entity(tenant=tenant, scope_key="user:alice", name=n)
                          for n in ("Alice", "Tea", "Coffee"))
    likes = a_fact(tenant, alice, tea)
    store.write(tenant, WriteBatch(entities=[alice, tea, coffee], facts=[likes]))
    assert_relationships_match_facts(driver, tenant)

    moved = likes.model_copy(update={"predicate": "DISLIKES", "object_id": coffee.id,
                                     "object_name": "Coffee", "valid_until": day(3)})
    store.write(tenant, WriteBatch(facts=[moved]))
    rels = browse(driver, "MATCH (:Entity {tenant: $t})-[r]->(o:Entity) WHERE r.factId IS NOT NULL"
                          " RETURN type(r) AS type, o.name AS o", t=tenant)
    assert rels == [{"type": "DISLIKES", "o": "Coffee"}]
    assert_relationships_match_facts(driver, tenant)

    store.write(tenant, WriteBatch(facts=[moved.model_copy(
        update={"status": FactStatus.RETRACTION})]))
    assert browse(driver, "MATCH (:Entity {tenant: $t})-[r]->() WHERE r.factId IS NOT NULL"
                          " RETURN r", t=tenant) == []

    store.write(tenant, WriteBatch(facts=[moved]))
    store.write(tenant, WriteBatch(delete_fact_ids=[moved.id]))
    assert browse(driver, "MATCH (n {tenant: $t})-[r]-() WHERE r.factId IS NOT NULL OR n:Fact"
                          " RETURN r", t=tenant) == []


@pytest.mark.neo4j
def test_a_model_of_another_tenant_is_refused_and_nothing_is_written(
        store: Neo4jStore, tenant: str) -> None:
    alice = Entity(tenant=tenant, scope_key="user:alice", name="Alice")
    intruder = Entity(tenant="someone-else", scope_key="user:alice", name="Mallory")
    with pytest.raises(StoreError, match="another tenant"):
        store.write(tenant, WriteBatch(entities=[alice, intruder]))
    assert store.get_entities(tenant, [alice.id]) == []


# -- indexes and search ------------------------------------------------------------
@pytest.mark.neo4j
def test_every_index_exists_and_is_online(store: Neo4jStore, driver: neo4j.Driver) -> None:
    indexes = {r["name"]: r for r in browse(
        driver, "SHOW INDEXES YIELD name, type, state, labelsOrTypes, properties, options")}
    for name in schema.schema_statements(DIM):
        if name == "graphmem_schema_key":
            continue
        assert indexes[name]["state"] == "ONLINE", name
    assert indexes["fact_text"]["type"] == "FULLTEXT"
    assert indexes["fact_text"]["properties"] == ["text", "scopeTag"]
    assert indexes["entity_text"]["properties"] == ["name", "aliasText", "summary", "scopeTag"]
    assert indexes["message_text"]["properties"] == ["content", "speaker", "context",
                                                     "scopeTag"]
    for name in ("fact_text", "entity_text", "message_text"):
        assert indexes[name]["options"]["indexConfig"]["fulltext.analyzer"] == "english"
    assert indexes["entity_names"]["options"]["indexConfig"]["fulltext.analyzer"] == "keyword"
    # each vector index holds large scopes' nodes only (vector_scopes)
    for name, label in (("fact_embedding", "IndexedFact"), ("entity_embedding", "IndexedEntity"),
                        ("message_embedding", "IndexedMessage")):
        config = indexes[name]["options"]["indexConfig"]
        assert indexes[name]["type"] == "VECTOR" and indexes[name]["labelsOrTypes"] == [label]
        assert config["vector.dimensions"] == DIM
        assert config["vector.similarity_function"].lower() == "cosine"
    constraints = {r["name"] for r in browse(driver, "SHOW CONSTRAINTS YIELD name")}
    assert {"episode_id", "message_id", "entity_id", "fact_id"} <= constraints


def _operators(plan: Any) -> list[tuple[str, str]]:
    found = [(plan["operatorType"].split("@")[0], str(plan["args"].get("Details", "")))]
    for child in plan.get("children", []):
        found += _operators(child)
    return found


@pytest.mark.neo4j
def test_vector_search_goes_through_the_index_and_scores_cosine(
        store: Neo4jStore, driver: neo4j.Driver, tenant: str) -> None:
    alice, tea = (Entity(tenant=tenant, scope_key="user:alice", name=n) for n in ("Alice", "Tea"))
    query_vector = unit(1)
    facts = [a_fact(tenant, alice, tea, text=f"fact {i}", embedding=unit(100 + i, query_vector,
                                                                          noise=0.1 * i))
             for i in range(8)]
    store.write(tenant, WriteBatch(entities=[alice, tea], facts=facts))

    hits = store.vector_facts(tenant, ["user:alice"], query_vector, TimeFilter(), 5)
    expected = sorted(((float(np.dot(f.embedding or [], query_vector)), f.id) for f in facts),
                      reverse=True)[:5]
    assert [h.id for h in hits] == [i for _, i in expected]
    assert [h.score for h in hits] == pytest.approx([s for s, _ in expected], abs=1e-5)

    text, params = search_reads.vector_search(reads.FACT_VECTOR_INDEX, tenant, ["user:alice"],
                                              query_vector, 50, TimeFilter(),
                                              datetime.now(UTC))
    _, summary, _ = driver.execute_query("EXPLAIN " + text, params)
    operators = _operators(summary.plan)
    assert any(op == "ProcedureCall" and "db.index.vector.queryNodes" in details
               for op, details in operators)
    assert not any("Scan" in op for op, _ in operators), operators


def browse_clocks(store: Neo4jStore, tenants: list[str]) -> list[dict[str, Any]]:
    """Each tenant's scope clock for facts: whether the vector index holds the scope."""
    return [dict(r) for r in store._read((
        "UNWIND $tenants AS t MATCH (c:ScopeClock {tenant: t}) RETURN c.indexedFact AS indexed",
        {"tenants": tenants}))]


@pytest.fixture
def index_only_store(neo4j_uri: Any) -> Iterator[Neo4jStore]:
    """A store that treats every scope as large, so vector search always uses the index."""
    opened = _store(neo4j_uri, exact_scan_limit=1)
    opened.open()
    yield opened
    opened.close()


@pytest.mark.neo4j
@pytest.mark.parametrize("exact_scan_limit", [1, 5000])
def test_small_scopes_are_ranked_exactly_and_large_ones_by_the_index(
        neo4j_uri: Any, tenant: str, exact_scan_limit: int) -> None:
    store = _store(neo4j_uri, exact_scan_limit=exact_scan_limit)
    store.open()
    try:
        alice, tea = (Entity(tenant=tenant, scope_key="user:alice", name=n)
                      for n in ("Alice", "Tea"))
        query_vector = unit(21)
        facts = [a_fact(tenant, alice, tea, text=f"fact {i}",
                        embedding=unit(200 + i, query_vector, noise=0.2 * i)) for i in range(6)]
        store.write(tenant, WriteBatch(entities=[alice, tea], facts=facts))
        assert store.indexing.wait()
        assert [r["indexed"] for r in browse_clocks(store, [tenant])] == [
            True if exact_scan_limit == 1 else None]
        hits = store.vector_facts(tenant, ["user:alice"], query_vector, TimeFilter(), 3)
        expected = sorted(((float(np.dot(f.embedding or [], query_vector)), f.id) for f in facts),
                          reverse=True)[:3]
        assert [h.id for h in hits] == [i for _, i in expected]
        assert [h.score for h in hits] == pytest.approx([sc for sc, _ in expected], abs=1e-5)
    finally:
        store.close()


@pytest.mark.neo4j
def test_vector_search_widens_past_nearer_facts_of_other_tenants(index_only_store: Neo4jStore,
                                                                 tenant: str) -> None:
    store = index_only_store
    query_vector = unit(7)
    crowd = f"{tenant}-crowd"
    bob, tea = (Entity(tenant=crowd, scope_key="user:bob", name=n) for n in ("Bob", "Tea"))
    store.write(crowd, WriteBatch(entities=[bob, tea], facts=[
        a_fact(crowd, bob, tea, text=f"crowd {i}", embedding=unit(1000 + i, query_vector, 0.05))
        for i in range(250)]))
    alice, cake = (Entity(tenant=tenant, scope_key="user:alice", name=n) for n in ("Alice", "Cake"))
    mine = a_fact(tenant, alice, cake, embedding=unit(3, query_vector, 0.5))
    store.write(tenant, WriteBatch(entities=[alice, cake], facts=[mine]))
    assert store.indexing.wait()  # both scopes in the index (labelled beside the writes)
    assert [r["indexed"] for r in browse_clocks(store, [crowd, tenant])] == [True, True]

    hits = store.vector_facts(tenant, ["user:alice"], query_vector, TimeFilter(), 3)
    assert [h.id for h in hits] == [mine.id]
    store.delete_scope(crowd, "user:bob")


@pytest.mark.neo4j
def test_turn_vectors_are_searchable_and_kept_on_rewrite(store: Neo4jStore, tenant: str) -> None:
    near = unit(11)
    episode = Episode(tenant=tenant, scope_key="user:alice", reference_time=T0, messages=[
        Message(id="m1", speaker="Alice", content="I adopted a cat"),
        Message(id="m2", speaker="Bob", content="Nice weather")])
    vectors = [unit(12, near, 0.3), unit(13)]
    store.write(tenant, WriteBatch(episodes=[episode], turn_vectors={episode.id: vectors}))
    store.write(tenant, WriteBatch(episodes=[episode]))  # no vectors this time: keep the old ones

    hits = store.vector_turns(tenant, ["user:alice"], near, 1)
    assert [(h.message_id, h.message_index, h.speaker, h.content) for h in hits] == [
        ("m1", 0, "Alice", "I adopted a cat")]
    assert hits[0].score == pytest.approx(float(np.dot(vectors[0], near)), abs=1e-5)
    assert store.vector_turns(tenant, ["user:bob"], near, 1) == []
    by_speaker = store.fulltext_turns(tenant, ["user:alice"], "what did Bob say", 5)
    assert [h.message_id for h in by_speaker] == ["m2", "m1"]  # Bob's turn, then the one beside it


@pytest.mark.neo4j
@pytest.mark.parametrize("query", ['C++', '"unbalanced', "AND OR NOT", "title:x*", "\\",
                                   "(((", "a~2 b^3 {x TO y]", "-", "&& ||"])
def test_fulltext_takes_any_user_text(store: Neo4jStore, tenant: str, query: str) -> None:
    alice, cpp = (Entity(tenant=tenant, scope_key="user:alice", name=n) for n in ("Alice", "C++"))
    liked = a_fact(tenant, alice, cpp, text="Alice likes C++ (and other unbalanced things")
    store.write(tenant, WriteBatch(entities=[alice, cpp], facts=[liked]))
    store.fulltext_facts(tenant, ["user:alice"], query, TimeFilter(), 5)
    store.fulltext_entities(tenant, ["user:alice"], query, 5)
    store.fulltext_turns(tenant, ["user:alice"], query, 5)
    found = store.fulltext_facts(tenant, ["user:alice"], "c++ " + query, TimeFilter(), 5)
    assert [h.id for h in found] == [liked.id]


@pytest.mark.neo4j
def test_find_entities_is_an_exact_lookup_within_the_tenant(store: Neo4jStore,
                                                            tenant: str) -> None:
    odd = Entity(tenant=tenant, scope_key="user:alice", name='The "Quoted" Co.',
                 aliases=["back\\slash inc", "ACME corp"])
    elsewhere = Entity(tenant=f"{tenant}-other", scope_key="user:alice", name="ACME Corp")
    store.write(tenant, WriteBatch(entities=[odd]))
    store.write(elsewhere.tenant, WriteBatch(entities=[elsewhere]))
    names = [normalize_name(n) for n in [odd.name, *odd.aliases]]
    assert names == ['quoted" inc', "back\\slash inc", "acme inc"]
    for name in names:
        assert [e.id for e in store.find_entities(tenant, ["user:alice"], [name])] == [odd.id]
    assert store.find_entities(tenant, ["user:alice"], ["acme"]) == []
    assert store.find_entities(tenant, ["group:x"], ["acme inc"]) == []


@pytest.mark.neo4j
def test_delete_scope_leaves_nothing_in_any_index(index_only_store: Neo4jStore,
                                                  driver: neo4j.Driver, tenant: str) -> None:
    store = index_only_store  # every scope large: its vectors are in the vector indexes too
    extractor = ScriptedExtractor({"I work at Acme": [said("WORKS_AT", "Acme")]})
    ingestor = Ingestor(store, extractor, HashEmbedder())
    ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=[Message(content="I work at Acme")]))
    bob = fact("LIKES", "Acme", 1, subject="Bob", scope=ALICE.model_copy(update={"user_id": "bob"}))
    ingestor.add_facts(tenant, [bob])
    assert store.indexing.wait()
    vector = HashEmbedder().embed(["Alice works_at Acme."])[0].tolist()

    removed = store.delete_scope(tenant, ALICE.key)
    assert removed == 1 + 2 + 1  # the episode, Alice and Acme, one fact
    left = browse(driver, "MATCH (n {tenant: $t}) RETURN DISTINCT n.scopeKey AS scope", t=tenant)
    assert left == [{"scope": "user:bob"}]
    for index, text in (("fact_text", "acme"), ("message_text", "acme"), ("entity_text", "alice"),
                        ("entity_names", f'+tenant:"{tenant}" +names:"alice"')):
        hits = browse(driver, "CALL db.index.fulltext.queryNodes($i, $q) YIELD node"
                              " WHERE node.tenant = $t RETURN node.scopeKey AS scope",
                      i=index, q=text, t=tenant)
        assert all(h["scope"] == "user:bob" for h in hits), index
    near = browse(driver, "CALL db.index.vector.queryNodes('fact_embedding', 1000, $v)"
                          " YIELD node WHERE node.tenant = $t RETURN node.scopeKey AS scope",
                  v=vector, t=tenant)
    assert near and all(n["scope"] == "user:bob" for n in near)


# -- schema ----------------------------------------------------------------------
def _version(driver: neo4j.Driver) -> list[Any]:
    return [r["v"] for r in browse(driver, "MATCH (s:GraphmemSchema) RETURN s.version AS v")]


def _set_version(driver: neo4j.Driver, version: int) -> None:
    browse(driver, "MATCH (s:GraphmemSchema {key: 'graphmem'}) SET s.version = $v", v=version)


@pytest.mark.neo4j
def test_schema_is_versioned_and_opening_again_changes_nothing(
        store: Neo4jStore, driver: neo4j.Driver, neo4j_uri: Any) -> None:
    listing = "SHOW INDEXES YIELD name, state RETURN name, state ORDER BY name"
    before = browse(driver, listing)
    again = _store(neo4j_uri)
    again.open()
    again.close()
    assert browse(driver, listing) == before
    assert _version(driver) == [schema.SCHEMA_VERSION]


@pytest.mark.neo4j
def test_opening_an_empty_database_writes_nothing_but_the_schema_version(
        clean_neo4j: neo4j.Driver, neo4j_uri: Any) -> None:
    """Opening runs the batch write's query with an empty batch, to have the server plan and
    compile it before the first real write: it must write nothing."""
    opened = _store(neo4j_uri)
    opened.open()
    opened.close()
    nodes = browse(clean_neo4j, "MATCH (n) RETURN labels(n) AS labels")
    assert nodes == [{"labels": ["GraphmemSchema"]}]
    assert browse(clean_neo4j, "MATCH ()-[r]->() RETURN count(r) AS n") == [{"n": 0}]


@pytest.mark.neo4j
def test_older_schema_is_migrated_and_missing_indexes_come_back(
        store: Neo4jStore, driver: neo4j.Driver, neo4j_uri: Any) -> None:
    _set_version(driver, 0)
    browse(driver, "DROP INDEX fact_text IF EXISTS")
    again = _store(neo4j_uri)
    again.open()
    again.close()
    assert _version(driver) == [schema.SCHEMA_VERSION]
    state = browse(driver, "SHOW INDEXES YIELD name, state WHERE name = 'fact_text' RETURN state")
    assert state == [{"state": "ONLINE"}]


@pytest.mark.neo4j
def test_scope_tags_are_migrated(store: Neo4jStore, driver: neo4j.Driver, neo4j_uri: Any,
                                 tenant: str) -> None:
    """A version-3 database (nodes without a scope token, full-text indexes without it) is
    brought to version 4 on open: every searchable node tagged, the indexes rebuilt, and
    full-text search finds what was written before; tagging again changes nothing."""
    ingestor = Ingestor(store, ScriptedExtractor({}), HashEmbedder())
    ingestor.add_facts(tenant, [fact("LIKES", "Oolong", 1)])
    for label in ("Fact", "Entity", "Message"):
        browse(driver, f"MATCH (n:{label}) WHERE n.tenant = $t REMOVE n.scopeTag", t=tenant)
    browse(driver, "DROP INDEX fact_text IF EXISTS")
    browse(driver, "CREATE FULLTEXT INDEX fact_text FOR (n:Fact) ON EACH [n.text]"
                   " OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}")
    _set_version(driver, 3)
    try:
        again = _store(neo4j_uri)
        again.open()
        try:
            assert _version(driver) == [schema.SCHEMA_VERSION]
            tags = browse(driver, "MATCH (n:Fact) WHERE n.tenant = $t"
                                  " RETURN DISTINCT n.scopeTag AS tag, n.scopeKey AS key", t=tenant)
            assert tags == [{"tag": scope_token(tenant, tags[0]["key"]), "key": tags[0]["key"]}]
            fields = browse(driver, "SHOW INDEXES YIELD name, properties WHERE name = 'fact_text'"
                                    " RETURN properties")
            assert fields == [{"properties": ["text", "scopeTag"]}]
            found = again.fulltext_facts(tenant, [tags[0]["key"]], "oolong", TimeFilter(), 5)
            assert len(found) == 1
            untagged = ("MATCH (n) WHERE n.tenant = $t AND (n:Fact OR n:Entity)"
                        " AND n.scopeTag IS NULL RETURN count(n) AS n")
            assert browse(driver, untagged, t=tenant) == [{"n": 0}]
            schema.tag_scopes(lambda q, p: browse(driver, q, **p))
            assert browse(driver, "MATCH (n:Fact) WHERE n.tenant = $t RETURN DISTINCT"
                                  " n.scopeTag AS tag, n.scopeKey AS key", t=tenant) == tags
        finally:
            again.close()
    finally:
        _set_version(driver, schema.SCHEMA_VERSION)


@pytest.mark.neo4j
def test_processes_opening_at_once_both_bring_the_schema_up(
        store: Neo4jStore, driver: neo4j.Driver, neo4j_uri: Any) -> None:
    """``graphmem serve --workers N`` opens N stores at once: when several create the same
    missing index, the ones that lose the race go on (Neo4j refuses their CREATE ... IF NOT
    EXISTS as an equivalent rule that already exists)."""
    for _ in range(3):
        browse(driver, "DROP INDEX fact_valid_from IF EXISTS")
        browse(driver, "DROP CONSTRAINT timeline_key IF EXISTS")
        start = threading.Barrier(4)
        failures: list[BaseException] = []

        def open_one() -> None:
            opened = _store(neo4j_uri)
            start.wait()
            try:
                opened.open()
            except BaseException as err:  # noqa: BLE001 - reported below
                failures.append(err)
            finally:
                opened.close()

        threads = [threading.Thread(target=open_one) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
    names = {r["name"] for r in browse(driver, "SHOW INDEXES YIELD name RETURN name")}
    assert {"fact_valid_from", "timeline_key"} <= names


@pytest.mark.neo4j
def test_version_1_full_text_indexes_are_rebuilt_with_stemming(
        store: Neo4jStore, driver: neo4j.Driver, neo4j_uri: Any, tenant: str) -> None:
    alice, tea = (Entity(tenant=tenant, scope_key="user:alice", name=n) for n in ("Alice", "Tea"))
    liked = a_fact(tenant, alice, tea, text="Alice was running marathons")
    store.write(tenant, WriteBatch(entities=[alice, tea], facts=[liked]))
    browse(driver, "DROP INDEX fact_text IF EXISTS")
    browse(driver, "CREATE FULLTEXT INDEX fact_text FOR (n:Fact) ON EACH [n.text]"
                   " OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}}")
    _set_version(driver, 1)
    again = _store(neo4j_uri)
    again.open()
    try:
        assert _version(driver) == [schema.SCHEMA_VERSION]
        config = browse(driver, "SHOW INDEXES YIELD name, options WHERE name = 'fact_text'"
                                " RETURN options.indexConfig.`fulltext.analyzer` AS analyzer")
        assert config == [{"analyzer": "english"}]
        found = again.fulltext_facts(tenant, ["user:alice"], "runs marathon", TimeFilter(), 5)
        assert [h.id for h in found] == [liked.id]  # stemmed, and the old data is in the index
    finally:
        again.close()


@pytest.mark.neo4j
def test_version_2_turns_get_their_neighbours_as_context(
        store: Neo4jStore, driver: neo4j.Driver, neo4j_uri: Any, tenant: str) -> None:
    episode = Episode(tenant=tenant, scope_key="user:alice", reference_time=datetime(2024, 1, 1,
                                                                                      tzinfo=UTC),
                      messages=[Message(id="q", speaker="Bob", content="Do you like jazz?"),
                                Message(id="a", speaker="Alice", content="Yes, a lot."),
                                Message(id="z", speaker="Bob", content="Good.")])
    store.write(tenant, WriteBatch(episodes=[episode]))
    browse(driver, "MATCH (m:Message {tenant: $t}) REMOVE m.context", t=tenant)
    _set_version(driver, 2)
    again = _store(neo4j_uri)
    again.open()
    try:
        contexts = browse(driver, "MATCH (m:Message {tenant: $t}) RETURN m.context AS c"
                                  " ORDER BY m.index", t=tenant)
        assert [r["c"] for r in contexts] == [
            "Alice: Yes, a lot.", "Bob: Do you like jazz? | Bob: Good.",
            "Bob: Do you like jazz? | Alice: Yes, a lot."]  # as models.turn_context_texts
        found = again.fulltext_turns(tenant, ["user:alice"], "jazz", 5)
        assert [h.message_id for h in found] == ["q", "a", "z"]
    finally:
        again.close()


@pytest.mark.neo4j
def test_newer_schema_is_refused(store: Neo4jStore, driver: neo4j.Driver,
                                 neo4j_uri: Any) -> None:
    _set_version(driver, schema.SCHEMA_VERSION + 1)
    newer = _store(neo4j_uri)
    try:
        with pytest.raises(SchemaError, match="newer than this graphmem"):
            newer.open()
    finally:
        _set_version(driver, schema.SCHEMA_VERSION)
    with pytest.raises(StoreUnavailableError, match="not open"):
        newer.get_episode("t", "e")


@pytest.mark.neo4j
def test_vector_index_of_another_dimension_is_refused(store: Neo4jStore, neo4j_uri: Any) -> None:
    other = Neo4jStore(neo4j_uri.uri, neo4j_uri.user, neo4j_uri.password, embedding_dim=8)
    with pytest.raises(SchemaError, match=f"holds {DIM}-dimensional embeddings"):
        other.open()


# -- connection and errors ---------------------------------------------------------
@pytest.mark.neo4j
def test_unreachable_server_is_unavailable_and_the_password_is_never_shown() -> None:
    unreachable = Neo4jStore("bolt://127.0.0.1:1", "neo4j", "s3cret-pw", connection_timeout=2)
    with pytest.raises(StoreUnavailableError, match="bolt://127.0.0.1:1") as caught:
        unreachable.open()
    assert "s3cret-pw" not in str(caught.value)
    assert isinstance(caught.value.__cause__, neo4j.exceptions.DriverError)


@pytest.mark.neo4j
def test_a_routing_uri_reads_its_own_writes(neo4j_uri: Any, tenant: str) -> None:
    """``neo4j://`` asks the server for a routing table (a cluster's readers serve reads);
    a single server answers it too, and a read after a write sees it."""
    routed = Neo4jStore(neo4j_uri.uri.replace("bolt://", "neo4j://"), neo4j_uri.user,
                        neo4j_uri.password, embedding_dim=DIM)
    routed.open()
    try:
        episode = Episode(tenant=tenant, scope_key="user:routed", content="hello",
                          reference_time=datetime(2024, 1, 1, tzinfo=UTC))
        routed.write(tenant, WriteBatch(episodes=[episode]))
        assert routed.get_episode(tenant, episode.id) == episode
    finally:
        routed.close()


@pytest.mark.neo4j
def test_driver_errors_are_translated_and_chained(store: Neo4jStore) -> None:
    with pytest.raises(StoreError, match="Neo4j read failed") as caught:
        store._read(("RETURN $x +", {"x": 1}))
    assert not isinstance(caught.value, StoreUnavailableError)
    assert isinstance(caught.value.__cause__, neo4j.exceptions.Neo4jError)
    store.close()
    with pytest.raises(StoreUnavailableError, match="not open"):
        store.get_facts("t", ["f"])


@pytest.mark.neo4j
def test_a_deadlocked_write_is_retried_as_a_whole(store: Neo4jStore, driver: neo4j.Driver,
                                                  tenant: str,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """A real deadlock in which graphmem's transaction is the victim, then retried.

    graphmem's batch writes facts first, middle, last in that order. A blocker
    holds middle, so graphmem stops there holding first; another client holding
    last then waits for first. When the blocker lets go, graphmem asks for last
    and closes the cycle. Neo4j aborts the side holding fewer locks, so the other
    client first takes many: graphmem gets a transient DeadlockDetected, the other
    client commits, and the driver runs graphmem's transaction again.
    """
    alice, tea = (Entity(tenant=tenant, scope_key="user:alice", name=n) for n in ("Alice", "Tea"))
    first, middle, last = (a_fact(tenant, alice, tea, text=t) for t in ("first", "middle", "last"))
    store.write(tenant, WriteBatch(entities=[alice, tea], facts=[first, middle, last]))
    batch = WriteBatch(facts=[f.model_copy(update={"text": f"{f.text}, by graphmem"})
                              for f in (first, middle, last)])
    lock = "MATCH (f:Fact {id: $id}) SET f.lockedBy = coalesce(f.lockedBy, '') + $who"
    with driver.session() as other, driver.session() as blocker:
        other_tx, blocker_tx = other.begin_transaction(), blocker.begin_transaction()
        other_tx.run(lock, id=last.id, who="other").consume()
        other_tx.run("UNWIND range(1, 300) AS i CREATE (:DeadlockBallast {tenant: $t})",
                     t=tenant).consume()
        blocker_tx.run(lock, id=middle.id, who="blocker").consume()
        failures: list[BaseException] = []

        def in_thread(work: Any) -> threading.Thread:
            def run() -> None:
                try:
                    work()
                except BaseException as err:  # reported by the assertion below
                    failures.append(err)
            thread = threading.Thread(target=run)
            thread.start()
            return thread

        def other_takes_first() -> None:
            other_tx.run(lock, id=first.id, who="other").consume()
            other_tx.commit()

        with caplog.at_level(logging.WARNING, logger="neo4j.session"):
            writer = in_thread(lambda: store.write(tenant, batch))
            _wait_until_blocked(driver, 1)  # graphmem holds first, waits for middle
            waiter = in_thread(other_takes_first)
            _wait_until_blocked(driver, 2)  # the other client waits for graphmem
            blocker_tx.commit()
            writer.join(timeout=60)
            waiter.join(timeout=60)
    assert not failures, failures
    assert any("will be retried" in r.getMessage() and "Deadlock" in r.getMessage()
               for r in caplog.records), [r.getMessage() for r in caplog.records]
    stored = {f.text: f.id for f in store.get_facts(tenant, [first.id, middle.id, last.id])}
    assert stored == {"first, by graphmem": first.id, "middle, by graphmem": middle.id,
                      "last, by graphmem": last.id}
    locks = browse(driver, "MATCH (f:Fact {tenant: $t}) RETURN f.text AS text,"
                           " f.lockedBy AS by ORDER BY text", t=tenant)
    assert [lk["by"] for lk in locks] == ["other", "other", "blocker"]
    browse(driver, "MATCH (n:DeadlockBallast {tenant: $t}) DELETE n", t=tenant)


def _wait_until_blocked(driver: neo4j.Driver, count: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        blocked = browse(driver, "SHOW TRANSACTIONS YIELD status WHERE status STARTS WITH 'Blocked'"
                                 " RETURN count(*) AS n")
        if blocked[0]["n"] >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"fewer than {count} transactions became blocked")


# -- time filtering on the server equals TimeFilter.matches ------------------------------
moments = st.integers(0, 6).map(lambda d: T0 + timedelta(days=10 * d))
optional_moments = st.none() | moments


@st.composite
def facts_for_filtering(draw: st.DrawFn) -> Fact:
    start = draw(moments)
    until = draw(optional_moments.filter(lambda u: u is None or u > start))
    return Fact(tenant="t", scope_key="user:a", subject_id="s", subject_name="S",
                predicate="LIKES", object_id="o", object_name="O", text="S likes O",
                valid_from=start, valid_until=until, recorded_at=draw(moments),
                expired_at=draw(optional_moments), status=draw(st.sampled_from(FactStatus)))


@pytest.mark.neo4j
@settings(max_examples=40, deadline=None)
@given(facts=st.lists(facts_for_filtering(), min_size=1, max_size=12),
       as_of=optional_moments, as_known_at=optional_moments, history=st.booleans(),
       forgotten=st.booleans(), now=moments)
def test_cypher_time_filter_equals_time_filter_matches(
        neo4j_driver: neo4j.Driver, facts: list[Fact], as_of: datetime | None,
        as_known_at: datetime | None, history: bool, forgotten: bool, now: datetime) -> None:
    time_filter = TimeFilter(as_of=as_of, as_known_at=as_known_at, include_history=history,
                             include_forgotten=forgotten)
    condition, params = reads.time_filter("f", time_filter, now)
    rows = [_stored(_fact_row(f, 0)) for f in facts]
    records, _, _ = neo4j_driver.execute_query(
        f"UNWIND $rows AS f WITH f WHERE {condition} RETURN f.id AS id", {**params, "rows": rows})
    assert {r["id"] for r in records} == {f.id for f in facts if time_filter.matches(f, now)}


def _stored(row: dict[str, Any]) -> dict[str, Any]:
    """A write row's node as stored: its properties with its times as DateTimes."""
    return {**row["props"], **{k: _datetime(v) for k, v in row["times"].items()}, "id": row["id"]}


# -- models <-> properties, no server --------------------------------------------------
def _all_set(model: Any) -> None:
    """Guard: a field added to the model must be added to this test and to the mapping."""
    for name, field in type(model).model_fields.items():
        assert getattr(model, name) != field.get_default(call_default_factory=True), (
            f"{type(model).__name__}.{name} keeps its default here: set it in this test and "
            "make sure graphmem/store/neo4j/store.py stores it")


def test_every_fact_field_round_trips_through_properties() -> None:
    full = Fact(
        id="fact_x", tenant="t", scope_key="user:a", subject_id="s", subject_name="S",
        predicate="WORKS_AT", object_id="o", object_name="O", text="S works at O",
        category=Category.EVENT, importance=0.9, confidence=0.8, cardinality=Cardinality.ONE,
        timeline_key="user:a|s|WORKS_AT|*", valid_from=T0, valid_until=T0 + timedelta(days=3),
        stated_until=T0 + timedelta(days=5), recorded_at=T0 + timedelta(hours=1),
        expired_at=T0 + timedelta(days=4),
        retraction=Retraction(at=T0 + timedelta(days=3), episode_id="ep_r", message_ids=["m9"]),
        supersedes=["fact_old"], superseded_by="fact_new", episode_ids=["ep_1", "ep_2"],
        message_ids=["m1", "m2"],
        evidence=[Evidence(at=T0, episode_id="ep_1", message_ids=["m1"])],
        access_count=3, last_accessed=T0 + timedelta(days=9), status=FactStatus.FORGOTTEN,
        embedding=[0.25, -0.5],
    )
    _all_set(full)
    row = _fact_row(full, 7)
    assert _fact({**row["props"], **row["times"], "id": row["id"],
                  "embedding": row["embedding"]}) == full


def test_every_episode_and_entity_field_round_trips_through_properties() -> None:
    episode = Episode(
        id="ep_x", tenant="t", scope_key="user:a", source="json",
        messages=[Message(id="m1", role="assistant", speaker="Bot", content="hi",
                          timestamp=T0 + timedelta(microseconds=7))],
        content="rendered", reference_time=T0, recorded_at=T0 + timedelta(seconds=1),
        expires_at=T0 + timedelta(days=30), client_id="c1", pinned=True, session_id="s1",
        forgotten=True)
    _all_set(episode)
    row = _episode_row(episode)
    assert _episode({**row["props"], **row["times"], "id": row["id"]}) == episode
    assert [m["props"]["clientId"] for m in row["messages"]] == ["m1"]

    entity = Entity(id="ent_x", tenant="t", scope_key="user:a", name=" The Acme Corp.",
                    type="org", aliases=["ACME"], summary="a company", embedding=[1.0],
                    created_at=T0, resolutions=[Resolved(at=T0, name="Acme Inc", reason="name",
                                                         speaker="Maria", detail="same name")])
    _all_set(entity)
    row = _entity_row(entity)
    assert row["props"]["names"] == ["acme", "acme inc"]
    assert _entity({**row["props"], **row["times"], "id": row["id"],
                    "embedding": row["embedding"]}) == entity


def test_a_text_episode_becomes_one_message() -> None:
    episode = Episode(tenant="t", scope_key="user:a", source="text", content="long text",
                      reference_time=T0)
    messages = _episode_row(episode, [[0.5]])["messages"]
    assert [(m["id"], m["props"]["index"], m["props"]["clientId"], m["props"]["content"],
             _datetime(m["times"]["timestamp"]), m["embedding"]) for m in messages] == [
        (f"{episode.id}:0", 0, None, "long text", T0, [0.5])]


def _every_kind_of_record() -> WriteBatch:
    alice = Entity(tenant="t", scope_key="user:a", name="Alice", type="person")
    acme = Entity(tenant="t", scope_key="user:a", name="Acme", type="organization")
    works = Fact(tenant="t", scope_key="user:a", subject_id=alice.id, subject_name="Alice",
                 predicate="WORKS_AT", object_id=acme.id, object_name="Acme",
                 text="Alice works at Acme", timeline_key="user:a|x|WORKS_AT|*", valid_from=T0)
    episode = Episode(tenant="t", scope_key="user:a", reference_time=T0,
                      messages=[Message(id="m1", speaker="Alice", content="I work at Acme",
                                        timestamp=T0)])
    return WriteBatch(
        episodes=[episode], entities=[alice, acme], facts=[works],
        mentions=[Mention(episode_id=episode.id, entity_id=acme.id)],
        turn_vectors={episode.id: [[0.5] * DIM]},
        reminders=[Reminder(tenant="t", scope_key="user:a", todo_id=works.id, remind_at=T0)],
        delete_fact_ids=["f_old"], delete_episode_ids=["ep_old"], delete_entity_ids=["n_old"],
        timeline_versions={"user:a|x|WORKS_AT|*": 3})


def test_every_batch_writes_with_one_query_text() -> None:
    """The batch write's query is planned once per server (about 2 s; when the store opens):
    an empty batch and one holding every kind of record send the same text, and its
    parameters are maps, whose contents never enter the plan cache's key."""
    store = Neo4jStore("bolt://127.0.0.1:1", None, None, embedding_dim=DIM)
    empty_text, empty_params = store._batch_query("t", WriteBatch())
    full_text, full_params = store._batch_query("t", _every_kind_of_record())
    assert full_text == empty_text
    assert full_text.startswith(reads.KEEP_PLAN)
    assert empty_params.keys() == full_params.keys()
    assert all(isinstance(value, dict) for value in full_params.values())


def test_the_kept_write_plan_seeks_every_node_it_looks_up_by_id() -> None:
    """Kept from an empty store, where a label scan costs nothing, the batch write's plan must
    still seek once the store is large: every node it matches by a property names its
    index, and the relationship MERGE of a dynamic type, which no hint fixes (a label-less
    scan of every relationship, planned on an empty store), is not part of it."""
    store = Neo4jStore("bolt://127.0.0.1:1", None, None, embedding_dim=DIM)
    text, _ = store._batch_query("t", _every_kind_of_record())
    lookups = re.findall(r"MATCH \((\w+):(\w+) \{(\w+):", text)
    assert lookups
    for alias, label, key in lookups:
        assert f"USING INDEX {alias}:{label}({key})" in text, (alias, label, key)
    assert "$(" not in text
