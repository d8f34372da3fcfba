"""The profile: a narrative of what is known about the scope's owner, versioned."""

from __future__ import annotations

from fastapi import APIRouter, Request

from api.deps import MemoryDep, ScopeQuery, Tenant
from api.errors import PROBLEMS
from api.limits import run_sync
from api.schemas_lifecycle import ProfileHistory, ProfileRefreshBody
from graphmem.lifecycle.profile import Profile, ProfileRefresh, current_profile, profile_history
from graphmem.lifecycle.profile import refresh_profile as refresh
from graphmem.memory import Memory
from graphmem.lifecycle.writer import Writer

router = APIRouter(prefix="/v1/profile", tags=["profile"], responses=PROBLEMS)


@router.get("", response_model=Profile)
async def get_profile(request: Request, tenant: Tenant, memory: MemoryDep,
                      scope: ScopeQuery) -> Profile:
    """The current version; version 0 with an empty text when there is none yet."""
    return await run_sync(request, current_profile, memory, tenant, scope)


@router.get("/history", response_model=ProfileHistory)
async def history(request: Request, tenant: Tenant, memory: MemoryDep,
                  scope: ScopeQuery) -> ProfileHistory:
    """Every version, oldest first."""
    return ProfileHistory(versions=await run_sync(request, profile_history, memory, tenant, scope))


def _refresh(memory: Memory, writer: Writer, tenant: str,
             body: ProfileRefreshBody) -> ProfileRefresh:
    return refresh(memory, tenant, body.scope, writer=writer, force=body.force,
                   dry_run=body.dry_run)


@router.post("/refresh", response_model=ProfileRefresh)
async def refresh_profile(body: ProfileRefreshBody, request: Request, tenant: Tenant,
                          memory: MemoryDep) -> ProfileRefresh:
    """Rewrite the profile from current memory (``force``, the default), or only if due.
    A rewrite that says nothing new keeps the current version (``changed`` false)."""
    return await run_sync(request, _refresh, memory, request.app.state.writer, tenant, body)
