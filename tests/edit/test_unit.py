"""graphmem.edit.unit: one edit is one batch, written when the block ends and announced after
the store committed it; a block that raises writes and announces nothing. On both stores."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem.edit.changes import Change, fact_changes
from graphmem.embed.base import Embedder
from graphmem.errors import ConflictError
from graphmem.extract.rules import RuleExtractor
from graphmem.ingest.inputs import FactInput
from graphmem.manage import correct_fact, forget_fact
from graphmem.memory import Memory
from graphmem.models import FactStatus, Scope
from graphmem.store.base import GraphStore, WriteBatch

ALICE = Scope(user_id="alice")


class Heard:
    """A sink that keeps what it hears and what the store held when it heard it."""

    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self.changes: list[Change] = []
        self.statuses_seen: dict[str, FactStatus] = {}

    def committed(self, tenant: str, at: datetime, changes: list[Change]) -> None:
        self.changes += changes
        ids = [c.target for c in changes if c.fact is not None]
        self.statuses_seen.update((f.id, f.status) for f in self.store.get_facts(tenant, ids))


@pytest.fixture
def tenant() -> str:
    return f"edit{uuid.uuid4().hex[:12]}"


@pytest.fixture
def heard(store: GraphStore) -> Heard:
    return Heard(store)


@pytest.fixture
def memory(store: GraphStore, embedder: Embedder, heard: Heard) -> Iterator[Memory]:
    memory = Memory(store, RuleExtractor(), embedder, sinks=[heard])
    yield memory
    memory.engine.close()


def _pizza(memory: Memory, tenant: str) -> str:
    [fact] = memory.add_facts(tenant, [FactInput(scope=ALICE, subject="Alice", predicate="LIKES",
                                                 object="pizza")]).created
    return fact.id


def test_changes_are_announced_after_the_store_committed_them(
        memory: Memory, tenant: str, heard: Heard) -> None:
    fact_id = _pizza(memory, tenant)
    assert [(c.kind, c.target) for c in heard.changes] == [("memory.created", fact_id)]
    forget_fact(memory, tenant, fact_id)
    assert [(c.kind, c.audit) for c in heard.changes[1:]] == [("memory.forgotten", "forget")]
    assert heard.statuses_seen[fact_id] is FactStatus.FORGOTTEN  # written before announced
    assert all(c.fact is not None and c.fact.embedding is None for c in heard.changes)


def test_a_failing_block_writes_nothing_and_announces_nothing(
        memory: Memory, store: GraphStore, tenant: str, heard: Heard) -> None:
    fact_id = _pizza(memory, tenant)
    heard.changes.clear()
    [before] = store.get_facts(tenant, [fact_id])
    with pytest.raises(RuntimeError, match="changed my mind"):
        with memory.edit(tenant) as edit:
            forgotten = before.model_copy(update={"status": FactStatus.FORGOTTEN})
            edit.write(WriteBatch(facts=[forgotten], delete_entity_ids=[before.object_id]))
            edit.record(fact_changes("memory.forgotten", [forgotten], audit="forget"))
            raise RuntimeError("changed my mind")
    assert store.get_facts(tenant, [fact_id]) == [before]
    assert store.get_entities(tenant, [before.object_id])
    assert heard.changes == []

    # a library operation that refuses halfway is the same: nothing written, nothing heard
    store.write(tenant, WriteBatch(facts=[before.model_copy(
        update={"status": FactStatus.ARCHIVED})]))
    with pytest.raises(ConflictError, match="archived"):
        forget_fact(memory, tenant, fact_id)
    assert store.get_facts(tenant, [fact_id])[0].status is FactStatus.ARCHIVED
    assert heard.changes == []


def test_a_dry_run_reads_and_stages_as_usual_and_leaves_no_trace(
        memory: Memory, store: GraphStore, tenant: str, heard: Heard) -> None:
    fact_id = _pizza(memory, tenant)
    heard.changes.clear()
    [before] = store.get_facts(tenant, [fact_id])
    with memory.ingestor.writes.edit(tenant, dry_run=True) as edit:
        editor = edit.timeline()
        editor.load_facts([before])
        editor.replace(before.model_copy(update={"status": FactStatus.FORGOTTEN}))
        outcome = editor.finish()
        assert [f.status for f in outcome.changed] == [FactStatus.FORGOTTEN]  # decided
        edit.write(WriteBatch(facts=outcome.changed, delete_entity_ids=[before.object_id]))
        edit.record(fact_changes("memory.forgotten", outcome.changed, audit="forget"))
    assert store.get_facts(tenant, [fact_id]) == [before]
    assert store.get_entities(tenant, [before.object_id])
    assert heard.changes == []


def test_an_edit_is_one_batch_and_embeds_new_facts(memory: Memory, store: GraphStore,
                                                   tenant: str) -> None:
    fact_id = _pizza(memory, tenant)
    [fact] = store.get_facts(tenant, [fact_id])
    with memory.edit(tenant) as edit:
        edit.write(WriteBatch(facts=[fact.model_copy(update={"importance": 0.9})]))
        edit.write(WriteBatch(facts=[fact.model_copy(update={"text": "Alice loves pizza.",
                                                             "embedding": None})]))
        assert store.get_facts(tenant, [fact_id]) == [fact]  # staged, not yet written
    [after] = store.get_facts(tenant, [fact_id])
    assert after.text == "Alice loves pizza." and after.importance == fact.importance
    assert after.embedding is not None and after.embedding != fact.embedding


class WritesFirst:
    """The store, but another writer's change lands just before this one's first write:
    what another process does when it commits between this edit's reads and its write."""

    def __init__(self, store: GraphStore, other: Callable[[], object]) -> None:
        self._store, self._other = store, other
        self.writes = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def write(self, tenant: str, batch: WriteBatch) -> None:
        self.writes += 1
        if self.writes == 1:
            self._other()
        self._store.write(tenant, batch)


def test_a_correction_that_meets_another_writer_is_decided_again(
        store: GraphStore, embedder: Embedder, tenant: str) -> None:
    other = Memory(store, RuleExtractor(), embedder)

    def job(company: str, year: int) -> FactInput:
        return FactInput(scope=ALICE, subject="Alice", predicate="WORKS_AT", object=company,
                         valid_from=datetime(year, 1, 1, tzinfo=UTC))

    [globex] = other.add_facts(tenant, [job("Globex", 2023)]).created
    racing = WritesFirst(store, lambda: other.add_facts(tenant, [job("Hooli", 2019)]))
    mine = Memory(racing, RuleExtractor(), embedder)  # type: ignore[arg-type]

    corrected = correct_fact(mine, tenant, globex.id, object="Initech")

    assert racing.writes == 2  # refused once (the timeline moved), then decided again
    timeline = sorted(store.facts_in_timelines(tenant, [globex.timeline_key]),
                      key=lambda f: f.valid_from)
    assert [f.object_name for f in timeline] == ["Hooli", "Globex", "Initech"]
    assert [f.object_name for f in timeline if f.valid_until is None] == ["Initech"]
    assert corrected.superseded is not None and corrected.superseded.id == globex.id
    other.engine.close()
    mine.engine.close()
