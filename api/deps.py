"""Request dependencies: who is calling (API key -> tenant), the rate limit, the scope.

An API key arrives as ``Authorization: Bearer <key>`` or ``X-API-Key: <key>``;
only its sha256 is compared (``settings.api_keys`` maps sha256 hex -> tenant),
so no key is ever stored or logged. With no keys configured every request is
the default tenant, which :func:`api.app.create_app` allows only on loopback.
"""

from __future__ import annotations

import hashlib
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

import pydantic
from fastapi import Depends, Query, Request
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from api.errors import Unauthorized
from graphmem.errors import ValidationError
from graphmem.events import EventBus
from graphmem.memory import Memory
from graphmem.models import Scope

_bearer = HTTPBearer(auto_error=False, description="an API key as a bearer token")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False, description="an API key")


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def tenant_for(state: Any, key: str | None) -> tuple[str, str]:
    """The tenant an API key maps to and its rate-limit bucket; raises 401 (Unauthorized)."""
    if not state.api_keys:
        return str(state.settings.default_tenant), "local"
    if not key:
        raise Unauthorized("an API key is required: send 'Authorization: Bearer <key>' "
                           "or 'X-API-Key: <key>'", headers={"WWW-Authenticate": "Bearer"})
    digest = hash_key(key)
    found = state.api_keys.get(digest)
    if found is None:
        raise Unauthorized("the API key is not valid", headers={"WWW-Authenticate": "Bearer"})
    return str(found), digest


async def tenant(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    api_key: Annotated[str | None, Depends(_api_key)],
) -> str:
    """The caller's tenant; raises 401 without a valid key and 429 past the rate limit."""
    state = request.app.state
    name, bucket = tenant_for(state, api_key or (bearer.credentials if bearer else None))
    state.rate_limits.check(bucket)
    request.state.tenant = name  # for the audit trail of refused requests
    return name


# The dependencies below are ``async def`` although they never wait: FastAPI runs a plain
# ``def`` dependency in a worker thread, a thread hand-off on every request for a lookup.


def memory_of(request: Request) -> Memory:
    """The app's memory (for code that is not a dependency, such as the memory page)."""
    mem: Memory = request.app.state.memory
    return mem


async def memory(request: Request) -> Memory:
    return memory_of(request)


async def events(request: Request) -> EventBus:
    bus: EventBus = request.app.state.events
    return bus


def scope_of(user_id: str | None, group_id: str | None) -> Scope:
    """A scope from ``user_id`` and/or ``group_id``; a 422 naming what is wrong."""
    try:
        return Scope(user_id=user_id, group_id=group_id)
    except pydantic.ValidationError as err:
        raise ValidationError("; ".join(e["msg"].removeprefix("Value error, ")
                                        for e in err.errors())) from err


UserId = Annotated[str | None, Query(max_length=128, description="the user whose memory this is")]
GroupId = Annotated[str | None, Query(max_length=128, description="the group whose memory this is")]


async def scope(user_id: UserId = None, group_id: GroupId = None) -> Scope:
    """The scope of a GET, from ``user_id`` and/or ``group_id`` (one is required)."""
    return scope_of(user_id, group_id)


async def optional_scope(user_id: UserId = None, group_id: GroupId = None) -> Scope | None:
    """An optional scope: when given, an object outside it is reported as not found."""
    return None if user_id is None and group_id is None else scope_of(user_id, group_id)


Tenant = Annotated[str, Depends(tenant)]
MemoryDep = Annotated[Memory, Depends(memory)]
EventsDep = Annotated[EventBus, Depends(events)]
ScopeQuery = Annotated[Scope, Depends(scope)]
OptionalScope = Annotated[Scope | None, Depends(optional_scope)]


async def known_query_only(request: Request) -> None:
    """A misspelt query parameter (``as_ofx``) is a 422 naming it, as a misspelt body field
    is, not silently ignored: a filter that seems to apply but does not returns wrong data.
    So is a parameter of one value given twice (``?user_id=a&user_id=b``), of which the
    last would silently win."""
    route = request.scope.get("route")
    if not request.query_params or not isinstance(route, APIRoute):
        return
    known = _query_params(route.dependant)
    unknown = [name for name in request.query_params if name not in known]
    if unknown:
        raise RequestValidationError([
            {"type": "extra_forbidden", "loc": ("query", name),
             "msg": f"unknown query parameter; this endpoint takes: {', '.join(sorted(known)) or 'none'}",
             "input": request.query_params[name]} for name in unknown])
    repeated = sorted({name for name in request.query_params
                       if not _takes_many(known[name])
                       and len(request.query_params.getlist(name)) > 1})
    if repeated:
        raise RequestValidationError([
            {"type": "repeated", "loc": ("query", name),
             "msg": "given more than once; send one value",
             "input": request.query_params.getlist(name)} for name in repeated])


def _takes_many(annotation: Any) -> bool:
    """Whether a parameter's type is a list (or set, tuple), maybe optional or annotated."""
    if get_origin(annotation) is Annotated:
        return _takes_many(get_args(annotation)[0])
    if get_origin(annotation) in (Union, UnionType):
        return any(_takes_many(arg) for arg in get_args(annotation))
    return get_origin(annotation) in (list, set, frozenset, tuple) or annotation in (list, set,
                                                                                      tuple)


def _query_params(dependant: Dependant) -> dict[str, Any]:
    """The query parameters an endpoint and its dependencies declare, with their types."""
    found = {p.alias: p.field_info.annotation for p in dependant.query_params}
    for sub in dependant.dependencies:
        found.update(_query_params(sub))
    return found


