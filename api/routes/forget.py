"""``POST /v1/forget``: hard deletion for privacy, audit-logged."""

from __future__ import annotations

from fastapi import APIRouter, Request

from api.deps import MemoryDep, Tenant
from api.errors import PROBLEMS
from api.limits import run_sync
from api.schemas import ForgetBody
from graphmem import manage
from graphmem.manage.erasure import Erasure
from graphmem.memory import Memory

router = APIRouter(tags=["forget"], responses=PROBLEMS)


def _erase(memory: Memory, tenant: str, body: ForgetBody) -> Erasure:
    """Erasure announces and audits itself (see graphmem.manage.erasure)."""
    if body.entity_id is not None:
        return manage.erase_entity(memory, tenant, body.scope, body.entity_id,
                                   delete_sources=body.delete_sources, dry_run=body.dry_run)
    if body.topic is not None:
        return manage.erase_topic(memory, tenant, body.scope, body.topic,
                                  min_score=body.min_score, delete_sources=body.delete_sources,
                                  dry_run=body.dry_run)
    return manage.erase_scope(memory, tenant, body.scope, dry_run=body.dry_run)


@router.post("/v1/forget", response_model=Erasure)
async def forget(body: ForgetBody, request: Request, tenant: Tenant,
                 memory: MemoryDep) -> Erasure:
    """Erase for good: a scope, an entity (with every fact touching it), or a topic.

    By default the conversations the erased facts came from are deleted too
    (``delete_sources``); other facts from them stay, without the reference.
    Try ``dry_run`` first. This cannot be undone.
    """
    return await run_sync(request, _erase, memory, tenant, body)
