"""Tenant isolation: key B can reach none of tenant A's data, whatever ids it guesses."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.conftest import ALICE, assert_problem, episode


def seed_a(client: TestClient) -> dict[str, Any]:
    ingested = client.post("/v1/episodes", json=episode("My sister Maria loves pizza.",
                                                         episode_id="a-1")).json()
    fact = ingested["created"][0]
    accepted = client.post("/v1/episodes", json=episode("I work at Acme.", **{"async": True}))
    return {"episode": ingested["episode_id"], "fact": fact["id"], "entity": fact["subject_id"],
            "object": fact["object_id"], "job": accepted.json()["job_id"]}


def test_tenant_b_cannot_read_anything_of_tenant_a(client: TestClient,
                                                   client_b: TestClient) -> None:
    ids = seed_a(client)
    for path in [f"/v1/episodes/{ids['episode']}", f"/v1/memories/{ids['fact']}",
                 f"/v1/entities/{ids['entity']}", f"/v1/entities/{ids['entity']}/timeline",
                 f"/v1/entities/{ids['entity']}/neighbors", f"/v1/jobs/{ids['job']}"]:
        assert client.get(path).status_code == 200, path
        assert_problem(client_b.get(path), 404)
    assert client_b.get("/v1/memories", params=ALICE).json()["memories"] == []
    assert client_b.get("/v1/entities", params={**ALICE, "query": "Maria"}).json()["results"] == []
    stats = client_b.get("/v1/memories/stats", params=ALICE).json()
    assert stats["stats"]["episodes"] == 0 and stats["facts_by_month"] == []
    hits = client_b.post("/v1/memories/search", json={"scope": ALICE, "query": "Maria pizza",
                                                      "include_history": True}).json()
    assert hits["results"] == []
    context = client_b.post("/v1/context", json={"scope": ALICE, "message": "Maria"}).json()
    assert context["items"] == []


def test_tenant_b_cannot_change_or_delete_anything_of_tenant_a(client: TestClient,
                                                               client_b: TestClient) -> None:
    ids = seed_a(client)
    before = client.get(f"/v1/memories/{ids['fact']}").json()["memory"]
    assert_problem(client_b.delete(f"/v1/memories/{ids['fact']}"), 404)
    assert_problem(client_b.post(f"/v1/memories/{ids['fact']}/restore"), 404)
    assert_problem(client_b.patch(f"/v1/memories/{ids['fact']}", json={"importance": 0.1}), 404)
    assert_problem(client_b.patch(f"/v1/memories/{ids['fact']}", json={"object": "x"}), 404)
    assert_problem(client_b.delete(f"/v1/episodes/{ids['episode']}"), 404)
    assert_problem(client_b.post("/v1/forget", json={"scope": ALICE, "entity_id": ids["entity"]}),
                   404)
    erased = client_b.post("/v1/forget", json={"scope": ALICE, "whole_scope": True}).json()
    assert (erased["facts"], erased["entities"], erased["episodes"]) == (0, 0, 0)
    topic = client_b.post("/v1/forget", json={"scope": ALICE, "topic": "Maria pizza"}).json()
    assert topic["facts"] == 0
    # same episode id in tenant B is a new episode, not a duplicate of A's
    own = client_b.post("/v1/episodes", json=episode("I live in Rome.", episode_id="a-1")).json()
    assert own["duplicate"] is False and own["episode_id"] != ids["episode"]

    after = client.get(f"/v1/memories/{ids['fact']}").json()["memory"]
    assert after["status"] == "active" and after["importance"] == before["importance"]
    assert after["object"] == before["object"]
    assert client.get(f"/v1/episodes/{ids['episode']}").status_code == 200
    assert client.get(f"/v1/entities/{ids['entity']}").status_code == 200
    assert [m["object"] for m in client.get("/v1/memories", params=ALICE).json()["memories"]
            if m["object"] == "Rome"] == []
