"""POST /v1/forget: hard deletion leaves nothing in the graph or any index."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphmem.edit.audit import AuditLog
from graphmem.edit.publish import EventSink
from graphmem.embed.base import embed_one
from graphmem.scan import EVERYTHING
from graphmem.memory import Memory
from graphmem.models import Scope
from tests.api.conftest import ALICE, TENANT_A, assert_problem, episode, fact


def entity_named(client: TestClient, name: str) -> dict[str, Any]:
    hits = client.get("/v1/entities", params={**ALICE, "query": name}).json()["results"]
    return next(h["entity"] for h in hits if h["entity"]["name"] == name)


def searched(client: TestClient, query: str) -> list[str]:
    hits = client.post("/v1/memories/search", json={"scope": ALICE, "query": query,
                                                    "include_history": True}).json()["results"]
    return [h["text"] for h in hits]


def test_forget_an_entity_everywhere(client: TestClient, memory: Memory, tmp_path: Path) -> None:
    audit = AuditLog(tmp_path / "audit.jsonl")
    memory.attach(EventSink(audit=audit))  # the one audit trail (the app's has no file here)
    client.post("/v1/episodes", json=episode("My sister Maria loves pizza.", "I work at Acme."))
    client.post("/v1/memories", json=fact("Alice", "LIVES_IN", "Berlin"))
    maria = entity_named(client, "Maria")
    dry = client.post("/v1/forget", json={"scope": ALICE, "entity_id": maria["id"],
                                          "dry_run": True}).json()
    assert dry["dry_run"] is True and dry["facts"] == 2 and dry["episodes"] == 1
    assert any("Maria" in t for t in searched(client, "Maria"))  # nothing deleted yet

    response = client.post("/v1/forget", json={"scope": ALICE, "entity_id": maria["id"]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["facts"], body["episodes"]) == (2, 1)
    assert maria["id"] in body["entity_ids"]
    [erased] = audit.entries(action="erase")  # the dry run is not in the trail
    assert (erased.tenant, erased.scope_key, erased.detail) == (
        TENANT_A, "user:alice", f"entity {maria['id']}")
    assert sorted(erased.targets) == sorted(
        [*body["fact_ids"], *body["entity_ids"], *body["episode_ids"]])
    assert len(body["fact_ids"]) == 2 and len(body["entity_ids"]) == 2

    assert not any("Maria" in t or "pizza" in t for t in searched(client, "Maria pizza"))
    assert_problem(client.get(f"/v1/entities/{maria['id']}"), 404)
    left = client.get("/v1/memories", params={**ALICE, "include_history": True}).json()
    assert sorted(m["object"] for m in left["memories"]) == ["Acme", "Berlin"]
    acme = next(m for m in left["memories"] if m["object"] == "Acme")
    assert acme["episode_ids"] == []  # its conversation is gone, the fact stays
    # and nothing is left in the store's own indexes either
    keys = Scope(user_id="alice").visible_keys
    assert memory.store.fulltext_turns(TENANT_A, keys, "Maria pizza", 10) == []
    assert memory.store.fulltext_facts(TENANT_A, keys, "Maria pizza", EVERYTHING, 10) == []
    assert memory.store.fulltext_entities(TENANT_A, keys, "Maria", 10) == []
    assert memory.store.facts_about(TENANT_A, keys, [maria["id"]], EVERYTHING, 10) == []
    vector = embed_one(memory.embedder, "Maria loves pizza")
    near = memory.store.vector_facts(TENANT_A, keys, vector, EVERYTHING, 10)
    assert not any("Maria" in f.text for f in memory.store.get_facts(TENANT_A, [s.id for s in near]))
    assert maria["id"] not in {s.id for s in memory.store.vector_entities(TENANT_A, keys, vector, 10)}


def test_forget_an_entity_keeping_sources(client: TestClient) -> None:
    client.post("/v1/episodes", json=episode("My sister Maria loves pizza."))
    maria = entity_named(client, "Maria")
    body = client.post("/v1/forget", json={"scope": ALICE, "entity_id": maria["id"],
                                           "delete_sources": False}).json()
    assert body["episodes"] == 0 and body["redacted_episodes"] == 1
    assert client.get("/v1/memories/stats", params=ALICE).json()["stats"]["episodes"] == 1
    kept = client.get(f"/v1/episodes/{body['redacted_episode_ids'][0]}").json()
    assert kept["messages"][0]["content"] == "My sister [forgotten] loves pizza."


def test_forget_a_topic(client: TestClient) -> None:
    client.post("/v1/memories", json=fact("Alice", "LIKES", "pizza"))
    client.post("/v1/memories", json=fact("Alice", "LIVES_IN", "Berlin"))
    body = client.post("/v1/forget", json={"scope": ALICE, "topic": "pizza"}).json()
    assert body["facts"] == 1
    left = client.get("/v1/memories", params=ALICE).json()["memories"]
    assert [m["object"] for m in left] == ["Berlin"]
    assert not any("pizza" in t for t in searched(client, "pizza"))


def test_forget_a_whole_scope(client: TestClient) -> None:
    client.post("/v1/episodes", json=episode("I work at Acme."))
    client.post("/v1/memories", json=fact("Bob", "LIKES", "tea", scope={"user_id": "bob"}))
    body = client.post("/v1/forget", json={"scope": ALICE, "whole_scope": True}).json()
    assert (body["facts"], body["episodes"]) == (1, 1) and body["entities"] >= 2
    # the counts are the lists' lengths (the fifth trial got counts with empty lists)
    assert (len(body["episode_ids"]), len(body["entity_ids"])) == (1, body["entities"])
    stats = client.get("/v1/memories/stats", params=ALICE).json()["stats"]
    assert (stats["episodes"], stats["entities"], stats["current_facts"]) == (0, 0, 0)
    assert searched(client, "Acme") == []
    bob = client.get("/v1/memories", params={"user_id": "bob"}).json()["memories"]
    assert [m["object"] for m in bob] == ["tea"]


@pytest.mark.parametrize("body", [{}, {"entity_id": None}, {"topic": None},
                                  {"whole_scope": False, "dry_run": False}])
def test_a_forget_naming_nothing_erases_nothing(client: TestClient, body: dict[str, Any]) -> None:
    """A selector a client dropped or sent as null must not read as "erase everything"."""
    client.post("/v1/episodes", json=episode("I work at Acme."))
    assert_problem(client.post("/v1/forget", json={"scope": ALICE, **body}), 422, "whole_scope")
    stats = client.get("/v1/memories/stats", params=ALICE).json()["stats"]
    assert (stats["episodes"], stats["current_facts"]) == (1, 1)


def test_forget_validation(client: TestClient) -> None:
    assert_problem(client.post("/v1/forget", json={"scope": ALICE, "entity_id": "e",
                                                   "topic": "t"}), 422, "not entity_id and topic")
    assert_problem(client.post("/v1/forget", json={"scope": ALICE, "entity_id": "e",
                                                   "whole_scope": True}), 422, "whole_scope")
    assert_problem(client.post("/v1/forget", json={"entity_id": "e"}), 422, "scope")
    assert_problem(client.post("/v1/forget", json={"scope": ALICE, "entity_id": "ent_x"}), 404)


def _mentions(client: TestClient, name: str) -> list[str]:
    """Every place an answer of the API still shows ``name`` (case-insensitive)."""
    needle = name.casefold()
    answers = {
        "search": client.post("/v1/memories/search", json={
            "scope": ALICE, "query": f"{name} pizza concert party", "include_history": True,
            "limit": 50}),
        "context": client.post("/v1/context", json={"scope": ALICE,
                                                    "message": f"What do you know about {name}?"}),
        "todos": client.get("/v1/todos", params=ALICE),
        "summaries": client.get("/v1/summaries", params=ALICE),
        "profile": client.get("/v1/profile", params=ALICE),
        "export": client.get("/v1/export", params=ALICE),
        "memory.md": client.get("/v1/export/memory.md", params=ALICE),
    }
    return [where for where, response in answers.items() if needle in response.text.casefold()]


def test_forgetting_a_person_leaves_no_mention_in_any_answer(store_client: TestClient) -> None:
    client = store_client
    chat = {"scope": ALICE, "session_id": "s1", "messages": [
        {"id": "a1", "speaker": "Alice", "content": "My sister Maria loves pizza."},
        {"id": "a2", "speaker": "Alice", "content": "I work at Acme."}]}
    assert client.post("/v1/episodes", json=chat).status_code == 201
    gossip = {"scope": ALICE, "session_id": "s1", "messages": [
        {"id": "b1", "speaker": "Alice", "content": "Maria called me about the concert."},
        {"id": "b2", "speaker": "Maria", "content": "See you at the concert!"}]}
    assert client.post("/v1/episodes", json=gossip).status_code == 201
    todo = client.post("/v1/todos", json={"scope": ALICE,
                                          "description": "call Maria about the party"})
    assert todo.status_code == 201, todo.text
    client.post("/v1/sessions/s1/summary", params=ALICE)
    client.post("/v1/profile/refresh", json={"scope": ALICE})
    assert _mentions(client, "Maria") == ["search", "context", "todos", "summaries", "profile",
                                          "export", "memory.md"]

    maria = entity_named(client, "Maria")
    dry = client.post("/v1/forget", json={"scope": ALICE, "entity_id": maria["id"],
                                          "dry_run": True}).json()
    assert dry["dry_run"] is True and dry["redacted_episodes"] >= 1
    assert "Maria" in client.get("/v1/export", params=ALICE).text  # a dry run changes nothing

    erased = client.post("/v1/forget", json={"scope": ALICE, "entity_id": maria["id"]})
    assert erased.status_code == 200, erased.text
    report = erased.json()
    assert report["facts"] >= 2 and report["redacted_episodes"] >= 1  # the todo, the gossip
    assert report["redacted_episode_ids"]
    assert _mentions(client, "Maria") == []
    assert [m["object"] for m in client.get("/v1/memories", params=ALICE).json()["memories"]
            if m["object"] == "Acme"] == ["Acme"]  # what did not name her stays
    turns = client.post("/v1/memories/search", json={"scope": ALICE, "query": "concert",
                                                     "limit": 50}).json()["results"]
    assert any("[forgotten] called me about the concert" in h["text"] for h in turns), turns


def test_an_erased_name_is_gone_from_the_sqlite_files(client: TestClient, memory: Memory) -> None:
    client.post("/v1/episodes", json=episode("My sister Zuleika loves pizza.", "I work at Acme."))
    client.post("/v1/episodes", json={"scope": ALICE, "text": "Zuleika phoned about the trip."})
    path = memory.store.path  # type: ignore[attr-defined]
    files = [path, path.with_name(path.name + "-wal")]
    assert any(b"zuleika" in f.read_bytes().lower() for f in files if f.exists())

    zuleika = entity_named(client, "Zuleika")
    assert client.post("/v1/forget", json={"scope": ALICE,
                                           "entity_id": zuleika["id"]}).status_code == 200
    for f in files:
        if f.exists():
            assert b"zuleika" not in f.read_bytes().lower(), f.name
    assert path.with_name(path.name + "-wal").stat().st_size == 0  # checkpointed and truncated
