"""Memories (facts): browse, add by hand, inspect, correct, forget and restore."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request

from api.deps import MemoryDep, OptionalScope, ScopeQuery, Tenant
from api.errors import PROBLEMS
from api.limits import run_ingestion, run_sync
from api.schemas import (
    AddMemoryBody,
    Corrected,
    ExtractBody,
    IngestOut,
    MemoryDetail,
    MemoryList,
    MemoryOut,
    PatchBody,
    StatsOut,
    memories,
)
from graphmem import manage
from graphmem.extract.base import Extraction
from graphmem.memory import Memory
from graphmem.errors import ValidationError
from graphmem.models import Category, CleanText, Fact, FactStatus, Scope, UtcDateTime
from graphmem.store.base import FactQuery
from graphmem.temporal import TimeFilter

router = APIRouter(prefix="/v1/memories", tags=["memories"], responses=PROBLEMS)
MemoryId = Annotated[str, Path(max_length=256)]


@router.get("", response_model=MemoryList)
async def list_memories(
    request: Request, tenant: Tenant, memory: MemoryDep, scope: ScopeQuery,
    category: Category | None = None,
    status: Literal["active", "forgotten"] | None = None,
    as_of: Annotated[UtcDateTime | None, Query(description="only memories valid then")] = None,
    valid_at: Annotated[UtcDateTime | None, Query(
        deprecated=True, description="the old name of as_of")] = None,
    include_history: bool = False,
    entity_id: Annotated[CleanText | None, Query(max_length=256)] = None,
    text: Annotated[CleanText | None, Query(max_length=500,
                                            description="substring of the text")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> MemoryList:
    """Memories of a scope, newest first, filtered.

    Only those valid now, unless ``as_of`` or ``include_history`` says otherwise.
    """
    if as_of is not None and valid_at is not None and as_of != valid_at:
        raise ValidationError("as_of and valid_at (its deprecated alias) disagree; send as_of")
    query = FactQuery(
        scope_keys=scope.visible_keys, categories=[category] if category else None,
        statuses=[FactStatus(status)] if status else None, entity_id=entity_id,
        text_contains=text, limit=limit, offset=offset,
        time=TimeFilter(as_of=as_of or valid_at, include_history=include_history))
    facts = await run_sync(request, memory.list_facts, tenant, query)
    return MemoryList(memories=memories(facts, query.time.as_of), limit=limit, offset=offset)


def _add(memory: Memory, tenant: str, body: AddMemoryBody) -> IngestOut:
    if body.structured:
        result = memory.add_facts(tenant, [body.to_fact()])
    else:
        result = memory.add_episode(tenant, body.to_episode())
    return IngestOut.of(result)


@router.post("", status_code=201, response_model=IngestOut)
async def add_memory(body: AddMemoryBody, request: Request, tenant: Tenant,
                     memory: MemoryDep) -> IngestOut:
    """Add a memory by hand: ``subject``/``predicate``/``object`` as given, or a ``text``
    sentence run through the extractor (stored as a text episode)."""
    return await run_ingestion(request, _add, memory, tenant, body)


@router.get("/stats", response_model=StatsOut)
async def stats(request: Request, tenant: Tenant, memory: MemoryDep,
                scope: ScopeQuery) -> StatsOut:
    """Counts by status and category, and facts recorded per month."""
    grown = await run_sync(request, manage.growth, memory, tenant, scope)
    return StatsOut(stats=grown.stats, facts_by_month=grown.facts_by_month)


@router.post("/extract", response_model=Extraction)
async def extract(body: ExtractBody, request: Request, tenant: Tenant,
                  memory: MemoryDep) -> Extraction:
    """Dry run: what the extractor finds in an episode. Nothing is stored."""
    return await run_ingestion(request, manage.preview_extraction, memory, tenant, body)


def _detail(memory: Memory, tenant: str, memory_id: str, scope: Scope | None) -> MemoryDetail:
    fact = manage.get_fact(memory, tenant, memory_id, scope)
    return MemoryDetail(memory=MemoryOut.of(fact),
                        chain=memories(manage.supersession_chain(memory, tenant, fact)),
                        sources=manage.provenance(memory, tenant, fact))


@router.get("/{memory_id}", response_model=MemoryDetail)
async def get_memory(memory_id: MemoryId, request: Request, tenant: Tenant, memory: MemoryDep,
                     scope: OptionalScope) -> MemoryDetail:
    """One memory, its supersession chain and the messages it came from."""
    return await run_sync(request, _detail, memory, tenant, memory_id, scope)


def _patch(memory: Memory, tenant: str, memory_id: str, body: PatchBody,
           scope: Scope | None) -> Corrected:
    superseded: Fact | None = None
    fact_id = memory_id
    if body.corrects:
        correction = manage.correct_fact(memory, tenant, memory_id, object=body.object,
                                         text=body.text, category=body.category, scope=scope,
                                         since=body.since)
        superseded, fact_id = correction.superseded, correction.memory.id
    if body.importance is not None:
        fact = manage.set_importance(memory, tenant, fact_id, body.importance, scope)
    else:
        fact = manage.get_fact(memory, tenant, fact_id)
    return Corrected(memory=MemoryOut.of(fact),
                     superseded=MemoryOut.of(superseded) if superseded else None)


@router.patch("/{memory_id}", response_model=Corrected)
async def patch_memory(memory_id: MemoryId, body: PatchBody, request: Request, tenant: Tenant,
                       memory: MemoryDep, scope: OptionalScope) -> Corrected:
    """Change importance, or correct the content: a new ``object`` is a new memory that
    supersedes this one (which stays in the history); new wording or category for the
    same value edits it in place."""
    return await run_sync(request, _patch, memory, tenant, memory_id, body, scope)


def _status(memory: Memory, tenant: str, memory_id: str, scope: Scope | None,
            forget: bool) -> MemoryOut:
    change = manage.forget_fact if forget else manage.restore_fact
    return MemoryOut.of(change(memory, tenant, memory_id, scope))


@router.delete("/{memory_id}", response_model=MemoryOut)
async def forget_memory(memory_id: MemoryId, request: Request, tenant: Tenant, memory: MemoryDep,
                        scope: OptionalScope) -> MemoryOut:
    """Soft forget: hidden from search and lists, kept, restorable. ``POST /v1/forget`` erases."""
    return await run_sync(request, _status, memory, tenant, memory_id, scope, True)


@router.post("/{memory_id}/restore", response_model=MemoryOut)
async def restore_memory(memory_id: MemoryId, request: Request, tenant: Tenant,
                         memory: MemoryDep, scope: OptionalScope) -> MemoryOut:
    """Undo a soft forget."""
    return await run_sync(request, _status, memory, tenant, memory_id, scope, False)
