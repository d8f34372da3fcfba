"""Todos: extracted or added, due and overdue, completed by API or by conversation, expired."""

from __future__ import annotations

from datetime import timedelta

import pytest

from graphmem.errors import ConflictError, ValidationError
from graphmem.lifecycle.policy import TodoPolicy
from graphmem.lifecycle.todo_match import says_done
from graphmem.lifecycle.todos import (
    TodoStatus,
    add_todo,
    close_todo,
    complete_by_conversation,
    complete_from_episode,
    due_todos,
    expire_overdue,
    list_todos,
    overdue_todos,
)
from graphmem.manage import supersession_chain
from graphmem.memory import Memory
from tests.lifecycle.conftest import ALICE, START, Clock
from tests.lifecycle.helpers import chat, stored


def states(memory: Memory, tenant: str) -> dict[str, str]:
    return {t.description: t.status.value + (" overdue" if t.overdue else "")
            for t in list_todos(memory, tenant, ALICE)}


def test_extracted_todo_is_due_then_overdue_then_completed_by_conversation(
        memory: Memory, tenant: str, clock: Clock) -> None:
    chat(memory, tenant, "Remind me to send the report on Friday.", "Sure, I will remind you.")
    [todo] = list_todos(memory, tenant, ALICE)
    assert (todo.description, todo.status, todo.assignee, todo.creator) == (
        "send the report", TodoStatus.PENDING, "Alice", "Alice")
    assert todo.due is not None and todo.due > START and todo.remind_at == todo.due
    assert due_todos(memory, tenant, ALICE, until=START + timedelta(days=7)) == [todo]
    assert overdue_todos(memory, tenant, ALICE) == []

    clock.advance(days=8)
    assert states(memory, tenant) == {"send the report": "pending overdue"}
    reply = chat(memory, tenant, "I sent the report to Bob this morning.", "Great!")
    closed = complete_from_episode(memory, tenant, reply.episode_id or "")
    assert [t.id for t in closed] == [todo.id]
    assert states(memory, tenant) == {"send the report": "completed"}
    [done] = list_todos(memory, tenant, ALICE)
    assert done.closed_at == clock.now
    chain = supersession_chain(memory, tenant, stored(memory, tenant, todo.id))
    assert [f.predicate for f in chain] == ["TODO"]  # due had passed: the todo had already ended
    history = memory.history(tenant, ALICE, "Alice", "TODO_DONE")
    assert [f.text for f in history] == ["Alice has done: send the report."]
    assert history[0].message_ids == [f"{reply.episode_id}:0"]  # where Alice said so


def test_added_todo_keeps_creator_reminder_and_completes_before_due(
        memory: Memory, tenant: str, clock: Clock) -> None:
    due = START + timedelta(days=3)
    todo = add_todo(memory, tenant, ALICE, "book the flights", due=due, creator="Bob",
                    remind_at=START + timedelta(days=2))
    assert (todo.creator, todo.assignee, todo.remind_at, todo.due) == (
        "Bob", "alice", START + timedelta(days=2), due)
    assert due_todos(memory, tenant, ALICE, until=START) == []  # not due, no reminder yet
    clock.advance(days=2)
    assert [t.id for t in due_todos(memory, tenant, ALICE, until=clock.now)] == [todo.id]

    closed = close_todo(memory, tenant, todo.id, scope=ALICE)
    assert closed.status is TodoStatus.COMPLETED
    assert states(memory, tenant) == {"book the flights": "completed"}
    old = stored(memory, tenant, todo.id)
    assert old.valid_until == clock.now and old.superseded_by is not None  # ended when done
    with pytest.raises(ConflictError, match="completed"):
        close_todo(memory, tenant, todo.id)


def test_todo_rules(memory: Memory, tenant: str) -> None:
    with pytest.raises(ValidationError, match="not in the future"):
        add_todo(memory, tenant, ALICE, "water the plants", due=START - timedelta(hours=1))
    with pytest.raises(ValidationError, match="needs a description"):
        add_todo(memory, tenant, ALICE, "  ")
    todo = add_todo(memory, tenant, ALICE, "water the plants")
    cancelled = close_todo(memory, tenant, todo.id, status=TodoStatus.CANCELLED)
    assert cancelled.status is TodoStatus.CANCELLED and todo.due is None


def test_sweep_completes_and_expires(memory: Memory, tenant: str, clock: Clock) -> None:
    call = add_todo(memory, tenant, ALICE, "call the dentist", due=START + timedelta(days=1))
    renew = add_todo(memory, tenant, ALICE, "renew the passport", due=START + timedelta(days=2))
    clock.advance(days=1)
    chat(memory, tenant, "I haven't renewed the passport yet.", "Don't forget!")
    chat(memory, tenant, "I called the dentist, appointment is on Monday.", "Good.")
    done = complete_by_conversation(memory, tenant, ALICE)
    assert [t.id for t in done] == [call.id]
    assert complete_by_conversation(memory, tenant, ALICE) == []  # idempotent

    clock.advance(days=10)
    assert expire_overdue(memory, tenant, ALICE, policy=TodoPolicy()) == []  # 9 days overdue
    clock.advance(days=30)
    expired = expire_overdue(memory, tenant, ALICE)
    assert [t.id for t in expired] == [renew.id]
    assert states(memory, tenant) == {"call the dentist": "completed",
                                      "renew the passport": "expired"}


@pytest.mark.parametrize(("todo", "message", "done"), [
    ("send the report", "I sent the report to Bob.", True),
    ("send the report", "I've sent the reports.", True),
    ("send the report", "I finished the report.", True),
    ("send the report", "I haven't sent the report yet.", False),
    ("send the report", "I will send the report tomorrow.", False),
    ("send the report", "I sent the invoice.", False),
    ("renew my passport", "Renewed my passport today!", True),
    ("call mom", "I called mom last night.", True),
    ("submit the tax return", "I submitted the tax return.", True),
    ("buy milk", "I bought milk and eggs.", True),
    ("buy milk", "I forgot to buy milk.", False),
    ("exercise", "I exercised for an hour.", True),
])
def test_says_done(todo: str, message: str, done: bool) -> None:
    assert says_done(todo, message) is done
