"""What a client learns when it connects: the instructions, the tools with their
hints, and the two resources; and that the tenant is the connection's, not the model's."""

from __future__ import annotations

import anyio
from mcp import Client

from graphmem.mcp import Caller, build_server
from graphmem.mcp.server import MEMORY_MD_URI, PROFILE_URI
from graphmem.memory import Memory
from tests.mcp.conftest import ALICE
from tests.mcp.scenario import TOOLS, call, said

READS = {"search_memory", "get_context", "get_entity", "list_memories", "list_todos"}


def test_a_client_sees_instructions_tools_and_resources(client: Client) -> None:
    async def scenario() -> None:
        async with client:
            assert client.instructions and "add_episode" in client.instructions
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == TOOLS
            for name, tool in tools.items():
                assert tool.annotations is not None
                assert tool.annotations.read_only_hint is (name in READS), name
                assert tool.output_schema is not None, name  # typed, structured results
                assert "\n    " not in (tool.description or ""), "docstring indentation"
            assert "forget" in (tools["forget_memory"].description or "").lower()
            templates = (await client.list_resource_templates()).resource_templates
            assert {t.uri_template for t in templates} == {PROFILE_URI, MEMORY_MD_URI}
            assert all(t.mime_type == "text/markdown" for t in templates)

    anyio.run(scenario)


def test_each_server_acts_for_its_own_tenant_only(memory: Memory, tenant: str) -> None:
    mine = Client(build_server(memory, lambda _ctx: Caller(tenant, ALICE)))
    theirs = Client(build_server(memory, lambda _ctx: Caller(tenant + "x", ALICE)))

    async def scenario() -> None:
        async with mine, theirs:
            made = await call(mine, "add_episode",
                              messages=[said("I work at Acme.", "2024-01-10T09:00:00Z")])
            found = await call(theirs, "search_memory", query="Where does Alice work?")
            assert found["results"] == [] and made["created"]
            md = await theirs.read_resource("graphmem://memory.md")
            assert "Acme" not in md.contents[0].text  # type: ignore[union-attr]

    anyio.run(scenario)
