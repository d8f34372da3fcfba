"""Reminders fire once: scheduled with their todo, claimed by one sweep, never re-sent."""

from __future__ import annotations

from datetime import timedelta

from graphmem.embed.base import Embedder
from graphmem.extract.rules import RuleExtractor
from graphmem.lifecycle.reminders import fire_due
from graphmem.lifecycle.todos import TodoStatus, add_todo, close_todo, list_todos
from graphmem.memory import Memory
from tests.lifecycle.conftest import ALICE, START, Clock
from tests.lifecycle.helpers import chat


def mine(memory: Memory, tenant: str) -> list[str]:
    return [d.todo.description for d in fire_due(memory, limit=10_000) if d.tenant == tenant]


def test_each_reminder_is_sent_once_at_its_time(memory: Memory, tenant: str, clock: Clock,
                                                 rules: RuleExtractor, embedder: Embedder) -> None:
    add_todo(memory, tenant, ALICE, "pay the rent", remind_at=START + timedelta(hours=1),
             due=START + timedelta(days=1))
    cancelled = add_todo(memory, tenant, ALICE, "book the hotel",
                         remind_at=START + timedelta(hours=1))
    chat(memory, tenant, "Remind me to call mom tomorrow.", "Sure.")
    [extracted] = [t for t in list_todos(memory, tenant, ALICE) if t.description == "call mom"]
    assert extracted.due is not None
    assert mine(memory, tenant) == []  # nothing is due yet

    close_todo(memory, tenant, cancelled.id, status=TodoStatus.CANCELLED)
    clock.advance(hours=2)
    assert {t.description: t.reminder_due for t in list_todos(memory, tenant, ALICE)} == {
        "pay the rent": True, "book the hotel": False, "call mom": False}
    other_process = Memory(memory.store, rules, embedder, clock=clock)
    assert mine(memory, tenant) == ["pay the rent"]  # the cancelled todo is retired silently
    assert mine(other_process, tenant) == []
    assert mine(memory, tenant) == []

    clock.now = extracted.due
    assert mine(other_process, tenant) == ["call mom"]  # an extracted todo: at its due time
    assert mine(memory, tenant) == []
    other_process.engine.close()


def test_a_backfilled_todo_that_was_due_long_ago_sends_nothing(
        memory: Memory, tenant: str, clock: Clock) -> None:
    chat(memory, tenant, "Remind me to call mom tomorrow.", "Sure.")
    clock.advance(days=400)
    chat(memory, tenant, "Remind me to water the plants tomorrow.", "Sure.",
         at=START + timedelta(days=30))
    assert mine(memory, tenant) == ["call mom"]  # late, but it was live when it was said
    assert mine(memory, tenant) == []
