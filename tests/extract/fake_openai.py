"""A scripted OpenAI-compatible ``POST /v1/chat/completions`` server, over real HTTP.

Each request takes the next scripted :class:`Reply`, or, when the script is
empty, asks the ``responder`` function (by default: a valid, empty
extraction). Every request is recorded, so tests can count calls and read
payloads. ``refuse`` maps a ``response_format`` type (``"json_schema"``,
``"json_object"``) to the error reply every request for it gets, without
consuming the script; ``reject_json_schema`` is OpenAI's 400 for
``json_schema``.

>>> with FakeOpenAI() as server:  # doctest: +SKIP
...     server.script(ok({"facts": []}), rate_limited(), server_error())
...     LLMExtractor(server.base_url, "key", "fake-model")
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

EMPTY: dict[str, Any] = {"entities": [], "facts": [], "decisions": [], "language": "en"}


@dataclass
class Reply:
    """One scripted answer: a completion whose message is ``content``, or an error."""

    status: int = 200
    content: str = ""
    error: str = ""  # the error message for status != 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering
    echo_auth: bool = False  # put the request's Authorization header in the error message
    finish_reason: str = "stop"  # "length": the answer hit max_tokens
    raw: bytes | None = None  # a whole JSON body to send as is (a proxy relaying a real server)


@dataclass
class Request:
    """What the server received."""

    path: str
    headers: dict[str, str]
    raw: bytes
    body: dict[str, Any]

    @property
    def format_type(self) -> str | None:
        fmt = self.body.get("response_format") or {}
        return fmt.get("type") if isinstance(fmt, dict) else None

    @property
    def system(self) -> str:
        return str(self.body["messages"][0]["content"])

    @property
    def episode(self) -> dict[str, Any]:
        """The user message, which the LLM extractor renders as a JSON document."""
        loaded: dict[str, Any] = json.loads(self.body["messages"][-1]["content"])
        return loaded


Responder = Callable[[Request], Reply]


def ok(payload: dict[str, Any] | str) -> Reply:
    return Reply(content=payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False))


def malformed() -> Reply:
    return Reply(content='{"entities": [], "facts": [{"subject": "Alice", "predic')


def rate_limited(retry_after: str = "0") -> Reply:
    return Reply(status=429, error="Rate limit reached, slow down", headers={"Retry-After": retry_after})


def server_error(status: int = 500) -> Reply:
    return Reply(status=status, error="The server had an error while processing your request")


def slow(seconds: float, payload: dict[str, Any] | None = None) -> Reply:
    return Reply(content=json.dumps(payload or EMPTY), delay=seconds)


def refusal(status: int, message: str) -> Reply:
    return Reply(status=status, error=message)


#: What llama-cpp-python's server (0.3.36) answers a request for ``json_schema``.
LLAMA_CPP_REFUSAL = refusal(500, "1 validation error for CreateChatCompletionRequest\n"
                                 "response_format.type: Input should be 'text' or 'json_object'")
OPENAI_REFUSAL = refusal(400, "Invalid parameter: 'response_format' of type 'json_schema' is "
                              "not supported with this model.")


def empty_extraction(request: Request) -> Reply:
    return ok(EMPTY)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        fake = self.server.fake
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        request = Request(self.path, {k.lower(): v for k, v in self.headers.items()}, raw,
                          json.loads(raw.decode("utf-8")))
        reply = fake._next(request)
        try:
            fake._enter()
            if reply.delay:
                fake._stopping.wait(reply.delay)
            self._answer(request, reply)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test)
        finally:
            fake._leave()

    def _answer(self, request: Request, reply: Reply) -> None:
        if request.path != "/v1/chat/completions":
            return self._send(404, {"error": {"message": f"no route {request.path}"}})
        if reply.raw is not None:
            return self._send(reply.status, json.loads(reply.raw), reply.headers)
        if reply.status != 200:
            message = reply.error
            if reply.echo_auth:
                message += f" (you sent {request.headers.get('authorization')})"
            return self._send(reply.status, {"error": {"message": message, "type": "error",
                                                       "param": None, "code": None}},
                              reply.headers)
        prompt = sum(len(str(m.get("content", ""))) for m in request.body.get("messages", []))
        usage = {"prompt_tokens": prompt // 4, "completion_tokens": len(reply.content) // 4}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        self.server.fake.usage_sent.append(usage)
        self._send(200, {
            "id": f"chatcmpl-{len(self.server.fake.requests)}", "object": "chat.completion",
            "created": 1_700_000_000, "model": request.body.get("model"),
            "choices": [{"index": 0, "finish_reason": reply.finish_reason,
                         "message": {"role": "assistant", "content": reply.content}}],
            "usage": usage,
        }, reply.headers)

    def _send(self, status: int, payload: object, headers: dict[str, str] | None = None) -> None:
        content = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(content)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(content)

    def log_message(self, format: str, *args: object) -> None:
        pass  # keep test output clean


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeOpenAI


class FakeOpenAI:
    """The server; use it as a context manager (it binds a free port on 127.0.0.1)."""

    def __init__(self, responder: Responder = empty_extraction, *,
                 reject_json_schema: bool = False, refuse: dict[str, Reply] | None = None) -> None:
        self.responder = responder
        self.refuse = dict(refuse or {})
        if reject_json_schema:
            self.refuse["json_schema"] = OPENAI_REFUSAL
        self.requests: list[Request] = []
        self.usage_sent: list[dict[str, int]] = []
        self.max_in_flight = 0
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._in_flight = 0
        self._stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the fake server is not started")
        return f"http://127.0.0.1:{self._httpd.server_port}/v1"

    def script(self, *replies: Reply) -> None:
        """Queue replies for the next requests, in order."""
        with self._lock:
            self._replies.extend(replies)

    def start(self) -> FakeOpenAI:
        self._httpd = _Server(("127.0.0.1", 0), _Handler)  # port 0: the OS picks a free one
        self._httpd.fake = self
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        kwargs={"poll_interval": 0.02}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes slow replies
        if self._httpd is not None and self._thread is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._thread.join()
        self._httpd = self._thread = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _next(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            refused = self.refuse.get(request.format_type or "")
            if refused is not None:
                return refused
            if self._replies:
                return self._replies.popleft()
        return self.responder(request)

    def _enter(self) -> None:
        with self._lock:
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)

    def _leave(self) -> None:
        with self._lock:
            self._in_flight -= 1


@dataclass
class Exchange:
    """One request relayed to a real server, and what the server answered."""

    request: Request
    status: int
    body: dict[str, Any]

    @property
    def content(self) -> str:
        return str(self.body["choices"][0]["message"]["content"] or "")

    @property
    def finish_reason(self) -> str:
        return str(self.body["choices"][0]["finish_reason"])


def relay(upstream: str, exchanges: list[Exchange], timeout: float = 600.0) -> Responder:
    """A responder that forwards each request to ``upstream`` (a base URL ending in /v1)
    unchanged and records the exchange, so tests can read the wire of a real server."""
    import httpx

    def forward(request: Request) -> Reply:
        response = httpx.post(upstream.removesuffix("/v1") + request.path, content=request.raw,
                              headers={"content-type": "application/json"}, timeout=timeout)
        exchanges.append(Exchange(request, response.status_code, response.json()))
        return Reply(status=response.status_code, raw=response.content)

    return forward
