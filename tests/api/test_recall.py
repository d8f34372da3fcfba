"""Recall that knows what is true now and then, through REST, on both stores.

Each test posts episodes the way a client does (naive ISO timestamps) and asks
``POST /v1/memories/search`` as a client would.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from graphmem.embed.base import Embedder
from graphmem.extract.base import Extractor
from graphmem.memory import Memory
from graphmem.store.base import GraphStore
from tests.api.conftest import STORE_TIMEOUT, settings

GROUP = {"group_id": "friends"}


@pytest.fixture
def client(store: GraphStore, embedder: Embedder, extractor: Extractor) -> Iterator[TestClient]:
    memory = Memory(store, extractor, embedder)
    key = f"k-{uuid.uuid4().hex}"
    app = create_app(settings(api_keys={hashlib.sha256(key.encode()).hexdigest(): f"t{key[-12:]}"},
                              store_timeout_seconds=STORE_TIMEOUT), memory)
    with TestClient(app, headers={"X-API-Key": key}) as c:
        yield c
    memory.engine.close()


def say(client: TestClient, scope: dict[str, str], speaker: str, when: str, text: str) -> None:
    response = client.post("/v1/episodes", json={"scope": scope, "messages": [
        {"id": f"m-{uuid.uuid4().hex[:8]}", "role": "user", "speaker": speaker,
         "timestamp": when, "content": text}]})
    assert response.status_code == 201, response.text


def ask(client: TestClient, scope: dict[str, str], query: str, **extra: Any) -> list[dict[str, Any]]:
    response = client.post("/v1/memories/search",
                           json={"scope": scope, "query": query, "limit": 3, **extra})
    assert response.status_code == 200, response.text
    results: list[dict[str, Any]] = response.json()["results"]
    return results


def test_readme_example_answers_react_first(client: TestClient) -> None:
    alice = {"user_id": "alice"}
    response = client.post("/v1/episodes", json={"scope": alice, "messages": [
        {"id": "m1", "role": "user", "speaker": "Alice", "timestamp": "2024-01-10T09:00:00",
         "content": "I use Vue 3 for the frontend and I prefer TypeScript."},
        {"id": "m2", "role": "user", "speaker": "Alice", "timestamp": "2024-06-02T09:00:00",
         "content": "I switched from Vue 3 to React."}]})
    assert response.status_code == 201, response.text
    [first, *_] = ask(client, alice, "which frontend framework does Alice use?")
    assert first["object"] == "React" and first["channels"]["slot"] == 1
    [then, *_] = ask(client, alice, "which frontend framework did Alice use?",
                     as_of="2024-03-01T00:00:00")
    assert then["object"] == "Vue 3"


def test_as_of_never_shows_what_was_said_later(client: TestClient) -> None:
    say(client, GROUP, "Maya Lee", "2023-01-05T10:00:00", "I drive a Honda Civic.")
    say(client, GROUP, "Maya Lee", "2023-08-11T10:00:00", "I traded in my car for a Subaru Outback.")
    say(client, GROUP, "Maya Lee", "2024-02-12T10:00:00", "My car these days is a Tesla Model 3.")
    for as_of in ("2023-08-08T00:00:00", "2023-08-08", "2023-08-08T02:00:00+02:00",
                  "2023-08-08T00:00:00Z"):
        results = ask(client, GROUP, "What car did Maya drive?", as_of=as_of)
        assert results, as_of
        assert all(r["valid_from"] < "2023-08-08T00:00:01" for r in results), (as_of, results)
        assert not any("Subaru" in r["text"] or "Tesla" in r["text"] for r in results)


def test_other_peoples_facts_do_not_answer(client: TestClient) -> None:
    say(client, GROUP, "Diego Ruiz", "2023-01-05T10:00:00", "I work at Initech.")
    say(client, GROUP, "Maya Lee", "2023-02-05T10:00:00", "I work at Globex.")
    say(client, GROUP, "Lena Novak", "2023-03-05T10:00:00", "I live in Seattle.")
    results = ask(client, GROUP, "Where does Maya work?")
    assert results[0]["object"] == "Globex"
    assert not any("Initech" in r["text"] or "Diego" in (r["subject"] or "") for r in results)
    # Lena has no employer: nobody else's answers for her
    assert not any("Globex" in r["text"] or "Initech" in r["text"]
                   for r in ask(client, GROUP, "Where does Lena work?"))


def test_a_superseded_value_and_its_turn_do_not_answer_now(client: TestClient) -> None:
    say(client, GROUP, "Kofi Mensah", "2022-01-05T10:00:00", "I work at Oscorp.")
    say(client, GROUP, "Kofi Mensah", "2023-01-05T10:00:00", "I work at Cyberdyne.")
    now = ask(client, GROUP, "Who does Kofi work for?")
    assert now[0]["object"] == "Cyberdyne"
    assert not any("Oscorp" in r["text"] for r in now)
    then = ask(client, GROUP, "Who did Kofi work for?", as_of="2022-06-01")
    assert then[0]["object"] == "Oscorp"
    history = ask(client, GROUP, "Who does Kofi work for?", include_history=True)
    assert {"Oscorp", "Cyberdyne"} <= {r["object"] for r in history}


def test_rerank_multiplies_so_an_unrelated_memory_never_outranks_a_related_one(
        client: TestClient) -> None:
    dana = {"user_id": "dana"}
    old = client.post("/v1/memories", json={
        "scope": dana, "subject": "Dana", "predicate": "LIKES", "object": "espresso",
        "text": "Dana likes espresso.", "valid_from": "2021-03-01T00:00:00", "importance": 0.3})
    new = client.post("/v1/memories", json={
        "scope": dana, "subject": "Dana", "predicate": "LIKES", "object": "hiking",
        "text": "Dana likes hiking in the Alps.", "importance": 1.0})
    assert old.status_code == 201 and new.status_code == 201, (old.text, new.text)
    results = ask(client, dana, "Does Dana like espresso?", rerank=True)
    assert results[0]["text"] == "Dana likes espresso."
    assert all(r["score"] <= results[0]["score"] for r in results)


def test_an_as_of_view_shows_facts_as_they_stood_then(client: TestClient) -> None:
    """Nothing learned after ``as_of`` leaks through a result: not the end of a fact that
    still held then, nor what superseded it, in search and in context alike."""
    lea = {"user_id": "lea"}
    say(client, lea, "Lea", "2023-01-10T10:00:00", "I work at Acme.")
    say(client, lea, "Lea", "2023-06-20T10:00:00", "I work at Globex now.")
    for view in ({"as_of": "2023-03-01T00:00:00"},
                 {"as_of": "2023-03-01T00:00:00", "include_history": True}):
        [acme, *_] = ask(client, lea, "Where does Lea work?", **view)
        assert acme["object"] == "Acme", view
        assert (acme["valid_until"], acme["superseded"], acme["superseded_by"]) == \
            (None, False, None), (view, acme)
        context = client.post("/v1/context", json={"scope": lea, "message": "Where does Lea work?",
                                                   **view}).json()
        [item] = [i for i in context["items"] if i["kind"] == "fact" and i["object"] == "Acme"]
        assert item["valid_until"] is None and item["superseded_by"] is None, view
        assert "until" not in context["prompt"] and "Globex" not in context["prompt"], view
    # once the end lies before as_of, the view knows it
    [old] = [r for r in ask(client, lea, "Where did Lea work?", as_of="2023-09-01T00:00:00",
                            include_history=True) if r["object"] == "Acme"]
    assert old["valid_until"].startswith("2023-06-20") and old["superseded"]
    assert old["superseded_by"] is not None
