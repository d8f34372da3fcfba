"""``POST /v1/context``: the memory block an assistant puts in its prompt."""

from __future__ import annotations

from fastapi import APIRouter, Request

from api.deps import MemoryDep, Tenant
from api.errors import PROBLEMS
from api.limits import run_sync
from api.schemas import ContextBody, ContextOut
from graphmem.search.context import ContextRequest

router = APIRouter(tags=["context"], responses=PROBLEMS)


@router.post("/v1/context", response_model=ContextOut)
async def context(body: ContextBody, request: Request, tenant: Tenant,
                  memory: MemoryDep) -> ContextOut:
    """Profile, recent session summaries and relevant memories grouped by category, within
    ``token_budget`` tokens; ``as_of``/``as_known_at`` build it as it would have been then."""
    built = await run_sync(request, memory.context, tenant,
                           ContextRequest.model_validate(body.model_dump()))
    return ContextOut(prompt=built.prompt, items=built.items, sections=built.sections,
                      tokens=built.tokens, token_budget=built.token_budget)
