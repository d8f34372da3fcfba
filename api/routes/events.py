"""``GET /v1/events``: a tenant's memory changes as Server-Sent Events."""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import APIRouter
from pydantic import BaseModel, Field
from sse_starlette import EventSourceResponse

from api.deps import EventsDep, Tenant
from api.errors import PROBLEMS
from api.schemas import MemoryOut
from graphmem.events import Event, EventBus, EventType
from graphmem.lifecycle.todos import Todo
from graphmem.models import UtcDateTime

router = APIRouter(tags=["events"], responses=PROBLEMS)


class EventOut(BaseModel):
    id: str
    type: EventType
    at: UtcDateTime
    memory_id: str
    episode_id: str | None = None
    memory: MemoryOut | None = None
    todo: Todo | None = Field(None, description="the todo of a todo.reminder")

    @classmethod
    def of(cls, event: Event) -> EventOut:
        return cls(id=event.id, type=event.type, at=event.at, memory_id=event.memory_id,
                   episode_id=event.episode_id,
                   memory=MemoryOut.of(event.memory) if event.memory else None, todo=event.todo)


async def _stream(bus: EventBus, tenant: str) -> AsyncIterator[dict[str, str]]:
    subscription = bus.subscribe(tenant)
    try:
        yield {"event": "ready", "data": "{}"}  # subscribed: nothing published from now is missed
        async for event in subscription:
            data = EventOut.of(event).model_dump_json()
            yield {"event": event.type, "id": event.id, "data": data}
    finally:
        subscription.close()


@router.get("/v1/events", response_class=EventSourceResponse, responses={
    200: {"content": {"text/event-stream": {}}, "description": "an endless event stream"}})
async def events(tenant: Tenant, bus: EventsDep) -> EventSourceResponse:
    """Memory events of the caller's tenant (``memory.created``, ``.updated``,
    ``.superseded``, ``.forgotten``, ``.restored``, ``.deleted``), ``todo.completed``,
    ``.cancelled``, ``.expired``, and ``todo.reminder`` when a todo's reminder time comes,
    after one ``ready``. Every change made through this server's memory is sent, whatever
    made it (a route, MCP, a maintenance run, an import); changes another process makes
    in the same database are not. A reminder is sent once, by one of the processes serving
    the database."""
    return EventSourceResponse(_stream(bus, tenant), ping=15)
