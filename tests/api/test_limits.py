"""Body size (413), rate limit (429 + Retry-After) and store timeout (504)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from fastapi.testclient import TestClient

from api.app import create_app
from api.limits import TokenBuckets, too_deep
from graphmem.embed.base import Embedder
from graphmem.extract.llm import LLMExtractor
from graphmem.memory import Memory
from tests.api.conftest import ALICE, KEY_A, KEY_B, assert_problem, open_memory, settings
from tests.extract.fake_openai import FakeOpenAI, slow


def test_token_bucket_refills_over_time() -> None:
    now = [0.0]
    buckets = TokenBuckets(60, clock=lambda: now[0])  # one a second, bursts of 60
    assert all(buckets.take("k") == 0 for _ in range(60))
    assert buckets.take("k") == 1.0
    assert buckets.take("other") == 0
    now[0] = 2.5
    assert buckets.take("k") == 0 and buckets.take("k") == 0
    assert 0 < buckets.take("k") <= 1


def test_token_buckets_stay_bounded() -> None:
    now = [0.0]
    buckets = TokenBuckets(60, max_keys=10, clock=lambda: now[0])
    for i in range(10):
        buckets.take(f"k{i}")
    now[0] = 100.0  # all refilled
    buckets.take("new")
    assert len(buckets._buckets) == 1


def test_rate_limit_is_per_key_with_retry_after(memory: Memory) -> None:
    app = create_app(settings(rate_limit_per_minute=3), memory)
    with TestClient(app, headers={"X-API-Key": KEY_A}, raise_server_exceptions=False) as a:
        for _ in range(3):
            assert a.get("/v1/memories", params=ALICE).status_code == 200
        limited = a.get("/v1/memories", params=ALICE)
        assert_problem(limited, 429, "rate limit")
        assert int(limited.headers["retry-after"]) >= 1
        assert a.get("/health").status_code == 200  # probes are not limited
        b = TestClient(app, headers={"X-API-Key": KEY_B})
        assert b.get("/v1/memories", params=ALICE).status_code == 200


def test_huge_body_is_413(client: TestClient) -> None:
    huge = b'{"scope": {"user_id": "alice"}, "text": "' + b"x" * 1_100_000 + b'"}'
    response = client.post("/v1/episodes", content=huge,
                           headers={"content-type": "application/json"})
    assert_problem(response, 413, "larger than 1000000 bytes")


def test_huge_chunked_body_is_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"scope": {"user_id": "alice"}, "text": "'
        for _ in range(200):
            yield b"x" * 10_000
        yield b'"}'

    response = client.post("/v1/episodes", content=chunks(),
                           headers={"content-type": "application/json"})
    assert_problem(response, 413)


def test_slow_store_is_504(memory: Memory) -> None:
    app = create_app(settings(store_timeout_seconds=0.000_001), memory)
    with TestClient(app, headers={"X-API-Key": KEY_A}, raise_server_exceptions=False) as client:
        response = client.post("/v1/memories/search", json={"scope": ALICE, "query": "anything"})
    assert_problem(response, 504, "did not answer within")


def test_an_ingestion_waits_for_a_slow_llm_not_just_the_store(
        tmp_path: Path, embedder: Embedder) -> None:
    """A model that answers after a second is within its own timeout: the episode is
    stored and answered (201), not cut off by the store's half-second timeout (504)."""
    with FakeOpenAI() as server:
        server.script(slow(1.0))
        extractor = LLMExtractor(server.base_url, "", "local", timeout=5.0, max_retries=0)
        memory = open_memory(tmp_path / "m.db", embedder, extractor)
        app = create_app(settings(store_timeout_seconds=0.5, extractor="llm", llm_timeout=5.0,
                                  llm_max_retries=0), memory)
        try:
            with TestClient(app, headers={"X-API-Key": KEY_A}) as client:
                made = client.post("/v1/episodes", json={"scope": ALICE, "text": "I live in Oslo."})
        finally:
            memory.close()
    assert made.status_code == 201, made.text
    assert len(server.requests) == 1


def test_json_depth_is_measured_outside_strings_and_names_the_field() -> None:
    assert too_deep(b'{"a": 1, "doc": {"x": [[1]]}}', 3) == "doc"
    assert too_deep(b'{"a": 1, "doc": {"x": [[1]]}}', 4) is None
    assert too_deep(b'{"s": "[[[[[[ {{{{", "t": "\\\\\\"[[[["}', 2) is None  # brackets in strings
    assert too_deep(b'[[[[1]]]]', 3) == "body"
    unterminated = b'{"a": "' + b'\\"[' * 10_000
    assert too_deep(unterminated, 3) is None  # no string end: the parser will refuse it


def test_a_deep_body_is_422_on_any_route(client: TestClient) -> None:
    deep = '{"scope": {"user_id": "alice"}, "query": "x", "recent_messages": ' + "[" * 200 + \
        "]" * 200 + "}"
    response = client.post("/v1/memories/search", content=deep,
                           headers={"Content-Type": "application/json"})
    assert_problem(response, 422, "recent_messages: JSON nested deeper than 128 levels")
