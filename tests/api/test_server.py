"""The API over real HTTP: ``graphmem serve`` in a subprocess, on a free loopback port.

This is also where the SSE stream is tested: an endless stream needs a real
server (the in-process test client waits for a response to end).
"""

from __future__ import annotations

import json
import re
import os
import queue
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.api.conftest import (
    ALICE,
    KEY_A,
    KEY_B,
    STORE_TIMEOUT,
    TENANT_A,
    TENANT_B,
    episode,
    sha,
)
from graphmem.edit.audit import AuditLog
from tests.api.sse import EventReader
from tests.neo4j_fixtures import free_ports
from tests.processes import served

pytestmark = pytest.mark.slow
START_TIMEOUT = 90.0


class Server:
    def __init__(self, url: str, log: Path, audit: Path) -> None:
        self.url = url
        self.log = log
        self.audit = AuditLog(audit)

    def client(self, key: str | None) -> httpx.Client:
        headers = {"X-API-Key": key} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60.0)


@contextmanager
def serving(workdir: Path, env: dict[str, str], args: list[str]) -> Iterator[Server]:
    """``graphmem serve *args`` on a free loopback port with ``env`` added, until the block ends."""
    [port] = free_ports(1)
    log_path = workdir / f"server-{port}.log"
    command = [sys.executable, "-c", "from graphmem.cli import app; app()", "serve", *args,
               "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    url = f"http://127.0.0.1:{port}"
    audit_path = workdir / f"audit-{port}.jsonl"
    with served(command, log_path, f"{url}/ready", START_TIMEOUT, cwd=workdir,
                env={**os.environ, "GRAPHMEM_AUDIT_LOG": str(audit_path),
                     "GRAPHMEM_STORE_TIMEOUT_SECONDS": str(STORE_TIMEOUT), **env}):
        yield Server(url, log_path, audit_path)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("served")
    env = {"GRAPHMEM_API_KEYS": json.dumps({sha(KEY_A): TENANT_A, sha(KEY_B): TENANT_B})}
    with serving(workdir, env, ["--store", "embedded", "--db-path", str(workdir / "m.db")]) as up:
        yield up


def test_ingest_and_search_over_http(server: Server) -> None:
    with server.client(KEY_A) as client:
        assert client.get("/health").json() == {"status": "ok"}
        created = client.post("/v1/episodes", json=episode("I work at Acme.", "I live in Oslo."))
        assert created.status_code == 201, created.text
        assert sorted(m["object"] for m in created.json()["created"]) == ["Acme", "Oslo"]
        found = client.post("/v1/memories/search", json={"scope": ALICE, "query": "Where does Alice work?"})
        assert found.status_code == 200
        assert found.json()["results"][0]["object"] == "Acme"
        docs = client.get("/docs")
        assert docs.status_code == 200 and "swagger" in docs.text.lower()


def test_the_api_docs_need_no_internet(server: Server) -> None:
    """Swagger UI and ReDoc come from the package: a machine offline still reads /docs."""
    with server.client(None) as anonymous:
        for page in ("/docs", "/redoc"):
            html = anonymous.get(page)
            assert html.status_code == 200
            assets = re.findall(r'(?:src|href)="([^"]+\.(?:js|css))"', html.text)
            assert assets and all(a.startswith("/") for a in assets), assets  # none on a CDN
            for asset in assets:
                served = anonymous.get(asset)
                assert served.status_code == 200 and len(served.content) > 10_000, asset


def test_auth_over_http(server: Server) -> None:
    with server.client(None) as anonymous:
        response = anonymous.get("/v1/memories", params=ALICE)
        assert response.status_code == 401
        assert response.headers["content-type"] == "application/problem+json"
        assert anonymous.get("/v1/events").status_code == 401
    log = server.log.read_text()
    assert KEY_A not in log and KEY_B not in log and "Traceback" not in log


def test_events_are_streamed_to_their_tenant_only(server: Server) -> None:
    scope = {"user_id": "sse-user"}
    reader_a, reader_b = EventReader(server, KEY_A), EventReader(server, KEY_B)
    try:
        with server.client(KEY_A) as a, server.client(KEY_B) as b:
            made = a.post("/v1/episodes", json=episode("I live in Paris.", scope=scope)).json()
            event = reader_a.next()
            assert event["event"] == "memory.created"
            assert event["data"]["memory_id"] == made["created"][0]["id"]
            assert event["data"]["memory"]["object"] == "Paris"

            fact_id = made["created"][0]["id"]
            assert a.delete(f"/v1/memories/{fact_id}").status_code == 200
            assert reader_a.next()["event"] == "memory.forgotten"
            assert a.post(f"/v1/memories/{fact_id}/restore").status_code == 200
            assert reader_a.next()["event"] == "memory.restored"
            erased = a.post("/v1/forget", json={"scope": scope, "whole_scope": True}).json()
            assert erased["fact_ids"] == [fact_id]
            deleted = reader_a.next()
            assert (deleted["event"], deleted["data"]["memory_id"]) == ("memory.deleted", fact_id)
            [audited] = [e for e in server.audit.entries(tenant=TENANT_A, action="erase")
                         if e.scope_key == "user:sse-user"]
            assert audited.detail == "whole scope"
            assert fact_id in audited.targets

            # B guesses A's ids: nothing changes, nothing is streamed to anyone
            assert b.delete(f"/v1/memories/{fact_id}").status_code == 404
            own = b.post("/v1/episodes", json=episode("I live in Rome.", scope=scope)).json()
            first_b = reader_b.next()
            assert first_b["data"]["memory_id"] == own["created"][0]["id"]  # not A's events
            with pytest.raises(queue.Empty):
                reader_a.next(timeout=0.5)
    finally:
        reader_a.close()
        reader_b.close()
