"""Retries never duplicate: ``Idempotency-Key`` on every POST, re-posted message ids, a retry
after a 504, and models warmed before ``/ready`` (issue 14, item 13). Both stores."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from graphmem.embed.base import Embedder
from graphmem.errors import StoreUnavailableError
from graphmem.extract.base import CandidateFact, Extraction, Extractor
from graphmem.memory import Memory
from graphmem.models import Episode
from graphmem.store.base import ChannelPlan, GraphStore
from tests.api.conftest import ALICE, KEY_A, assert_problem, episode, fact, settings, sha



@pytest.fixture
def key() -> dict[str, str]:
    """A fresh Idempotency-Key header (stored answers outlive a test on the shared Neo4j)."""
    return {"Idempotency-Key": f"retry-{uuid.uuid4().hex}"}


def memories(client: TestClient) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = client.get("/v1/memories", params=ALICE).json()["memories"]
    return found


def episode_count(client: TestClient) -> int:
    return int(client.get("/v1/memories/stats", params=ALICE).json()["stats"]["episodes"])


def test_a_post_retried_with_its_key_is_done_once(store_client: TestClient, key: dict[str, str]) -> None:
    body = {"scope": ALICE, "text": "I work at Acme."}
    first = store_client.post("/v1/episodes", json=body, headers=key)
    assert first.status_code == 201, first.text
    [stored] = memories(store_client)

    again = store_client.post("/v1/episodes", json=body, headers=key)
    assert (again.status_code, again.json()) == (201, first.json())
    assert again.headers["idempotent-replayed"] == "true"
    assert episode_count(store_client) == 1
    assert memories(store_client) == [stored]  # confidence unchanged

    manual = fact("Alice", "LIVES_IN", "Berlin")
    other_key = {"Idempotency-Key": key["Idempotency-Key"] + "-m"}
    made = store_client.post("/v1/memories", json=manual, headers=other_key)
    remade = store_client.post("/v1/memories", json=manual, headers=other_key)
    assert remade.json() == made.json()
    berlin = [m for m in memories(store_client) if m["object"] == "Berlin"]
    assert [m["confidence"] for m in berlin] == [made.json()["created"][0]["confidence"]]


def test_a_retry_serialised_again_is_the_same_request(store_client: TestClient,
                                                      key: dict[str, str]) -> None:
    """Keys in another order, other spacing: the same JSON object, so a replay (a new-user
    trial's client re-serialised its body and got a 422)."""
    first = store_client.post("/v1/episodes", headers={**key, "Content-Type": "application/json"},
                              content='{"scope": {"user_id": "alice"}, "text": "I work at Acme."}')
    again = store_client.post("/v1/episodes", headers={**key, "Content-Type": "application/json"},
                              content='{"text":"I work at Acme.","scope":{"user_id":"alice"}}')
    assert first.status_code == 201, first.text
    assert (again.status_code, again.json()) == (201, first.json())
    assert again.headers["idempotent-replayed"] == "true"
    assert episode_count(store_client) == 1


def test_one_key_for_another_request_is_refused(store_client: TestClient, key: dict[str, str]) -> None:
    store_client.post("/v1/episodes", json={"scope": ALICE, "text": "I work at Acme."},
                      headers=key)
    other = store_client.post("/v1/episodes", json={"scope": ALICE, "text": "I work at Globex."},
                              headers=key)
    assert_problem(other, 422, "Idempotency-Key", "different request")
    assert_problem(store_client.post("/v1/memories/search", json={"scope": ALICE, "query": "x"},
                                     headers=key), 422, "Idempotency-Key")
    assert_problem(store_client.post("/v1/episodes", json={"scope": ALICE, "text": "Hi."},
                                     headers={"Idempotency-Key": "has spaces"}),
                   422, "Idempotency-Key")
    assert [m["object"] for m in memories(store_client)] == ["Acme"]


def test_a_refused_request_keeps_no_answer(store_client: TestClient, key: dict[str, str]) -> None:
    bad = store_client.post("/v1/episodes", json={"scope": ALICE, "text": ""}, headers=key)
    assert_problem(bad, 422, "text")
    fixed = store_client.post("/v1/episodes", json={"scope": ALICE, "text": "I work at Acme."},
                              headers=key)
    assert fixed.status_code == 201, fixed.text


def test_the_same_messages_again_are_a_duplicate_without_any_key(store_client: TestClient) -> None:
    body = episode("I work at Acme.", "My sister Maria loves pizza.")
    first = store_client.post("/v1/episodes", json=body).json()
    before = memories(store_client)
    again = store_client.post("/v1/episodes", json=body)
    assert again.status_code == 201, again.text
    assert again.json()["duplicate"] is True
    assert again.json()["episode_id"] == first["episode_id"]
    assert episode_count(store_client) == 1
    assert memories(store_client) == before  # no confirmation, no confidence bump
    # the same ids saying something else are another window of the conversation
    other = store_client.post("/v1/episodes", json=episode("I work at Globex now.")).json()
    assert other["duplicate"] is False


def test_the_same_fact_from_the_same_source_again_is_no_confirmation(
        store_client: TestClient) -> None:
    body = fact("Alice", "LIVES_IN", "Berlin", source_id="crm-42")
    first = store_client.post("/v1/memories", json=body).json()["created"]
    again = store_client.post("/v1/memories", json=body)
    assert again.status_code == 201, again.text
    assert again.json()["created"] == again.json()["confirmed"] == []
    assert [m["confidence"] for m in memories(store_client)] == [first[0]["confidence"]]
    other_source = store_client.post("/v1/memories", json={**body, "source_id": "crm-43"})
    assert [m["object"] for m in other_source.json()["confirmed"]] == ["Berlin"]  # restated


def test_answers_outlive_the_process(store_client: TestClient, key: dict[str, str]) -> None:
    body = {"scope": ALICE, "text": "I work at Acme."}
    first = store_client.post("/v1/episodes", json=body, headers=key)
    memory: Memory = store_client.app.state.memory  # type: ignore[attr-defined]
    restarted = create_app(store_client.app.state.settings, memory)  # type: ignore[attr-defined]
    with TestClient(restarted, headers=dict(store_client.headers)) as second:
        again = second.post("/v1/episodes", json=body, headers=key)
    assert again.json() == first.json() and again.headers["idempotent-replayed"] == "true"


class GatedExtractor:
    """The real extractor, held at a gate: a request that outlives the store timeout."""

    name = "gated"
    uses_candidates = False  # like the rule extractor it holds

    def __init__(self, inner: Extractor) -> None:
        self.inner = inner
        self.gate = threading.Event()

    def extract(self, episode: Episode, candidates: list[CandidateFact]) -> Extraction:
        self.gate.wait(60)
        return self.inner.extract(episode, candidates)


@pytest.fixture
def slow(store: GraphStore, embedder: Embedder,
         extractor: Extractor) -> Iterator[tuple[TestClient, GatedExtractor]]:
    gated = GatedExtractor(extractor)
    memory = Memory(store, gated, embedder)
    api_key = f"key-{uuid.uuid4().hex}"
    app = create_app(settings(api_keys={sha(api_key): f"t{api_key[-12:]}"},
                              store_timeout_seconds=0.5), memory)
    with TestClient(app, headers={"X-API-Key": api_key},
                    raise_server_exceptions=False) as client:
        yield client, gated
    gated.gate.set()
    memory.engine.close()


def _until_answered(client: TestClient, body: dict[str, Any], key: dict[str, str]) -> Any:
    for _ in range(600):
        response = client.post("/v1/episodes", json=body, headers=key)
        if response.status_code != 409:
            return response
        time.sleep(0.05)
    raise AssertionError("the first request never finished")


def test_a_retry_after_a_504_gets_the_real_answer(
        slow: tuple[TestClient, GatedExtractor], key: dict[str, str]) -> None:
    client, gated = slow
    body = {"scope": ALICE, "text": "I work at Acme."}
    timed_out = client.post("/v1/episodes", json=body, headers=key)
    assert_problem(timed_out, 504)  # ...but the work goes on
    busy = client.post("/v1/episodes", json=body, headers=key)
    assert_problem(busy, 409, "still being processed")
    assert busy.headers["retry-after"] == "1"

    gated.gate.set()
    answered = _until_answered(client, body, key)
    assert answered.status_code == 201, answered.text
    assert answered.headers["idempotent-replayed"] == "true"
    stats = client.get("/v1/memories/stats", params=ALICE).json()["stats"]
    assert stats["episodes"] == 1 and stats["current_facts"] == 1


class GatedEmbedder:
    """The real embedder, held at a gate until the test opens it."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        self.gate = threading.Event()
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> Any:
        self.gate.wait(60)
        self.calls += 1
        return self.inner.embed(texts)


def test_ready_only_once_the_models_are_warm(tmp_path: Any, embedder: Embedder,
                                             extractor: Extractor) -> None:
    from graphmem.store.embedded import EmbeddedStore

    gated = GatedEmbedder(embedder)
    memory = Memory(EmbeddedStore(tmp_path / "m.db", embedding_dim=384), extractor,
                    gated).open()
    app = create_app(settings(), memory)
    with TestClient(app, raise_server_exceptions=False) as client:
        assert_problem(client.get("/ready"), 503, "still loading")
        assert client.get("/health").status_code == 200
        gated.gate.set()
        assert app.state.warmed.wait(60)
        assert client.get("/ready").json() == {"status": "ready"}
        assert gated.calls >= 1  # the warm-up, before any request
    memory.close()


def test_ready_only_once_the_store_has_prepared_the_first_queries(
        tmp_path: Any, embedder: Embedder, extractor: Extractor) -> None:
    from graphmem.store.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path / "m.db", embedding_dim=384)
    gate, asked = threading.Event(), threading.Event()
    real = store.prepare_searches

    def prepare_searches(tenant: str, plans: list[ChannelPlan], *, parallel: int = 1) -> None:
        asked.set()
        gate.wait(60)
        real(tenant, plans, parallel=parallel)

    store.prepare_searches = prepare_searches  # type: ignore[method-assign]
    memory = Memory(store, extractor, embedder).open()
    app = create_app(settings(), memory)
    with TestClient(app, raise_server_exceptions=False) as client:
        assert asked.wait(60)  # the models are loaded; the store is being prepared
        assert_problem(client.get("/ready"), 503, "still loading")
        gate.set()
        assert app.state.warmed.wait(60)
        assert client.get("/ready").json() == {"status": "ready"}
    memory.close()


def test_ready_even_when_preparing_the_store_failed(
        tmp_path: Any, embedder: Embedder, extractor: Extractor,
        caplog: pytest.LogCaptureFixture) -> None:
    from graphmem.store.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path / "m.db", embedding_dim=384)

    def prepare_searches(tenant: str, plans: list[ChannelPlan], *, parallel: int = 1) -> None:
        raise StoreUnavailableError("the server went away")

    store.prepare_searches = prepare_searches  # type: ignore[method-assign]
    memory = Memory(store, extractor, embedder).open()
    app = create_app(settings(), memory)
    with caplog.at_level("WARNING", logger="graphmem.api"), \
            TestClient(app, raise_server_exceptions=False) as client:
        assert app.state.warmed.wait(60)  # only a head start: the first requests plan later
        assert client.get("/ready").json() == {"status": "ready"}
        assert client.post("/v1/memories/search", headers={"X-API-Key": KEY_A}, json={
            "scope": ALICE, "query": "anything?"}).status_code == 200
    assert "warming the store up failed" in caplog.text
    assert "the server went away" in caplog.text
    memory.close()


def test_every_post_documents_the_header(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    posts = [ops["post"] for ops in paths.values() if "post" in ops]
    assert len(posts) >= 10
    for post in posts:
        assert "Idempotency-Key" in [p["name"] for p in post["parameters"] if p["in"] == "header"]
        assert "409" in post["responses"]
