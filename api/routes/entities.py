"""Entities: find them, and walk what is known about them."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, Field, ValidationInfo, field_validator

from api.deps import MemoryDep, OptionalScope, ScopeQuery, Tenant
from api.errors import PROBLEMS
from api.limits import run_sync
from api.schemas import (
    STRICT,
    EntityHitOut,
    EntityOut,
    EntitySearchOut,
    MemoryOut,
    NeighborsOut,
    TimelineOut,
    memories,
)
from graphmem import manage
from graphmem.ingest.split import split_entity
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
                        memories=memories(found.facts, as_of), hops=found.hops)


Ids = list[Annotated[str, Field(min_length=1, max_length=256)]]


class SplitBody(BaseModel):
    """The episodes (or memories) whose mentions of the entity were someone else."""

    model_config = STRICT

    episode_ids: Ids = Field(default_factory=list, max_length=1000, description=(
        "server or client episode ids; what only they said moves to a new entity"))
    fact_ids: Ids = Field(default_factory=list, max_length=1000, validate_default=True,
                          description="memories about the entity that move too")

    @field_validator("fact_ids")
    @classmethod
    def _some(cls, value: list[str], info: ValidationInfo) -> list[str]:
        if not value and not info.data.get("episode_ids"):
            raise ValueError("episode_ids or fact_ids must name what to split off")
        return value


class SplitOut(BaseModel):
    entity: EntityOut
    new_entity: EntityOut
    moved: list[MemoryOut]
    reopened: list[MemoryOut] = Field(description="memories the wrong merge had closed")


def _split(memory: Memory, tenant: str, entity_id: str, body: SplitBody,
           scope: Scope | None) -> SplitOut:
    episodes = [manage.get_episode(memory, tenant, e, scope).id for e in body.episode_ids]
    done = split_entity(memory, tenant, entity_id, episodes, fact_ids=body.fact_ids, scope=scope)
    return SplitOut(entity=EntityOut.of(done.entity), new_entity=EntityOut.of(done.new_entity),
                    moved=memories(done.moved), reopened=memories(done.reopened))


@router.post("/{entity_id}/split", response_model=SplitOut)
async def split(entity_id: EntityId, body: SplitBody, request: Request, tenant: Tenant,
                memory: MemoryDep, scope: OptionalScope) -> SplitOut:
    """Undo a wrong merge: what the given episodes alone said about the entity moves to a
    new entity of the same name, and the memories it had closed reopen."""
    return await run_sync(request, _split, memory, tenant, entity_id, body, scope)
