"""Fixtures for the REST API tests: a real embedded store file, the real ONNX
embedder and the real rules extractor, behind ``create_app``.

Two API keys map to two tenants; ``client`` (tenant A) and ``client_b``
(tenant B) share one app, so isolation tests hit the very same store.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from graphmem.embed.base import Embedder
from graphmem.extract.base import Extractor
from graphmem.memory import Memory
from graphmem.settings import Settings
from graphmem.store.base import GraphStore
from graphmem.store.embedded import EmbeddedStore

KEY_A = "key-a-0123456789"
KEY_B = "key-b-9876543210"
TENANT_A = "tenant-a"
TENANT_B = "tenant-b"
ALICE = {"user_id": "alice"}
#: The test servers' store timeout (the product's default is 10 s). A test worker's fresh
#: Neo4j plans each shape of the search query on first use, 3-7 s on a quiet 2-core machine
#: and more while another worker loads it; these tests are not about a cold server's speed.
STORE_TIMEOUT = 120.0


def sha(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def settings(**overrides: Any) -> Settings:
    """Settings from arguments only: no .env file, keys for tenants A and B."""
    values: dict[str, Any] = {"api_keys": {sha(KEY_A): TENANT_A, sha(KEY_B): TENANT_B},
                              "rate_limit_per_minute": 100_000}
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture(scope="session")
def extractor() -> Extractor:
    from graphmem.extract.rules import RuleExtractor

    return RuleExtractor()


def open_memory(path: Path, embedder: Embedder, extractor: Extractor) -> Memory:
    return Memory(EmbeddedStore(path, embedding_dim=384), extractor, embedder).open()


@pytest.fixture
def memory(tmp_path: Path, embedder: Embedder, extractor: Extractor) -> Iterator[Memory]:
    mem = open_memory(tmp_path / "m.db", embedder, extractor)
    yield mem
    mem.close()


@pytest.fixture
def app(memory: Memory) -> FastAPI:
    return create_app(settings(), memory)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, headers={"Authorization": f"Bearer {KEY_A}"},
                    raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def client_b(app: FastAPI, client: TestClient) -> TestClient:
    """Tenant B on the same (already started) app, using the X-API-Key header."""
    return TestClient(app, headers={"X-API-Key": KEY_B}, raise_server_exceptions=False)


@pytest.fixture
def store_memory(store: GraphStore, embedder: Embedder, extractor: Extractor) -> Iterator[Memory]:
    """A Memory over the contract suite's ``store`` (embedded, then Neo4j)."""
    memory = Memory(store, extractor, embedder)  # the store fixture opened (and closes) the store
    yield memory
    memory.engine.close()


@pytest.fixture
def clients(store_memory: Memory) -> Iterator[tuple[TestClient, TestClient]]:
    """Two tenants' clients on one app over ``store_memory``; a 500 comes back as a response."""
    keys = {name: f"{name}-{uuid.uuid4().hex}" for name in ("a", "b")}
    app = create_app(settings(api_keys={hashlib.sha256(k.encode()).hexdigest(): f"t{k[-12:]}"
                                        for k in keys.values()},  # see tenant_of
                              store_timeout_seconds=STORE_TIMEOUT), store_memory)
    with TestClient(app, headers={"X-API-Key": keys["a"]}, raise_server_exceptions=False) as a:
        yield a, TestClient(app, headers={"X-API-Key": keys["b"]}, raise_server_exceptions=False)


def tenant_of(client: TestClient) -> str:
    """The tenant of a client of :func:`clients`."""
    return f"t{client.headers['X-API-Key'][-12:]}"


def episode(*contents: str, scope: dict[str, str] | None = None, **extra: Any) -> dict[str, Any]:
    """An episode body: one user message per content, ids m1, m2..."""
    return {"scope": scope or ALICE, "messages": [
        {"id": f"m{i}", "role": "user", "speaker": "Alice", "content": c,
         "timestamp": f"2024-0{min(i, 9)}-01T10:00:00Z"}
        for i, c in enumerate(contents, start=1)], **extra}


def fact(subject: str, predicate: str, obj: str, scope: dict[str, str] | None = None,
         **extra: Any) -> dict[str, Any]:
    return {"scope": scope or ALICE, "subject": subject, "predicate": predicate, "object": obj,
            **extra}


def assert_problem(response: Any, status: int, *fragments: str) -> dict[str, Any]:
    """The response is a problem document with ``status`` whose detail names each fragment."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert set(body) == {"type", "title", "status", "detail"}
    assert body["status"] == status
    for fragment in fragments:
        assert fragment in body["detail"], body["detail"]
    assert "Traceback" not in response.text
    return body


@pytest.fixture
def store_client(store: GraphStore, embedder: Embedder,
                 extractor: Extractor) -> Iterator[TestClient]:
    """A client of an app over the parametrized ``store`` (embedded, then Neo4j), redaction
    on as in production, for one fresh tenant (``client.app.state.memory`` is the memory)."""
    from graphmem.ingest.redact import Redactor

    memory = Memory(store, extractor, embedder, redactor=Redactor())  # the fixture owns the store
    key = f"key-{uuid.uuid4().hex}"
    app = create_app(settings(api_keys={sha(key): f"t{key[-12:]}"}, store_timeout_seconds=STORE_TIMEOUT),
                     memory)
    with TestClient(app, headers={"X-API-Key": key}, raise_server_exceptions=False) as test_client:
        yield test_client
    memory.engine.close()
