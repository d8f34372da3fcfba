"""Decay: what is forgotten, demoted, spared, restored and purged — before and after."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest

from graphmem.edit.audit import AuditLog
from graphmem.edit.publish import EventSink
from graphmem.lifecycle.decay import decay, forgotten, forgotten_since, relevance, restore
from graphmem.lifecycle.policy import DecayPolicy
from graphmem.lifecycle.todos import add_todo
from graphmem.memory import Memory
from graphmem.models import Cardinality, Category, FactStatus
from graphmem.search.models import SearchRequest
from tests.lifecycle.conftest import ALICE, START, Clock
from tests.lifecycle.helpers import add, by_status, stored

EVENT = "Alice visited Lisbon."
GOAL = "Alice wants to learn Rust."
CORE = "Alice works at Acme."


@pytest.fixture
def seeded(memory: Memory, tenant: str) -> dict[str, str]:
    ids = {
        CORE: add(memory, tenant, "WORKS_AT", "Acme", text=CORE).id,
        EVENT: add(memory, tenant, "HAS_VISITED", "Lisbon", text=EVENT,
                   category=Category.EVENT).id,
        GOAL: add(memory, tenant, "GOAL", "learn Rust", text=GOAL, category=Category.GOAL,
                  importance=0.9).id,
    }
    ids["todo"] = add_todo(memory, tenant, ALICE, "file the taxes",
                           due=START + timedelta(days=400)).id
    return ids


def test_relevance_is_the_issue_formula_for_working_memories(memory: Memory, tenant: str,
                                                              seeded: dict[str, str]) -> None:
    event = stored(memory, tenant, seeded[EVENT])
    later = START + timedelta(days=100)
    assert relevance(event, later) == pytest.approx(math.exp(-1.0) * 1.0 * 0.5)
    accessed = event.model_copy(update={"access_count": 3, "last_accessed": START})
    assert relevance(accessed, later) == pytest.approx(math.exp(-1.0) * (1 + math.log(4)) * 0.5)
    assert relevance(stored(memory, tenant, seeded[CORE]), later) is None  # core: permanent
    todo = stored(memory, tenant, seeded["todo"])  # temporary: 30/7 times faster
    assert relevance(todo, START + timedelta(days=7)) == pytest.approx(math.exp(-0.3) * 0.7)


def test_demote_then_forget_then_restore(memory: Memory, tenant: str, clock: Clock,
                                         seeded: dict[str, str], tmp_path: object) -> None:
    audit = AuditLog(f"{tmp_path}/audit.jsonl")
    memory.attach(EventSink(audit=audit))  # the one audit trail
    before = by_status(memory, tenant)
    assert set(before.values()) == {"active"}

    clock.advance(days=100)  # event: 0.5 * e^-1 = 0.18 -> demoted; goal: 0.9 * e^-1 = 0.33
    report = decay(memory, tenant, ALICE)
    assert [c.text for c in report.demoted] == [EVENT]
    assert report.demoted[0].importance_before == 0.5
    assert report.demoted[0].importance_after == pytest.approx(0.15 / math.exp(-1.0), abs=1e-3)
    assert report.forgotten == []
    assert by_status(memory, tenant) == before  # demotion hides nothing

    clock.advance(days=150)  # day 250: both fall below 0.1; the core fact and the todo stay
    report = decay(memory, tenant, ALICE)
    assert sorted(c.text for c in report.forgotten) == [EVENT, GOAL]
    after = by_status(memory, tenant)
    assert after[EVENT] == after[GOAL] == "forgotten"
    assert after[CORE] == "active"
    assert after["Alice needs to file the taxes by 2026-04-07 09:00."] == "active"
    assert sorted(f.text for f in forgotten(memory, tenant, ALICE)) == [EVENT, GOAL]
    hits = memory.search(tenant, SearchRequest(scope=ALICE, query="Lisbon trip",
                                               include_turns=False)).results
    memory.engine.close()  # let the access statistics land before the next write
    assert EVENT not in [h.text for h in hits]  # hidden from recall

    restored = restore(memory, tenant, seeded[EVENT], scope=ALICE)
    assert restored.status is FactStatus.ACTIVE
    assert restored.last_accessed == clock.now and restored.importance == 0.5
    assert decay(memory, tenant, ALICE).changed == 0  # restoring counts as a use
    assert by_status(memory, tenant)[EVENT] == "active"
    assert [e.action for e in audit.entries(tenant=tenant)] == ["forget", "restore"]
    assert sorted(audit.entries(action="forget")[0].targets) == sorted(
        [seeded[EVENT], seeded[GOAL]])


def test_decay_is_idempotent(memory: Memory, tenant: str, clock: Clock,
                             seeded: dict[str, str]) -> None:
    clock.advance(days=100)
    first = decay(memory, tenant, ALICE)
    assert first.changed == 1
    assert decay(memory, tenant, ALICE).changed == 0
    clock.advance(days=200)
    assert decay(memory, tenant, ALICE).changed == 2
    assert decay(memory, tenant, ALICE).changed == 0


def test_dry_run_changes_nothing(memory: Memory, tenant: str, clock: Clock,
                                 seeded: dict[str, str]) -> None:
    clock.advance(days=300)
    report = decay(memory, tenant, ALICE, dry_run=True)
    assert len(report.forgotten) == 2
    assert set(by_status(memory, tenant).values()) == {"active"}


def test_purge_deletes_long_forgotten_memories_and_keeps_timelines(
        memory: Memory, tenant: str, clock: Clock) -> None:
    one = Cardinality.ONE
    old = add(memory, tenant, "TRAINING_FOR", "a 10k run", text="Alice trains for a 10k run.",
              category=Category.GOAL, cardinality=one, valid_from=START - timedelta(days=60))
    new = add(memory, tenant, "TRAINING_FOR", "a marathon", text="Alice trains for a marathon.",
              category=Category.GOAL, cardinality=one)
    ended = stored(memory, tenant, old.id).valid_until
    assert ended == START

    clock.advance(days=165)  # 0.5 * e^-1.65 < 0.1: forgotten since day 161
    memory.store.record_access(tenant, [old.id], clock.now)  # the old goal was looked at
    decay(memory, tenant, ALICE)
    assert stored(memory, tenant, new.id).status is FactStatus.FORGOTTEN
    since = forgotten_since(stored(memory, tenant, new.id))
    assert since is not None and START < since <= clock.now

    policy = DecayPolicy(purge_after_days=30)
    assert decay(memory, tenant, ALICE, policy=policy).purged == []  # not 30 days yet
    clock.advance(days=40)
    report = decay(memory, tenant, ALICE, policy=policy)
    assert [c.id for c in report.purged] == [new.id]
    assert memory.store.get_facts(tenant, [new.id]) == []
    # the superseded goal does not come back to life: it still ends where it ended
    assert stored(memory, tenant, old.id).valid_until == ended
    assert "Alice trains for a marathon." not in by_status(memory, tenant)
