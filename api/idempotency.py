"""``Idempotency-Key``: a POST retried with the same key is done once.

The convention of payment and cloud APIs: a client that sends
``Idempotency-Key: <unique string>`` with a POST may resend it as often as it
likes (after a timeout, a dropped connection, a 5xx) and the work happens
once. :class:`Idempotency` (ASGI middleware) keeps, per tenant and key, a hash
of the request and its answer, in the store
(:meth:`~graphmem.store.base.GraphStore.claim_request`), so it holds across
processes and restarts:

* the first request claims the key, runs, and its answer is stored;
* a retry with the same request gets the stored answer again (with
  ``Idempotent-Replayed: true``); while the first one still runs, 409 with
  ``Retry-After``;
* the same key with a different request (method, path, query or body) is 422;
* only a success (2xx) is kept: a refused request changed nothing (the API
  promises that), so its key is released and a corrected retry runs for real;
  so does one after a 5xx. A 504 is different: the worker thread goes on (see
  :func:`api.limits.run_sync`) and stores the real answer when it finishes
  (:meth:`PendingAnswer.settle`); until then a retry gets 409.

Answers are kept for :data:`TTL`; a claim whose process died is given up after
:data:`STALE_AFTER`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from datetime import timedelta
from typing import Any

import anyio.to_thread
from fastapi import FastAPI
from fastapi.encoders import jsonable_encoder
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.deps import tenant_for
from api.errors import APIError, documented, problem, status_of
from api.limits import read_body, replay_body
from graphmem.errors import GraphMemError
from graphmem.models import utcnow
from graphmem.store.base import GraphStore, StoredResponse

log = logging.getLogger("graphmem.api")

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
TTL = timedelta(hours=24)
STALE_AFTER = timedelta(minutes=10)
_KEY = re.compile(r"[\x21-\x7e]{1,255}")


class PendingAnswer:
    """The claim of one request; :func:`api.limits.run_sync` hands a call that outlived the
    store timeout to :meth:`defer`, and the worker thread settles it when it ends."""

    def __init__(self, store: GraphStore, tenant: str, record: StoredResponse) -> None:
        self.store = store
        self.tenant = tenant
        self.record = record
        self.deferred = False  # the call goes on past its answer (a 504) and settles later

    def settle(self, status_code: int, result: object, error: BaseException | None) -> None:
        """Store the late answer of the call (runs in the worker thread); ``status_code`` is
        the route's own success status."""
        try:
            if error is not None:
                self.store.drop_requests(self.tenant, [self.record.key])
                return
            status, body, media_type = _encoded(result, status_code)
            self.store.finish_request(self.tenant, self.record.model_copy(update={
                "status": status, "body": body.decode("utf-8"), "media_type": media_type}))
        except GraphMemError:
            log.exception("could not store the late answer of an idempotent request")


def _encoded(result: object, status_code: int) -> tuple[int, bytes, str]:
    if isinstance(result, Response):
        return result.status_code, bytes(result.body), result.media_type or "application/json"
    body = json.dumps(jsonable_encoder(result), ensure_ascii=False, separators=(",", ":"))
    return status_code, body.encode("utf-8"), "application/json"


def fingerprint(method: str, path: str, query: bytes, body: bytes) -> str:
    """What makes two requests the same: a JSON body by its content, not its bytes (a client
    that serialises the object again, keys in another order or other spacing, retries the
    same request)."""
    digest = hashlib.sha256()
    for part in (method.encode(), path.encode(), query, _canonical(body)):
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def _canonical(body: bytes) -> bytes:
    try:
        parsed = json.loads(body)
    except ValueError:  # not JSON (or not UTF-8): its bytes are all there is to compare
        return body
    return json.dumps(parsed, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _api_key(headers: Headers) -> str | None:
    if key := headers.get("x-api-key"):
        return key
    scheme, _, credentials = headers.get("authorization", "").partition(" ")
    return credentials.strip() or None if scheme.lower() == "bearer" else None


def document(app: FastAPI) -> None:
    """Describe the header (and the 409 it can bring) on every POST of the OpenAPI document."""
    build = app.openapi
    header = {"name": HEADER, "in": "header", "required": False,
              "description": "a unique string per logical request: a retry with the same key "
                             "gets the first answer back instead of doing the work again",
              "schema": {"type": "string", "minLength": 1, "maxLength": 255,
                         "pattern": "^[!-~]+$"}}

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = build()
        for operations in schema.get("paths", {}).values():
            post = operations.get("post")
            if post is not None:
                post.setdefault("parameters", []).append(header)
                post.setdefault("responses", {}).update({"409": documented(409)[409]})
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


class Idempotency:
    """ASGI middleware honouring ``Idempotency-Key`` on every POST (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        key = headers.get(HEADER)
        if key is None:
            await self.app(scope, receive, send)
            return
        if not _KEY.fullmatch(key):
            await problem(422, f"{HEADER}: use 1-255 printable ASCII characters without "
                               "spaces")(scope, receive, send)
            return
        state = scope["app"].state
        try:
            tenant, _ = tenant_for(state, _api_key(headers))
        except APIError:
            await self.app(scope, receive, send)  # the route answers 401
            return
        body = await read_body(scope, receive, send)
        if body is None:
            return
        await self._once(scope, receive, send, state.memory.store, tenant, key, body)

    async def _once(self, scope: Scope, receive: Receive, send: Send, store: GraphStore,
                    tenant: str, key: str, body: bytes) -> None:
        now = utcnow()
        record = StoredResponse(key=key, created_at=now, fingerprint=fingerprint(
            scope["method"], scope["path"], scope.get("query_string", b""), body))
        try:
            held = await anyio.to_thread.run_sync(lambda: store.claim_request(
                tenant, record, stale_before=now - STALE_AFTER, expire_before=now - TTL))
        except GraphMemError as err:
            await problem(*status_of(err))(scope, _no_body, send)
            return
        if held is not None:
            await _answer_held(held, record)(scope, _no_body, send)
            return
        pending = PendingAnswer(store, tenant, record)
        scope.setdefault("state", {})["idempotency"] = pending
        answer = _Recorder(send)
        try:
            await self.app(scope, replay_body(body, receive), answer.send)
        finally:
            if not pending.deferred:
                await anyio.to_thread.run_sync(self._settle, pending, answer)

    @staticmethod
    def _settle(pending: PendingAnswer, answer: _Recorder) -> None:
        status = answer.status
        try:
            if status is None or not 200 <= status < 300:
                pending.store.drop_requests(pending.tenant, [pending.record.key])
                return
            pending.store.finish_request(pending.tenant, pending.record.model_copy(update={
                "status": status, "body": answer.body.decode("utf-8", errors="replace"),
                "media_type": answer.media_type}))
        except GraphMemError:
            log.exception("could not store the answer of an idempotent request")


def _answer_held(held: StoredResponse, record: StoredResponse) -> Response:
    if held.fingerprint != record.fingerprint:
        return problem(422, f"{HEADER}: this key was already used with a different request;"
                            " use a new key for a new request")
    if held.status is None:
        return problem(409, f"{HEADER}: a request with this key is still being processed; "
                            "retry later", headers={"Retry-After": "1"})
    return Response(held.body.encode("utf-8"), status_code=held.status,
                    media_type=held.media_type, headers={REPLAYED: "true"})


class _Recorder:
    """Passes a response through and keeps a copy of its status, type and body."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.status: int | None = None
        self.media_type = "application/json"
        self.body = b""

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = int(message["status"])
            self.media_type = Headers(raw=message.get("headers", [])).get(
                "content-type", self.media_type)
        elif message["type"] == "http.response.body":
            self.body += message.get("body", b"")
        await self._send(message)


async def _no_body() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}

