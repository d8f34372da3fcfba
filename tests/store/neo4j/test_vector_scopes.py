"""The vector indexes hold large scopes' nodes only, and every search still finds every node.

On a real Neo4j: stores with a small ``exact_scan_limit`` (5) stand for the production
limit (5,000), so a scope becomes large after a few writes. What the index holds is read
as a Neo4j Browser user would (labels, ``SHOW INDEXES``, the clock node); what a search
must answer is computed here from the vectors written.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import neo4j
import numpy as np
import pytest

from graphmem.models import Entity, Episode, Fact, Message, Scope
from graphmem.store.base import ChannelPlan, WriteBatch
from graphmem.store.neo4j import Neo4jStore, schema, scope_indexing, vector_scopes
from graphmem.temporal import TimeFilter
from tests.neo4j_fixtures import browse
from tests.store.neo4j.conftest import DIM  # the session database's vector indexes

pytestmark = pytest.mark.neo4j

LIMIT = 5
JAN = datetime(2024, 1, 1, tzinfo=UTC)
MEMBER = Scope(user_id="maya", group_id="team")
GROUP = Scope(group_id="team")


@pytest.fixture
def driver(neo4j_uri: Any) -> Iterator[neo4j.Driver]:
    """A plain driver: what a Neo4j Browser user would run, not graphmem's code."""
    with neo4j.GraphDatabase.driver(neo4j_uri.uri, auth=neo4j_uri.auth) as plain:
        yield plain


def _unit(seed: int) -> list[float]:
    # a seed sequence of this file's own: no other test writes these vectors to the index
    v = np.random.default_rng([seed, 20261130]).normal(size=DIM)
    return [float(x) for x in v / np.linalg.norm(v)]


def _entities(tenant: str, scope: Scope, names: list[str], seed: int) -> list[Entity]:
    return [Entity(tenant=tenant, scope_key=scope.key, name=name, embedding=_unit(seed + i))
            for i, name in enumerate(names)]


def _facts(tenant: str, subject: Entity, obj: Entity, n: int, seed: int) -> list[Fact]:
    return [Fact(tenant=tenant, scope_key=subject.scope_key, subject_id=subject.id,
                 subject_name=subject.name, predicate="LIKES", object_id=obj.id,
                 object_name=obj.name, text=f"{subject.name} likes thing {seed + i}",
                 valid_from=JAN, embedding=_unit(seed + i)) for i in range(n)]


def _labelled(driver: neo4j.Driver, tenant: str, kind: str, scope: Scope) -> tuple[int, int]:
    """How many of the scope's ``kind`` nodes there are, and how many carry the indexed label."""
    row = browse(driver, f"MATCH (n:{kind}) WHERE n.tenant = $t AND n.scopeKey = $k"
                         f" RETURN count(n) AS all, count(CASE WHEN n:Indexed{kind} THEN 1 END)"
                         " AS indexed", t=tenant, k=scope.key)[0]
    return int(row["all"]), int(row["indexed"])


def _best(vectors: dict[str, list[float]], query: list[float], k: int) -> list[str]:
    scores = {key: float(np.dot(v, query)) for key, v in vectors.items()}
    return sorted(scores, key=lambda key: -scores[key])[:k]


def test_a_small_scope_stays_out_of_the_indexes_and_a_large_one_enters_whole(
        open_store: Callable[..., Neo4jStore], driver: neo4j.Driver, tenant: str) -> None:
    store = open_store(exact_scan_limit=LIMIT)
    store.indexing.batch = 2  # the job labels in batches, renewing its claim before each
    maya, tea = _entities(tenant, GROUP, ["Maya", "Tea"], 10)
    store.write(tenant, WriteBatch(entities=[maya, tea], facts=_facts(tenant, maya, tea, 3, 100)))
    assert _labelled(driver, tenant, "Fact", GROUP) == (3, 0)
    assert _labelled(driver, tenant, "Entity", GROUP) == (2, 0)
    clock = browse(driver, "MATCH (c:ScopeClock {tenant: $t, scopeKey: $k}) RETURN c.indexedFact"
                           " AS indexed, c.writtenFact AS written", t=tenant, k=GROUP.key)
    assert clock == [{"indexed": None, "written": 3}]

    store.write(tenant, WriteBatch(facts=_facts(tenant, maya, tea, 2, 200)))
    assert store.indexing.wait()  # the limit: all of them, labelled beside the write
    assert _labelled(driver, tenant, "Fact", GROUP) == (5, 5)
    assert browse(driver, "MATCH (c:ScopeClock {tenant: $t, scopeKey: $k}) RETURN c.indexedFact"
                          " AS indexed, c.dueFact AS due", t=tenant, k=GROUP.key) == [
        {"indexed": True, "due": None}]
    store.write(tenant, WriteBatch(facts=_facts(tenant, maya, tea, 1, 300)))
    assert _labelled(driver, tenant, "Fact", GROUP) == (6, 6)  # and each one written after
    assert _labelled(driver, tenant, "Entity", GROUP) == (2, 0)  # counted apart, by kind

    more = _entities(tenant, GROUP, ["Ana", "Ben", "Cy"], 20)
    episode = Episode(tenant=tenant, scope_key=GROUP.key, reference_time=JAN, messages=[
        Message(id=f"m{i}", speaker="Maya", content=f"turn {i}") for i in range(LIMIT)])
    store.write(tenant, WriteBatch(entities=more, episodes=[episode], turn_vectors={
        episode.id: [_unit(400 + i) for i in range(LIMIT)]}))
    assert store.indexing.wait()
    assert _labelled(driver, tenant, "Entity", GROUP) == (5, 5)
    assert _labelled(driver, tenant, "Message", GROUP) == (LIMIT, LIMIT)

    # what the index holds, as Browser would ask it: each of this scope's facts is its own
    # nearest there; a small scope's facts are not in it
    other = f"{tenant}x"
    ana, cake = _entities(other, GROUP, ["Ana", "Cake"], 30)
    small = _facts(other, ana, cake, 2, 500)
    store.write(other, WriteBatch(entities=[ana, cake], facts=small))
    nearest = ("CALL db.index.vector.queryNodes('fact_embedding', 3, $v)"
               " YIELD node RETURN node.id AS id")
    written = browse(driver, "MATCH (f:Fact) WHERE f.tenant = $t RETURN f.id AS id", t=tenant)
    for row in written:
        vector = browse(driver, "MATCH (f:Fact {id: $id}) RETURN f.embedding AS v",
                        id=row["id"])[0]["v"]
        assert row["id"] in {h["id"] for h in browse(driver, nearest, v=vector)}
    for fact in small:
        assert fact.id not in {h["id"] for h in browse(driver, nearest, v=fact.embedding)}
    store.delete_scope(other, GROUP.key)


def _clock(driver: neo4j.Driver, tenant: str, scope: Scope) -> dict[str, Any]:
    return browse(driver, "MATCH (c:ScopeClock {tenant: $t, scopeKey: $k}) RETURN"
                          " c.indexedFact AS indexed, c.dueFact AS due", t=tenant, k=scope.key)[0]


def _held(store: Neo4jStore, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The scopes the store's writes hand to its indexing, kept here instead of labelled (as
    if its job had not started yet, or had stopped with its process)."""
    held: list[dict[str, Any]] = []
    monkeypatch.setattr(store.indexing, "submit", lambda tenant, due: held.extend(due))
    return held


def test_the_write_that_makes_a_scope_large_leaves_it_to_a_job_and_readers_rank_it_exactly(
        open_store: Callable[..., Neo4jStore], driver: neo4j.Driver, tenant: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The crossing write marks the scope due and returns; until the job flags it, every
    search ranks the scope exactly. Nodes written while the job labels are labelled too."""
    store = open_store(exact_scan_limit=LIMIT, vector_cache_rows=0)  # the server ranks
    held = _held(store, monkeypatch)
    maya, tea = _entities(tenant, GROUP, ["Maya", "Tea"], 10)
    facts = _facts(tenant, maya, tea, LIMIT + 1, 100)
    store.write(tenant, WriteBatch(entities=[maya, tea], facts=facts))
    assert [(d["scopeKey"], d["kind"]) for d in held] == [(GROUP.key, "Fact")]
    assert _labelled(driver, tenant, "Fact", GROUP) == (LIMIT + 1, 0)
    assert _clock(driver, tenant, GROUP) == {"indexed": None, "due": held[0]["due"]}

    def answers_exactly(every: list[Fact]) -> None:
        vectors = {f.id: f.embedding or [] for f in every}
        for query in (every[0].embedding or [], every[-1].embedding or [], _unit(998)):
            expected = _best(vectors, query, 3)
            assert [h.id for h in store.vector_facts(tenant, [GROUP.key], query, TimeFilter(),
                                                     3)] == expected
            plan = ChannelPlan(scope_keys=[GROUP.key], text="", embedding=query, limit=3)
            assert [h.id for h in store.search_channels(tenant, plan).vector] == expected

    answers_exactly(facts)
    # a fresh mark is not handed out again by the next write
    later = _facts(tenant, maya, tea, 1, 200)
    store.write(tenant, WriteBatch(facts=later))
    assert len(held) == 1 and _labelled(driver, tenant, "Fact", GROUP) == (LIMIT + 2, 0)

    # the job's steps by hand: a batch labelled, a write landing before its end, the end
    monkeypatch.undo()
    labelled = store._write([vector_scopes.label_batch(tenant, GROUP.key, "Fact", 3)])[0]
    assert labelled[0]["labelled"] == 3
    answers_exactly([*facts, *later])  # half labelled, not flagged: still exact
    meanwhile = _facts(tenant, maya, tea, 2, 300)
    store.write(tenant, WriteBatch(facts=meanwhile))
    assert _labelled(driver, tenant, "Fact", GROUP) == (LIMIT + 4, 3)
    store._write([vector_scopes.finish(tenant, GROUP.key, "Fact", held[0]["due"])])
    assert _labelled(driver, tenant, "Fact", GROUP) == (LIMIT + 4, LIMIT + 4)
    assert _clock(driver, tenant, GROUP) == {"indexed": True, "due": None}
    answers_exactly([*facts, *later, *meanwhile])  # now through the index
    store.write(tenant, WriteBatch(facts=_facts(tenant, maya, tea, 1, 400)))
    assert _labelled(driver, tenant, "Fact", GROUP) == (LIMIT + 5, LIMIT + 5)  # its own
    labelled_by_jobs: list[str] = []
    monkeypatch.setattr(scope_indexing.vector_scopes, "label_batch",
                        lambda *args: labelled_by_jobs.append(args[1]) or ("RETURN 0", {}))
    store.indexing.submit(tenant, held)  # told late: the claim finds nothing to do
    assert store.indexing.wait() and labelled_by_jobs == []


def test_a_write_waiting_on_the_jobs_last_step_labels_its_own_nodes(
        open_store: Callable[..., Neo4jStore], driver: neo4j.Driver, tenant: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The job's last transaction holds the clock's lock while it labels and flags; a write
    to the scope meanwhile waits for it, then finds the flag and labels what it wrote."""
    store = open_store(exact_scan_limit=LIMIT)
    held = _held(store, monkeypatch)
    maya, tea = _entities(tenant, GROUP, ["Maya", "Tea"], 10)
    store.write(tenant, WriteBatch(entities=[maya, tea], facts=_facts(tenant, maya, tea, 5, 1)))
    late = _facts(tenant, maya, tea, 2, 50)
    with driver.session() as session:
        tx = session.begin_transaction()
        text, params = vector_scopes.finish(tenant, GROUP.key, "Fact", held[0]["due"])
        assert tx.run(text, params).single() is not None
        writer = threading.Thread(target=store.write, args=(tenant, WriteBatch(facts=late)))
        writer.start()
        writer.join(timeout=1.0)
        assert writer.is_alive()  # waiting for the clock's lock
        assert _labelled(driver, tenant, "Fact", GROUP) == (5, 0)  # nothing committed yet
        tx.commit()
    writer.join(timeout=30)
    assert not writer.is_alive()
    assert _labelled(driver, tenant, "Fact", GROUP) == (7, 7)
    assert _clock(driver, tenant, GROUP) == {"indexed": True, "due": None}


def test_a_mark_whose_job_stopped_is_handed_out_again_and_one_job_claims_it(
        open_store: Callable[..., Neo4jStore], driver: neo4j.Driver, tenant: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store(exact_scan_limit=LIMIT)
    held = _held(store, monkeypatch)
    maya, tea = _entities(tenant, GROUP, ["Maya", "Tea"], 10)
    store.write(tenant, WriteBatch(entities=[maya, tea], facts=_facts(tenant, maya, tea, 5, 1)))
    first = held[0]["due"]
    # the job that claimed it stopped with its process, longer ago than a claim lasts
    stale = first - int(scope_indexing.CLAIM_SECONDS * 1000) - 1
    browse(driver, "MATCH (c:ScopeClock {tenant: $t, scopeKey: $k}) SET c.dueFact = $d",
           t=tenant, k=GROUP.key, d=stale)
    store.write(tenant, WriteBatch(facts=_facts(tenant, maya, tea, 1, 10)))
    assert [(d["kind"], d["due"]) for d in held[1:]] == [("Fact", stale)]

    # two processes told of it: the first claim wins, the second finds it taken; the
    # first, retried after its commit (its answer lost), is still the first's
    claim = vector_scopes.claim(tenant, GROUP.key, "Fact", stale, stale + 5)
    assert store._write([claim])[0]
    assert not store._write([vector_scopes.claim(tenant, GROUP.key, "Fact", stale,
                                                 stale + 7)])[0]
    assert store._write([claim])[0]
    assert _clock(driver, tenant, GROUP)["due"] == stale + 5
    monkeypatch.undo()
    store.indexing.submit(tenant, held[1:])  # its mark moved on: this job does nothing
    assert store.indexing.wait()
    assert _labelled(driver, tenant, "Fact", GROUP) == (6, 0)
    store.indexing.submit(tenant, [{"scopeKey": GROUP.key, "kind": "Fact", "due": stale + 5}])
    assert store.indexing.wait()
    assert _labelled(driver, tenant, "Fact", GROUP) == (6, 6)
    assert _clock(driver, tenant, GROUP) == {"indexed": True, "due": None}


def test_a_member_finds_the_nearest_of_an_indexed_group_and_an_unindexed_own_scope(
        open_store: Callable[..., Neo4jStore], driver: neo4j.Driver, tenant: str) -> None:
    """A member reads three scopes: the group's is indexed, the member's is not. The index
    search answers for the group and an exact ranking for the member, in every vector read
    (the store's one-channel reads, the one-call search, entity resolution)."""
    store = open_store(exact_scan_limit=LIMIT, vector_cache_rows=0)  # the server ranks
    team, tea, *others = _entities(tenant, GROUP, ["Team", "Tea", "Ana", "Ben", "Cy"], 10)
    group_facts = _facts(tenant, team, tea, 8, 100)
    store.write(tenant, WriteBatch(entities=[team, tea, *others], facts=group_facts))
    maya, = _entities(tenant, MEMBER, ["Maya"], 40)
    mine = _facts(tenant, maya, tea, 2, 150)
    store.write(tenant, WriteBatch(entities=[maya], facts=mine))
    assert store.indexing.wait()
    assert _labelled(driver, tenant, "Fact", GROUP) == (8, 8)
    assert _labelled(driver, tenant, "Fact", MEMBER) == (2, 0)

    vectors = {f.id: f.embedding or [] for f in group_facts + mine}
    for query in (mine[0].embedding or [], group_facts[3].embedding or [], _unit(999)):
        expected = _best(vectors, query, 4)
        assert [h.id for h in store.vector_facts(tenant, MEMBER.visible_keys, query,
                                                 TimeFilter(), 4)] == expected
        plan = ChannelPlan(scope_keys=MEMBER.visible_keys, text="", embedding=query, limit=4)
        assert [h.id for h in store.search_channels(tenant, plan).vector] == expected

    assert _labelled(driver, tenant, "Entity", GROUP) == (5, 5)
    names = {e.id: e.embedding or [] for e in (team, tea, *others, maya)}
    found = store.nearest_entities(tenant, MEMBER.visible_keys, [maya.embedding or []], 2)
    assert [h.entity.id for h in found[0]] == _best(names, maya.embedding or [], 2)
    assert found[0][0].entity.id == maya.id  # only the exact ranking holds the member's


def test_a_store_with_a_lower_limit_finds_what_one_with_a_higher_limit_wrote(
        open_store: Callable[..., Neo4jStore], tenant: str) -> None:
    """The writer found the scope small, so the index holds none of it; a reader whose
    limit calls it large ranks it exactly all the same."""
    writer = open_store(exact_scan_limit=5000)
    reader = open_store(exact_scan_limit=1, vector_cache_rows=0)
    maya, tea = _entities(tenant, MEMBER, ["Maya", "Tea"], 10)
    facts = _facts(tenant, maya, tea, 6, 100)
    writer.write(tenant, WriteBatch(entities=[maya, tea], facts=facts))
    query = _unit(7)
    expected = _best({f.id: f.embedding or [] for f in facts}, query, 3)
    assert [h.id for h in reader.vector_facts(tenant, [MEMBER.key], query, TimeFilter(),
                                              3)] == expected
    plan = ChannelPlan(scope_keys=[MEMBER.key], text="", embedding=query, limit=3)
    assert [h.id for h in reader.search_channels(tenant, plan).vector] == expected


def test_version_7_is_migrated_by_labelling_the_large_scopes(
        open_store: Callable[..., Neo4jStore], driver: neo4j.Driver, neo4j_uri: Any,
        tenant: str) -> None:
    """A version-7 database (every node in the Fact-wide index, no labels, no counts) is
    brought to version 8 on open: the large scope's nodes labelled and indexed, the small
    one's counted, so that its next writes know when to count again."""
    store = open_store(exact_scan_limit=LIMIT)
    team, tea = _entities(tenant, GROUP, ["Team", "Tea"], 10)
    store.write(tenant, WriteBatch(entities=[team, tea], facts=_facts(tenant, team, tea, 6, 100)))
    maya, = _entities(tenant, MEMBER, ["Maya"], 40)
    store.write(tenant, WriteBatch(entities=[maya], facts=_facts(tenant, maya, tea, 2, 150)))
    for kind in ("Fact", "Entity", "Message"):
        browse(driver, f"MATCH (n:{kind}) WHERE n.tenant = $t REMOVE n:Indexed{kind}", t=tenant)
    browse(driver, "MATCH (c:ScopeClock) WHERE c.tenant = $t REMOVE c.indexedFact,"
                   " c.writtenFact, c.indexedEntity, c.writtenEntity", t=tenant)
    # version 7's index, on every Fact
    browse(driver, "DROP INDEX fact_embedding IF EXISTS")
    browse(driver, "CREATE VECTOR INDEX fact_embedding FOR (n:Fact) ON n.embedding"
                   " OPTIONS $o", o=schema.vector_options(DIM))
    browse(driver, "MATCH (s:GraphmemSchema {key: 'graphmem'}) SET s.version = 7")
    try:
        again = open_store(exact_scan_limit=LIMIT)
        assert browse(driver, "MATCH (s:GraphmemSchema) RETURN s.version AS v") == [{"v": 8}]
        assert _labelled(driver, tenant, "Fact", GROUP) == (6, 6)
        assert _labelled(driver, tenant, "Fact", MEMBER) == (2, 0)
        clocks = ("MATCH (c:ScopeClock) WHERE c.tenant = $t RETURN c.scopeKey AS k,"
                  " c.indexedFact AS indexed, c.writtenFact AS written ORDER BY k")
        assert browse(driver, clocks, t=tenant) == [{"k": GROUP.key, "indexed": True, "written": 6},
                          {"k": MEMBER.key, "indexed": False, "written": 2}]
        index = browse(driver, "SHOW VECTOR INDEXES YIELD name, labelsOrTypes, state"
                               " WHERE name = 'fact_embedding' RETURN labelsOrTypes, state")
        assert index == [{"labelsOrTypes": ["IndexedFact"], "state": "ONLINE"}]
        again.write(tenant, WriteBatch(facts=_facts(tenant, maya, tea, 3, 160)))
        assert again.indexing.wait()
        assert _labelled(driver, tenant, "Fact", MEMBER) == (5, 5)  # 2 counted + 3 written
        # run again with a higher limit, after a run that flagged the group and stopped
        # before its labels: a flagged scope is labelled whole, and no flag is taken back
        browse(driver, "MATCH (n:Fact) WHERE n.tenant = $t AND n.scopeKey = $k"
                       " REMOVE n:IndexedFact", t=tenant, k=GROUP.key)
        schema.index_large_scopes(lambda q, p: browse(driver, q, **p), 1000)
        assert _labelled(driver, tenant, "Fact", GROUP) == (6, 6)
        assert _labelled(driver, tenant, "Fact", MEMBER) == (5, 5)
        assert browse(driver, clocks, t=tenant) == [
            {"k": GROUP.key, "indexed": True, "written": 6},
            {"k": MEMBER.key, "indexed": True, "written": 5}]
    finally:
        browse(driver, "MATCH (s:GraphmemSchema {key: 'graphmem'}) SET s.version = $v",
               v=schema.SCHEMA_VERSION)
