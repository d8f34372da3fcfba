"""Probes: ``/health`` (the process answers) and ``/ready`` (so does the store)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from api.deps import MemoryDep
from api.errors import NotReady, documented
from api.limits import run_sync
from api.schemas import Health
from graphmem import manage

router = APIRouter(tags=["health"])


@router.get("/health", response_model=Health)
async def health() -> Health:
    """Alive; needs no API key."""
    return Health(status="ok")


@router.get("/ready", response_model=Health, responses=documented(503, 504))
async def ready(request: Request, memory: MemoryDep) -> Health:
    """The store answers a read, the models are loaded and the store's first queries are
    prepared, or preparing them failed (logged; both in the background at start-up:
    :mod:`graphmem.warm_up`); 503 otherwise. Needs no API key."""
    await run_sync(request, manage.ping, memory, request.app.state.settings.default_tenant)
    if not request.app.state.warmed.is_set():
        raise NotReady("the models are still loading or the store is warming up; retry shortly")
    return Health(status="ready")
