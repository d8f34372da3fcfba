"""GET /v1/entities, /{id}, /{id}/timeline, /{id}/neighbors."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.conftest import ALICE, assert_problem, fact


def seed(client: TestClient) -> dict[str, Any]:
    client.post("/v1/memories", json=fact("Alice", "WORKS_AT", "Acme",
                                          valid_from="2020-01-01T00:00:00Z"))
    client.post("/v1/memories", json=fact("Alice", "WORKS_AT", "Globex",
                                          valid_from="2023-01-01T00:00:00Z"))
    client.post("/v1/memories", json=fact("Alice", "HAS_FRIEND", "Bob", object_type="person"))
    client.post("/v1/memories", json=fact("Bob", "LIVES_IN", "Oslo", object_type="place"))
    hits = client.get("/v1/entities", params={**ALICE, "query": "Alice"}).json()["results"]
    return {h["entity"]["name"]: h["entity"] for h in hits}


def test_search_entities(client: TestClient) -> None:
    found = seed(client)
    assert "Alice" in found
    hits = client.get("/v1/entities", params={**ALICE, "query": "Globex"}).json()["results"]
    assert hits[0]["entity"]["name"] == "Globex" and "bm25" in hits[0]["channels"]
    assert_problem(client.get("/v1/entities", params=ALICE), 422, "query")


def test_get_entity(client: TestClient) -> None:
    alice = seed(client)["Alice"]
    response = client.get(f"/v1/entities/{alice['id']}")
    assert response.status_code == 200
    assert response.json()["name"] == "Alice" and response.json()["user_id"] == "alice"
    assert "embedding" not in response.json()
    assert_problem(client.get("/v1/entities/ent_nope"), 404, "ent_nope")
    assert_problem(client.get(f"/v1/entities/{alice['id']}", params={"user_id": "bob"}), 404)


def test_timeline_includes_history_oldest_first(client: TestClient) -> None:
    alice = seed(client)["Alice"]
    body = client.get(f"/v1/entities/{alice['id']}/timeline").json()
    objects = [m["object"] for m in body["memories"]]
    assert objects[:2] == ["Acme", "Globex"] and "Bob" in objects
    assert body["memories"][0]["superseded"] is True


def test_neighbors_by_depth(client: TestClient) -> None:
    alice = seed(client)["Alice"]
    one = client.get(f"/v1/entities/{alice['id']}/neighbors").json()
    assert sorted(e["name"] for e in one["entities"]) == ["Bob", "Globex"]
    two = client.get(f"/v1/entities/{alice['id']}/neighbors", params={"depth": 2}).json()
    assert sorted(e["name"] for e in two["entities"]) == ["Bob", "Globex", "Oslo"]
    oslo = next(e for e in two["entities"] if e["name"] == "Oslo")
    assert two["hops"][oslo["id"]] == 2
    past = client.get(f"/v1/entities/{alice['id']}/neighbors",
                      params={"as_of": "2021-01-01T00:00:00Z"}).json()
    assert [e["name"] for e in past["entities"]] == ["Acme"]
    # as 2021 knew it: Acme's end (2023) and what replaced it lie ahead
    assert [(m["object"], m["valid_until"], m["superseded"], m["superseded_by"])
            for m in past["memories"]] == [("Acme", None, False, None)]
    now = client.get(f"/v1/entities/{alice['id']}/neighbors").json()["memories"]
    assert "Acme" not in [m["object"] for m in now]
    assert_problem(client.get(f"/v1/entities/{alice['id']}/neighbors", params={"depth": 9}),
                   422, "depth")
