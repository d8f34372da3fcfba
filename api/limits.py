"""Limits that keep one client from hurting the others.

* :class:`BodySizeLimit` answers 413 to a body over ``max_request_bytes``,
  from its Content-Length or, for a chunked body, as soon as it grows past it;
* :class:`JsonDepthLimit` answers 422 to a JSON body nested deeper than any
  request needs, before a parser or validator recurses into it;
* :class:`TokenBuckets` holds one token bucket per API key (the app keeps it
  on ``app.state``); an empty bucket answers 429 with ``Retry-After``;
* :func:`run_sync` runs a blocking library call in a worker thread under
  ``store_timeout_seconds``; past it the client gets 504. The thread cannot
  be killed and finishes in the background, so a 504 on a write means "may
  or may not have happened": an ``Idempotency-Key`` (:mod:`api.idempotency`)
  gets the real answer to the retry, and episode and message ids make a
  re-post a duplicate.
"""

from __future__ import annotations

import functools
import math
import re
import threading
import time
from collections.abc import Callable
from typing import Generic, ParamSpec, TypeVar

import anyio
import anyio.to_thread
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import RateLimited, StoreTimeout, problem
from graphmem.factory import ingestion_seconds

P = ParamSpec("P")
T = TypeVar("T")


class BodySizeLimit:
    """ASGI middleware refusing request bodies larger than ``max_bytes``."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            response = problem(413, self._detail())
            await response(scope, receive, send)
            return
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    # an HTTPException, because FastAPI turns anything else raised while
                    # it reads a body into "400 error parsing the body"
                    raise HTTPException(413, self._detail())
            return message

        await self.app(scope, limited_receive, send)

    def _detail(self) -> str:
        return f"the request body is larger than {self.max_bytes} bytes"


class JsonDepthLimit:
    """ASGI middleware answering 422 to a JSON body nested deeper than ``max_depth``.

    Python's parser gives up near 1,000 levels with a bare 400, and every recursive walk
    after it (validation, redaction) fails sooner; this check runs first, without
    recursion, and names the top-level field the deep value sits in.
    """

    def __init__(self, app: ASGIApp, max_depth: int = 128) -> None:
        self.app = app
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        content_type = dict(scope.get("headers", [])).get(b"content-type", b"")
        if scope["type"] != "http" or b"json" not in content_type:
            await self.app(scope, receive, send)
            return
        body = await read_body(scope, receive, send)
        if body is None:
            return
        field = (too_deep(body, self.max_depth) if len(body) < 65_536  # a large one: off the loop
                 else await anyio.to_thread.run_sync(too_deep, body, self.max_depth))
        if field is not None:
            await problem(422, f"{field}: JSON nested deeper than {self.max_depth} levels")(
                scope, receive, send)
            return
        await self.app(scope, replay_body(body, receive), send)


#: A string (possessive, and its closing quote optional, so an unterminated one ends the
#: scan instead of being retried from every quote after it: linear time) or a bracket.
_JSON_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*+"?|[\[\]{}]')


def too_deep(body: bytes, max_depth: int) -> str | None:
    """The top-level field of a JSON text under which it nests deeper than ``max_depth``
    (``"body"`` if the text itself does), or None.

    >>> too_deep(b'{"a": 1, "doc": {"x": [[1]]}}', 3)
    'doc'
    """
    if body.count(b"[") + body.count(b"{") <= max_depth:
        return None  # too few brackets to nest that deep: most bodies stop here
    depth, field = 0, None
    for match in _JSON_TOKEN.finditer(body):
        token = match.group()
        if token in (b"{", b"["):
            depth += 1
            if depth > max_depth:
                return field or "body"
        elif token in (b"}", b"]"):
            depth -= 1
        elif depth == 1:  # the last top-level string before a value is its key
            field = token[1:-1].decode("utf-8", errors="replace")
    return None


class TokenBuckets:
    """One token bucket per key: ``per_minute`` requests a minute, bursts up to the same."""

    def __init__(self, per_minute: int, *, max_keys: int = 100_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """Take one token; returns 0 if allowed, else the seconds to wait for the next one."""
        if self.rate <= 0:
            return 0.0
        now = self.clock()
        with self._lock:
            tokens, at = self._buckets.get(key, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - at) * self.rate)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                return (1.0 - tokens) / self.rate
            if len(self._buckets) >= self.max_keys and key not in self._buckets:
                self._forget_full(now)
            self._buckets[key] = (tokens - 1.0, now)
            return 0.0

    def check(self, key: str) -> None:
        """Raise :class:`RateLimited` (429) when ``key`` has no token left."""
        wait = self.take(key)
        if wait > 0:
            raise RateLimited("rate limit exceeded; retry later",
                              headers={"Retry-After": str(max(1, math.ceil(wait)))})

    def _forget_full(self, now: float) -> None:
        # a bucket that has refilled is the same as no bucket at all
        full = [k for k, (tokens, at) in self._buckets.items()
                if tokens + (now - at) * self.rate >= self.capacity]
        for key in full:
            del self._buckets[key]


async def read_body(scope: Scope, receive: Receive, send: Send) -> bytes | None:
    """The whole request body, for a middleware that must see it before the app does;
    None once it has answered 413 (the body size limit's refusal)."""
    chunks: list[bytes] = []
    try:
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
    except HTTPException as err:
        await problem(err.status_code, str(err.detail))(scope, receive, send)
        return None
    return b"".join(chunks)


def replay_body(body: bytes, receive: Receive) -> Receive:
    """The body already read, then the client's own messages (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}
    return replay


async def run_sync(request: Request, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run a blocking library call in a worker thread, bounded by the store timeout (504).

    Past the timeout the thread goes on; when the request carries an ``Idempotency-Key``
    (:mod:`api.idempotency`), the call's real answer is stored when it ends, so a retry
    gets it instead of doing the work again.
    """
    timeout = request.app.state.settings.store_timeout_seconds
    return await _bounded(request, timeout, "the memory store did not answer",
                          functools.partial(fn, *args, **kwargs))


async def run_ingestion(request: Request, fn: Callable[P, T], *args: P.args,
                        **kwargs: P.kwargs) -> T:
    """:func:`run_sync` for an ingestion, which may wait for an LLM's answers and retries
    as well as the store (:func:`graphmem.factory.ingestion_seconds`): a slow model is not
    a store that does not answer."""
    timeout = ingestion_seconds(request.app.state.settings)
    return await _bounded(
        request, timeout, "the ingestion did not finish (it goes on; send an Idempotency-Key "
        "to get its answer on a retry, or \"async\": true to run it as a job)",
        functools.partial(fn, *args, **kwargs))


async def _bounded(request: Request, timeout: float, what: str, call: Callable[[], T]) -> T:
    outcome = _Outcome(call)
    # move_on_after rather than fail_after: a TimeoutError raised by the call itself
    # must not be mistaken for ours
    with anyio.move_on_after(timeout):
        return await anyio.to_thread.run_sync(outcome.run, abandon_on_cancel=True)
    pending = request.scope.get("state", {}).get("idempotency")
    status = getattr(request.scope.get("route"), "status_code", None) or 200
    if not outcome.hand_over(None if pending is None
                             else functools.partial(pending.settle, status)):
        return outcome.result()  # it ended just as the wait did
    if pending is not None:
        pending.deferred = True
    raise StoreTimeout(f"{what} within {timeout:g} s")


class _Outcome(Generic[T]):
    """A call and, once it ends, its result or error; :meth:`hand_over` passes that on to
    a callback in the worker thread, for a caller that stopped waiting."""

    def __init__(self, call: Callable[[], T]) -> None:
        self._call = call
        self._lock = threading.Lock()
        self._ended = False
        self._result: T | None = None
        self._error: BaseException | None = None
        self._callback: Callable[[object, BaseException | None], None] | None = None

    def run(self) -> T:
        try:
            result = self._call()
        except BaseException as err:
            self._end(None, err)
            raise
        self._end(result, None)
        return result

    def _end(self, result: T | None, error: BaseException | None) -> None:
        with self._lock:
            self._ended, self._result, self._error = True, result, error
            callback = self._callback
        if callback is not None:
            callback(result, error)

    def hand_over(self, callback: Callable[[object, BaseException | None], None] | None) -> bool:
        """Call ``callback`` (if any) when the call ends; False if it already has."""
        with self._lock:
            if self._ended:
                return False
            self._callback = callback
            return True

    def result(self) -> T:
        """The result of a call that ended (or its error, raised)."""
        if self._error is not None:
            raise self._error
        return self._result  # type: ignore[return-value]
