"""Problem documents: every error class maps to one status; no stack trace ever leaks."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.errors import STATUS, status_of
from graphmem import errors
from graphmem.memory import Memory
from tests.api.conftest import ALICE, assert_problem, episode


@pytest.mark.parametrize(("error", "status", "shown"), [
    (errors.ValidationError("bad scope"), 422, "bad scope"),
    (errors.NotFoundError("memory 'x' not found"), 404, "memory 'x' not found"),
    (errors.ConflictError("reused message id"), 409, "reused message id"),
    (errors.ScopeError("outside"), 403, "outside"),
    (errors.StoreUnavailableError("/secret/path.db locked"), 503, "unavailable"),
    (errors.SchemaError("/secret/path.db newer"), 500, "internal error"),
    (errors.StoreError("disk I/O at /secret"), 500, "internal error"),
    (errors.LLMError("https://llm.internal/v1 said 500"), 502, "language model"),
    (errors.ExtractionError("spaCy broke"), 500, "internal error"),
    (errors.EmbeddingError("model missing"), 500, "internal error"),
])
def test_each_error_class_has_one_status(error: errors.GraphMemError, status: int,
                                         shown: str) -> None:
    got_status, detail = status_of(error)
    assert got_status == status and shown in detail
    if status >= 500:
        assert "secret" not in detail and "internal" not in detail.replace("internal error", "")


def test_every_listed_class_is_a_graphmem_error() -> None:
    assert all(issubclass(cls, errors.GraphMemError) for cls in STATUS)


def failing_app(app: FastAPI, exc: Exception) -> TestClient:
    async def boom() -> None:
        raise exc

    app.add_api_route("/boom", boom)
    return TestClient(app, raise_server_exceptions=False)


def test_unknown_exceptions_are_a_generic_500(app: FastAPI, caplog: pytest.LogCaptureFixture) -> None:
    client = failing_app(app, RuntimeError("password=hunter2 in /srv/secret"))
    body = assert_problem(client.get("/boom"), 500, "an internal error occurred")
    assert "hunter2" not in str(body) and "RuntimeError" not in str(body)
    assert any("hunter2" in str(r.exc_info) for r in caplog.records if r.exc_info)


def test_store_errors_are_a_generic_500_and_logged(app: FastAPI,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    client = failing_app(app, errors.StoreError("sqlite: disk full at /var/lib/x.db"))
    body = assert_problem(client.get("/boom"), 500)
    assert "/var/lib" not in body["detail"]
    assert any("disk full" in r.getMessage() for r in caplog.records)


def test_store_unavailable_is_503(app: FastAPI) -> None:
    client = failing_app(app, errors.StoreUnavailableError("neo4j at bolt://10.0.0.3 down"))
    body = assert_problem(client.get("/boom"), 503)
    assert "10.0.0.3" not in body["detail"]


def test_bad_inputs_are_clear_422s(client: TestClient) -> None:
    cases = [
        ({"scope": ALICE, "messages": [{"content": "   "}]}, "messages.0.content: message content is empty"),
        ({"scope": ALICE, "messages": [{"content": "hi", "timestamp": "last tuesday"}]},
         "messages.0.timestamp"),
        ({"messages": [{"content": "hi"}]}, "scope: Field required"),
        ({"scope": {}, "text": "hi"}, "a user_id, a group_id, or both"),
        ({"scope": ALICE}, "exactly one of: messages, text, document"),
        ({"scope": ALICE, "text": ""}, "text is empty; an episode needs exactly one of"),
        ({"scope": ALICE, "messages": []}, "messages is empty; an episode needs exactly one of"),
        ({"scope": ALICE, "text": "hi", "messages": [{"content": "x"}]}, "exactly one of"),
        ({"scope": ALICE, "text": "hi", "colour": "red"}, "colour: Extra inputs are not permitted"),
        ({"scope": ALICE, "messages": [{"content": "a", "id": "1"}, {"content": "b", "id": "1"}]},
         "duplicate message ids"),
        ({"scope": ALICE, "messages": [{"content": "a", "role": "robot"}]}, "messages.0.role"),
        ({"scope": ALICE, "text": "x" * 100_001}, "text: should have at most 100000 characters"),
        ({"scope": ALICE, "messages": [{"content": "hi", "timestmp": "2020-01-01"}]},
         "messages.0.timestmp: Extra inputs are not permitted"),
        ({"scope": {"user_id": "alice", "grup_id": "family"}, "text": "hi"},
         "scope.grup_id: Extra inputs are not permitted"),
    ]
    for body, message in cases:
        assert_problem(client.post("/v1/episodes", json=body), 422, message)


def test_malformed_json_is_422(client: TestClient) -> None:
    response = client.post("/v1/episodes", content=b'{"scope": ',
                           headers={"content-type": "application/json"})
    assert_problem(response, 422, "body: is not valid JSON")


def test_a_query_parameter_of_one_value_given_twice_is_a_422(client: TestClient) -> None:
    """The last value would silently win: Bob's memories for a client that meant Alice's."""
    assert_problem(client.get("/v1/memories?user_id=alice&user_id=bob"), 422, "user_id",
                   "more than once")
    assert_problem(client.get("/v1/memories?user_id=alice&as_of=2022-01-01&as_of=2023-01-01"),
                   422, "as_of", "more than once")
    assert client.get("/v1/memories?user_id=alice&as_of=2022-01-01").status_code == 200


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=latin-1"])
def test_a_body_not_in_utf8_is_a_400_saying_so(client: TestClient, content_type: str) -> None:
    response = client.post("/v1/memories/search", content=b'{"query": "caf\xe9"}',
                           headers={"content-type": content_type})
    assert_problem(response, 400, "body", "UTF-8")


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/v1/memories/search", '{"scope": {"user_id": "alice"}, "query": "x", "min_score": NaN}',
     "min_score"),
    ("/v1/memories", '{"scope": {"user_id": "alice"}, "subject": "Alice", "predicate": "LIKES",'
     ' "object": "tea", "confidence": Infinity}', "confidence"),
])
def test_nan_and_infinity_are_no_numbers(client: TestClient, path: str, body: str,
                                         field: str) -> None:
    """Python's JSON reader accepts NaN and Infinity; a score or confidence is no such thing."""
    response = client.post(path, content=body.encode(), headers={"content-type": "application/json"})
    assert_problem(response, 422, field)


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/v1/episodes", {"scope": {"user_id": "alice"}, "text": "I live in Oslo.", "async": "yes"},
     "async"),
    ("/v1/episodes", {"scope": {"user_id": "alice"}, "text": "I live in Oslo.", "temporary": 1},
     "temporary"),
    ("/v1/memories/search", {"scope": {"user_id": "alice"}, "query": "x", "limit": "5"}, "limit"),
    ("/v1/memories/search", {"scope": {"user_id": "alice"}, "query": "x", "limit": 5.5}, "limit"),
    ("/v1/memories/search", {"scope": {"user_id": "alice"}, "query": "x",
                             "include_history": "yes"}, "include_history"),
    ("/v1/memories/search", {"scope": {"user_id": "alice"}, "query": "x", "min_score": "0.5"},
     "min_score"),
    ("/v1/context", {"scope": {"user_id": "alice"}, "message": "x", "token_budget": "500"},
     "token_budget"),
    ("/v1/forget", {"scope": {"user_id": "alice"}, "whole_scope": "true"}, "whole_scope"),
])
def test_look_alikes_of_booleans_and_numbers_are_refused(client: TestClient, path: str,
                                                         body: dict[str, object],
                                                         field: str) -> None:
    """A client that sends "yes" or "5" has a bug; taking it for true or 5 would hide it."""
    response = client.post(path, json=body)
    problem = assert_problem(response, 422, field)
    assert "valid" in problem["detail"]


def test_an_integer_is_a_number_and_real_booleans_pass(client: TestClient) -> None:
    response = client.post("/v1/memories/search", json={
        "scope": {"user_id": "alice"}, "query": "x", "min_score": 0, "include_history": True,
        "limit": 5})
    assert response.status_code == 200


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded"])
def test_a_body_not_sent_as_json_is_a_415_saying_so(client: TestClient, content_type: str) -> None:
    response = client.post("/v1/episodes", content=b'{"scope": {"user_id": "alice"}, "text": "hi"}',
                           headers={"content-type": content_type})
    problem = assert_problem(response, 415, "send the body as application/json")
    assert content_type in problem["detail"]
    assert client.get("/v1/memories", params={"user_id": "alice"}).json()["memories"] == []


def test_a_missing_body_is_still_a_422(client: TestClient) -> None:
    assert_problem(client.post("/v1/episodes"), 422, "body")


def test_a_misspelt_query_parameter_is_a_422_naming_it(client: TestClient) -> None:
    """Like a misspelt body field: a filter that seems to apply but does not is wrong data."""
    body = assert_problem(client.get("/v1/memories", params={"user_id": "alice",
                                                             "as_ofx": "2024-01-01"}),
                          422, "as_ofx: unknown query parameter")
    assert "as_of" in body["detail"]
    assert client.get("/v1/memories", params={"user_id": "alice",
                                              "as_of": "2024-01-01"}).status_code == 200
    assert_problem(client.post("/v1/memories/search?limt=3",
                               json={"scope": ALICE, "query": "x"}), 422, "limt")


def test_unknown_route_and_method_are_problems(client: TestClient) -> None:
    assert_problem(client.get("/v1/nothing-here"), 404)
    assert_problem(client.put("/v1/episodes"), 405)


def test_no_stack_trace_for_a_broken_store(client: TestClient, memory: Memory) -> None:
    memory.store.close()  # every read now fails inside the store
    response = client.post("/v1/memories/search", json={"scope": ALICE, "query": "x"})
    assert response.status_code in (500, 503)
    assert_problem(response, response.status_code)
    response = client.post("/v1/episodes", json=episode("I work at Acme."))
    assert_problem(response, response.status_code)
    assert response.status_code >= 500
