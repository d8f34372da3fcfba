"""What an assistant does with graphmem over MCP, written once and run over every
transport and store: the SDK's own :class:`mcp.Client` drives it.
"""

from __future__ import annotations

from typing import Any

from mcp import Client

TOOLS = {"add_episode", "add_memory", "search_memory", "get_context", "get_entity",
         "list_memories", "forget_memory", "restore_memory", "list_todos", "complete_todo"}


def said(content: str, when: str, speaker: str = "Alice") -> dict[str, Any]:
    return {"role": "user", "speaker": speaker, "content": content, "timestamp": when}


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must succeed; its structured result."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def refused(client: Client, tool: str, **arguments: Any) -> str:
    """Call a tool that must fail; the message the model reads."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    text = " ".join(getattr(block, "text", "") for block in result.content)
    assert "Traceback" not in text
    return text


def one(memories: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    found = [m for m in memories if all(m.get(k) == v for k, v in fields.items())]
    assert len(found) == 1, (fields, memories)
    return found[0]


def fact_ids(search: dict[str, Any]) -> list[str]:
    return [hit["id"] for hit in search["results"] if hit["kind"] == "fact"]


async def remember_revise_forget(client: Client, **scope: str) -> dict[str, str]:
    """List the tools, remember a job, change it, search, forget and restore.

    Returns the ids of the memories it made, for the caller's own checks.
    """
    listed = await client.list_tools()
    assert TOOLS <= {tool.name for tool in listed.tools}
    assert all(tool.description and len(tool.description) > 60 for tool in listed.tools)

    first = await call(client, "add_episode", episode_id="e1", **scope,
                       messages=[said("I work at Acme.", "2024-01-10T09:00:00Z")])
    acme = one(first["created"], predicate="WORKS_AT", object="Acme")
    second = await call(client, "add_episode", episode_id="e2", **scope, messages=[
        said("I left Acme and joined Globex.", "2024-06-01T09:00:00Z")])
    globex = one(second["created"], predicate="WORKS_AT", object="Globex")
    old = one(second["superseded"], id=acme["id"])
    assert old["superseded_by"] == globex["id"] and old["superseded"] is True
    assert old["valid_until"].startswith("2024-06-01")
    again = await call(client, "add_episode", episode_id="e2", **scope, messages=[
        said("I left Acme and joined Globex.", "2024-06-01T09:00:00Z")])
    assert again["duplicate"] is True and again["created"] == []

    now = await call(client, "search_memory", query="Where does Alice work?", **scope)
    assert fact_ids(now)[0] == globex["id"] and acme["id"] not in fact_ids(now)
    then = await call(client, "search_memory", query="Where does Alice work?",
                      as_of="2024-03-01T00:00:00Z", **scope)
    assert fact_ids(then)[0] == acme["id"] and globex["id"] not in fact_ids(then)
    history = await call(client, "search_memory", query="Where has Alice worked?",
                         include_history=True, **scope)
    assert {acme["id"], globex["id"]} <= set(fact_ids(history))

    # a structured memory supersedes the same way
    paris = await call(client, "add_memory", subject="Alice", predicate="lives in",
                       object="Paris", valid_from="2023-01-01T00:00:00Z", **scope)
    berlin = await call(client, "add_memory", subject="Alice", predicate="LIVES_IN",
                        object="Berlin", valid_from="2024-09-01T00:00:00Z", **scope)
    paris_id = one(paris["created"], predicate="LIVES_IN")["id"]
    assert one(berlin["superseded"], id=paris_id)["superseded_by"] == \
        one(berlin["created"], object="Berlin")["id"]

    gone = await call(client, "forget_memory", memory_id=globex["id"])
    assert gone["status"] == "forgotten"
    after = await call(client, "search_memory", query="Where does Alice work?", **scope)
    assert globex["id"] not in fact_ids(after)
    hidden = await call(client, "list_memories", status="forgotten", **scope)
    assert [m["id"] for m in hidden["memories"]] == [globex["id"]]

    back = await call(client, "restore_memory", memory_id=globex["id"])
    assert back["status"] == "active"
    restored = await call(client, "search_memory", query="Where does Alice work?", **scope)
    assert fact_ids(restored)[0] == globex["id"]

    query = "&".join(f"{k}={v}" for k, v in scope.items())
    exported = await client.read_resource(f"graphmem://memory.md{'?' + query if query else ''}")
    text = exported.contents[0].text  # type: ignore[union-attr]
    assert "Alice works at Globex" in text and "Acme" not in text
    return {"acme": acme["id"], "globex": globex["id"], "paris": paris_id}
