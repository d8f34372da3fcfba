"""``graphmem mcp``: the stdio server a desktop assistant starts, driven by the MCP
SDK's own client as a subprocess, on both stores.
"""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.memory import Memory
from graphmem.models import FactStatus
from graphmem.settings import Settings
from graphmem.store.base import FactQuery
from graphmem.temporal import TimeFilter
from tests.mcp.scenario import call, refused, remember_revise_forget, said

pytestmark = pytest.mark.slow


def _env(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> dict[str, str]:
    """The environment of a desktop client's config: the store and a fresh tenant."""
    env = {**os.environ, "GRAPHMEM_DEFAULT_TENANT": f"t{uuid.uuid4().hex[:12]}",
           "GRAPHMEM_DB_PATH": str(tmp_path / "m.db"), "GRAPHMEM_STORE": kind}
    if kind == "neo4j":
        server: Any = request.getfixturevalue("neo4j_uri")
        env.update(GRAPHMEM_NEO4J_URI=server.uri, GRAPHMEM_NEO4J_USER=server.user,
                   GRAPHMEM_NEO4J_PASSWORD=server.password)
    return env


def _server(env: dict[str, str], cwd: Path, *options: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-c", "from graphmem.cli import app; app()", "mcp", *options],
        env=env, cwd=str(cwd))


@pytest.mark.parametrize("kind", ["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def test_a_desktop_assistant_remembers_revises_and_forgets_over_stdio(
        kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    env = _env(kind, tmp_path, request)

    async def scenario() -> dict[str, str]:
        async with Client(_server(env, tmp_path, "--user", "alice")) as client:
            made = await remember_revise_forget(client)  # no user_id: --user is the default
            missing = await refused(client, "forget_memory", memory_id="fact_missing")
            assert "memory 'fact_missing' not found" in missing
            bad = await refused(client, "add_episode", messages=[])
            assert "messages" in bad
            return made

    made = anyio.run(scenario)
    with Memory.from_settings(Settings(_env_file=None, store=kind,  # type: ignore[call-arg]
                                       db_path=tmp_path / "m.db",
                                       neo4j_uri=env.get("GRAPHMEM_NEO4J_URI", ""),
                                       neo4j_password=env.get("GRAPHMEM_NEO4J_PASSWORD", ""),
                                       )) as memory:
        stored = memory.list_facts(env["GRAPHMEM_DEFAULT_TENANT"], FactQuery(
            scope_keys=["user:alice"], time=TimeFilter(include_history=True)))
    by_id = {f.id: f for f in stored}
    assert by_id[made["globex"]].status is FactStatus.ACTIVE
    assert by_id[made["acme"]].superseded_by == made["globex"]


def test_without_a_default_user_the_model_must_say_whose_memory(tmp_path: Path,
                                                                request: pytest.FixtureRequest
                                                                ) -> None:
    env = _env("embedded", tmp_path, request)

    async def scenario() -> None:
        async with Client(_server(env, tmp_path)) as client:
            message = await refused(client, "add_episode",
                                    messages=[said("I work at Acme.", "2024-01-10T09:00:00Z")])
            assert "user_id or group_id is required" in message
            bad = await refused(client, "search_memory", query="work", user_id="no spaces")
            assert "user_id" in bad and "not a valid id" in bad
            made = await call(client, "add_episode", user_id="bob",
                              messages=[said("I work at Initech.", "2024-01-10T09:00:00Z",
                                             speaker="Bob")])
            assert made["created"][0]["scope"] == "user:bob"

    anyio.run(scenario)


def test_a_bad_default_user_is_one_red_line() -> None:
    result = CliRunner().invoke(app, ["mcp", "--user", "has space"])
    assert result.exit_code == 1
    assert "--user" in result.output and "not a valid id" in result.output
    assert "Traceback" not in result.output
