"""Maintenance and session summaries: the lifecycle jobs of one scope, on demand."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from api.deps import MemoryDep, ScopeQuery, Tenant
from api.errors import PROBLEMS
from api.limits import run_sync
from api.schemas_lifecycle import MaintenanceBody, SummaryList, SummaryResult
from graphmem.lifecycle.maintenance import MaintenanceReport, maintain
from graphmem.lifecycle.policy import DecayPolicy, LifecyclePolicy
from graphmem.lifecycle.summaries import latest_summaries, summarize_session
from graphmem.memory import Memory
from graphmem.models import Scope
from graphmem.lifecycle.writer import Writer

router = APIRouter(tags=["lifecycle"], responses=PROBLEMS)


def _maintain(memory: Memory, writer: Writer, tenant: str,
              body: MaintenanceBody) -> MaintenanceReport:
    policy = LifecyclePolicy(decay=DecayPolicy(purge_after_days=body.purge_after_days))
    return maintain(memory, tenant, [body.scope], policy=policy, writer=writer,
                    dry_run=body.dry_run)


@router.post("/v1/maintenance", response_model=MaintenanceReport)
async def run_maintenance(body: MaintenanceBody, request: Request, tenant: Tenant,
                          memory: MemoryDep) -> MaintenanceReport:
    """Summarise ended sessions, expire episodes and overdue todos, decay, consolidate
    and refresh the profile of one scope. Try ``dry_run`` first."""
    return await run_sync(request, _maintain, memory, request.app.state.writer, tenant, body)


@router.get("/v1/summaries", response_model=SummaryList)
async def summaries(request: Request, tenant: Tenant, memory: MemoryDep, scope: ScopeQuery,
                    limit: Annotated[int, Query(ge=1, le=100)] = 3) -> SummaryList:
    """The latest session summaries visible in the scope, newest first."""
    found = await run_sync(request, latest_summaries, memory, tenant, scope, limit)
    return SummaryList(summaries=found)


def _summarize(memory: Memory, writer: Writer, tenant: str, scope: Scope,
               session_id: str) -> SummaryResult:
    summary = summarize_session(memory, tenant, scope, session_id, writer=writer)
    return SummaryResult(session_id=session_id, summary=summary)


@router.post("/v1/sessions/{session_id}/summary", response_model=SummaryResult)
async def summarize(session_id: Annotated[str, Path(max_length=256)], request: Request,
                    tenant: Tenant, memory: MemoryDep, scope: ScopeQuery) -> SummaryResult:
    """Summarise a session now, ended or not (idempotent: an unchanged session keeps its
    summary). 404 when the scope has no episodes in that session."""
    return await run_sync(request, _summarize, memory, request.app.state.writer, tenant,
                          scope, session_id)
