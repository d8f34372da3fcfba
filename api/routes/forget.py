"""``POST /v1/forget``: hard deletion for privacy, audit-logged."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request

from api.deps import EventsDep, MemoryDep, Tenant
from api.errors import PROBLEMS
from api.limits import run_sync
from api.schemas import ForgetBody
from graphmem import manage
from graphmem.events import Event, EventBus
from graphmem.manage import Erasure
from graphmem.memory import Memory

audit = logging.getLogger("graphmem.audit")
router = APIRouter(tags=["forget"], responses=PROBLEMS)


def _erase(memory: Memory, bus: EventBus, tenant: str, body: ForgetBody) -> Erasure:
    options = {"dry_run": body.dry_run}
    if body.entity_id is not None:
        target = f"entity {body.entity_id}"
        report = manage.erase_entity(memory, tenant, body.scope, body.entity_id,
                                     delete_sources=body.delete_sources, **options)
    elif body.topic is not None:
        target = "topic"  # the topic text itself may be the private thing: not logged
        report = manage.erase_topic(memory, tenant, body.scope, body.topic,
                                    min_score=body.min_score,
                                    delete_sources=body.delete_sources, **options)
    else:
        target = "whole scope"
        report = manage.erase_scope(memory, tenant, body.scope, **options)
    audit.info("forget tenant=%s scope=%s target=%s dry_run=%s facts=%d entities=%d episodes=%d",
               tenant, body.scope.key, target, body.dry_run, report.facts, report.entities,
               report.episodes)
    if not body.dry_run:
        bus.publish_all(tenant, [Event(type="memory.deleted", memory_id=fact_id)
                                 for fact_id in report.fact_ids])
    return report


@router.post("/v1/forget", response_model=Erasure)
async def forget(body: ForgetBody, request: Request, tenant: Tenant, memory: MemoryDep,
                 bus: EventsDep) -> Erasure:
    """Erase for good: a scope, an entity (with every fact touching it), or a topic.

    By default the conversations the erased facts came from are deleted too
    (``delete_sources``); other facts from them stay, without the reference.
    Try ``dry_run`` first. This cannot be undone.
    """
    return await run_sync(request, _erase, memory, bus, tenant, body)
