"""Two processes on one SQLite file: each store's in-memory mirror follows the other's writes.

Two ``EmbeddedStore`` objects on one file stand for two processes here (each has its
own connection, which is what ``PRAGMA data_version`` tells apart); the process test
with a real server and the CLI is in tests/api/test_scale_out.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphmem.embed.hashed import HashEmbedder
from graphmem.extract.rules import RuleExtractor
from graphmem.ingest.inputs import FactInput
from graphmem.memory import Memory
from graphmem.manage.edits import forget_fact
from graphmem.models import Fact, Scope
from graphmem.search.models import SearchRequest
from graphmem.store.base import FactQuery
from graphmem.store.embedded import EmbeddedStore
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
