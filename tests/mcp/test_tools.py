"""The tools one by one, in process (the SDK's client on the server object), on both
stores: what each returns, and the message a model reads when a call is wrong."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import anyio
from mcp import Client

from graphmem.lifecycle.profile import profile_history, refresh_profile
from graphmem.lifecycle.todos import add_todo
from graphmem.memory import Memory
from tests.mcp.conftest import ALICE
from tests.mcp.scenario import call, one, refused, said

JOBS = [said("I work at Acme.", "2024-01-10T09:00:00Z"),
        said("I left Acme and joined Globex.", "2024-06-01T09:00:00Z")]


async def _jobs(client: Client) -> tuple[str, str]:
    first = await call(client, "add_episode", messages=JOBS[:1])
    second = await call(client, "add_episode", messages=JOBS[1:])
    return (one(first["created"], object="Acme")["id"],
            one(second["created"], object="Globex")["id"])


def test_get_entity_by_name_is_its_timeline_with_the_supersede(client: Client) -> None:
    async def scenario() -> None:
        async with client:
            acme, globex = await _jobs(client)
            alice = await call(client, "get_entity", name="Alice")
            jobs = [m for m in alice["timeline"] if m["predicate"] == "WORKS_AT"]
            assert [m["id"] for m in jobs] == [acme, globex]
            assert jobs[0]["superseded"] is True and jobs[0]["superseded_by"] == globex
            assert jobs[1]["superseded"] is False and jobs[1]["valid_until"] is None
            again = await call(client, "get_entity", entity_id=alice["id"])
            assert again["timeline"] == alice["timeline"]
            assert "nothing is known about 'Zorblax'" in await refused(
                client, "get_entity", name="Zorblax")
            assert "name or entity_id is required" in await refused(client, "get_entity")

    anyio.run(scenario)


def test_list_memories_filters_by_category_text_status_and_time(client: Client) -> None:
    async def scenario() -> None:
        async with client:
            acme, globex = await _jobs(client)
            tea = await call(client, "add_memory", subject="Alice", predicate="LIKES",
                             object="green tea", category="preference")
            tea_id = tea["created"][0]["id"]

            def ids(page: dict[str, object]) -> list[str]:
                return [m["id"] for m in page["memories"]]  # type: ignore[attr-defined,index]

            assert ids(await call(client, "list_memories", category="preference")) == [tea_id]
            assert set(ids(await call(client, "list_memories", category="fact"))) == {globex}
            history = await call(client, "list_memories", category="fact", include_history=True)
            assert set(ids(history)) == {acme, globex}
            then = await call(client, "list_memories", valid_at="2024-03-01T00:00:00Z")
            assert ids(then) == [acme]
            assert ids(await call(client, "list_memories", text="Globex")) == [globex]
            first = await call(client, "list_memories", limit=1)
            second = await call(client, "list_memories", limit=1, offset=1)
            assert len(ids(first)) == len(ids(second)) == 1 and ids(first) != ids(second)

    anyio.run(scenario)


def test_todos_are_listed_and_completed_once(client: Client, memory: Memory,
                                            tenant: str) -> None:
    now = datetime.now(UTC)
    due = now + timedelta(days=3)
    todo = add_todo(memory, tenant, ALICE, "renew the passport", due=due)
    rent = add_todo(memory, tenant, ALICE, "pay the rent", due=due, now=now - timedelta(hours=1),
                    remind_at=now - timedelta(minutes=1))

    async def scenario() -> None:
        async with client:
            now_due = await call(client, "list_todos", reminder_due=True)
            assert [t["id"] for t in now_due["todos"]] == [rent.id]
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert "reminder_due" in tools["list_todos"].input_schema["properties"]
            await call(client, "complete_todo", todo_id=rent.id)
            pending = await call(client, "list_todos", status="pending")
            assert [(t["id"], t["description"]) for t in pending["todos"]] == [
                (todo.id, "renew the passport")]
            done = await call(client, "complete_todo", todo_id=todo.id)
            assert done["status"] == "completed"
            assert "is completed" in await refused(client, "complete_todo", todo_id=todo.id)
            assert (await call(client, "list_todos", status="pending"))["todos"] == []
            completed = await call(client, "list_todos", status="completed")
            assert {t["id"] for t in completed["todos"]} == {rent.id, todo.id}

    anyio.run(scenario)


def test_get_context_carries_the_profile_and_fits_the_budget(client: Client, memory: Memory,
                                                            tenant: str) -> None:
    async def scenario() -> None:
        async with client:
            await _jobs(client)
            # none written yet: a draft of what memory holds, not stored
            before = await client.read_resource("graphmem://profile")
            draft = before.contents[0].text  # type: ignore[union-attr]
            assert "Globex" in draft and "no profile" not in draft
            assert profile_history(memory, tenant, ALICE) == []
            unknown = await client.read_resource("graphmem://profile?user_id=nobody")
            assert "nothing is known so far" in unknown.contents[0].text  # type: ignore[union-attr]
            await anyio.to_thread.run_sync(lambda: refresh_profile(memory, tenant, ALICE))
            profile = await client.read_resource("graphmem://profile?user_id=alice")
            narrative = profile.contents[0].text  # type: ignore[union-attr]
            assert "Globex" in narrative and "Acme" in narrative  # "used to work at Acme"
            built = await call(client, "get_context", message="Where do I work these days?")
            assert "### Profile" in built["prompt"] and "Globex" in built["prompt"]
            assert 0 < built["tokens"] <= built["token_budget"] == 1500
            small = await call(client, "get_context", message="Where do I work?",
                               token_budget=60)
            assert small["tokens"] <= 60

    anyio.run(scenario)


def test_a_wrong_call_names_the_field_and_changes_nothing(client: Client, memory: Memory,
                                                         tenant: str) -> None:
    async def scenario() -> None:
        async with client:
            assert "importance" in await refused(client, "add_memory", subject="Alice",
                                                 predicate="LIKES", object="tea", importance=2)
            assert "predicate" in await refused(client, "add_memory", subject="Alice",
                                                predicate="likes!", object="tea")
            assert "content" in await refused(client, "add_episode",
                                              messages=[{"role": "user", "content": "  "}])
            assert "limit" in await refused(client, "search_memory", query="x", limit=0)
            assert "group_id" in await refused(client, "list_memories", group_id="a b")
            assert "memory 'fact_nope' not found" in await refused(
                client, "restore_memory", memory_id="fact_nope")
            page = await call(client, "list_memories", include_history=True)
            assert page["memories"] == []

    anyio.run(scenario)
    stats = memory.stats(tenant, ALICE)
    assert (stats.episodes, stats.entities, stats.facts_by_status) == (0, 0, {})


def test_time_arguments_follow_the_one_datetime_rule(client: Client) -> None:
    async def scenario() -> None:
        async with client:
            acme, _ = await _jobs(client)
            for spelling in ("2024-03-01", "2024-03-01T00:00:00", "2024-03-01 02:00:00+02:00"):
                then = await call(client, "list_memories", valid_at=spelling)
                assert [m["id"] for m in then["memories"]] == [acme], spelling
                found = await call(client, "search_memory", query="where does Alice work?",
                                   as_of=spelling)
                assert found["as_of"].startswith("2024-03-01T00:00:00"), spelling
            for name, tool, extra in (("as_of", "search_memory", {"query": "work"}),
                                      ("valid_at", "list_memories", {}),
                                      ("valid_from", "add_memory", {
                                          "subject": "Alice", "predicate": "LIKES",
                                          "object": "tea"})):
                message = await refused(client, tool, **extra,
                                        **{name: "9999-12-31T23:00:00-05:00"})
                assert name in message and "1-9999" in message, message

    anyio.run(scenario)
