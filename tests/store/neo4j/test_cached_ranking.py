"""A search ranks its scope's vectors in its own process, and never misses another's write.

On a real Neo4j, with two stores on one database standing for two API processes: one
ranks from its copy (:mod:`graphmem.store.neo4j.cached_ranking`), the other writes, and
a third that never copies (``vector_cache_rows=0``, the server ranks) says what the
answer must be.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import neo4j
import numpy as np
import pytest

from graphmem.models import Entity, Episode, Fact, Message
from graphmem.store.base import ChannelPlan, WriteBatch
from graphmem.store.neo4j import Neo4jStore
from graphmem.store.neo4j.cached_ranking import CachedRanking
from graphmem.temporal import TimeFilter, timeline_key
from tests.neo4j_fixtures import browse
from tests.store.neo4j.conftest import DIM  # the session database's vector indexes

pytestmark = pytest.mark.neo4j

KEY = "user:maya"
JAN, MAR, MAY = (datetime(2024, m, 1, tzinfo=UTC) for m in (1, 3, 5))


def _counts(store: Neo4jStore) -> tuple[int, int]:
    """The searches the store's copy answered, and those it left to the server."""
    assert store.cached_ranking is not None
    return store.cached_ranking.answered, store.cached_ranking.left


def _copied(store: Neo4jStore, tenant: str, plan: ChannelPlan) -> None:
    """Search once (the server answers a scope without a copy and one is made beside), and
    wait for the copy."""
    store.search_channels(tenant, plan)
    _wait_for_copy(store, tenant)


def _wait_for_copy(store: Neo4jStore, tenant: str) -> None:
    ranking = store.cached_ranking
    assert ranking is not None
    deadline = time.monotonic() + 30
    while ranking.cache.since(tenant, KEY, "fact") is None:
        assert time.monotonic() < deadline, "the scope was never copied"
        time.sleep(0.02)


def _vectors(seed: int, n: int) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _fact(tenant: str, maya: Entity, i: int, vector: np.ndarray, **update: Any) -> Fact:
    thing = f"thing{i}"
    made = Fact(tenant=tenant, scope_key=KEY, subject_id=maya.id, subject_name="Maya",
                predicate="LIKES", object_id=maya.id, object_name="Maya",
                text=f"Maya likes {thing}",
                timeline_key=timeline_key(KEY, maya.id, "LIKES", "many", thing),
                valid_from=JAN, embedding=[float(x) for x in vector])
    return made.model_copy(update=update)


def _plan(vector: np.ndarray, time: TimeFilter | None = None, *, limit: int = 8,
          turn_limit: int = 0, text: str = "") -> ChannelPlan:
    return ChannelPlan(scope_keys=[KEY], text=text, embedding=[float(x) for x in vector],
                       time=time or TimeFilter(), limit=limit, turn_limit=turn_limit)


def _ids(store: Neo4jStore, tenant: str, plan: ChannelPlan) -> list[str]:
    return [hit.id for hit in store.search_channels(tenant, plan).vector]


def _near(vector: np.ndarray, seed: int) -> np.ndarray:
    """A query close to ``vector``."""
    noise = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return vector + 0.3 * noise / np.linalg.norm(noise)


def _world(store: Neo4jStore, tenant: str, n: int = 120) -> tuple[Entity, list[Fact]]:
    maya = Entity(tenant=tenant, scope_key=KEY, name="Maya", type="person")
    vectors = _vectors(1, n)
    facts = [_fact(tenant, maya, i, vectors[i]) for i in range(n)]
    for i in range(0, n, 3):  # a third closed in March: current view without them
        facts[i] = facts[i].model_copy(update={"valid_until": MAR})
    for i in range(1, n, 10):  # some not yet true in March
        facts[i] = facts[i].model_copy(update={"valid_from": MAY})
    store.write(tenant, WriteBatch(entities=[maya], facts=facts))
    return maya, facts


def test_the_copy_ranks_as_the_server_does_in_every_view(
        open_store: Callable[..., Neo4jStore], tenant: str) -> None:
    here, server = open_store(), open_store(vector_cache_rows=0)
    _, facts = _world(here, tenant)
    _copied(here, tenant, _plan(np.asarray(facts[0].embedding)))
    before = _counts(here)
    views = [TimeFilter(), TimeFilter(include_history=True),
             TimeFilter(as_of=datetime(2024, 4, 1, tzinfo=UTC))]
    for i in range(0, 40, 4):
        query = _near(np.asarray(facts[i].embedding), seed=i)
        for view in views:
            plan = _plan(query, view)
            assert _ids(here, tenant, plan) == _ids(server, tenant, plan)
    assert _counts(here) == (before[0] + 30, before[1])


def test_another_process_s_writes_are_ranked_at_once(
        open_store: Callable[..., Neo4jStore], tenant: str) -> None:
    here, there = open_store(), open_store()
    maya, facts = _world(there, tenant)
    fresh = _vectors(7, 3)
    plan = _plan(_near(fresh[0], 70), TimeFilter(include_history=True))
    _copied(here, tenant, plan)
    answered, left = _counts(here)

    added = _fact(tenant, maya, 999, fresh[0], id="new")
    there.write(tenant, WriteBatch(facts=[added]))
    assert _ids(here, tenant, plan)[0] == "new"

    # a fact's vector changed in place: ranked by its new one
    moved = facts[5].model_copy(update={"embedding": [float(x) for x in fresh[1]]})
    there.write(tenant, WriteBatch(facts=[moved]))
    assert _ids(here, tenant, _plan(_near(fresh[1], 71)))[0] == facts[5].id

    # closed: gone from the current view, kept in history
    there.write(tenant, WriteBatch(facts=[added.model_copy(update={"valid_until": MAR})]))
    assert "new" not in _ids(here, tenant, _plan(_near(fresh[0], 72)))
    assert _ids(here, tenant, plan)[0] == "new"
    assert _counts(here) == (answered + 4, left)  # every one from the copy, changes included

    # deleted: the copy's count is off, so the server answers and the copy is made again
    there.write(tenant, WriteBatch(delete_fact_ids=["new"]))
    assert "new" not in _ids(here, tenant, plan)
    assert _counts(here) == (answered + 4, left + 1)
    _wait_for_copy(here, tenant)
    assert "new" not in _ids(here, tenant, plan)
    assert _counts(here)[0] == answered + 5


def test_turns_are_ranked_here_too_and_a_forgotten_episode_s_are_not(
        open_store: Callable[..., Neo4jStore], tenant: str) -> None:
    here, there, server = open_store(), open_store(), open_store(vector_cache_rows=0)
    vectors = _vectors(3, 30)
    episodes = [Episode(tenant=tenant, scope_key=KEY, reference_time=JAN,
                        messages=[Message(content=f"turn {e}-{t}") for t in range(3)])
                for e in range(10)]
    there.write(tenant, WriteBatch(episodes=episodes, turn_vectors={
        ep.id: [[float(x) for x in vectors[3 * e + t]] for t in range(3)]
        for e, ep in enumerate(episodes)}))
    plan = _plan(_near(vectors[4], 40), limit=3, turn_limit=4, text="turn")
    _copied(here, tenant, plan)
    answered, left = _counts(here)
    first = [t.content for t in here.search_channels(tenant, plan).turns_vector]
    assert first[0] == "turn 1-1"
    assert first == [t.content for t in server.search_channels(tenant, plan).turns_vector]

    there.write(tenant, WriteBatch(episodes=[episodes[1].model_copy(update={"forgotten": True})]))
    after = [t.content for t in here.search_channels(tenant, plan).turns_vector]
    assert not any(c.startswith("turn 1-") for c in after)
    assert after == [t.content for t in server.search_channels(tenant, plan).turns_vector]
    assert _counts(here) == (answered + 2, left)


def test_more_changes_than_a_search_reads_are_copied_again_beside(
        open_store: Callable[..., Neo4jStore], tenant: str) -> None:
    here, there = open_store(most_changes=10), open_store()
    maya, facts = _world(there, tenant, n=15)
    plan = _plan(np.asarray(facts[2].embedding), TimeFilter(include_history=True))
    _copied(here, tenant, plan)
    answered, left = _counts(here)
    vectors = _vectors(5, 20)
    there.write(tenant, WriteBatch(facts=[_fact(tenant, maya, 100 + i, vectors[i], id=f"n{i}")
                                          for i in range(20)]))
    near = _plan(_near(vectors[17], 3), TimeFilter(include_history=True))
    assert _ids(here, tenant, near)[0] == "n17"  # the server's answer: the copy fell behind
    assert _counts(here) == (answered, left + 1)
    _wait_for_copy(here, tenant)
    assert _ids(here, tenant, near)[0] == "n17"  # its clock's 20 nodes read again, 10 of them
    assert _counts(here) == (answered + 1, left + 1)

    # once more, the copy past its first read: 20 more in one write are again too many
    more = _vectors(6, 20)
    there.write(tenant, WriteBatch(facts=[_fact(tenant, maya, 200 + i, more[i], id=f"m{i}")
                                          for i in range(20)]))
    assert _ids(here, tenant, _plan(_near(more[3], 4)))[0] == "m3"
    assert _counts(here) == (answered + 1, left + 2)


def test_concurrent_writers_leave_a_copy_equal_to_a_fresh_one(
        open_store: Callable[..., Neo4jStore], tenant: str, neo4j_driver: neo4j.Driver) -> None:
    """Four processes' worth of writers (one store each) add and rewrite facts of one scope
    while a reader keeps its copy current; then its copy holds exactly the stored vectors."""
    reader = open_store()
    maya, facts = _world(reader, tenant, n=20)
    vectors = _vectors(11, 200)
    _copied(reader, tenant, _plan(vectors[0]))
    writers = [open_store(vector_cache_rows=0) for _ in range(4)]
    stop = threading.Event()
    errors: list[BaseException] = []

    def write(w: int) -> None:
        try:
            for j in range(10):
                i = 20 + w * 10 + j
                rewritten = facts[(w + j) % 20].model_copy(
                    update={"embedding": [float(x) for x in vectors[100 + i]]})
                writers[w].write(tenant, WriteBatch(
                    facts=[_fact(tenant, maya, i, vectors[i]), rewritten]))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    def read() -> None:
        while not stop.is_set():
            reader.search_channels(tenant, _plan(vectors[0]))

    threads = [threading.Thread(target=write, args=(w,)) for w in range(4)]
    searching = threading.Thread(target=read)
    searching.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    searching.join()
    assert not errors
    _wait_for_copy(reader, tenant)  # made again if a count read mid-commit disagreed
    answered = _counts(reader)[0]
    reader.search_channels(tenant, _plan(vectors[0]))  # brings the copy up to date
    assert _counts(reader)[0] == answered + 1
    stored = {r["id"]: np.asarray(r["v"], dtype=np.float32) for r in browse(
        neo4j_driver, "MATCH (f:Fact {tenant: $t}) RETURN f.id AS id, f.embedding AS v",
        t=tenant)}
    stamps = browse(neo4j_driver, "MATCH (f:Fact {tenant: $t}) RETURN f.vecSeq AS s", t=tenant)
    clock = browse(neo4j_driver, "MATCH (c:ScopeClock {tenant: $t}) RETURN c.n AS n", t=tenant)
    assert len(stored) == 60
    assert clock[0]["n"] == max(r["s"] for r in stamps)
    assert len({r["s"] for r in stamps}) > 40  # 41 writes, each its own stamp
    ranking = reader.cached_ranking
    assert ranking is not None
    ids, held = _copy(ranking, tenant)
    assert sorted(ids) == sorted(stored)
    for node_id, row in zip(ids, held, strict=True):
        expected = stored[node_id] / np.linalg.norm(stored[node_id])
        np.testing.assert_allclose(row, expected, rtol=1e-5, atol=1e-6)


def test_a_scope_deleted_and_written_again_has_a_later_clock(
        open_store: Callable[..., Neo4jStore], tenant: str, neo4j_driver: neo4j.Driver) -> None:
    here = open_store()
    maya, facts = _world(here, tenant, n=10)
    before = browse(neo4j_driver, "MATCH (c:ScopeClock {tenant: $t}) RETURN c.n AS n",
                    t=tenant)[0]["n"]
    plan = _plan(np.asarray(facts[0].embedding), TimeFilter(include_history=True))
    _copied(here, tenant, plan)
    here.delete_scope(tenant, KEY)
    assert browse(neo4j_driver, "MATCH (c:ScopeClock {tenant: $t}) RETURN c", t=tenant) == []
    again = _fact(tenant, maya, 0, np.asarray(facts[0].embedding), id="again")
    here.write(tenant, WriteBatch(entities=[maya], facts=[again]))
    after = browse(neo4j_driver, "MATCH (c:ScopeClock {tenant: $t}) RETURN c.n AS n",
                   t=tenant)[0]["n"]
    assert after > before
    assert _ids(here, tenant, plan) == ["again"]  # the server's: the copy's count was off
    _copied(here, tenant, plan)
    answered = _counts(here)[0]
    assert _ids(here, tenant, plan) == ["again"]
    assert _counts(here)[0] == answered + 1


def _copy(ranking: CachedRanking, tenant: str) -> tuple[list[str], np.ndarray]:
    """The ids and unit vectors the copy holds for the scope's facts."""
    cache = ranking.cache
    with cache._lock:
        rows = cache._scopes[(tenant, KEY)]["fact"]
        return list(rows.ids), rows.vectors[:len(rows)].copy()


def test_a_scope_too_large_to_copy_is_left_to_the_server_and_tried_again_later(
        open_store: Callable[..., Neo4jStore], tenant: str) -> None:
    here = open_store(exact_scan_limit=20)  # the vector index answers for 30 facts
    _, facts = _world(here, tenant, n=30)
    plan = _plan(np.asarray(facts[4].embedding), TimeFilter(include_history=True))
    ranking = here.cached_ranking
    assert ranking is not None

    def found_too_large() -> float:
        deadline = time.monotonic() + 30
        while (tenant, KEY) not in ranking._too_large or ranking._loading:
            assert time.monotonic() < deadline, "the copy was never tried"
            time.sleep(0.02)
        return ranking._too_large[(tenant, KEY)]

    assert _ids(here, tenant, plan)[0] == facts[4].id
    first = found_too_large()
    assert _ids(here, tenant, plan)[0] == facts[4].id  # not tried again meanwhile
    assert found_too_large() == first and _counts(here) == (0, 2)
    ranking._too_large[(tenant, KEY)] = 0.0  # its time is up
    assert _ids(here, tenant, plan)[0] == facts[4].id
    assert found_too_large() > first  # tried again, still too large
    assert ranking.cache.since(tenant, KEY, "fact") is None
