"""The reminder scheduler: one asyncio task per app, started and stopped by its lifespan.

Every ``reminder_poll_seconds`` it runs one sweep of
:func:`graphmem.lifecycle.reminders.fire_due` in a worker thread and publishes
a ``todo.reminder`` event for each reminder this process won. Several
processes may serve one database: the store's claim lets exactly one of them
send each reminder, so it reaches the subscribers of that process.
A failing sweep (the database briefly down) is logged and retried on the next tick.
"""

from __future__ import annotations

import asyncio
import logging

import anyio.to_thread

from graphmem.events import EventBus, reminder_event
from graphmem.lifecycle.reminders import fire_due
from graphmem.errors import GraphMemError
from graphmem.memory import Memory

log = logging.getLogger("graphmem.api")


class ReminderScheduler:
    def __init__(self, memory: Memory, bus: EventBus, *, interval: float) -> None:
        self.memory = memory
        self.bus = bus
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start sweeping on the running event loop (the app's lifespan calls this)."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="reminders")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    async def sweep(self) -> int:
        """One sweep; returns how many reminders this process sent."""
        fired = await anyio.to_thread.run_sync(lambda: fire_due(self.memory))
        for due in fired:
            self.bus.publish(due.tenant, reminder_event(due.todo, self.memory.clock()))
        return len(fired)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.sweep()
            except GraphMemError as err:
                log.warning("reminder sweep failed, retrying in %.1f s: %s", self.interval, err)
            except Exception:  # one bad record must not stop every later reminder
                log.exception("reminder sweep failed unexpectedly, retrying in %.1f s",
                              self.interval)
