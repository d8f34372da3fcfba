"""Memory change events, fanned out per tenant to live subscribers (the SSE stream).

An :class:`EventBus` is an ordinary object: the REST app holds one on
``app.state`` and nothing here is module state. ``publish`` may be called from
any thread (ingestion runs in worker threads); each subscriber is an asyncio
queue on its own event loop, fed with ``call_soon_threadsafe``. Subscribers
are kept per tenant, so a tenant can only ever receive its own events.

>>> bus = EventBus()
>>> async def listen():                                        # doctest: +SKIP
...     subscription = bus.subscribe("acme")
...     async for event in subscription:
...         print(event.type, event.memory_id)
>>> bus.publish("acme", Event(type="memory.created", memory_id="fact_1"))  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from graphmem.edit.changes import Change
from graphmem.ingest.pipeline import IngestResult, changes_of
from graphmem.lifecycle.todos import Todo
from graphmem.models import Fact, new_id, utcnow

EventType = Literal[
    "memory.created", "memory.updated", "memory.superseded", "memory.forgotten",
    "memory.restored", "memory.deleted", "todo.completed", "todo.cancelled", "todo.expired",
    "todo.reminder",
]


class Event(BaseModel):
    """One change to one memory (fact), or to a todo (``memory_id`` is the todo's id)."""

    id: str = Field(default_factory=lambda: new_id("evt"))
    type: EventType
    at: datetime = Field(default_factory=utcnow)
    memory_id: str
    episode_id: str | None = None
    memory: Fact | None = None
    todo: Todo | None = None


class Subscription:
    """A live feed of one tenant's events; iterate it with ``async for``, then :meth:`close`."""

    def __init__(self, bus: EventBus, tenant: str, loop: asyncio.AbstractEventLoop,
                 max_queue: int) -> None:
        self.bus = bus
        self.tenant = tenant
        self.loop = loop
        self.queue: asyncio.Queue[Event] = asyncio.Queue(maxsize=max_queue)
        self.dropped = 0

    def put(self, event: Event) -> None:
        # a slow reader loses its oldest events rather than stalling every publisher
        if self.queue.full():
            self.queue.get_nowait()
            self.dropped += 1
        self.queue.put_nowait(event)

    def __aiter__(self) -> AsyncIterator[Event]:
        return self

    async def __anext__(self) -> Event:
        return await self.queue.get()

    def close(self) -> None:
        self.bus._remove(self.tenant, self)


class EventBus:
    """Per-tenant publish/subscribe for memory events; see the module docstring."""

    def __init__(self, *, max_queue: int = 1000) -> None:
        self.max_queue = max_queue
        self._subscribers: dict[str, set[Subscription]] = {}
        self._lock = threading.Lock()

    def subscriber_count(self, tenant: str) -> int:
        with self._lock:
            return len(self._subscribers.get(tenant, ()))

    def publish(self, tenant: str, event: Event) -> None:
        """Deliver ``event`` to the current subscribers of ``tenant``; thread-safe, never blocks."""
        with self._lock:
            targets = list(self._subscribers.get(tenant, ()))
        for sub in targets:
            try:
                sub.loop.call_soon_threadsafe(sub.put, event)
            except RuntimeError:  # the subscriber's loop has closed
                self._remove(tenant, sub)

    def publish_all(self, tenant: str, events: list[Event]) -> None:
        for event in events:
            self.publish(tenant, event)

    def subscribe(self, tenant: str) -> Subscription:
        """Start receiving ``tenant``'s events; call from a running event loop.

        The subscription is registered when this returns, so nothing published
        afterwards is missed.
        """
        sub = Subscription(self, tenant, asyncio.get_running_loop(), self.max_queue)
        with self._lock:
            self._subscribers.setdefault(tenant, set()).add(sub)
        return sub

    def _remove(self, tenant: str, sub: Subscription) -> None:
        with self._lock:
            subs = self._subscribers.get(tenant)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subscribers[tenant]


def event_of(change: Change, at: datetime) -> Event | None:
    """The event a committed change is announced as (None for an audit-only change)."""
    if change.kind is None:
        return None
    return Event(type=change.kind, at=at, memory_id=change.target, episode_id=change.episode_id,
                 memory=change.fact.public() if change.fact else None)


def events_for(result: IngestResult) -> list[Event]:
    """The events an ingestion (or an episode deletion) caused, in a stable order."""
    at = utcnow()
    return [e for c in changes_of(result) if (e := event_of(c, at)) is not None]


def reminder_event(todo: Todo, at: datetime) -> Event:
    """``todo.reminder``: the todo's reminder time has come (sent once; see lifecycle.reminders)."""
    return Event(type="todo.reminder", at=at, memory_id=todo.id, todo=todo)
