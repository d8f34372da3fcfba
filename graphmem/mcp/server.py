"""The MCP server: :class:`~graphmem.mcp.tools.MemoryTools` and two resources behind
the official SDK's :class:`~mcp.server.MCPServer`.

One server object serves either transport: ``graphmem mcp`` runs it over stdio
for a desktop assistant (the tenant is fixed by configuration), and the REST
app mounts its streamable HTTP transport at ``/mcp`` (the tenant is the API
key's, see :mod:`api.mcp`). Only ``caller_of`` differs.

>>> alice = Caller("default", Scope(user_id="alice"))                 # doctest: +SKIP
>>> server = build_server(memory, lambda ctx: alice)                  # doctest: +SKIP
>>> server.run("stdio")                                               # doctest: +SKIP
"""

from __future__ import annotations

import inspect

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp_types import ToolAnnotations

from graphmem.lifecycle import markdown
from graphmem.lifecycle.profile import profile_or_draft
from graphmem.mcp.tools import CallerOf, Ctx, MemoryTools, shown
from graphmem.memory import Memory

INSTRUCTIONS = """graphmem is the user's long-term memory: facts, preferences, goals, lessons
and todos from past conversations, each with the time it holds and what replaced it.
At the start of a conversation (and when the topic changes) call get_context with the
user's message, and list_todos with reminder_due=true for what to remind the user of now. Before answering a question about the user's life, call search_memory.
After each exchange, call add_episode with the new messages so they are remembered.
When the user asks you to forget something, call forget_memory (restore_memory undoes
it). Never invent memory ids: take them from search_memory or list_memories."""

PROFILE_URI = "graphmem://profile{?user_id,group_id}"
MEMORY_MD_URI = "graphmem://memory.md{?user_id,group_id}"


def build_server(memory: Memory, caller_of: CallerOf) -> MCPServer:
    """An MCP server over ``memory``; ``caller_of`` says per request who is calling: the
    tenant, and whose memory a call without ``user_id``/``group_id`` means. Whoever holds
    the memory hears every change a tool makes through its sinks (the REST app's event
    stream and audit log).
    """
    tools = MemoryTools(memory, caller_of)
    # WARNING: the SDK configures the root logger when none is set up; at INFO it would
    # let every library's chatter through (and a caller's failed call is not news)
    server: MCPServer = MCPServer("graphmem", title="graphmem memory", version="0.1.0",
                                  instructions=INSTRUCTIONS, log_level="WARNING")
    for fn in tools.reads:
        server.add_tool(fn, description=inspect.cleandoc(fn.__doc__ or ""),
                        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    for fn in tools.writes:
        server.add_tool(fn, description=inspect.cleandoc(fn.__doc__ or ""),
                        annotations=ToolAnnotations(read_only_hint=False,
                                                    destructive_hint=False,
                                                    open_world_hint=False))

    @server.resource(PROFILE_URI, name="profile", mime_type="text/markdown",
                     description="A short narrative of who the user is, rewritten from "
                                 "memory as it changes. Read it to greet and address the "
                                 "user as someone you know.")
    def profile(ctx: Ctx, user_id: str | None = None, group_id: str | None = None) -> str:
        with shown(ResourceError):
            found = profile_or_draft(memory, *tools.scope(ctx, user_id, group_id))
        return found.text or f"(no profile of {found.owner} yet: nothing is known so far)"

    @server.resource(MEMORY_MD_URI, name="memory.md", mime_type="text/markdown",
                     description="Every current memory of the user as Markdown, one line "
                                 "each, grouped by category.")
    def memory_md(ctx: Ctx, user_id: str | None = None, group_id: str | None = None) -> str:
        with shown(ResourceError):
            return markdown.export_markdown(memory, *tools.scope(ctx, user_id, group_id))

    return server
