"""Entities: find them, and walk what is known about them."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from api.deps import MemoryDep, OptionalScope, ScopeQuery, Tenant
from api.errors import PROBLEMS
from api.limits import run_sync
from api.schemas import (
    EntityHitOut,
    EntityOut,
    EntitySearchOut,
    NeighborsOut,
    TimelineOut,
    memories,
)
from graphmem import manage
from graphmem.memory import Memory
from graphmem.models import CleanText, Scope, UtcDateTime

router = APIRouter(prefix="/v1/entities", tags=["entities"], responses=PROBLEMS)
EntityId = Annotated[str, Path(max_length=256)]


@router.get("", response_model=EntitySearchOut)
async def search_entities(
    request: Request, tenant: Tenant, memory: MemoryDep, scope: ScopeQuery,
    query: Annotated[CleanText, Query(min_length=1, max_length=500)],
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
) -> EntitySearchOut:
    """Entities of a scope by name or alias, and by meaning."""
    hits = await run_sync(request, manage.search_entities, memory, tenant, scope, query, limit)
    return EntitySearchOut(results=[EntityHitOut(entity=EntityOut.of(h.entity), score=h.score,
                                                 channels=h.channels) for h in hits])


@router.get("/{entity_id}", response_model=EntityOut)
async def get_entity(entity_id: EntityId, request: Request, tenant: Tenant, memory: MemoryDep,
                     scope: OptionalScope) -> EntityOut:
    entity = await run_sync(request, manage.get_entity, memory, tenant, entity_id, scope)
    return EntityOut.of(entity)


def _timeline(memory: Memory, tenant: str, entity_id: str, scope: Scope | None) -> TimelineOut:
    entity = manage.get_entity(memory, tenant, entity_id, scope)
    facts = manage.entity_timeline(memory, tenant, entity_id, scope)
    return TimelineOut(entity=EntityOut.of(entity), memories=memories(facts))


@router.get("/{entity_id}/timeline", response_model=TimelineOut)
async def timeline(entity_id: EntityId, request: Request, tenant: Tenant, memory: MemoryDep,
                   scope: OptionalScope) -> TimelineOut:
    """Everything known about an entity, past and forgotten included, oldest first."""
    return await run_sync(request, _timeline, memory, tenant, entity_id, scope)


@router.get("/{entity_id}/neighbors", response_model=NeighborsOut)
async def neighbors(
    entity_id: EntityId, request: Request, tenant: Tenant, memory: MemoryDep,
    scope: OptionalScope, depth: Annotated[int, Query(ge=1, le=3)] = 1,
    as_of: Annotated[UtcDateTime | None, Query(description="the memories valid then")] = None,
) -> NeighborsOut:
    """Entities within ``depth`` hops and the memories (valid at ``as_of``) linking them."""
    found = await run_sync(request, manage.neighbors, memory, tenant, entity_id, depth=depth,
                           scope=scope, as_of=as_of)
    return NeighborsOut(entity=EntityOut.of(found.entity),
                        entities=[EntityOut.of(e) for e in found.entities],
                        memories=memories(found.facts), hops=found.hops)
