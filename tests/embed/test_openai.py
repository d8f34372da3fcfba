"""OpenAIEmbedder over real HTTP against a scripted OpenAI-compatible server."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

from graphmem.embed.openai import OpenAIEmbedder
from graphmem.errors import EmbeddingError

KEY = "sk-test-0123456789abcdef"
DIM = 8


def vector_for(text: str, dimension: int = DIM) -> list[float]:
    """The server's deterministic, deliberately un-normalised vector for ``text``."""
    digest = hashlib.sha256(text.encode()).digest()
    return [float(b) - 100.0 for b in digest[:dimension]]


@dataclass
class Script:
    """What the server does next; tests change it between calls."""

    status: int = 200
    dimension: int = DIM
    reverse_order: bool = False
    delay: float = 0.0
    body: bytes | None = None  # sent verbatim instead of embeddings
    echo_auth: bool = False
    requests: list[dict[str, Any]] = field(default_factory=list)


class Handler(BaseHTTPRequestHandler):
    server: EmbeddingServer

    def do_POST(self) -> None:
        script = self.server.script
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        script.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
        time.sleep(script.delay)
        if self.path != "/v1/embeddings":
            return self._send(404, {"error": {"message": "no such route"}})
        if script.status != 200:
            message = f"boom, you sent {self.headers.get('Authorization')}" if script.echo_auth else "boom"
            return self._send(script.status, {"error": {"message": message, "type": "server_error"}})
        if script.body is not None:
            return self._send(200, raw=script.body)
        data = [
            {"object": "embedding", "index": i, "embedding": vector_for(text, script.dimension)}
            for i, text in enumerate(body["input"])
        ]
        if script.reverse_order:
            data.reverse()
        self._send(200, {"object": "list", "data": data, "model": body["model"],
                         "usage": {"prompt_tokens": 1, "total_tokens": 1}})

    def _send(self, status: int, payload: object = None, raw: bytes | None = None) -> None:
        content = raw if raw is not None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(content)))
        self.send_header("retry-after-ms", "1")  # keep the client's retries fast
        self.end_headers()
        try:
            self.wfile.write(content)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up first (the timeout test)

    def log_message(self, format: str, *args: object) -> None:
        pass  # keep test output clean


class EmbeddingServer(ThreadingHTTPServer):
    daemon_threads = True
    script: Script


@pytest.fixture
def server() -> Iterator[EmbeddingServer]:
    httpd = EmbeddingServer(("127.0.0.1", 0), Handler)  # port 0: the OS picks a free one
    httpd.script = Script()
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.fixture
def make(server: EmbeddingServer) -> Iterator[Any]:
    created: list[OpenAIEmbedder] = []

    def make(**kwargs: Any) -> OpenAIEmbedder:
        settings: dict[str, Any] = {
            "model": "test-embed",
            "dimension": DIM,
            "api_key": KEY,
            "base_url": f"http://127.0.0.1:{server.server_port}/v1",
            "max_retries": 0,
            "timeout": 5.0,
        }
        embedder = OpenAIEmbedder(**(settings | kwargs))
        created.append(embedder)
        return embedder

    yield make
    for embedder in created:
        embedder.close()


def _unit(rows: list[list[float]]) -> np.ndarray:
    matrix = np.array(rows, dtype=np.float32)
    unit: np.ndarray = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    return unit


def test_embeds_normalises_and_keeps_order(make: Any, server: EmbeddingServer) -> None:
    texts = ["I love React", "Caroline paints", "ok"]
    vectors = make().embed(texts)
    assert vectors.shape == (3, DIM) and vectors.dtype == np.float32
    np.testing.assert_allclose(vectors, _unit([vector_for(t) for t in texts]), rtol=1e-6)
    (request,) = server.script.requests
    assert request["path"] == "/v1/embeddings"
    assert request["auth"] == f"Bearer {KEY}"
    assert request["body"]["model"] == "test-embed"
    assert request["body"]["input"] == texts
    assert request["body"]["encoding_format"] == "float"
    assert "dimensions" not in request["body"]


def test_texts_are_sent_in_batches(make: Any, server: EmbeddingServer) -> None:
    texts = [f"text {i}" for i in range(7)]
    vectors = make(batch_size=3).embed(texts)
    assert [len(r["body"]["input"]) for r in server.script.requests] == [3, 3, 1]
    np.testing.assert_allclose(vectors, _unit([vector_for(t) for t in texts]), rtol=1e-6)


def test_out_of_order_response_is_reordered_by_index(make: Any, server: EmbeddingServer) -> None:
    server.script.reverse_order = True
    texts = ["first", "second", "third"]
    np.testing.assert_allclose(make().embed(texts), _unit([vector_for(t) for t in texts]), rtol=1e-6)


def test_send_dimensions_asks_the_server(make: Any, server: EmbeddingServer) -> None:
    make(send_dimensions=True).embed(["x"])
    assert server.script.requests[0]["body"]["dimensions"] == DIM


def test_empty_input_makes_no_request(make: Any, server: EmbeddingServer) -> None:
    assert make().embed([]).shape == (0, DIM)
    assert server.script.requests == []


def test_server_error_becomes_embedding_error(make: Any, server: EmbeddingServer) -> None:
    server.script.status = 500
    with pytest.raises(EmbeddingError, match=r"embedding request to http://127\.0\.0\.1:\d+/v1 failed: .*500") as info:
        make().embed(["hello"])
    assert info.value.__cause__ is not None  # the client's error is chained, not lost


def test_server_errors_are_retried_first(make: Any, server: EmbeddingServer) -> None:
    server.script.status = 500
    with pytest.raises(EmbeddingError, match="500"):
        make(max_retries=2).embed(["hello"])
    assert len(server.script.requests) == 3


def test_api_key_never_appears_in_errors_or_repr(make: Any, server: EmbeddingServer) -> None:
    server.script.status = 401
    server.script.echo_auth = True  # a careless server echoes the key back
    embedder = make()
    with pytest.raises(EmbeddingError, match="401") as info:
        embedder.embed(["hello"])
    assert KEY not in str(info.value)
    assert KEY not in repr(embedder)


def test_timeout_becomes_embedding_error(make: Any, server: EmbeddingServer) -> None:
    server.script.delay = 1.0
    with pytest.raises(EmbeddingError, match="timed out"):
        make(timeout=0.2).embed(["slow"])


def test_unreachable_server_becomes_embedding_error(make: Any) -> None:
    with pytest.raises(EmbeddingError, match=r"failed: Connection error"):
        make(base_url="http://127.0.0.1:9/v1").embed(["hello"])


def test_wrong_dimension_is_refused(make: Any, server: EmbeddingServer) -> None:
    server.script.dimension = DIM + 1
    with pytest.raises(EmbeddingError, match=r"shape \(9,\) for model 'test-embed', expected \(8,\)"):
        make().embed(["hello"])


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"object": "list", "data": []}', "returned 0 embeddings for 1 texts"),
        (b'{"object": "list"}', "returned no embeddings for 1 texts"),
        (b'{"object": "list", "data": [{"index": 0, "embedding": ["a", 1]}]}', "malformed"),
        (b'{"object": "list", "data": [{"index": 0, "embedding": [NaN, 1, 1, 1, 1, 1, 1, 1]}]}', "non-finite"),
    ],
)
def test_malformed_responses_are_refused(make: Any, server: EmbeddingServer, body: bytes, message: str) -> None:
    server.script.body = body
    with pytest.raises(EmbeddingError, match=message):
        make().embed(["hello"])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"dimension": 0}, "dimension"), ({"batch_size": 0}, "batch_size"),
     ({"timeout": 0}, "timeout"), ({"max_retries": -1}, "max_retries")],
)
def test_bad_settings_are_rejected(kwargs: dict[str, Any], message: str) -> None:
    settings: dict[str, Any] = {"model": "m", "dimension": 8, "api_key": "k"}
    with pytest.raises(ValueError, match=message):
        OpenAIEmbedder(**(settings | kwargs))
