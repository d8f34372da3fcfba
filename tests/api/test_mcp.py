"""``/mcp`` over real HTTP: the REST app under uvicorn on a free loopback port, driven
by the MCP SDK's own streamable HTTP client, on both stores.

The tenants are the API keys' (fresh ids per test, so the shared Neo4j server
holds nothing from another test); isolation is checked tool by tool.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
import httpx2
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

from api.app import create_app
from graphmem.embed.base import Embedder
from graphmem.extract.base import Extractor
from graphmem.lifecycle.profile import refresh_profile
from graphmem.lifecycle.todos import add_todo
from graphmem.memory import Memory
from graphmem.models import Scope
from graphmem.settings import Settings
from graphmem.store.base import GraphStore
from tests.api.conftest import KEY_A, KEY_B, assert_problem, sha
from tests.mcp.scenario import call, one, refused, remember_revise_forget, said
from tests.neo4j_fixtures import free_ports

ALICE = {"user_id": "alice"}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@dataclass
class Served:
    url: str
    app: FastAPI
    tenant_a: str
    tenant_b: str


@pytest.fixture
def served(store: GraphStore, embedder: Embedder, extractor: Extractor) -> Iterator[Served]:
    tenant_a, tenant_b = f"a{uuid.uuid4().hex[:10]}", f"b{uuid.uuid4().hex[:10]}"
    settings = Settings(_env_file=None, api_keys={sha(KEY_A): tenant_a,  # type: ignore[call-arg]
                                                  sha(KEY_B): tenant_b},
                        rate_limit_per_minute=100_000)
    app = create_app(settings, Memory(store, extractor, embedder))
    [port] = free_ports(1)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield Served(f"http://127.0.0.1:{port}", app, tenant_a, tenant_b)
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@asynccontextmanager
async def connect(url: str, key: str, **headers: str) -> AsyncIterator[Client]:
    """The SDK's client on ``/mcp``, sending ``key`` as a bearer token."""
    timeout = httpx2.Timeout(60.0, read=300.0)
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}", **headers},
                                  timeout=timeout) as http:
        async with Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
            yield client


def test_an_assistant_remembers_revises_and_forgets_over_http(served: Served) -> None:
    async def scenario() -> None:
        async with connect(served.url, KEY_A) as client:
            await remember_revise_forget(client, **ALICE)

    anyio.run(scenario)


def test_a_header_names_whose_memory_a_call_means(served: Served) -> None:
    bob = {"X-Graphmem-User-Id": "bob"}

    async def scenario() -> None:
        async with connect(served.url, KEY_A, **bob) as client:
            made = await call(client, "add_episode", messages=[
                said("I work at Initech.", "2024-01-10T09:00:00Z", speaker="Bob")])
            assert one(made["created"], object="Initech")["scope"] == "user:bob"
            found = await call(client, "search_memory", query="Where does Bob work?")
            assert found["results"][0]["object"] == "Initech"
            other = await call(client, "search_memory", query="Where does Bob work?", **ALICE)
            assert [h for h in other["results"] if h["kind"] == "fact"] == []
        async with connect(served.url, KEY_A) as client:
            message = await refused(client, "list_memories")
            assert "user_id or group_id is required" in message
            with pytest.raises(MCPError, match="user_id or group_id is required"):
                await client.read_resource("graphmem://memory.md")
            with pytest.raises(MCPError, match="user_id.*not a valid id"):
                await client.read_resource("graphmem://profile?user_id=a%20b")

    anyio.run(scenario)
    response = httpx.post(f"{served.url}/mcp", json={"jsonrpc": "2.0", "id": 1,
                                                     "method": "tools/list"},
                          headers={**ACCEPT, "X-API-Key": KEY_A, "X-Graphmem-User-Id": "a b"})
    assert_problem(response, 422, "X-Graphmem-User-Id", "not a valid id")


def test_a_key_of_another_tenant_cannot_reach_the_memories(served: Served) -> None:
    add_todo(served.app.state.memory, served.tenant_a, Scope(user_id="alice"),
             "renew the passport")

    async def scenario() -> None:
        async with connect(served.url, KEY_A) as a:
            made = await call(a, "add_episode", **ALICE,
                              messages=[said("I work at Acme.", "2024-01-10T09:00:00Z")])
            job = one(made["created"], predicate="WORKS_AT")["id"]
            [todo] = [t["id"] for t in (await call(a, "list_todos", **ALICE))["todos"]]
            alice = (await call(a, "get_entity", name="Alice", **ALICE))["id"]
            await anyio.to_thread.run_sync(lambda: refresh_profile(
                served.app.state.memory, served.tenant_a, Scope(user_id="alice")))
            own = await a.read_resource("graphmem://profile?user_id=alice")
            assert "Acme" in own.contents[0].text  # type: ignore[union-attr]
        async with connect(served.url, KEY_B) as b:
            found = await call(b, "search_memory", query="Where does Alice work?", **ALICE)
            assert found["results"] == []
            listed = await call(b, "list_memories", include_history=True, **ALICE)
            assert listed["memories"] == []
            assert (await call(b, "list_todos", **ALICE))["todos"] == []
            context = await call(b, "get_context", message="Where do I work?", **ALICE)
            assert "Acme" not in context["prompt"]
            for tool, arguments in [("forget_memory", {"memory_id": job}),
                                    ("restore_memory", {"memory_id": job}),
                                    ("complete_todo", {"todo_id": todo}),
                                    ("get_entity", {"name": "Acme", **ALICE}),
                                    ("get_entity", {"entity_id": alice})]:
                message = await refused(b, tool, **arguments)
                assert "not found" in message or "nothing is known" in message, message
            for uri in ["graphmem://memory.md?user_id=alice", "graphmem://profile?user_id=alice"]:
                read = await b.read_resource(uri)
                assert "Acme" not in read.contents[0].text  # type: ignore[union-attr]
        async with connect(served.url, KEY_A) as a:
            still = await call(a, "search_memory", query="Where does Alice work?", **ALICE)
            assert [h["id"] for h in still["results"] if h["kind"] == "fact"][0] == job
            assert (await call(a, "list_todos", status="pending", **ALICE))["todos"][0]["id"] \
                == todo

    anyio.run(scenario)


def test_without_a_valid_key_mcp_answers_401(served: Served) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    for headers in [{}, {"Authorization": "Bearer not-a-key"}, {"X-API-Key": "nope"}]:
        response = httpx.post(f"{served.url}/mcp", json=body, headers={**ACCEPT, **headers})
        problem = assert_problem(response, 401, "API key")
        assert response.headers["www-authenticate"] == "Bearer", problem

    async def scenario() -> None:
        async with connect(served.url, "not-a-key") as client:
            await client.list_tools()

    with pytest.raises(BaseExceptionGroup) as raised:  # the SDK's client cannot connect
        anyio.run(scenario)
    assert raised.group_contains(MCPError, match="error response")


def _initialize(url: str, key: str) -> str:
    """Open a (handshake-era) MCP session with ``key``; its id."""
    response = httpx.post(f"{url}/mcp", headers={**ACCEPT, "X-API-Key": key}, json={
        "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}})
    assert response.status_code == 200, response.text
    return response.headers["mcp-session-id"]


def test_an_mcp_session_belongs_to_the_tenant_that_opened_it(served: Served) -> None:
    session = _initialize(served.url, KEY_A)
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}

    def post(key: str) -> httpx.Response:
        return httpx.post(f"{served.url}/mcp", json=listing, headers={
            **ACCEPT, "X-API-Key": key, "mcp-session-id": session,
            "mcp-protocol-version": "2025-11-25"})

    assert_problem(post(KEY_B), 404, "no such MCP session")
    own = post(KEY_A)
    assert own.status_code == 200 and "search_memory" in own.text, own.text


def test_tool_writes_are_published_to_the_tenants_event_stream(served: Served) -> None:
    seen: list[tuple[str, str]] = []

    async def scenario() -> None:
        subscription = served.app.state.events.subscribe(served.tenant_a)
        other = served.app.state.events.subscribe(served.tenant_b)
        async with connect(served.url, KEY_A) as a:
            made = await call(a, "add_episode", **ALICE,
                              messages=[said("I work at Acme.", "2024-01-10T09:00:00Z")])
            fact = one(made["created"], predicate="WORKS_AT")["id"]
            await call(a, "forget_memory", memory_id=fact)
        with anyio.fail_after(10):
            while ("memory.forgotten", fact) not in seen:
                event = await subscription.__anext__()
                seen.append((event.type, event.memory_id))
        assert seen.index(("memory.created", fact)) < seen.index(("memory.forgotten", fact))
        assert other.queue.empty()
        subscription.close()
        other.close()

    anyio.run(scenario)


def test_outside_the_apps_lifespan_mcp_answers_503(app: FastAPI) -> None:
    client = TestClient(app, raise_server_exceptions=False)  # not entered: no lifespan ran
    response = client.post("/mcp", headers={**ACCEPT, "X-API-Key": KEY_A}, json={})
    assert_problem(response, 503, "not running")
    assert_problem(client.post("/mcp", json={}), 401, "API key")
