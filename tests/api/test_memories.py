"""The /v1/memories resource: list, add, inspect, correct, forget, restore, extract, stats."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from graphmem.memory import Memory
from graphmem.models import FactStatus
from graphmem.store.base import WriteBatch
from tests.api.conftest import ALICE, TENANT_A, assert_problem, episode, fact


def add(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/v1/memories", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()["created"][0]
    return created


def test_add_structured_memory(client: TestClient) -> None:
    created = add(client, fact("Alice", "LIKES", "pizza", category="preference", importance=0.8))
    assert (created["subject"], created["predicate"], created["object"]) == ("Alice", "LIKES", "pizza")
    assert created["category"] == "preference" and created["importance"] == 0.8
    assert created["text"] == "Alice likes pizza."


def test_add_memory_from_one_sentence_uses_the_extractor(client: TestClient) -> None:
    created = add(client, {"scope": ALICE, "text": "I live in Lisbon."})
    assert (created["predicate"], created["object"]) == ("LIVES_IN", "Lisbon")


def test_add_memory_needs_a_whole_triple_or_a_text(client: TestClient) -> None:
    assert_problem(client.post("/v1/memories", json={"scope": ALICE, "subject": "Alice"}), 422,
                   "subject, predicate and object")
    assert_problem(client.post("/v1/memories", json={"scope": ALICE}), 422, "non-empty text")
    assert_problem(client.post("/v1/memories", json=fact("Alice", "likes", "x")), 422, "predicate")


def test_list_filters(client: TestClient) -> None:
    add(client, fact("Alice", "LIKES", "pizza", category="preference"))
    add(client, fact("Alice", "LIVES_IN", "Berlin"))
    add(client, fact("Bob", "LIKES", "tea", scope={"user_id": "bob"}))
    listed = client.get("/v1/memories", params=ALICE).json()
    assert sorted(m["object"] for m in listed["memories"]) == ["Berlin", "pizza"]
    prefs = client.get("/v1/memories", params={**ALICE, "category": "preference"}).json()
    assert [m["object"] for m in prefs["memories"]] == ["pizza"]
    text = client.get("/v1/memories", params={**ALICE, "text": "berl"}).json()
    assert [m["object"] for m in text["memories"]] == ["Berlin"]
    page = client.get("/v1/memories", params={**ALICE, "limit": 1, "offset": 1}).json()
    assert len(page["memories"]) == 1 and page["offset"] == 1
    past = client.get("/v1/memories", params={**ALICE, "valid_at": "2000-01-01T00:00:00Z"}).json()
    assert past["memories"] == []
    assert_problem(client.get("/v1/memories"), 422, "user_id, a group_id")
    assert_problem(client.get("/v1/memories", params={**ALICE, "status": "gone"}), 422, "status")


def test_a_listing_as_of_a_date_shows_nothing_dated_after_it(client: TestClient) -> None:
    """As search does: an end, a replacement or a retraction learned later is not shown."""
    add(client, fact("Alice", "LIVES_IN", "Berlin", valid_from="2022-01-01T00:00:00"))
    munich = add(client, fact("Alice", "LIVES_IN", "Munich", valid_from="2023-01-01T00:00:00"))
    add(client, fact("Alice", "LIKES", "coffee", valid_from="2022-02-01T00:00:00",
                     valid_until="2023-08-01T00:00:00"))

    def listed(**params: Any) -> dict[str, tuple[Any, ...]]:
        body = client.get("/v1/memories", params={**ALICE, **params}).json()
        return {m["object"]: (m["valid_until"], m["superseded"], m["superseded_by"],
                              m["retracted_at"]) for m in body["memories"]}

    assert listed(as_of="2022-06-01T00:00:00") == {
        "Berlin": (None, False, None, None),
        "coffee": ("2023-08-01T00:00:00Z", False, None, None)}  # said when it would end
    history = listed(include_history=True)
    assert history["Berlin"] == ("2023-01-01T00:00:00Z", True, munich["id"], None)
    assert listed(as_of="2023-06-01T00:00:00") == {
        "Munich": (None, False, None, None), "coffee": ("2023-08-01T00:00:00Z", False, None, None)}


def test_list_by_entity(client: TestClient) -> None:
    berlin = add(client, fact("Alice", "LIVES_IN", "Berlin"))
    add(client, fact("Alice", "LIKES", "pizza"))
    listed = client.get("/v1/memories", params={**ALICE, "entity_id": berlin["object_id"]}).json()
    assert [m["id"] for m in listed["memories"]] == [berlin["id"]]


def test_get_memory_with_chain_and_sources(client: TestClient) -> None:
    client.post("/v1/episodes", json=episode("I work at Acme."))
    newer = client.post("/v1/episodes", json=episode("I work at Globex now.")).json()["created"][0]
    response = client.get(f"/v1/memories/{newer['id']}")
    assert response.status_code == 200
    body = response.json()
    assert body["memory"]["id"] == newer["id"]
    assert [m["object"] for m in body["chain"]] == ["Acme", "Globex"]
    assert body["chain"][0]["superseded"] is True
    [source] = body["sources"]
    assert source["message_id"] == "m1" and source["content"] == "I work at Globex now."


def test_unknown_memory_is_404_everywhere(client: TestClient) -> None:
    for method, path, body in [("GET", "/v1/memories/fact_x", None),
                               ("PATCH", "/v1/memories/fact_x", {"importance": 0.1}),
                               ("DELETE", "/v1/memories/fact_x", None),
                               ("POST", "/v1/memories/fact_x/restore", None)]:
        assert_problem(client.request(method, path, json=body), 404, "fact_x")


def test_patch_importance(client: TestClient) -> None:
    created = add(client, fact("Alice", "LIKES", "pizza"))
    response = client.patch(f"/v1/memories/{created['id']}", json={"importance": 0.9})
    assert response.status_code == 200, response.text
    assert response.json()["memory"]["importance"] == 0.9
    assert response.json()["superseded"] is None
    assert client.get(f"/v1/memories/{created['id']}").json()["memory"]["importance"] == 0.9


def test_correct_a_functional_value_goes_through_the_timeline(client: TestClient) -> None:
    old = add(client, fact("Alice", "LIVES_IN", "Berlin"))
    response = client.patch(f"/v1/memories/{old['id']}", json={"object": "Munich"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["memory"]["object"] == "Munich" and body["memory"]["text"] == "Alice lives in Munich."
    assert body["superseded"]["id"] == old["id"]
    assert body["superseded"]["superseded_by"] == body["memory"]["id"]
    assert body["memory"]["supersedes"] == [old["id"]]
    current = client.get("/v1/memories", params=ALICE).json()["memories"]
    assert [m["object"] for m in current] == ["Munich"]
    chain = client.get(f"/v1/memories/{body['memory']['id']}").json()["chain"]
    assert [m["object"] for m in chain] == ["Berlin", "Munich"]


def test_correct_a_multi_valued_fact_retracts_and_links(client: TestClient) -> None:
    old = add(client, fact("Alice", "LIKES", "pizza"))
    body = client.patch(f"/v1/memories/{old['id']}", json={"object": "pasta"}).json()
    assert body["memory"]["object"] == "pasta"
    assert body["superseded"]["valid_until"] is not None
    assert body["superseded"]["superseded_by"] == body["memory"]["id"]
    current = client.get("/v1/memories", params=ALICE).json()["memories"]
    assert [m["object"] for m in current] == ["pasta"]


def test_new_wording_for_the_same_value_edits_in_place(client: TestClient) -> None:
    old = add(client, fact("Alice", "LIKES", "pizza"))
    body = client.patch(f"/v1/memories/{old['id']}",
                        json={"text": "Alice really likes pizza.", "importance": 0.7}).json()
    assert body["memory"]["id"] == old["id"] and body["superseded"] is None
    assert body["memory"]["text"] == "Alice really likes pizza."
    assert body["memory"]["importance"] == 0.7
    hits = client.post("/v1/memories/search", json={"scope": ALICE, "query": "really likes",
                                                    "include_turns": False}).json()["results"]
    assert [h["text"] for h in hits] == ["Alice really likes pizza."]


def test_a_wrong_value_is_corrected_over_its_whole_interval_unless_it_changed_now(
        client: TestClient) -> None:
    """since=start (the default): the old value never held, as_of any past instant gives the
    new one, and as_known_at before the correction still shows what was believed then."""
    recorded: dict[str, str] = {}
    for predicate, old_value, new_value in [("LIVES_IN", "Porto", "Lisbon"),
                                            ("LIKES", "pizza", "pasta"),
                                            ("JOB_TITLE", "nurse", "midwife")]:
        old = add(client, fact("Alice", predicate, old_value, valid_from="2023-01-10T00:00:00"))
        recorded[old_value] = old["recorded_at"]
        body = client.patch(f"/v1/memories/{old['id']}", json={"object": new_value}).json()
        assert body["memory"]["valid_from"].startswith("2023-01-10"), body
        assert body["superseded"]["valid_until"] == body["superseded"]["valid_from"]
        assert body["superseded"]["superseded_by"] == body["memory"]["id"]
        listed = client.get("/v1/memories", params={**ALICE, "as_of": "2023-03-01"}).json()
        assert new_value in [m["object"] for m in listed["memories"]]
        assert old_value not in [m["object"] for m in listed["memories"]]
        # it never held, so it is no part of the history either (its record is in the chain)
        past = client.post("/v1/memories/search", json={
            "scope": ALICE, "query": old_value, "include_history": True,
            "include_turns": False}).json()["results"]
        assert old_value not in [h.get("object") for h in past], past
        chain = client.get(f"/v1/memories/{body['memory']['id']}").json()["chain"]
        assert old_value in [m["object"] for m in chain]
    assert body["memory"]["text"] == "Alice works as a midwife."
    believed = client.post("/v1/memories/search", json={
        "scope": ALICE, "query": "Where does Alice live?", "as_of": "2023-03-01",
        "as_known_at": recorded["Porto"], "include_turns": False}).json()["results"]
    assert "Porto" in [h.get("object") for h in believed], believed

    moved = add(client, fact("Alice", "WORKS_AT", "Acme", valid_from="2023-01-10T00:00:00"))
    body = client.patch(f"/v1/memories/{moved['id']}",
                        json={"object": "Globex", "since": "now"}).json()
    assert body["memory"]["valid_from"] > "2024"  # the test runs on today's clock
    then = client.get("/v1/memories", params={**ALICE, "as_of": "2023-03-01"}).json()
    assert "Acme" in [m["object"] for m in then["memories"]]


def test_a_superseded_memory_cannot_be_corrected(client: TestClient) -> None:
    old = add(client, fact("Alice", "LIVES_IN", "Berlin"))
    client.patch(f"/v1/memories/{old['id']}", json={"object": "Munich"})
    assert_problem(client.patch(f"/v1/memories/{old['id']}", json={"object": "Rome"}), 409,
                   "no longer holds")


def test_patch_validation(client: TestClient) -> None:
    created = add(client, fact("Alice", "LIKES", "pizza"))
    assert_problem(client.patch(f"/v1/memories/{created['id']}", json={}), 422, "at least one")
    assert_problem(client.patch(f"/v1/memories/{created['id']}", json={"importance": 2}), 422,
                   "importance")
    assert_problem(client.patch(f"/v1/memories/{created['id']}", json={"object": "pizza"}), 422,
                   "changes nothing")


def test_soft_forget_and_restore(client: TestClient) -> None:
    created = add(client, fact("Alice", "LIKES", "pizza"))
    forgotten = client.delete(f"/v1/memories/{created['id']}")
    assert forgotten.status_code == 200 and forgotten.json()["status"] == "forgotten"
    assert client.get("/v1/memories", params=ALICE).json()["memories"] == []
    hits = client.post("/v1/memories/search", json={"scope": ALICE, "query": "pizza",
                                                    "include_turns": False}).json()["results"]
    assert hits == []
    kept = client.get("/v1/memories", params={**ALICE, "status": "forgotten"}).json()["memories"]
    assert [m["id"] for m in kept] == [created["id"]]
    restored = client.post(f"/v1/memories/{created['id']}/restore")
    assert restored.status_code == 200 and restored.json()["status"] == "active"
    assert [m["id"] for m in client.get("/v1/memories", params=ALICE).json()["memories"]] == [
        created["id"]]


def test_archived_memories_cannot_be_forgotten_or_restored(client: TestClient,
                                                           memory: Memory) -> None:
    created = add(client, fact("Alice", "LIKES", "pizza"))
    [stored] = memory.store.get_facts(TENANT_A, [created["id"]])
    memory.store.write(TENANT_A, WriteBatch(facts=[stored.model_copy(
        update={"status": FactStatus.ARCHIVED})]))
    assert_problem(client.post(f"/v1/memories/{created['id']}/restore"), 409, "archived")
    assert_problem(client.delete(f"/v1/memories/{created['id']}"), 409, "archived")


def test_extract_is_a_dry_run(client: TestClient) -> None:
    response = client.post("/v1/memories/extract", json=episode("I work at Acme."))
    assert response.status_code == 200, response.text
    facts = response.json()["facts"]
    assert [(f["predicate"], f["object"]) for f in facts] == [("WORKS_AT", "Acme")]
    assert client.get("/v1/memories", params=ALICE).json()["memories"] == []
    assert client.get("/v1/memories/stats", params=ALICE).json()["stats"]["episodes"] == 0


def test_stats_with_growth(client: TestClient) -> None:
    add(client, fact("Alice", "LIKES", "pizza", category="preference"))
    add(client, fact("Alice", "LIVES_IN", "Berlin"))
    client.post("/v1/episodes", json=episode("I work at Acme."))
    body = client.get("/v1/memories/stats", params=ALICE).json()
    assert body["stats"]["episodes"] == 1
    assert body["stats"]["current_facts"] == 3
    assert body["stats"]["facts_by_category"] == {"preference": 1, "fact": 2}
    [month] = body["facts_by_month"]
    assert month["added"] == 3 and month["total"] == 3


def _current(client: TestClient) -> set[tuple[str, str]]:
    listed = client.get("/v1/memories", params=ALICE).json()["memories"]
    return {(m["predicate"], m["object"]) for m in listed}


def _language_facts(client: TestClient, *contents: str) -> dict[str, str]:
    assert client.post("/v1/episodes", json=episode(*contents)).status_code == 201
    return {m["predicate"]: m["id"] for m in client.get("/v1/memories", params=ALICE).json()[
        "memories"] if m["object"] == "Erlang"}


def test_a_misread_value_is_corrected_in_every_fact_read_from_the_same_words(
        clients: tuple[TestClient, TestClient]) -> None:
    """"I mostly code in Erlang" is Erlang as the main language and Erlang used; the value
    was misread (Elixir), so correcting either memory corrects both."""
    client, other = clients
    named = _language_facts(client, "I mostly code in Erlang these days")
    assert set(named) == {"MAIN_LANGUAGE", "USES"}
    body = client.patch(f"/v1/memories/{named['USES']}", json={"object": "Elixir"}).json()
    assert body["memory"]["predicate"] == "USES" and body["superseded"]["id"] == named["USES"]
    assert _current(client) == {("MAIN_LANGUAGE", "Elixir"), ("USES", "Elixir")}
    main = client.get(f"/v1/memories/{named['MAIN_LANGUAGE']}").json()["memory"]
    assert main["superseded_by"] is not None and main["valid_until"] == main["valid_from"]
    assert other.get("/v1/memories", params=ALICE).json()["memories"] == []


def test_a_value_that_changed_or_was_said_again_elsewhere_is_corrected_alone(
        clients: tuple[TestClient, TestClient]) -> None:
    client, _ = clients
    named = _language_facts(client, "I mostly code in Erlang these days")
    client.patch(f"/v1/memories/{named['MAIN_LANGUAGE']}",
                 json={"object": "Elixir", "since": "now"})
    assert _current(client) == {("MAIN_LANGUAGE", "Elixir"), ("USES", "Erlang")}

    client.post("/v1/episodes", json=episode("I mostly code in Python these days",
                                             "I use Python at work too", scope={"user_id": "bob"}))
    python = {m["predicate"]: m["id"] for m in client.get("/v1/memories", params={
        "user_id": "bob"}).json()["memories"] if m["object"] == "Python"}
    client.patch(f"/v1/memories/{python['MAIN_LANGUAGE']}", json={"object": "Rust"})
    listed = client.get("/v1/memories", params={"user_id": "bob"}).json()["memories"]
    assert {(m["predicate"], m["object"]) for m in listed} == {("MAIN_LANGUAGE", "Rust"),
                                                               ("USES", "Python")}
