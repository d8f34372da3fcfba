"""Reminders fire over real HTTP: ``graphmem serve`` subprocesses, ``/v1/events`` listeners.

A todo's reminder reaches ``/v1/events`` as ``todo.reminder`` shortly after
its ``remind_at``, exactly once: once from a single embedded-store process,
once across two processes serving one Neo4j, and never again after a restart.
"""

from __future__ import annotations

import asyncio
import json
import queue
from contextlib import AbstractContextManager as ContextManager
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from api.scheduler import ReminderScheduler
from graphmem.events import EventBus
from graphmem.lifecycle.todos import add_todo
from graphmem.memory import Memory
from graphmem.models import Scope, utcnow
from tests.api.conftest import KEY_A, TENANT_A, TENANT_B, sha
from tests.api.sse import EventReader
from tests.api.test_server import Server
from tests.api.test_server import serving as serve

SCOPE = {"user_id": "remindee"}
#: How long a listener waits for a reminder past its time (a loaded machine is slow).
PATIENCE = 30.0
#: How long a listener goes on after the first reminder, for a second copy: ten sweeps.
SETTLE = 3.0


def serving(workdir: Path, env: dict[str, str], store: list[str]) -> ContextManager[Server]:
    """One server of tenant A that sweeps reminders every 0.3 s."""
    return serve(workdir, {**env, "GRAPHMEM_API_KEYS": json.dumps({sha(KEY_A): TENANT_A}),
                           "GRAPHMEM_REMINDER_POLL_SECONDS": "0.3"}, store)


def _reminders(readers: list[EventReader], wait: float,
               settle: float | None = None) -> list[dict[str, Any]]:
    """Every todo.reminder the readers receive within ``wait`` seconds of the first call.

    With ``settle``, listening stops ``settle`` seconds after the first reminder: a second
    copy from a later sweep (every 0.3 s) would come well within that, so the rest of the
    patience, there for a slow first one, is not spent waiting for nothing."""
    deadline = datetime.now(UTC) + timedelta(seconds=wait)
    found: list[dict[str, Any]] = []
    while (left := (deadline - datetime.now(UTC)).total_seconds()) > 0:
        for reader in readers:
            try:
                event = reader.next(timeout=min(left, 0.2))
            except queue.Empty:
                continue
            if event.get("event") == "todo.reminder":
                found.append(event["data"])
                if settle is not None and len(found) == 1:
                    deadline = min(deadline, datetime.now(UTC) + timedelta(seconds=settle))
    return found


def _remind_soon(server: Server, description: str, seconds: float) -> tuple[str, datetime]:
    remind_at = datetime.now(UTC) + timedelta(seconds=seconds)
    with server.client(KEY_A) as client:
        made = client.post("/v1/todos", json={
            "scope": SCOPE, "description": description, "remind_at": remind_at.isoformat(),
            "due": (remind_at + timedelta(hours=1)).isoformat()})
    assert made.status_code == 201, made.text
    assert made.json()["reminder_due"] is False
    return made.json()["id"], remind_at


def _fires_once(servers: list[Server], description: str) -> str:
    readers = [EventReader(s, KEY_A) for s in servers]
    try:
        todo_id, remind_at = _remind_soon(servers[0], description, 5.0)
        fired = _reminders(readers, (remind_at - datetime.now(UTC)).total_seconds() + PATIENCE,
                           settle=SETTLE)
    finally:
        for reader in readers:
            reader.close()
    assert [e["memory_id"] for e in fired] == [todo_id], fired
    event = fired[0]
    assert datetime.fromisoformat(event["at"]) >= remind_at
    assert event["todo"]["description"] == description and event["todo"]["status"] == "pending"
    assert event["todo"]["reminder_due"] is True
    with servers[-1].client(KEY_A) as client:
        due = client.get("/v1/todos", params={**SCOPE, "reminder_due": "true"}).json()["todos"]
        assert [t["id"] for t in due] == [todo_id]
        assert client.get("/v1/todos", params={**SCOPE, "reminder_due": "false"}).json() == {
            "todos": []}
    return todo_id


def _silent_after_restart(server: Server) -> None:
    reader = EventReader(server, KEY_A)
    try:
        assert _reminders([reader], 3.0) == []  # ten sweeps: the sent reminder stays sent
    finally:
        reader.close()


@pytest.mark.slow
def test_a_reminder_fires_once_on_the_embedded_store(tmp_path: Path) -> None:
    store = ["--store", "embedded", "--db-path", str(tmp_path / "m.db")]
    with serving(tmp_path, {}, store) as server:
        _fires_once([server], "email the landlord")
    with serving(tmp_path, {}, store) as restarted:
        _silent_after_restart(restarted)


@pytest.mark.slow
@pytest.mark.neo4j
def test_a_reminder_fires_once_across_two_processes_on_one_neo4j(
        tmp_path: Path, neo4j_uri: Any) -> None:
    env = {"GRAPHMEM_NEO4J_URI": neo4j_uri.uri, "GRAPHMEM_NEO4J_USER": neo4j_uri.user,
           "GRAPHMEM_NEO4J_PASSWORD": neo4j_uri.password}
    with ExitStack() as stack:
        servers = [stack.enter_context(serving(tmp_path, env, ["--store", "neo4j"]))
                   for _ in range(2)]
        with servers[0].client(KEY_A) as client:  # a clean slate for this tenant's scope
            client.post("/v1/forget", json={"scope": SCOPE, "whole_scope": True})
        _fires_once(servers, "renew the passport")
    with serving(tmp_path, env, ["--store", "neo4j"]) as restarted:
        _silent_after_restart(restarted)



def test_a_sweep_publishes_each_due_reminder_once_to_its_tenant(memory: Memory) -> None:
    now = utcnow()
    todo = add_todo(memory, TENANT_A, Scope(user_id="remindee"), "water the plants",
                    now=now - timedelta(hours=1), remind_at=now - timedelta(seconds=1))
    bus = EventBus()
    scheduler = ReminderScheduler(memory, bus, interval=60)

    async def scenario() -> tuple[list[int], list[str], int]:
        mine, theirs = bus.subscribe(TENANT_A), bus.subscribe(TENANT_B)
        sent = [await scheduler.sweep(), await scheduler.sweep()]
        await asyncio.sleep(0)  # let the bus deliver
        got = [mine.queue.get_nowait().memory_id for _ in range(mine.queue.qsize())]
        return sent, got, theirs.queue.qsize()

    sent, got, leaked = asyncio.run(scenario())
    assert sent == [1, 0] and got == [todo.id] and leaked == 0
