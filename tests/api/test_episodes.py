"""POST/GET/DELETE /v1/episodes and the background job flow."""

from __future__ import annotations

import time
from typing import Any

import pytest

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.api.conftest import ALICE, KEY_A, assert_problem, episode


def test_sync_ingestion_answers_201_with_memories(client: TestClient) -> None:
    response = client.post("/v1/episodes", json=episode("I work at Acme.", episode_id="chat-1"))
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["stored"] is True and body["duplicate"] is False
    assert body["episode_id"].startswith("ep_")
    [created] = body["created"]
    assert (created["predicate"], created["object"]) == ("WORKS_AT", "Acme")
    assert created["sources"] == ["m1"] and created["user_id"] == "alice"
    assert "embedding" not in created
    assert set(body) >= {"confirmed", "superseded", "retracted", "warnings"}


def test_a_new_value_supersedes_the_old_one(client: TestClient) -> None:
    client.post("/v1/episodes", json=episode("I work at Acme."))
    body = client.post("/v1/episodes", json=episode("I work at Globex now.")).json()
    assert [m["object"] for m in body["created"]] == ["Globex"]
    [old] = body["superseded"]
    assert old["object"] == "Acme" and old["superseded_by"] == body["created"][0]["id"]


def test_same_episode_id_twice_is_a_duplicate(client: TestClient) -> None:
    first = client.post("/v1/episodes", json=episode("I work at Acme.", episode_id="e1")).json()
    again = client.post("/v1/episodes", json=episode("I work at Acme.", episode_id="e1"))
    assert again.status_code == 201
    assert again.json()["duplicate"] is True
    assert again.json()["episode_id"] == first["episode_id"]


def test_text_and_document_episodes(client: TestClient) -> None:
    text = client.post("/v1/episodes", json={"scope": ALICE, "text": "I live in Berlin."})
    assert text.status_code == 201, text.text
    assert [m["predicate"] for m in text.json()["created"]] == ["LIVES_IN"]
    doc = client.post("/v1/episodes", json={"scope": ALICE, "document": {"note": "hello"}})
    assert doc.status_code == 201, doc.text


def test_a_document_that_gives_no_facts_says_so_and_is_still_found(client: TestClient) -> None:
    said = client.post("/v1/episodes", json={"scope": ALICE,
                                              "document": {"note": "I work at Initech."}})
    assert said.status_code == 201, said.text
    assert said.json()["created"] and said.json()["warnings"] == []
    values = client.post("/v1/episodes", json={"scope": ALICE, "document": {
        "employer": "Globex", "city": "Lyon"}})
    assert values.status_code == 201, values.text
    assert values.json()["created"] == []
    assert any("no facts were extracted from the document" in w
               for w in values.json()["warnings"]), values.json()
    found = client.post("/v1/memories/search", json={"scope": ALICE, "query": "Globex"})
    assert any("Globex" in hit["text"] for hit in found.json()["results"]), found.json()


def test_temporary_chat_stores_and_extracts_nothing(client: TestClient) -> None:
    response = client.post("/v1/episodes", json=episode("I work at Acme.", temporary=True))
    assert response.status_code == 200
    assert response.json()["stored"] is False and response.json()["created"] == []
    assert client.get("/v1/memories", params=ALICE).json()["memories"] == []
    stats = client.get("/v1/memories/stats", params=ALICE).json()["stats"]
    assert stats["episodes"] == 0 and stats["entities"] == 0


def test_async_ingestion_returns_a_job_that_finishes(client: TestClient) -> None:
    accepted = client.post("/v1/episodes", json=episode("I live in Paris.", **{"async": True}))
    assert accepted.status_code == 202, accepted.text
    job_id = accepted.json()["job_id"]
    assert accepted.headers["location"] == f"/v1/jobs/{job_id}"
    deadline = time.monotonic() + 30
    while True:
        job = client.get(f"/v1/jobs/{job_id}").json()
        if job["status"] in ("done", "failed") or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert job["status"] == "done", job
    assert [m["object"] for m in job["result"]["created"]] == ["Paris"]
    assert job["finished_at"] is not None


def _finished(client: TestClient, job_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while True:
        job: dict[str, Any] = client.get(f"/v1/jobs/{job_id}").json()
        if job["status"] in ("done", "failed") or time.monotonic() > deadline:
            return job
        time.sleep(0.05)


def test_jobs_run_again_after_the_app_restarts(app: FastAPI) -> None:
    """A lifespan that ends and starts again (tests, embedding servers) still takes jobs."""
    for text in ("I live in Paris.", "I live in Rome."):
        with TestClient(app, headers={"Authorization": f"Bearer {KEY_A}"}) as client:
            accepted = client.post("/v1/episodes", json=episode(text, **{"async": True}))
            assert accepted.status_code == 202, accepted.text
            assert _finished(client, accepted.json()["job_id"])["status"] == "done"


def test_unknown_job_is_404(client: TestClient) -> None:
    assert_problem(client.get("/v1/jobs/job_nope"), 404, "job_nope")


def test_get_episode_shows_messages_and_memories(client: TestClient) -> None:
    created = client.post("/v1/episodes", json=episode("I work at Acme.", episode_id="c9")).json()
    response = client.get(f"/v1/episodes/{created['episode_id']}")
    assert response.status_code == 200
    body = response.json()
    assert body["episode_id"] == "c9" and body["user_id"] == "alice"
    assert body["messages"][0]["content"] == "I work at Acme."
    assert [m["object"] for m in body["memories"]] == ["Acme"]


def test_get_episode_outside_the_given_scope_is_404(client: TestClient) -> None:
    created = client.post("/v1/episodes", json=episode("I work at Acme.")).json()
    response = client.get(f"/v1/episodes/{created['episode_id']}", params={"user_id": "bob"})
    assert_problem(response, 404)


def test_delete_episode_cascades_and_reopens(client: TestClient) -> None:
    client.post("/v1/episodes", json=episode("I work at Acme."))
    second = client.post("/v1/episodes", json=episode("I work at Globex now.")).json()
    response = client.delete(f"/v1/episodes/{second['episode_id']}")
    assert response.status_code == 200, response.text
    body = response.json()
    assert [m["object"] for m in body["deleted"]] == ["Globex"]
    assert [m["object"] for m in body["reopened"]] == ["Acme"]
    current = client.get("/v1/memories", params=ALICE).json()["memories"]
    assert [m["object"] for m in current] == ["Acme"]
    assert_problem(client.get(f"/v1/episodes/{second['episode_id']}"), 404)
    assert_problem(client.delete(f"/v1/episodes/{second['episode_id']}"), 404)


def _nested(depth: int) -> str:
    return '{"a":' * depth + '"sk-' + "x" * 24 + '"' + "}" * depth


@pytest.mark.parametrize("content_type", ["application/json", "application/merge-patch+json"])
@pytest.mark.parametrize("depth", [65, 450, 989, 5000])
def test_a_deeply_nested_document_is_422_naming_the_field(store_client: TestClient, depth: int,
                                                          content_type: str) -> None:
    body = '{"scope": {"user_id": "alice"}, "document": ' + _nested(depth) + "}"
    response = store_client.post("/v1/episodes", content=body,
                                 headers={"Content-Type": content_type})
    assert_problem(response, 422, "document", "deeper than")
    stats = store_client.get("/v1/memories/stats", params=ALICE).json()["stats"]
    assert stats["episodes"] == 0


def test_a_document_at_the_depth_limit_is_stored_redacted(store_client: TestClient) -> None:
    body = '{"scope": {"user_id": "alice"}, "document": ' + _nested(63) + "}"
    response = store_client.post("/v1/episodes", content=body,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 201, response.text
    stored = store_client.get(f"/v1/episodes/{response.json()['episode_id']}").json()
    assert "[API_KEY]" in stored["content"] and "sk-xxx" not in stored["content"]
