"""The REST app: ``create_app(settings, memory=None)`` builds everything it needs.

All state lives on ``app.state`` (settings, memory, event bus, jobs, rate
limit buckets), so two apps in one process share nothing. When no
``memory`` is given the app builds one from the settings and opens and
closes it with its lifespan; a memory passed in is the caller's to open and
close. While the app runs, its sink is attached to the memory: every change
made through that memory (a route, MCP, a maintenance run, an import, a CLI
command run in this process) is published on ``/v1/events`` and audited in
``settings.audit_log``.

>>> app = create_app(Settings(api_keys={sha256_hex("secret"): "acme"}))  # doctest: +SKIP
>>> uvicorn.run(app, host="127.0.0.1", port=8000)                        # doctest: +SKIP
"""

from __future__ import annotations

import ipaddress
import logging
import re
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import Depends, FastAPI
from fastapi_offline import FastAPIOffline

from api import errors, mcp, ui
from api.deps import known_query_only
from api.idempotency import Idempotency, document
from api.limits import BodySizeLimit, JsonDepthLimit, TokenBuckets
from api.routes import ROUTERS
from api.routes.jobs import JobRunner
from api.scheduler import ReminderScheduler
from graphmem.edit.audit import AuditLog
from graphmem.edit.publish import EventSink
from graphmem.errors import SetupError
from graphmem.events import EventBus
from graphmem.factory import build_memory, build_writer
from graphmem.memory import Memory
from graphmem.settings import Settings
from graphmem.warm_up import (WARM_UP_TENANT, prepare_other_searches, prepare_ready_searches,
                              rehearse_ingestion)

log = logging.getLogger("graphmem.api")
_SHA256 = re.compile(r"[0-9a-f]{64}")

DESCRIPTION = """A temporal knowledge-graph memory for AI assistants.

Authenticate with `Authorization: Bearer <key>` or `X-API-Key: <key>`. Every
error is an `application/problem+json` document."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def app_from_environment() -> FastAPI:
    """The app of one ``graphmem serve --workers N`` worker: settings from the environment."""
    return create_app(Settings())


def create_app(settings: Settings, memory: Memory | None = None) -> FastAPI:
    """Build the app; refuses (SetupError) to serve without API keys beyond loopback."""
    api_keys = {digest.lower(): tenant for digest, tenant in settings.api_keys.items()}
    if any(not _SHA256.fullmatch(digest) for digest in api_keys):
        raise SetupError("api_keys must map the sha256 hex digest of each key (64 hex digits) "
                         "to a tenant, never the key itself")
    if WARM_UP_TENANT in (*api_keys.values(), settings.default_tenant):
        raise SetupError(f"tenant {WARM_UP_TENANT!r} is the start-up warm-up's own (it must "
                         "hold nothing); name the tenant otherwise")
    if not api_keys:
        if not is_loopback(settings.host):
            raise SetupError(
                f"no API keys configured and host {settings.host!r} is not loopback: set "
                "GRAPHMEM_API_KEYS (sha256 hex of each key -> tenant) or bind to 127.0.0.1")
        log.warning("no API keys configured: local use only")
    owns_memory = memory is None
    mem = memory if memory is not None else build_memory(settings)
    jobs = JobRunner()
    warmed = threading.Event()
    stopping = threading.Event()

    def warm_up() -> None:
        try:
            mem.warm_up()
        except Exception:  # a background thread: log it, and /ready stays false
            log.exception("loading the models failed; /ready stays false")
            return
        # The store's first queries too (graphmem.warm_up), so that a load balancer sends no
        # request to a process that would make it wait seconds; then the rarer views, after.
        head_start(rehearse_ingestion)
        head_start(prepare_ready_searches)
        warmed.set()
        head_start(lambda memory: prepare_other_searches(memory, stopping))

    def head_start(step: Callable[[Memory], None]) -> None:
        """Run one warm-up step; one that fails only costs the first requests its time."""
        if stopping.is_set():
            return
        try:
            step(mem)
        except Exception:
            if not stopping.is_set():  # else the store closed under it: nothing went wrong
                log.warning("warming the store up failed", exc_info=True)

    bus = EventBus()
    sink = EventSink(bus, AuditLog(settings.audit_log) if settings.audit_log else None)
    reminders = ReminderScheduler(mem, bus, interval=settings.reminder_poll_seconds)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if owns_memory:
            await anyio.to_thread.run_sync(mem.open)
        mem.attach(sink)
        threading.Thread(target=warm_up, name="graphmem-warm-up", daemon=True).start()
        reminders.start()
        try:
            async with app.state.mcp.running():
                yield
        finally:
            stopping.set()
            await reminders.stop()
            jobs.shutdown()
            mem.detach(sink)
            if owns_memory:
                mem.close()

    # /docs and /redoc from files in the package: served offline, as graphmem is
    app = FastAPIOffline(title="graphmem", version="0.1.0", description=DESCRIPTION,
                         lifespan=lifespan)
    app.state.settings = settings
    app.state.api_keys = api_keys
    app.state.memory = mem
    app.state.writer = build_writer(settings)
    app.state.events = bus
    app.state.reminders = reminders
    app.state.jobs = jobs
    app.state.rate_limits = TokenBuckets(settings.rate_limit_per_minute)
    app.state.warmed = warmed
    errors.install(app)
    app.add_middleware(Idempotency)  # inside the body limits: it reads the body first
    app.add_middleware(JsonDepthLimit)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_request_bytes)
    for router in ROUTERS:
        app.include_router(router, dependencies=[Depends(known_query_only)])
    app.state.mcp = mcp.mount(app)
    ui.mount(app)  # the memory page, /ui
    document(app)
    return app
