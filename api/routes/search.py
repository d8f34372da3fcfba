"""Recall: ``POST /v1/memories/search``."""

from __future__ import annotations

from fastapi import APIRouter, Request

from api.deps import MemoryDep, Tenant
from api.errors import PROBLEMS
from api.limits import run_sync
from api.schemas import SearchBody, SearchOut

router = APIRouter(tags=["search"], responses=PROBLEMS)


@router.post("/v1/memories/search", response_model=SearchOut)
async def search(body: SearchBody, request: Request, tenant: Tenant,
                 memory: MemoryDep) -> SearchOut:
    """Hybrid, time-aware search; every result says which channels found it and why it holds.

    ``as_of`` asks what was true then; ``as_known_at`` what graphmem believed then.
    A ``temporary`` chat recalls nothing.
    """
    if body.temporary:
        return SearchOut(results=[])
    found = await run_sync(request, memory.search, tenant, body.to_request())
    return SearchOut(results=found.results, as_of=found.as_of, window=found.window)
