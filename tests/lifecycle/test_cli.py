"""The lifecycle commands, end to end through the real CLI app, on both stores."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.ingest.inputs import EpisodeInput
from graphmem.lifecycle.todos import add_todo
from graphmem.memory import Memory
from graphmem.models import Message, utcnow
from graphmem.settings import Settings
from tests.lifecycle.conftest import ALICE
from tests.store_fixtures import STORES

runner = CliRunner()


@pytest.fixture(params=STORES)
def settings(request: pytest.FixtureRequest, tmp_path: Path,
             monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.setenv("GRAPHMEM_DB_PATH", str(tmp_path / "memory.db"))
    monkeypatch.setenv("GRAPHMEM_DEFAULT_TENANT", f"cli{uuid.uuid4().hex[:12]}")
    if request.param == "neo4j":
        server: Any = request.getfixturevalue("neo4j_uri")
        monkeypatch.setenv("GRAPHMEM_STORE", "neo4j")
        monkeypatch.setenv("GRAPHMEM_NEO4J_URI", server.uri)
        monkeypatch.setenv("GRAPHMEM_NEO4J_USER", server.user)
        monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", server.password)
    yield Settings()


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_lifecycle_commands(settings: Settings, tmp_path: Path) -> None:
    tenant = settings.default_tenant
    with Memory.from_settings(settings) as memory:
        memory.add_episode(tenant, EpisodeInput(scope=ALICE, messages=[
            Message(speaker="Alice", content="I work at Acme."),
            Message(speaker="Alice", content="I like green tea.")]))
        todo = add_todo(memory, tenant, ALICE, "send the report",
                        due=utcnow() + timedelta(days=2))

    memory_md = tmp_path / "memory.md"
    run("export-md", "--scope", "user:alice", "-o", str(memory_md))
    text = memory_md.read_text()
    assert "- Alice works at Acme." in text and "<!-- id:" in text
    edited = "\n".join(line for line in text.splitlines() if "green tea" not in line)
    memory_md.write_text(edited.replace("## Facts\n", "## Facts\n\n- Alice lives in Berlin.\n"))
    report = json.loads(run("import-md", str(memory_md), "--scope", "user:alice",
                            "--audit-log", str(tmp_path / "audit.jsonl")))
    assert len(report["retracted"]) == 1 and len(report["added"]) == 1
    assert "Alice lives in Berlin." in run("export-md", "--scope", "user:alice")
    assert "Lessons" not in run("export-md", "--scope", "user:alice", "--learnings")

    assert "send the report" in run("todos", "list", "--scope", "user:alice")
    done = json.loads(run("todos", "complete", todo.id, "--scope", "user:alice"))
    assert done["status"] == "completed"

    refreshed = json.loads(run("profile", "refresh", "--scope", "user:alice"))
    assert refreshed["changed"] and refreshed["profile"]["version"] == 1
    assert "About Alice: Alice works at Acme." in run("profile", "show", "--scope", "user:alice")

    maintenance = json.loads(run("maintain", "--scope", "user:alice"))
    assert maintenance["scopes"][0]["scope_key"] == "user:alice"

    out = tmp_path / "alice.json"
    run("export-user", "--scope", "user:alice", "-o", str(out))
    exported = json.loads(out.read_text())
    assert exported["format"] == "graphmem.scope-export/1"
    fact_id = next(f["id"] for f in exported["facts"] if f["text"] == "Alice lives in Berlin.")

    forgotten = json.loads(run("forget", "--scope", "user:alice", "--fact", fact_id,
                               "--audit-log", str(tmp_path / "audit.jsonl")))
    assert forgotten["status"] == "forgotten"
    refused = runner.invoke(app, ["forget", "--scope", "user:alice"])
    assert refused.exit_code == 1 and "--yes" in refused.output
    dry = json.loads(run("forget", "--scope", "user:alice", "--dry-run"))
    assert dry["dry_run"] and dry["facts"] >= 3
    bad = runner.invoke(app, ["export-md", "--scope", "alice"])
    assert bad.exit_code == 1 and "not a scope key" in bad.output
    actions = [json.loads(line)["action"] for line in
               (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert actions == ["retract", "forget"]


def test_todos_due_lists_the_reminders_due_now(settings: Settings) -> None:
    now = utcnow()
    with Memory.from_settings(settings) as memory:
        add_todo(memory, settings.default_tenant, ALICE, "pay the rent", now=now - timedelta(hours=1),
                 remind_at=now - timedelta(minutes=1), due=now + timedelta(days=1))
        add_todo(memory, settings.default_tenant, ALICE, "book the hotel",
                 due=now + timedelta(days=3))
    due = run("todos", "--due", "--scope", "user:alice")
    assert "pay the rent" in due and "remind now" in due and "book the hotel" not in due
    listed = run("todos", "list", "--scope", "user:alice")
    assert "pay the rent" in listed and "book the hotel" in listed
    assert "pay the rent" in run("todos", "list", "--due", "--scope", "user:alice")
