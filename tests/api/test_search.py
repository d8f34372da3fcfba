"""POST /v1/memories/search and POST /v1/context."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.conftest import ALICE, assert_problem, episode, fact


def test_search_explains_its_results(client: TestClient) -> None:
    client.post("/v1/episodes", json=episode("I work at Acme.", "I live in Berlin."))
    response = client.post("/v1/memories/search", json={
        "scope": ALICE, "query": "Where does Alice work?", "include_turns": False})
    assert response.status_code == 200, response.text
    top = response.json()["results"][0]
    assert (top["predicate"], top["object"], top["kind"]) == ("WORKS_AT", "Acme", "fact")
    assert top["sources"] == ["m1"] and top["channels"] and top["score"] > 0
    assert set(top) >= {"id", "text", "subject", "category", "valid_from", "valid_until",
                        "superseded"}


def test_search_as_of_and_history(client: TestClient) -> None:
    client.post("/v1/memories", json=fact("Alice", "WORKS_AT", "Acme",
                                          valid_from="2020-01-01T00:00:00Z"))
    client.post("/v1/memories", json=fact("Alice", "WORKS_AT", "Globex",
                                          valid_from="2023-01-01T00:00:00Z"))
    query = {"scope": ALICE, "query": "Alice works at", "include_turns": False}
    now = client.post("/v1/memories/search", json=query).json()["results"]
    assert [h["object"] for h in now] == ["Globex"]
    then = client.post("/v1/memories/search", json={**query, "as_of": "2021-06-01T00:00:00Z"})
    assert [h["object"] for h in then.json()["results"]] == ["Acme"]
    history = client.post("/v1/memories/search", json={**query, "include_history": True}).json()
    assert sorted(h["object"] for h in history["results"]) == ["Acme", "Globex"]
    assert [h["superseded"] for h in history["results"] if h["object"] == "Acme"] == [True]


def test_search_by_category_and_recent_messages(client: TestClient) -> None:
    client.post("/v1/memories", json=fact("Alice", "LIKES", "pizza", category="preference"))
    client.post("/v1/memories", json=fact("Alice", "LIVES_IN", "Rome"))
    hits = client.post("/v1/memories/search", json={
        "scope": ALICE, "query": "food", "categories": ["preference"],
        "recent_messages": ["we talked about dinner", {"content": "pizza?", "speaker": "Bob"}],
    }).json()["results"]
    assert [h["object"] for h in hits] == ["pizza"]


def test_temporary_search_recalls_nothing(client: TestClient) -> None:
    client.post("/v1/memories", json=fact("Alice", "LIKES", "pizza"))
    response = client.post("/v1/memories/search", json={"scope": ALICE, "query": "pizza",
                                                         "temporary": True})
    assert response.status_code == 200 and response.json()["results"] == []


def test_search_validation(client: TestClient) -> None:
    assert_problem(client.post("/v1/memories/search", json={"scope": ALICE, "query": ""}), 422,
                   "query")
    for blank in (" ", " \t\n "):  # says nothing, as an empty one does
        assert_problem(client.post("/v1/memories/search", json={"scope": ALICE, "query": blank}),
                       422, "query", "blank")
        assert_problem(client.post("/v1/context", json={"scope": ALICE, "message": blank}),
                       422, "message", "blank")
        assert_problem(client.post("/v1/memories", json={"scope": ALICE, "text": blank}),
                       422, "text", "blank")
    assert_problem(client.post("/v1/memories/search", json={
        "scope": ALICE, "query": "x", "recent_messages": [{"content": "  "}]}), 422, "blank")
    # an earlier message is its text or an object: each is judged as the form it takes
    for item, fragments in (("  ", ("recent_messages.0", "blank")),
                            ("", ("recent_messages.0", "at least 1 character")),
                            ("x" * 20_001, ("recent_messages.0", "at most 20000 characters")),
                            (42, ("recent_messages.0: is a message's text or an object",)),
                            ({"text": "hi"}, ("recent_messages.0", "content", "Field required"))):
        problem = assert_problem(client.post("/v1/memories/search", json={
            "scope": ALICE, "query": "x", "recent_messages": [item]}), 422, *fragments)
        assert "function-after" not in problem["detail"], problem
    assert_problem(client.post("/v1/memories/search", json={"scope": ALICE, "query": "x"},
                               headers={"Idempotency-Key": ""}), 422, "Idempotency-Key")
    assert_problem(client.post("/v1/memories/search", json={"query": "x"}), 422, "scope")
    assert_problem(client.post("/v1/memories/search", json={
        "scope": ALICE, "query": "x", "as_of": "yesterday-ish"}), 422, "as_of")
    assert_problem(client.post("/v1/memories/search", json={
        "scope": ALICE, "query": "x", "limit": 0}), 422, "limit")
    assert_problem(client.post("/v1/memories/search", json={
        "scope": ALICE, "query": "x", "colour": "red"}), 422, "colour", "Extra inputs")
    assert_problem(client.post("/v1/memories/search", json={
        "scope": {"user_id": "has space"}, "query": "x"}), 422, "not a valid id")


def test_context_groups_memories_by_category(client: TestClient) -> None:
    client.post("/v1/memories", json=fact("Alice", "LIKES", "pizza", category="preference"))
    client.post("/v1/memories", json=fact("Alice", "LIVES_IN", "Rome"))
    response = client.post("/v1/context", json={"scope": ALICE, "message": "What should I cook?",
                                                "token_budget": 500})
    assert response.status_code == 200, response.text
    body = response.json()
    assert "### Preferences" in body["prompt"] and "Alice likes pizza." in body["prompt"]
    assert {i["object"] for i in body["items"]} >= {"pizza"}
    assert 0 < body["tokens"] <= 500


def test_context_respects_a_tiny_budget(client: TestClient) -> None:
    client.post("/v1/memories", json=fact("Alice", "LIKES", "pizza"))
    body = client.post("/v1/context", json={"scope": ALICE, "message": "pizza",
                                            "token_budget": 50}).json()
    assert body["tokens"] <= 50
    assert_problem(client.post("/v1/context", json={"scope": ALICE, "message": "x",
                                                    "token_budget": 1}), 422, "token_budget")
