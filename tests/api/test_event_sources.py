"""Every entry point's changes reach ``GET /v1/events``, over real HTTP, on both stores: a
maintenance run, a memory.md import, a todo completion and a CLI forget, none of which a
route publishes itself. The app's sink also writes the one audit trail, refusals included.

The CLI runs in this process (``CliRunner``) against the app's own memory, given as the
click context object: a CLI in another process reaches the store, not this server's
sinks (see graphmem.cli.lifecycle).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from api.app import create_app
from graphmem.cli import app as cli
from graphmem.edit.audit import AuditLog
from graphmem.lifecycle.todos import add_todo
from graphmem.memory import Memory
from graphmem.models import Scope, utcnow
from tests.api.conftest import KEY_A, STORE_TIMEOUT, settings, sha
from tests.api.sse import EventReader
from tests.api.ui.conftest import start_server, stop_server

pytestmark = pytest.mark.slow
USER = {"user_id": "alice"}


@dataclass
class Live:
    url: str
    memory: Memory
    tenant: str
    audit: AuditLog

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers={"X-API-Key": KEY_A}, timeout=120.0)


@pytest.fixture
def live(store_memory: Memory, tmp_path: Path) -> Iterator[Live]:
    tenant = f"ev{uuid.uuid4().hex[:12]}"
    audit = tmp_path / "audit.jsonl"
    app = create_app(settings(api_keys={sha(KEY_A): tenant}, audit_log=audit,
                              store_timeout_seconds=STORE_TIMEOUT), store_memory)
    url, running = start_server(app)
    yield Live(url, store_memory, tenant, AuditLog(audit))
    stop_server(running)


def _until(reader: EventReader, kind: str, seen: list[dict[str, Any]]) -> dict[str, Any]:
    """The next event of ``kind``; the ones before it are kept in ``seen``."""
    while True:
        event = reader.next()
        seen.append(event)
        if event["event"] == kind:
            return event


def _session(content: str, msg_id: str, at: str) -> dict[str, Any]:
    return {"scope": USER, "session_id": "s-old", "messages": [
        {"id": msg_id, "role": "user", "speaker": "Alice", "content": content, "timestamp": at}]}


def test_every_entry_point_publishes_its_changes(live: Live) -> None:
    reader = EventReader(live, KEY_A)
    seen: list[dict[str, Any]] = []
    try:
        with live.client() as http:
            for i, said in enumerate(["I work at Acme.", "I live in Lisbon.",
                                      "I like green tea.", "I want to learn the cello."]):
                stored = http.post("/v1/episodes", json=_session(said, f"m{i}",
                                                                 f"2024-10-01T09:0{i}:00Z"))
                assert stored.status_code == 201, stored.text
                _until(reader, "memory.created", seen)

            # a maintenance run: the ended session gets its summary
            ran = http.post("/v1/maintenance", json={"scope": USER})
            assert ran.status_code == 200, ran.text
            assert ran.json()["scopes"][0]["summarized_sessions"] == ["s-old"]
            created = _until(reader, "memory.created", seen)
            assert created["data"]["memory"]["predicate"] == "SESSION_SUMMARY"

            # a memory.md import: a deleted line retracts the memory
            text = http.get("/v1/export/memory.md", params=USER).text
            tea = next(line for line in text.splitlines() if "green tea" in line)
            imported = http.post("/v1/import/memory.md", json={
                "scope": USER, "markdown": text.replace(tea + "\n", "")})
            assert imported.status_code == 200, imported.text
            [retracted_id] = imported.json()["retracted"]
            updated = _until(reader, "memory.updated", seen)
            assert updated["data"]["memory_id"] == retracted_id
            assert updated["data"]["memory"]["valid_until"] is not None

            # a todo completion
            todo = add_todo(live.memory, live.tenant, Scope(user_id="alice"), "send the report",
                            due=utcnow() + timedelta(days=2))
            _until(reader, "memory.created", seen)
            done = http.post(f"/v1/todos/{todo.id}/complete", params=USER)
            assert done.status_code == 200, done.text
            completed = _until(reader, "todo.completed", seen)
            assert completed["data"]["memory_id"] == todo.id

            # a CLI forget, in this process, against the app's memory
            acme = next(m for m in http.get("/v1/memories", params=USER).json()["memories"]
                        if m["object"] == "Acme")
            result = CliRunner().invoke(cli, ["forget", "--scope", "user:alice", "--fact",
                                              acme["id"], "--tenant", live.tenant],
                                        obj=live.memory)
            assert result.exit_code == 0, result.output
            forgotten = _until(reader, "memory.forgotten", seen)
            assert forgotten["data"]["memory_id"] == acme["id"]

            # a guessed id: refused, audited, nothing published
            assert http.delete("/v1/memories/fact_guessed").status_code == 404
    finally:
        reader.close()

    assert all(e["data"]["memory"] is None or "embedding" not in e["data"]["memory"]
               or e["data"]["memory"]["embedding"] is None for e in seen)
    trail = live.audit.entries(tenant=live.tenant)
    assert [(e.action, e.targets) for e in trail] == [
        ("retract", [retracted_id]), ("forget", [acme["id"]]),
        ("refused", ["/v1/memories/fact_guessed"])]
