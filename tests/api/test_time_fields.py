"""Every time field of the REST API, on both stores, under the one datetime rule.

Each field takes the same instant written six ways (naive, ``Z``, ``+02:00``,
date-only, space-separated, ISO basic date) and answers identically; out-of-range instants,
offsets beyond 18 hours and non-dates are a 422 naming the field. The seeded
data puts a change exactly at that instant, so reading an offset or a naive
time wrongly would change the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import ALICE, assert_problem, fact

#: 2030-03-01T00:00:00Z, six ways.
FORMS = ["2030-03-01T00:00:00Z", "2030-03-01T00:00:00", "2030-03-01T02:00:00+02:00",
         "2030-03-01", "2030-03-01 00:00:00", "20300301"]
#: Out of range once in UTC, offsets no store takes, non-dates, and numbers (never guessed).
BAD = ["9999-12-31T23:00:00-05:00", "0001-01-01T00:00:00+05:00", "2030-03-01T00:00:00+19:00",
       "2030-03-01T00:00:00-18:30", "2030-13-01", "soon", "1900000000", "2030-03-01T25:00:00",
       "2030-03-01T00:00:00+25:00"]
INSTANT = "2030-03-01T00:00:00Z"

Client = TestClient
Send = Callable[[Client, dict[str, Any], str], Any]


def _seed(client: Client) -> dict[str, Any]:
    """Lisbon until the instant, Porto from it; two todos due at and an hour after it."""
    for city, start in (("Lisbon", "2030-01-01T00:00:00Z"), ("Porto", INSTANT)):
        assert client.post("/v1/memories", json=fact("Alice", "LIVES_IN", city,
                                                     valid_from=start)).status_code == 201
    for what, due in (("pay rent", INSTANT), ("call mum", "2030-03-01T01:00:00Z")):
        assert client.post("/v1/todos", json={"scope": ALICE, "description": what,
                                              "due": due}).status_code == 201
    alice = client.get("/v1/memories", params={**ALICE, "include_history": True}).json()
    return {"alice": alice["memories"][0]["subject_id"]}


def _body(path: str, field: str, make: Callable[[str], dict[str, Any]],
          read: Callable[[Any], Any]) -> Send:
    def send(client: Client, seeded: dict[str, Any], value: str) -> Any:
        response = client.post(path, json=make(value))
        return response if response.status_code >= 400 else read(response.json())
    send.__name__ = field
    return send


def _query(path: str, field: str, read: Callable[[Any], Any], **params: Any) -> Send:
    def send(client: Client, seeded: dict[str, Any], value: str) -> Any:
        response = client.get(path.format(**seeded), params={**ALICE, **params, field: value})
        return response if response.status_code >= 400 else read(response.json())
    send.__name__ = field
    return send


def _objects(memories: list[dict[str, Any]]) -> list[str]:
    """Where Alice lives, by the memories or hits given (todos are memories too)."""
    return sorted(m["object"] for m in memories if m.get("predicate") == "LIVES_IN")


SEARCH = {"scope": ALICE, "query": "where does Alice live", "include_turns": False}
CONTEXT = {"scope": ALICE, "message": "where does Alice live?", "include_turns": False}

#: field -> (how to send one value, the answer every spelling of the instant must give)
FIELDS: dict[str, tuple[Send, Any]] = {
    "messages.0.timestamp": (_body("/v1/episodes", "timestamp", lambda v: {
        "scope": {"user_id": "bob"}, "messages": [{"content": "I like tea", "timestamp": v}]},
        lambda out: out["episode_id"] is not None), True),
    "reference_time": (_body("/v1/episodes", "reference_time", lambda v: {
        "scope": {"user_id": "bob"}, "text": "I like tea", "reference_time": v},
        lambda out: out["episode_id"] is not None), True),
    "valid_from": (_body("/v1/memories", "valid_from", lambda v: fact(
        "Bob", "LIVES_IN", "Oslo", scope={"user_id": "bob"}, valid_from=v),
        lambda out: (out["created"] + out["confirmed"])[0]["valid_from"]),
        "2030-03-01T00:00:00Z"),
    "valid_until": (_body("/v1/memories", "valid_until", lambda v: fact(
        "Bob", "WORKS_AT", "Initech", scope={"user_id": "bob"},
        valid_from="2029-01-01T00:00:00Z", valid_until=v),
        lambda out: (out["created"] + out["confirmed"])[0]["valid_until"]),
        "2030-03-01T00:00:00Z"),
    "due": (_body("/v1/todos", "due", lambda v: {
        "scope": {"user_id": "bob"}, "description": "renew passport", "due": v},
        lambda out: out["due"]), "2030-03-01T00:00:00Z"),
    "remind_at": (_body("/v1/todos", "remind_at", lambda v: {
        "scope": {"user_id": "bob"}, "description": "book dentist", "due": "2031-01-01",
        "remind_at": v}, lambda out: out["remind_at"]), "2030-03-01T00:00:00Z"),
    "as_of": (_body("/v1/memories/search", "as_of", lambda v: {**SEARCH, "as_of": v},
                    lambda out: (out["as_of"], _objects(out["results"]))),
              ("2030-03-01T00:00:00Z", ["Porto"])),
    "as_known_at": (_body("/v1/memories/search", "as_known_at",
                          lambda v: {**SEARCH, "as_known_at": v},
                          lambda out: _objects(out["results"])), ["Porto"]),
    "context.as_of": (_body("/v1/context", "as_of", lambda v: {**CONTEXT, "as_of": v},
                            lambda out: _objects(out["items"])), ["Porto"]),
    "context.as_known_at": (_body("/v1/context", "as_known_at",
                                  lambda v: {**CONTEXT, "as_known_at": v},
                                  lambda out: _objects(out["items"])), ["Porto"]),
    "memories?as_of": (_query("/v1/memories", "as_of",
                              lambda out: _objects(out["memories"])), ["Porto"]),
    "memories?valid_at": (_query("/v1/memories", "valid_at",
                                 lambda out: _objects(out["memories"])), ["Porto"]),
    "neighbors?as_of": (_query("/v1/entities/{alice}/neighbors", "as_of",
                               lambda out: _objects(out["memories"])), ["Porto"]),
    "todos?due_before": (_query("/v1/todos", "due_before",
                                lambda out: [t["description"] for t in out["todos"]]),
                         ["pay rent"]),
}


def _field_name(key: str) -> str:
    return key.rsplit("?", 1)[-1].rsplit(".", 1)[-1]


@pytest.mark.parametrize("key", sorted(FIELDS))
def test_every_spelling_of_an_instant_answers_the_same(clients: tuple[Client, Client],
                                                       key: str) -> None:
    client = clients[0]
    seeded = _seed(client)
    send, expected = FIELDS[key]
    for value in FORMS:
        answer = send(client, seeded, value)
        assert not hasattr(answer, "status_code"), (value, answer.text)
        assert answer == expected, (key, value, answer)


@pytest.mark.parametrize("key", sorted(FIELDS))
def test_bad_times_are_a_422_naming_the_field(clients: tuple[Client, Client], key: str) -> None:
    client = clients[0]
    seeded = _seed(client)
    send, _ = FIELDS[key]
    for value in BAD:
        response = send(client, seeded, value)
        assert hasattr(response, "status_code"), (key, value, response)
        assert_problem(response, 422, _field_name(key))


@pytest.mark.parametrize(("value", "named"), [
    ("2030-03-01T25:00:00", "the hour 25 is outside 00-23"),
    ("2030-03-01T00:00:00+25:00", "the UTC offset +25:00 is beyond +/-18 hours")])
def test_a_clock_no_day_has_is_named_in_the_422(clients: tuple[Client, Client], value: str,
                                                named: str) -> None:
    # the fifth new-user trial got "unexpected extra characters at the end of the input"
    response = clients[0].post("/v1/memories/search",
                               json={"scope": ALICE, "query": "home", "as_of": value})
    assert_problem(response, 422, "as_of")
    assert named in response.text


def test_as_of_and_its_deprecated_alias_must_agree(clients: tuple[Client, Client]) -> None:
    client = clients[0]
    _seed(client)
    listed = client.get("/v1/memories", params={**ALICE, "as_of": INSTANT,
                                                "valid_at": "2030-03-01T02:00:00+02:00"})
    assert _objects(listed.json()["memories"]) == ["Porto"]
    assert_problem(client.get("/v1/memories", params={**ALICE, "as_of": INSTANT,
                                                      "valid_at": "2030-01-05"}), 422, "valid_at")
    parameter = next(p for p in client.get("/openapi.json").json()["paths"]["/v1/memories"][
        "get"]["parameters"] if p["name"] == "valid_at")
    assert parameter["deprecated"] is True


def test_the_openapi_document_states_the_rule_on_every_time_input(
        clients: tuple[Client, Client]) -> None:
    doc = clients[0].get("/openapi.json").json()
    found: list[str] = []

    def walk(node: Any, where: str, seen: frozenset[str]) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref not in seen:
                walk(doc["components"]["schemas"][ref.rsplit("/", 1)[-1]], where, seen | {ref})
            if node.get("format") == "date-time":
                found.append(where)
                assert "Without an offset the time is UTC" in node.get("description", ""), where
            for key, value in node.items():
                walk(value, f"{where}/{key}", seen)
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}", seen)

    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                walk(parameter, f"{method} {path}?{parameter['name']}", frozenset())
            walk(operation.get("requestBody", {}), f"{method} {path}", frozenset())
    for field in ("as_of", "as_known_at", "valid_at", "due_before", "due", "remind_at",
                  "valid_from", "valid_until", "reference_time", "timestamp"):
        assert any(field in w for w in found), field
