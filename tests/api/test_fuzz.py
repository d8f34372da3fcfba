"""Hostile input never gets a 5xx, and a refused request changes nothing (issue 14).

Two parts, both on both stores:

* the reproductions of issue 14, one by one, each with the 4xx it must get;
* a walk over every operation of the OpenAPI document: a valid baseline
  request, then each parameter and body field (``scope.user_id`` included)
  replaced by each hostile value of :mod:`tests.api.fuzz_support` in turn.
  The walk is deterministic (fixed values, fixed order): no 5xx, every error
  an ``application/problem+json`` whose 422 names the field, and the store's
  footprint (row or node counts, the seeded scope's memories) unchanged by
  every refused request.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphmem.memory import Memory
from graphmem.models import Scope
from graphmem.store.base import GraphStore
from graphmem.store.embedded import EmbeddedStore
from tests.api.conftest import ALICE, assert_problem, episode, fact, tenant_of
from tests.api.fuzz_support import (
    Call,
    Schema,
    calls,
    embedded_counts,
    neo4j_counts,
    nested,
    scope_state,
)

Clients = tuple[TestClient, TestClient]
Snapshot = Callable[[], Any]

#: An endless event stream: nothing to fuzz, and it never answers.
SKIP = {"GET /v1/events"}
#: Operations that destroy the seeded data when they succeed run last.
LAST = ("DELETE", "POST /v1/forget", "POST /v1/import/memory.md")


@pytest.fixture
def seeded(clients: Clients) -> dict[str, str]:
    """A scope with an episode, a fact, an entity and a todo; their ids by parameter name."""
    client = clients[0]
    ingested = client.post("/v1/episodes", json=episode("I work at Acme.", session_id="s1"))
    assert ingested.status_code == 201, ingested.text
    added = client.post("/v1/memories", json=fact("Alice", "LIKES", "green tea")).json()
    todo = client.post("/v1/todos", json={"scope": ALICE, "description": "call Bob",
                                          "due": "2030-01-01"}).json()
    memory = added["created"][0]
    return {"memory_id": memory["id"], "entity_id": memory["subject_id"],
            "episode_id": ingested.json()["episode_id"], "todo_id": todo["id"],
            "session_id": "s1", "job_id": "job_unknown"}


@pytest.fixture
def snapshot(store: GraphStore, store_memory: Memory, clients: Clients,
             request: pytest.FixtureRequest) -> Snapshot:
    counts = (embedded_counts(store) if isinstance(store, EmbeddedStore)
              else neo4j_counts(request.getfixturevalue("neo4j_driver")))
    tenant = tenant_of(clients[0])
    return lambda: (counts(), scope_state(store_memory, tenant, Scope(user_id="alice")))


def _memory(**extra: Any) -> dict[str, Any]:
    return fact("Alice", "LIVES_IN", "Lisbon", **extra)


#: Issue 14's reproductions: (item, method, path, body or query, status, what the detail names).
#: A body too deep for the client's own JSON encoder is given as text.
REPRODUCTIONS: list[tuple[str, str, str, dict[str, Any] | str, int, str]] = [
    ("1 naive as_of", "POST", "/v1/memories/search",
     {"scope": ALICE, "query": "work", "as_of": "2022-08-25T09:00:00"}, 200, ""),
    ("1 date-only as_known_at", "POST", "/v1/memories/search",
     {"scope": ALICE, "query": "work", "as_known_at": "2024-06-01"}, 200, ""),
    ("1 spaced valid_at", "GET", "/v1/memories",
     {**ALICE, "valid_at": "2024-01-10 09:00:00"}, 200, ""),
    ("2 timestamp", "POST", "/v1/episodes", {"scope": ALICE, "messages": [
        {"content": "hi", "timestamp": "9999-12-31T23:00:00-05:00"}]}, 422, "timestamp"),
    ("2 reference_time", "POST", "/v1/episodes", {"scope": ALICE, "text": "hi",
                                                  "reference_time": "0001-01-01T00:00:00+05:00"},
     422, "reference_time"),
    ("2 valid_from", "POST", "/v1/memories", _memory(valid_from="0001-01-01T00:00:00+05:00"),
     422, "valid_from"),
    ("2 valid_until", "POST", "/v1/memories", _memory(valid_until="9999-12-31T23:00:00-05:00"),
     422, "valid_until"),
    ("2 due", "POST", "/v1/todos", {"scope": ALICE, "description": "x",
                                    "due": "9999-12-31T23:00:00-05:00"}, 422, "due"),
    ("2 remind_at", "POST", "/v1/todos", {"scope": ALICE, "description": "x",
                                          "remind_at": "0001-01-01T00:00:00+05:00"},
     422, "remind_at"),
    ("2 due_before", "GET", "/v1/todos", {**ALICE, "due_before": "9999-12-31T23:00:00-05:00"},
     422, "due_before"),
    ("2 as_of offset", "POST", "/v1/memories/search",
     {"scope": ALICE, "query": "work", "as_of": "2024-01-01T00:00:00+19:00"}, 422, "as_of"),
    ("2 as_known_at", "POST", "/v1/memories/search",
     {"scope": ALICE, "query": "work", "as_known_at": "0001-01-01T00:00:00+05:00"},
     422, "as_known_at"),
    ("2 valid_at", "GET", "/v1/memories", {**ALICE, "valid_at": "9999-12-31T23:00:00-05:00"},
     422, "valid_at"),
    ("2 calendar edge, relative time", "POST", "/v1/episodes", {"scope": ALICE, "messages": [
        {"content": "Next year I fly to Rome.", "timestamp": "9999-12-31T12:00:00"},
        {"content": "Last year I went to Paris.", "timestamp": "0001-01-02"}]}, 201, ""),
    ("2 calendar edge, query window", "POST", "/v1/memories/search",
     {"scope": ALICE, "query": "what did I do last year?", "as_of": "0001-01-01"}, 200, ""),
    ("2 calendar edge, context window", "POST", "/v1/context",
     {"scope": ALICE, "message": "plans for this winter?", "as_of": "9999-12-31T23:00:00"},
     200, ""),
    ("3 deep document", "POST", "/v1/episodes", {"scope": ALICE, "document": nested(450)},
     422, "document"),
    ("3 deeper document", "POST", "/v1/episodes",
     '{"scope": {"user_id": "alice"}, "document": ' + '{"a": ' * 989 + "1" + "}" * 990,
     422, "document"),
    ("4 inverted interval", "POST", "/v1/memories",
     _memory(valid_from="2024-02-01", valid_until="2024-01-01"), 422, "valid_until"),
    ("5 backtick subject", "POST", "/v1/memories", fact("`", "LIKES", "tea"), 422, "subject"),
    ("5 blank object", "POST", "/v1/memories", fact("Alice", "LIKES", " "), 422, "object"),
    ("6 NUL text", "POST", "/v1/memories", {"scope": ALICE, "text": "I like\x00 tea"},
     422, "text"),
    ("6 NUL description", "POST", "/v1/todos", {"scope": ALICE, "description": "a\x00b"},
     422, "description"),
    ("6 NUL subject", "POST", "/v1/memories", fact("Ali\x00ce", "LIKES", "tea"), 422, "subject"),
    ("6 escape in query", "POST", "/v1/memories/search",
     {"scope": ALICE, "query": "tea\x1b[31m"}, 422, "query"),
    ("7 purge_after_days", "POST", "/v1/maintenance",
     {"scope": ALICE, "purge_after_days": 1_000_000_000_000}, 422, "purge_after_days"),
    ("10 past valid_until alone", "POST", "/v1/memories",
     _memory(valid_until="2020-01-01T00:00:00Z"), 422, "valid_until"),
    ("11 user_id newline", "POST", "/v1/memories",
     fact("Alice", "LIKES", "tea", scope={"user_id": "rp\n"}), 422, "user_id"),
    ("11 query user_id newline", "GET", "/v1/memories", {"user_id": "rp\n"}, 422, "user_id"),
    ("11 predicate newline", "POST", "/v1/memories", fact("Alice", "LIKES\n", "tea"),
     422, "predicate"),
]


@pytest.mark.parametrize(("method", "path", "payload", "status", "names"),
                         [pytest.param(*r[1:], id=r[0]) for r in REPRODUCTIONS])
def test_issue_14_reproductions(clients: Clients, seeded: dict[str, str], snapshot: Snapshot,
                                method: str, path: str, payload: dict[str, Any] | str,
                                status: int, names: str) -> None:
    client = clients[0]
    before = snapshot()
    if isinstance(payload, str):
        response = client.request(method, path, content=payload,
                                  headers={"content-type": "application/json"})
    elif method == "GET":
        response = client.get(path, params=payload)
    else:
        response = client.request(method, path, json=payload)
    if status >= 400:
        assert_problem(response, status, names)
        assert snapshot() == before
    else:
        assert response.status_code == status, response.text


def test_patch_refuses_control_characters_and_keeps_the_memory(
        clients: Clients, seeded: dict[str, str], snapshot: Snapshot) -> None:
    before = snapshot()
    for body, names in (({"text": "tea\x00"}, "text"), ({"object": "te\x07a"}, "object")):
        response = clients[0].patch(f"/v1/memories/{seeded['memory_id']}", json=body)
        assert_problem(response, 422, names)
    assert snapshot() == before


def _send(client: TestClient, call: Call) -> Any:
    # Encoded here, ASCII-escaped as most clients send it, so a lone surrogate gets through.
    body = None if call.body is None else json.dumps(call.body)
    response = client.request(call.operation.method.upper(), call.path, params=call.params,
                              content=body, headers={"content-type": "application/json"}
                              if body is not None else None)
    if response.status_code == 202 and "job_id" in response.text:
        job = response.json()["job_id"]
        for _ in range(300):  # an accepted background job must finish before the next check
            if client.get(f"/v1/jobs/{job}").json().get("status") in ("done", "failed"):
                break
            time.sleep(0.1)
    return response


def _complaint(call: Call, response: Any) -> str | None:
    where = f"{call.operation.name} {call.field or '(baseline)'}"
    if response.status_code >= 500:
        return f"{where}: {response.status_code} {response.text[:200]}"
    if response.status_code < 400:
        return None
    if not response.headers.get("content-type", "").startswith("application/problem+json"):
        return f"{where}: {response.status_code} is not a problem document"
    detail = response.json()["detail"]
    # the field at fault: the one made hostile, or (when that was harmless) another one sent
    named = {call.field.rsplit(".", 1)[-1], *call.params, *(call.body or {})} - {""}
    if response.status_code == 422 and not any(name in detail for name in named):
        return f"{where}: 422 does not name a field: {detail[:200]}"
    return None


def test_every_operation_with_hostile_values(clients: Clients, seeded: dict[str, str],
                                             snapshot: Snapshot) -> None:
    client = clients[0]
    schema = Schema(client.get("/openapi.json").json())
    operations = sorted(schema.operations(SKIP),
                        key=lambda op: any(op.name.startswith(p) for p in LAST))
    complaints: list[str] = []
    sent = 0
    before = snapshot()
    for operation in operations:
        for call in calls(schema, operation, seeded):
            response = _send(client, call)
            sent += 1
            complaint = _complaint(call, response)
            if complaint:
                complaints.append(complaint)
            after = snapshot()
            if response.status_code >= 400 and after != before:
                complaints.append(f"{operation.name} {call.field}: refused with "
                                  f"{response.status_code} but the store changed")
            before = after
    assert sent > 2000
    assert not complaints, "\n".join(complaints[:60])
