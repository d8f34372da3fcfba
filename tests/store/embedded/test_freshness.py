"""Two processes on one SQLite file: each store's in-memory mirror follows the other's writes.

Two ``EmbeddedStore`` objects on one file stand for two processes here (each has its
own connection, which is what ``PRAGMA data_version`` tells apart); the process test
with a real server and the CLI is in tests/api/test_scale_out.py.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphmem.embed.hashed import HashEmbedder
from graphmem.extract.rules import RuleExtractor
from graphmem.ingest.inputs import FactInput
from graphmem.memory import Memory
from graphmem.errors import NotFoundError
from graphmem.manage import edits
from graphmem.manage.edits import forget_fact
from graphmem.manage.erasure import erase_topic
from graphmem.models import Fact, FactStatus, Scope
from graphmem.search.models import SearchRequest
from graphmem.store.base import FactQuery
from graphmem.store.embedded import EmbeddedStore, changes
from graphmem.store.embedded.index import EmbeddedIndex
from graphmem.temporal import TimeFilter

TENANT = "t"
MAYA = Scope(user_id="maya")


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[Memory, Memory]]:
    path = tmp_path / "m.db"
    first, second = (Memory(EmbeddedStore(path, embedding_dim=64), RuleExtractor(),
                            HashEmbedder(64)).open() for _ in range(2))
    yield first, second
    first.close()
    second.close()


def _job(company: str, month: int) -> FactInput:
    return FactInput(scope=MAYA, subject="Maya", predicate="WORKS_AT", object=company,
                     text=f"Maya works at {company}", valid_from=datetime(2024, month, 1, tzinfo=UTC))


def _all_jobs(memory: Memory) -> list[Fact]:
    return memory.store.list_facts(TENANT, FactQuery(
        scope_keys=MAYA.visible_keys, predicates=["WORKS_AT"],
        time=TimeFilter(include_history=True)))


def _answers(memory: Memory, query: str = "Where does Maya work?") -> list[str | None]:
    found = memory.search(TENANT, SearchRequest(query=query, scope=MAYA))
    return [r.object for r in found.results if r.predicate == "WORKS_AT"]


def test_a_fact_written_by_another_process_is_found(two: tuple[Memory, Memory]) -> None:
    server, cli = two
    assert _answers(server) == []
    cli.add_facts(TENANT, [_job("Globex", 2)])
    assert _answers(server) == ["Globex"]
    [maya] = server.store.find_entities(TENANT, MAYA.visible_keys, ["maya"])
    assert maya.name == "Maya"


def test_a_change_made_by_another_process_supersedes_for_the_other_too(
        two: tuple[Memory, Memory]) -> None:
    server, cli = two
    server.add_facts(TENANT, [_job("Globex", 2)])
    cli.add_facts(TENANT, [_job("Initech", 9)])  # decided on what the server wrote
    assert _answers(server) == ["Initech"]
    server.add_facts(TENANT, [_job("Hooli", 11)])  # decided on what the CLI wrote
    jobs = _all_jobs(cli)
    assert sorted(f.object_name for f in jobs) == ["Globex", "Hooli", "Initech"]
    assert [f.object_name for f in jobs if f.valid_until is None] == ["Hooli"]
    assert _answers(cli) == ["Hooli"]


def test_a_forget_in_another_process_hides_the_fact(two: tuple[Memory, Memory]) -> None:
    server, cli = two
    server.add_facts(TENANT, [_job("Globex", 2)])
    assert _answers(server) == ["Globex"]
    [fact] = _all_jobs(cli)
    forget_fact(cli, TENANT, fact.id, MAYA)
    assert _answers(server) == []


def test_own_writes_keep_the_mirror_without_a_rebuild(two: tuple[Memory, Memory]) -> None:
    server, _ = two
    mirror = server.store._index  # type: ignore[attr-defined]
    server.add_facts(TENANT, [_job("Globex", 2), _job("Initech", 9)])
    assert _answers(server) == ["Initech"]
    assert server.store._index is mirror  # type: ignore[attr-defined]


def test_one_store_call_asks_the_file_once_at_its_start(two: tuple[Memory, Memory]) -> None:
    server, cli = two
    store = server.store
    cli.add_facts(TENANT, [_job("Globex", 2)])
    with store._lock.checked():  # type: ignore[attr-defined]
        assert [f.object_name for f in _all_jobs(server)] == ["Globex"]  # caught up at the start
        cli.add_facts(TENANT, [_job("Initech", 9)])
        assert [f.object_name for f in _all_jobs(server)] == ["Globex"]  # not asked again inside
    assert sorted(f.object_name for f in _all_jobs(server)) == ["Globex", "Initech"]


def _rebuilds(store: object, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count whole rebuilds of ``store``'s mirror (each load of the file)."""
    counted: list[int] = []
    load = EmbeddedIndex.load

    def counting(index: EmbeddedIndex, db: sqlite3.Connection) -> None:
        counted.append(1)
        load(index, db)

    monkeypatch.setattr(EmbeddedIndex, "load", counting)
    return counted


def test_another_process_writes_are_replayed_not_rebuilt(
        two: tuple[Memory, Memory], monkeypatch: pytest.MonkeyPatch) -> None:
    server, cli = two
    server.add_facts(TENANT, [_job("Globex", 2)])
    assert _answers(server) == ["Globex"]
    rebuilds = _rebuilds(server.store, monkeypatch)
    cli.add_facts(TENANT, [_job("Initech", 9)])
    cli.add_facts(TENANT, [FactInput(scope=MAYA, subject="Maya", predicate="LIKES",
                                     object="sailing", text="Maya likes sailing")])

    assert _answers(server) == ["Initech"]
    assert [r.object for r in server.search(TENANT, SearchRequest(
        query="What does Maya enjoy on the water?", scope=MAYA)).results
        if r.predicate == "LIKES"] == ["sailing"]  # the new fact's vector came across too
    assert sorted(f.object_name for f in _all_jobs(server)) == ["Globex", "Initech"]
    assert rebuilds == []


def test_access_recorded_by_another_process_reaches_the_mirror(
        two: tuple[Memory, Memory], monkeypatch: pytest.MonkeyPatch) -> None:
    server, cli = two
    server.add_facts(TENANT, [_job("Globex", 2)])
    [fact] = _all_jobs(server)
    rebuilds = _rebuilds(server.store, monkeypatch)
    at = datetime(2025, 3, 1, tzinfo=UTC)
    cli.store.record_access(TENANT, [fact.id, fact.id], at)

    [seen] = server.store.get_facts(TENANT, [fact.id])
    assert (seen.access_count, seen.last_accessed) == (fact.access_count + 2, at)
    assert seen.embedding is not None
    assert rebuilds == []


def test_an_erasure_in_another_process_leaves_nothing_in_the_mirror(
        two: tuple[Memory, Memory], monkeypatch: pytest.MonkeyPatch) -> None:
    server, cli = two
    server.add_facts(TENANT, [_job("Globex", 2)])
    assert _answers(server, "Globex") == ["Globex"]
    rebuilds = _rebuilds(server.store, monkeypatch)
    cli.store.delete_scope(TENANT, MAYA.key)

    store = server.store
    assert server.search(TENANT, SearchRequest(query="Globex", scope=MAYA)).results == []
    assert store.find_entities(TENANT, MAYA.visible_keys, ["maya", "globex"]) == []
    assert store.vector_entities(TENANT, MAYA.visible_keys,
                                 server.embedder.embed(["Maya"])[0], limit=5) == []
    assert store._index.facts == {} and store._index.entities == {}  # type: ignore[attr-defined]
    assert store._index.graph.number_of_nodes() == 0  # type: ignore[attr-defined]
    assert rebuilds == []


def test_a_write_reads_the_records_another_process_changed_before_it_started(
        two: tuple[Memory, Memory]) -> None:
    """Between taking the lock (which catches up) and the write transaction another process
    may commit; the transaction replays that first, so it does not write back a record
    read from the mirror as it was (which would undo the other process's forget)."""
    server, cli = two
    server.add_facts(TENANT, [_job("Globex", 2)])
    [fact] = _all_jobs(server)
    store = server.store
    with store._lock.checked():  # type: ignore[attr-defined]  # no asking before the write
        forget_fact(cli, TENANT, fact.id, MAYA)
        store.record_access(TENANT, [fact.id], datetime(2025, 3, 1, tzinfo=UTC))

    for memory in (cli, server):
        [kept] = memory.store.get_facts(TENANT, [fact.id])
        assert kept.status is FactStatus.FORGOTTEN
        assert kept.access_count == fact.access_count + 1
    assert _answers(server) == []


def test_a_mirror_the_pruned_log_no_longer_reaches_is_rebuilt(
        two: tuple[Memory, Memory], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(changes, "KEEP", 2)
    monkeypatch.setattr(changes, "PRUNE_EVERY", 1)
    server, cli = two
    server.add_facts(TENANT, [_job("Globex", 2)])
    assert _answers(server) == ["Globex"]
    rebuilds = _rebuilds(server.store, monkeypatch)
    for month, company in ((5, "Initech"), (7, "Hooli"), (9, "Umbrella"), (11, "Acme")):
        cli.add_facts(TENANT, [_job(company, month)])

    assert _answers(server) == ["Acme"]
    assert sorted(f.object_name for f in _all_jobs(server)) == [
        "Acme", "Globex", "Hooli", "Initech", "Umbrella"]
    assert rebuilds == [1]


def test_an_edit_in_place_does_not_write_back_over_another_process_change(
        two: tuple[Memory, Memory]) -> None:
    """A review of this round: one process's importance edit, decided while another process
    forgot (or erased) the same fact, wrote its copy back over that change."""
    server, cli = two
    server.add_facts(TENANT, [_job("Globex", 2)])
    [fact] = _all_jobs(server)
    meanwhile: list[str] = []

    def raise_it(read: Fact) -> Fact:
        if not meanwhile:  # the other process acts between this one's read and its write
            meanwhile.append(forget_fact(cli, TENANT, fact.id, MAYA).id)
        return read.model_copy(update={"importance": 0.9})

    edits._update(server, TENANT, fact.id, MAYA, "memory.updated", None, raise_it)

    for memory in (server, cli):
        [kept] = memory.store.get_facts(TENANT, [fact.id])
        assert (kept.status, kept.importance) == (FactStatus.FORGOTTEN, 0.9)  # both changes


def test_an_edit_in_place_of_a_fact_another_process_erased_finds_it_gone(
        two: tuple[Memory, Memory]) -> None:
    server, cli = two
    server.add_facts(TENANT, [_job("Globex", 2)])
    [fact] = _all_jobs(server)

    def erase_first(read: Fact) -> Fact:
        erase_topic(cli, TENANT, MAYA, "Globex")
        return read.model_copy(update={"importance": 0.9})

    with pytest.raises(NotFoundError):
        edits._update(server, TENANT, fact.id, MAYA, "memory.updated", None, erase_first)
    for memory in (server, cli):
        assert memory.store.get_facts(TENANT, [fact.id]) == []
