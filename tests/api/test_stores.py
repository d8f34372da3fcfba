"""The API's main flows once per store (embedded and Neo4j), through the shared
``store`` fixture: what the API promises must not depend on the backend."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.conftest import ALICE, assert_problem, episode, fact


def test_main_flows(clients: tuple[TestClient, TestClient]) -> None:
    a, b = clients
    first = a.post("/v1/episodes", json=episode("I work at Acme.", "My sister Maria loves pizza."))
    assert first.status_code == 201, first.text
    second = a.post("/v1/episodes", json=episode("I work at Globex now.")).json()
    assert [m["object"] for m in second["superseded"]] == ["Acme"]

    hits = a.post("/v1/memories/search", json={"scope": ALICE, "query": "Where does Alice work?",
                                                "include_turns": False}).json()["results"]
    assert hits[0]["object"] == "Globex"
    globex = hits[0]["id"]
    detail = a.get(f"/v1/memories/{globex}").json()
    assert [m["object"] for m in detail["chain"]] == ["Acme", "Globex"]
    assert detail["sources"][0]["content"] == "I work at Globex now."

    manual = a.post("/v1/memories", json=fact("Alice", "LIVES_IN", "Berlin")).json()["created"][0]
    corrected = a.patch(f"/v1/memories/{manual['id']}", json={"object": "Munich"}).json()
    assert corrected["superseded"]["superseded_by"] == corrected["memory"]["id"]
    assert a.delete(f"/v1/memories/{globex}").json()["status"] == "forgotten"
    assert a.post(f"/v1/memories/{globex}/restore").json()["status"] == "active"

    alice_id = detail["memory"]["subject_id"]
    timeline = a.get(f"/v1/entities/{alice_id}/timeline").json()["memories"]
    assert {"Acme", "Globex", "Maria", "Berlin", "Munich"} <= {m["object"] for m in timeline}
    near = a.get(f"/v1/entities/{alice_id}/neighbors").json()["entities"]
    assert {"Globex", "Maria", "Munich"} <= {e["name"] for e in near}

    # tenant B sees and changes nothing of A's
    assert_problem(b.get(f"/v1/memories/{globex}"), 404)
    assert_problem(b.delete(f"/v1/memories/{globex}"), 404)
    assert_problem(b.get(f"/v1/entities/{alice_id}"), 404)
    assert b.post("/v1/memories/search", json={"scope": ALICE, "query": "Globex"}).json()[
        "results"] == []
    assert b.post("/v1/forget", json={"scope": ALICE, "whole_scope": True}).json()["facts"] == 0

    maria = next(m for m in timeline if m["object"] == "Maria")["object_id"]
    erased = a.post("/v1/forget", json={"scope": ALICE, "entity_id": maria}).json()
    assert erased["facts"] == 2, erased
    assert not any("Maria" in h["text"] for h in a.post("/v1/memories/search", json={
        "scope": ALICE, "query": "Maria pizza", "include_history": True}).json()["results"])

    deleted = a.delete(f"/v1/episodes/{second['episode_id']}").json()
    assert [m["object"] for m in deleted["deleted"]] == ["Globex"]
    assert [m["object"] for m in deleted["reopened"]] == ["Acme"]
    stats = a.get("/v1/memories/stats", params=ALICE).json()
    assert stats["stats"]["current_facts"] == 2  # Acme, Munich
