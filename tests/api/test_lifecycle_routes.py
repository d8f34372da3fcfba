"""The lifecycle routes: maintenance, profile, summaries, todos, memory.md, JSON export.

The memory here runs on a clock the tests move (``Clock``), so decay and
overdue todos are reached by moving time, not by waiting.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphmem.embed.base import Embedder
from graphmem.extract.base import Extractor
from graphmem.memory import Memory
from graphmem.store.embedded import EmbeddedStore
from tests.api.conftest import ALICE, TENANT_A, assert_problem, episode, fact

START = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
BOB = {"user_id": "bob"}


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
def memory(tmp_path: Path, embedder: Embedder, extractor: Extractor,
           clock: Clock) -> Iterator[Memory]:
    mem = Memory(EmbeddedStore(tmp_path / "m.db", embedding_dim=384), extractor, embedder,
                 clock=clock).open()
    yield mem
    mem.close()


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def add_todo(client: TestClient, description: str, **extra: Any) -> dict[str, Any]:
    return ok(client.post("/v1/todos", json={"scope": ALICE, "description": description,
                                             **extra}), 201)


# -- maintenance ----------------------------------------------------------------------
def test_maintenance_dry_run_reports_and_the_real_run_forgets(client: TestClient,
                                                              clock: Clock) -> None:
    concert = ok(client.post("/v1/memories", json=fact("Alice", "ATTENDED", "the jazz concert",
                                              category="event", importance=0.2)), 201)["created"][0]
    ok(client.post("/v1/memories", json=fact("Alice", "LIVES_IN", "Berlin")), 201)  # core
    clock.now = START + timedelta(days=3650)

    dry = ok(client.post("/v1/maintenance", json={"scope": ALICE, "dry_run": True}))
    assert dry["dry_run"] is True and dry["tenant"] == TENANT_A
    [scope] = dry["scopes"]
    assert scope["scope_key"] == "user:alice"
    assert [c["id"] for c in scope["decay"]["forgotten"]] == [concert["id"]]
    listed = ok(client.get("/v1/memories", params=ALICE))["memories"]
    assert {m["status"] for m in listed} == {"active"}  # a dry run changes nothing

    real = ok(client.post("/v1/maintenance", json={"scope": ALICE}))
    assert [c["status_after"] for c in real["scopes"][0]["decay"]["forgotten"]] == ["forgotten"]
    forgotten = ok(client.get("/v1/memories", params={**ALICE, "status": "forgotten"}))
    assert [m["id"] for m in forgotten["memories"]] == [concert["id"]]
    assert [m["object"] for m in ok(client.get("/v1/memories", params=ALICE))["memories"]] == [
        "Berlin"]
    again = ok(client.post("/v1/maintenance", json={"scope": ALICE}))
    assert again["scopes"][0]["decay"]["forgotten"] == []  # idempotent


def test_maintenance_needs_a_scope(client: TestClient) -> None:
    assert_problem(client.post("/v1/maintenance", json={"scope": {}}), 422, "scope")
    assert_problem(client.post("/v1/maintenance", json={"scope": ALICE, "dryrun": True}), 422,
                   "dryrun")


# -- profile ----------------------------------------------------------------------------
def test_profile_refresh_writes_a_version_with_the_known_facts(client: TestClient) -> None:
    empty = ok(client.get("/v1/profile", params=ALICE))
    assert (empty["version"], empty["text"]) == (0, "")
    assert ok(client.get("/v1/profile/history", params=ALICE)) == {"versions": []}

    ok(client.post("/v1/memories", json=fact("Alice", "LIVES_IN", "Berlin")), 201)
    refreshed = ok(client.post("/v1/profile/refresh", json={"scope": ALICE}))
    assert refreshed["changed"] is True
    assert "Berlin" in refreshed["profile"]["text"]

    current = ok(client.get("/v1/profile", params=ALICE))
    assert current["version"] == 1 and "Berlin" in current["text"]
    same = ok(client.post("/v1/profile/refresh", json={"scope": ALICE}))
    assert same["changed"] is False  # nothing new to say: no new version
    history = ok(client.get("/v1/profile/history", params=ALICE))["versions"]
    assert [v["version"] for v in history] == [1]


def test_profile_needs_a_scope(client: TestClient) -> None:
    assert_problem(client.get("/v1/profile"), 422, "user_id")
    assert_problem(client.get("/v1/profile", params={"user_id": "no spaces"}), 422, "user_id")


# -- summaries ---------------------------------------------------------------------------
def test_summarise_a_session_then_list_it(client: TestClient) -> None:
    assert ok(client.get("/v1/summaries", params=ALICE)) == {"summaries": []}
    ok(client.post("/v1/episodes", json=episode(
        "I moved to Berlin last month.", "I work at Acme as an engineer.",
        "My sister Maria loves pizza.", session_id="s1")), 201)

    done = ok(client.post("/v1/sessions/s1/summary", params=ALICE))
    assert done["session_id"] == "s1"
    assert done["summary"]["session_id"] == "s1" and done["summary"]["message_count"] == 3
    listed = ok(client.get("/v1/summaries", params={**ALICE, "limit": 5}))["summaries"]
    assert [s["session_id"] for s in listed] == ["s1"]
    assert listed[0]["summary"] == done["summary"]["summary"]


def test_summarise_an_unknown_session_is_404(client: TestClient) -> None:
    assert_problem(client.post("/v1/sessions/nope/summary", params=ALICE), 404, "nope")
    assert_problem(client.get("/v1/summaries", params={**ALICE, "limit": 0}), 422, "limit")


# -- todos --------------------------------------------------------------------------------
def test_todo_add_list_complete(client: TestClient, clock: Clock) -> None:
    due = (START + timedelta(days=2)).isoformat()
    todo = add_todo(client, "send the report", due=due, assignee="Alice", creator="Bob")
    assert (todo["status"], todo["assignee"], todo["creator"]) == ("pending", "Alice", "Bob")
    assert todo["due"] == "2024-06-03T12:00:00Z"
    undated = add_todo(client, "water the plants")

    listed = ok(client.get("/v1/todos", params=ALICE))["todos"]
    assert [t["id"] for t in listed] == [todo["id"], undated["id"]]  # undated last
    soon = ok(client.get("/v1/todos", params={**ALICE, "due_before": "2024-06-05T00:00:00"}))
    assert [t["id"] for t in soon["todos"]] == [todo["id"]]

    clock.now += timedelta(hours=1)  # closing is a later event on the todo's timeline
    done = ok(client.post(f"/v1/todos/{todo['id']}/complete", params=ALICE))
    assert done["status"] == "completed" and done["closed_at"] is not None
    cancelled = ok(client.post(f"/v1/todos/{undated['id']}/cancel"))
    assert cancelled["status"] == "cancelled"
    pending = ok(client.get("/v1/todos", params={**ALICE, "status": "pending"}))
    assert pending == {"todos": []}
    completed = ok(client.get("/v1/todos", params={**ALICE, "status": "completed"}))["todos"]
    assert [t["id"] for t in completed] == [todo["id"]]
    assert_problem(client.post(f"/v1/todos/{todo['id']}/complete"), 409, "completed")


def test_overdue_todos_follow_the_clock(client: TestClient, clock: Clock) -> None:
    todo = add_todo(client, "call mom", due=(START + timedelta(hours=1)).isoformat())
    assert ok(client.get("/v1/todos/overdue", params=ALICE)) == {"todos": []}
    clock.now = START + timedelta(hours=2)
    overdue = ok(client.get("/v1/todos/overdue", params=ALICE))["todos"]
    assert [(t["id"], t["overdue"]) for t in overdue] == [(todo["id"], True)]


def test_todo_bad_input(client: TestClient) -> None:
    assert_problem(client.post("/v1/todos/fact_nope/complete"), 404, "fact_nope")
    assert_problem(client.post("/v1/todos", json={"scope": ALICE, "description": "   "}), 422,
                   "description")
    assert_problem(client.post("/v1/todos", json={"scope": ALICE, "description": "x",
                                                  "due": "2000-01-01T00:00:00Z"}), 422,
                   "not in the future")
    assert_problem(client.get("/v1/todos", params={**ALICE, "status": "done"}), 422, "status")
    memory_id = ok(client.post("/v1/memories", json=fact("Alice", "LIKES", "tea")),
                   201)["created"][0]["id"]
    assert_problem(client.post(f"/v1/todos/{memory_id}/complete"), 404)  # not a todo


# -- memory.md ---------------------------------------------------------------------------
def test_export_edit_import_supersedes(client: TestClient, clock: Clock) -> None:
    ok(client.post("/v1/memories", json=fact("Alice", "LIVES_IN", "Berlin")), 201)
    response = client.get("/v1/export/memory.md", params=ALICE)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/markdown")
    text = response.text
    assert "Berlin" in text and "<!-- id:" in text

    unchanged = ok(client.post("/v1/import/memory.md", json={"scope": ALICE, "markdown": text}))
    assert unchanged["unchanged"] == 1 and unchanged["edited"] == []

    edited = text.replace("Berlin", "Paris")
    dry = ok(client.post("/v1/import/memory.md", json={"scope": ALICE, "markdown": edited,
                                                       "dry_run": True}))
    assert dry["dry_run"] is True and len(dry["edited"]) == 1
    current = ok(client.get("/v1/memories", params=ALICE))["memories"]
    assert [m["object"] for m in current] == ["Berlin"]

    clock.now += timedelta(days=1)  # the correction comes later than the fact
    report = ok(client.post("/v1/import/memory.md", json={"scope": ALICE, "markdown": edited}))
    [edit] = report["edited"]
    assert edit["superseded"] is True and "Paris" in edit["new_text"]
    current = ok(client.get("/v1/memories", params=ALICE))["memories"]
    assert [m["object"] for m in current] == ["Paris"]
    old = ok(client.get(f"/v1/memories/{edit['old_id']}"))["memory"]
    assert old["object"] == "Berlin" and old["superseded_by"] == edit["new_id"]
    assert "Paris" in client.get("/v1/export/memory.md", params=ALICE).text


def test_malformed_markdown_is_422_naming_the_line(client: TestClient) -> None:
    bad = "# Memory of alice\n\n- a line before any section\n"
    assert_problem(client.post("/v1/import/memory.md", json={"scope": ALICE, "markdown": bad}),
                   422, "line 3")
    unknown = "## Gossip\n\n- Alice knows things\n"
    assert_problem(client.post("/v1/import/memory.md", json={"scope": ALICE,
                                                             "markdown": unknown}),
                   422, "unknown section")
    assert_problem(client.get("/v1/export/memory.md"), 422, "scope")


def test_learnings_export_holds_lessons_only(client: TestClient) -> None:
    ok(client.post("/v1/memories", json=fact("Alice", "LIVES_IN", "Berlin")), 201)
    text = client.get("/v1/export/memory.md", params={**ALICE, "learnings": True}).text
    assert text.startswith("# Learnings of alice") and "Berlin" not in text


# -- JSON export -----------------------------------------------------------------------------
def test_export_holds_the_user_history_and_nothing_of_others(client: TestClient) -> None:
    ok(client.post("/v1/episodes", json=episode("I work at Acme.")), 201)
    ok(client.post("/v1/memories", json=fact("Alice", "LIVES_IN", "Berlin")), 201)
    ok(client.post("/v1/memories", json=fact("Alice", "LIVES_IN", "Paris")), 201)
    ok(client.post("/v1/memories", json=fact("Bob", "LIVES_IN", "Rome", scope=BOB)), 201)

    export = ok(client.get("/v1/export", params=ALICE))
    assert export["format"] == "graphmem.scope-export/1" and export["scope_key"] == "user:alice"
    assert {f["object_name"] for f in export["facts"]} >= {"Acme", "Berlin", "Paris"}
    assert {f["scope_key"] for f in export["facts"]} == {"user:alice"}
    assert all(f["embedding"] is None for f in export["facts"])
    assert len(export["episodes"]) == 1
    assert "Rome" not in str(export) and "bob" not in str(export).lower()


# -- tenant isolation --------------------------------------------------------------------------
def test_another_tenant_sees_and_changes_nothing(client: TestClient,
                                                 client_b: TestClient) -> None:
    todo = add_todo(client, "send the report")
    ok(client.post("/v1/memories", json=fact("Alice", "LIVES_IN", "Berlin")), 201)
    ok(client.post("/v1/profile/refresh", json={"scope": ALICE}))

    assert ok(client_b.get("/v1/todos", params=ALICE)) == {"todos": []}
    assert_problem(client_b.post(f"/v1/todos/{todo['id']}/complete", params=ALICE), 404)
    assert_problem(client_b.post(f"/v1/todos/{todo['id']}/cancel"), 404)
    assert ok(client_b.get("/v1/profile", params=ALICE))["version"] == 0
    assert ok(client_b.get("/v1/profile/history", params=ALICE)) == {"versions": []}
    export = ok(client_b.get("/v1/export", params=ALICE))
    assert (export["facts"], export["episodes"], export["entities"]) == ([], [], [])
    assert "Berlin" not in client_b.get("/v1/export/memory.md", params=ALICE).text
    report = ok(client_b.post("/v1/maintenance", json={"scope": ALICE}))
    assert report["tenant"] == "tenant-b" and report["scopes"][0]["decay"]["scanned"] == 0

    # and A's state is untouched
    assert ok(client.get("/v1/todos", params=ALICE))["todos"][0]["status"] == "pending"
    assert ok(client.get("/v1/profile", params=ALICE))["version"] == 1


def test_lifecycle_routes_need_a_key(app: Any) -> None:
    anonymous = TestClient(app, raise_server_exceptions=False)
    assert_problem(anonymous.get("/v1/todos", params=ALICE), 401)
    assert_problem(anonymous.post("/v1/maintenance", json={"scope": ALICE}), 401)
    assert_problem(anonymous.get("/v1/export", params=ALICE), 401)
