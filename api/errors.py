"""Every error becomes one RFC 9457 problem document, here and nowhere else.

Routes never catch anything: a :class:`~graphmem.errors.GraphMemError` maps
to one status by its class (the most specific entry of :data:`STATUS` in the
exception's MRO wins), request validation errors become 422 with one line
per bad field, the API's own refusals (:class:`APIError`) carry their status,
and anything else is a 500 whose body says nothing about the cause. Server
errors keep their messages out of the answer (they can hold file paths or
hostnames); the log keeps them.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from graphmem import errors
from graphmem.edit.changes import Change

log = logging.getLogger("graphmem.api")

PROBLEM_JSON = "application/problem+json"


class Problem(BaseModel):
    """An RFC 9457 problem document."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str


#: GraphMemError class -> (HTTP status, whether the message may be shown to the client).
STATUS: dict[type[errors.GraphMemError], tuple[int, bool]] = {
    errors.ValidationError: (422, True),
    errors.NotFoundError: (404, True),
    errors.ConflictError: (409, True),
    errors.ScopeError: (403, True),
    errors.StoreUnavailableError: (503, False),
    errors.StoreError: (500, False),
    errors.LLMError: (502, False),
    errors.GraphMemError: (500, False),
}

GENERIC_DETAIL = {
    503: "the memory store is unavailable; retry later",
    502: "the language model endpoint failed; retry later",
    500: "an internal error occurred",
}


def documented(*codes: int) -> dict[int | str, dict[str, Any]]:
    schema = Problem.model_json_schema()
    return {code: {"description": HTTPStatus(code).phrase,
                   "content": {PROBLEM_JSON: {"schema": schema}}} for code in codes}


#: The problem answers any authenticated route can give, for the OpenAPI document.
PROBLEMS = documented(400, 401, 404, 413, 422, 429, 500, 503, 504)


class APIError(Exception):
    """A refusal by the HTTP layer itself (auth, limits), with its status and headers."""

    status = 400

    def __init__(self, detail: str, *, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.headers = headers or {}


class Unauthorized(APIError):
    status = 401


class RateLimited(APIError):
    status = 429


class StoreTimeout(APIError):
    status = 504


class NotReady(APIError):
    status = 503


def problem(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    body = Problem(title=HTTPStatus(status).phrase, status=status, detail=detail)
    return JSONResponse(body.model_dump(), status_code=status, media_type=PROBLEM_JSON,
                        headers=headers)


#: Renders a refusal as a page a person reads, for a request that wants one (the memory
#: page sets it on ``app.state.page_problem``); None for every other request.
PageProblem = Callable[[Request, int, str, dict[str, str] | None], Response | None]


def _answer(request: Request, status: int, detail: str,
            headers: dict[str, str] | None = None) -> Response:
    """The refusal: a problem document, or the page's own error page for a browser there."""
    page: PageProblem | None = getattr(request.app.state, "page_problem", None)
    shown = page(request, status, detail, headers) if page is not None else None
    return shown if shown is not None else problem(status, detail, headers)


def status_of(exc: errors.GraphMemError) -> tuple[int, str]:
    """The HTTP status and the client-safe detail of a library error."""
    for cls in type(exc).__mro__:
        if cls in STATUS:
            status, expose = STATUS[cls]
            return status, str(exc) if expose else GENERIC_DETAIL[status]
    return 500, GENERIC_DETAIL[500]


def _field_message(error: dict[str, Any]) -> str:
    if error.get("type") == "json_invalid":  # its loc is ("body", <character position>)
        reason = (error.get("ctx") or {}).get("error", "invalid JSON")
        return f"body: is not valid JSON ({reason}) at character {error.get('loc', ('', '?'))[-1]}"
    if tuple(error.get("loc", ())) == ("body",) and error.get("type") == "missing":
        return "body: required, a JSON object"
    loc = [str(part) for part in error.get("loc", ())]
    if loc and loc[0] in ("body", "query", "path", "header", "cookie"):
        loc = loc[1:]
    where = ".".join(loc) if loc else "request"
    message = str(error.get("msg", "is invalid")).removeprefix("Value error, ")
    limit = error.get("ctx") or {}
    if error.get("type") in ("too_long", "too_short") and isinstance(error.get("input"), str):
        # a length checked after a text's cleaning is reported by pydantic in "items"
        bound = "at most" if error["type"] == "too_long" else "at least"
        count = limit.get("max_length" if error["type"] == "too_long" else "min_length")
        message = f"should have {bound} {count} characters"
    return f"{where}: {message}"


async def _graphmem_error(request: Request, exc: Exception) -> Response:
    if not isinstance(exc, errors.GraphMemError):  # pragma: no cover - registered per class
        return await _unexpected(request, exc)
    status, detail = status_of(exc)
    if status in (403, 404):
        # Guessed ids and scopes that are not the caller's go to the one audit trail.
        await run_in_threadpool(_audit_refusal, request, exc)
    if status >= 500:
        log.error("%s %s failed: %s: %s", request.method, request.url.path,
                  type(exc).__name__, exc, exc_info=exc)
    return _answer(request, status, detail)


def _audit_refusal(request: Request, exc: errors.GraphMemError) -> None:
    """A refused request in the audit trail: the path (ids, never content) and why."""
    memory = getattr(request.app.state, "memory", None)
    if memory is not None:
        memory.announce(getattr(request.state, "tenant", "unknown"), [Change(
            target=request.url.path, audit="refused",
            detail=f"{request.method}: {type(exc).__name__}")])


async def _api_error(request: Request, exc: Exception) -> Response:
    if not isinstance(exc, APIError):  # pragma: no cover - registered per class
        return await _unexpected(request, exc)
    return _answer(request, exc.status, exc.detail, exc.headers)


async def _validation_error(request: Request, exc: Exception) -> Response:
    if not isinstance(exc, RequestValidationError):  # pragma: no cover
        return await _unexpected(request, exc)
    if _not_json(request, exc):
        sent = request.headers.get("content-type") or "no content-type"
        return _answer(request, 415,
                       f"content-type: send the body as application/json (got {sent})")
    lines = [_field_message(e) for e in exc.errors()]
    return _answer(request, 422, "; ".join(lines) or "the request is invalid")


def _not_json(request: Request, exc: RequestValidationError) -> bool:
    """Whether a JSON body was refused as a whole because it was not sent as JSON: FastAPI
    reads a body of another content type as bytes, which no body model accepts."""
    kind = (request.headers.get("content-type") or "").split(";")[0].strip().lower()
    whole_body = any(tuple(e.get("loc", ())) == ("body",) and e.get("type") != "missing"
                     for e in exc.errors())
    return whole_body and kind != "application/json" and not kind.endswith("+json")


async def _http_error(request: Request, exc: Exception) -> Response:
    if not isinstance(exc, StarletteHTTPException):  # pragma: no cover
        return await _unexpected(request, exc)
    detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
    if exc.status_code == 400 and detail == _UNREADABLE_BODY:
        detail = "body: is not JSON text in UTF-8 (send the body encoded as UTF-8)"
    return _answer(request, exc.status_code, detail, dict(exc.headers or {}))


#: What FastAPI says of a JSON body it could not decode: bytes that are not UTF-8 (a JSON
#: syntax error is a 422 naming the character instead, see _field_message).
_UNREADABLE_BODY = "There was an error parsing the body"


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.error("%s %s failed unexpectedly", request.method, request.url.path, exc_info=exc)
    return problem(500, GENERIC_DETAIL[500])


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""
    app.add_exception_handler(errors.GraphMemError, _graphmem_error)
    app.add_exception_handler(APIError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
