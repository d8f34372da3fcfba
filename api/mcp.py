"""``/mcp``: graphmem's MCP server over streamable HTTP, behind the REST API's keys.

Every HTTP request to ``/mcp`` is authenticated exactly like a REST call
(:func:`api.deps.tenant`: the same keys, tenants and rate limit, the same 401
problem document); the tenant is put on the request scope, where the tools
read it (:func:`caller_of`). A tool call therefore acts for the key that sent
it, never for a tenant named in its arguments. An MCP session is also bound
to the tenant that opened it: another tenant's key gets 404 for that session
id, as if it did not exist.

The optional ``X-Graphmem-User-Id`` / ``X-Graphmem-Group-Id`` headers say whose
memory a tool call means when the model names no ``user_id`` (an assistant's
config sets them once, like the key).

The SDK's session manager runs for the app's lifespan (:meth:`MCPEndpoint.running`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pydantic
from fastapi import FastAPI
from fastapi.security import HTTPAuthorizationCredentials
from fastapi.security.utils import get_authorization_scheme_param
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from starlette.requests import Request
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Send
from starlette.types import Scope as ASGIScope

from api import deps
from api.errors import APIError
from graphmem.errors import NotFoundError
from graphmem.mcp import Caller, build_server
from graphmem.mcp.tools import Ctx, field_errors
from graphmem.models import Scope

PATH = "/mcp"
CALLER = "graphmem_caller"
USER_HEADER, GROUP_HEADER = "x-graphmem-user-id", "x-graphmem-group-id"
SESSION_HEADER = "mcp-session-id"
#: Sessions end without telling us (idle timeout): keep ten times the SDK's live maximum,
#: forgetting the oldest, which are long dead by then.
MAX_SESSIONS = 100_000


def caller_of(ctx: Ctx) -> Caller:
    """The caller :class:`MCPEndpoint` authenticated; refuses a request it did not see."""
    state = getattr(ctx.request_context.request, "state", None)
    caller = getattr(state, CALLER, None)
    if not isinstance(caller, Caller):
        raise ToolError("this request was not authenticated")
    return caller


class BadHeader(APIError):
    status = 422


class NotRunning(APIError):
    status = 503


def _default_scope(request: Request) -> Scope | None:
    """The scope the headers name, if any; a bad id is a 422 naming the header."""
    user, group = request.headers.get(USER_HEADER), request.headers.get(GROUP_HEADER)
    if user is None and group is None:
        return None
    try:
        return Scope(user_id=user, group_id=group)
    except pydantic.ValidationError as err:
        raise BadHeader(f"X-Graphmem-User-Id / X-Graphmem-Group-Id: {field_errors(err)}") from err


async def _authenticate(request: Request) -> str:
    scheme, token = get_authorization_scheme_param(request.headers.get("authorization"))
    bearer = (HTTPAuthorizationCredentials(scheme=scheme, credentials=token)
              if scheme.lower() == "bearer" and token else None)
    return await deps.tenant(request, bearer, request.headers.get("x-api-key"))


class MCPEndpoint:
    """The ASGI app at ``/mcp``: authenticate, bind the session to its tenant, hand over."""

    def __init__(self, server: MCPServer, host: str) -> None:
        self.server = server
        self.host = host
        self._app: ASGIApp | None = None
        self._owners: dict[str, str] = {}  # MCP session id -> tenant

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Serve MCP while this is open; a fresh session manager each time (one per lifespan)."""
        app = self.server.streamable_http_app(streamable_http_path=PATH, host=self.host)
        async with self.server.session_manager.run():
            self._app = app
            try:
                yield
            finally:
                self._app = None
                self._owners.clear()

    async def __call__(self, scope: ASGIScope, receive: Receive, send: Send) -> None:
        """Refusals are raised, so :mod:`api.errors` answers them like any REST error."""
        request = Request(scope)
        tenant = await _authenticate(request)
        scope_default = _default_scope(request)
        app = self._app
        if app is None:
            raise NotRunning("the MCP endpoint is not running")
        session = request.headers.get(SESSION_HEADER)
        if session is not None and self._owners.get(session, tenant) != tenant:
            raise NotFoundError("no such MCP session")
        if session is not None and request.method == "DELETE":
            self._owners.pop(session, None)
        scope.setdefault("state", {})[CALLER] = Caller(tenant, scope_default)
        await app(scope, receive, self._recording(send, tenant))

    def _recording(self, send: Send, tenant: str) -> Send:
        """``send``, noting the tenant of a session the response opens."""
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                for name, value in message.get("headers", []):
                    if name.lower() == SESSION_HEADER.encode():
                        if len(self._owners) >= MAX_SESSIONS:
                            self._owners.pop(next(iter(self._owners)))
                        self._owners.setdefault(value.decode("latin-1"), tenant)
            await send(message)
        return wrapped


def mount(app: FastAPI) -> MCPEndpoint:
    """Add ``/mcp`` to the REST app; the app's lifespan must enter ``endpoint.running()``."""
    server = build_server(app.state.memory, caller_of)
    endpoint = MCPEndpoint(server, app.state.settings.host)
    app.router.routes.append(Route(PATH, endpoint, methods=["GET", "POST", "DELETE"],
                                   include_in_schema=False))
    return endpoint
