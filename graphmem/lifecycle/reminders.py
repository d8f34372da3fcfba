"""Reminders that fire: each pending todo's reminder is sent once, at its time.

A reminder is scheduled when its todo is written (``remind_at``, else the due
time; see :class:`~graphmem.store.base.Reminder`). :func:`fire_due` is one
sweep: it takes the reminders whose time has come, claims each one in the
store (a compare-and-set, so of several processes serving one database
exactly one sends it, and nothing is sent again after a restart) and returns
the todos to announce. A todo closed before its time is claimed too, silently,
so it leaves the queue. The server runs the sweep every few seconds
(:mod:`api.scheduler`) and publishes ``todo.reminder`` events.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel

from graphmem.lifecycle.todos import Todo, TodoStatus, get_todo
from graphmem.memory import Memory


class DueReminder(BaseModel):
    """A reminder this process won: whose it is and the todo as it stands."""

    tenant: str
    todo: Todo


def fire_due(memory: Memory, *, now: datetime | None = None, limit: int = 100) -> list[DueReminder]:
    """Claim the reminders due by ``now``; returns those this caller must announce."""
    now = now or memory.clock()
    won: list[DueReminder] = []
    for reminder in memory.store.due_reminders(now, limit):
        todo = get_todo(memory, reminder.tenant, reminder.todo_id, now=now)
        if not memory.store.claim_reminder(reminder.tenant, reminder.todo_id, now):
            continue  # another process sent it
        if todo is not None and todo.status is TodoStatus.PENDING:
            won.append(DueReminder(tenant=reminder.tenant, todo=todo))
    return won
