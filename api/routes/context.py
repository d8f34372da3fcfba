"""``POST /v1/context``: the memory block an assistant puts in its prompt."""

from __future__ import annotations

from fastapi import APIRouter, Request

from api.deps import MemoryDep, Tenant
from api.errors import PROBLEMS
from api.limits import run_sync
from api.schemas import ContextBody, ContextOut
from graphmem.embed.tokens import TokenCounter
from graphmem.search.context import ContextRequest, assemble_context

router = APIRouter(tags=["context"], responses=PROBLEMS)


@router.post("/v1/context", response_model=ContextOut)
async def context(body: ContextBody, request: Request, tenant: Tenant,
                  memory: MemoryDep) -> ContextOut:
    """Relevant memories grouped by category, within ``token_budget`` tokens."""
    counter: TokenCounter = request.app.state.token_counter
    built = await run_sync(request, assemble_context, memory.engine, counter.count, tenant,
                           ContextRequest.model_validate(body.model_dump()))
    return ContextOut(prompt=built.prompt, items=built.items, sections=built.sections,
                      tokens=built.tokens, token_budget=built.token_budget)
