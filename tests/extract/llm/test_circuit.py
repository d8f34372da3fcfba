"""A broken endpoint is remembered: one warning, then episodes skip it for a while."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest

from graphmem.errors import LLMError
from graphmem.extract.llm.extractor import UNUSABLE_TO_TRIP, LLMExtractor
from graphmem.extract.llm.circuit import Circuit
from graphmem.extract.llm.queue import RetryQueue
from tests.extract.fake_openai import (
    FakeOpenAI,
    Reply,
    Request,
    Responder,
    malformed,
    ok,
    server_error,
)
from tests.extract.llm.helpers import ALICE_AT_ACME, KEY, FixedExtractor, Make, answer, episode, said


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_circuit_opens_once_stays_open_for_the_cooldown_and_closes_on_success() -> None:
    clock = Clock()
    circuit = Circuit(60.0, clock=clock)
    assert circuit.open_reason() is None
    assert circuit.trip("connection refused") is True
    assert circuit.trip("connection refused") is False  # already open: nothing new to log
    clock.now = 59.0
    assert circuit.open_reason() == "connection refused"
    clock.now = 60.0
    assert circuit.open_reason() is None  # half-open: the next episode tries
    assert circuit.trip("timed out") is True  # failed again: a new opening, logged again
    assert circuit.open_reason() == "timed out"
    circuit.close()
    assert circuit.open_reason() is None


def test_a_negative_cooldown_is_refused() -> None:
    with pytest.raises(ValueError, match=r"cooldown must be >= 0 seconds, got -1"):
        Circuit(-1)


def always(reply: Reply) -> Responder:
    def respond(request: Request) -> Reply:
        return reply
    return respond


def test_a_down_endpoint_costs_one_episode_of_retries_and_one_warning(
        server: FakeOpenAI, make: Make, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    server.responder = always(server_error(500))
    queue = RetryQueue(tmp_path / "retry.db")
    extractor = make(max_retries=2, fallback=FixedExtractor(), queue=queue)
    episodes = [episode(("Alice", f"Note {i}.")) for i in range(5)]

    with caplog.at_level(logging.DEBUG, logger="graphmem.extract.llm"):
        results = [extractor.extract(e, []) for e in episodes]

    assert len(server.requests) == 3  # the first episode's attempts; the others skip
    assert all([f.object for f in r.facts] == ["tea"] for r in results)
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1
    assert "server error (500)" in warnings[0] and "skip" in warnings[0] and "60s" in warnings[0]
    assert all("is skipped for 60s after it failed: " in r.warnings[0] and "server error (500)"
               in r.warnings[0] for r in results[1:])
    assert sorted(q.episode_id for q in queue.pending()) == sorted(e.id for e in episodes)
    usage = extractor.usage()
    assert (usage.calls, usage.failures, usage.skipped) == (3, 5, 4)


def test_a_refused_connection_opens_the_circuit(tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    extractor = LLMExtractor(f"http://127.0.0.1:{port}/v1", KEY, "m", max_retries=1, backoff=0.001,
                             fallback=FixedExtractor())
    with caplog.at_level(logging.WARNING, logger="graphmem.extract.llm"):
        for _ in range(3):
            extractor.extract(ALICE_AT_ACME, [])
    extractor.close()
    [warning] = [r.getMessage() for r in caplog.records]
    assert f"cannot reach http://127.0.0.1:{port}/v1" in warning
    assert extractor.usage().calls == 2 and extractor.usage().skipped == 2


def test_with_no_cooldown_every_episode_tries_again(server: FakeOpenAI, make: Make) -> None:
    server.script(server_error(), server_error(), ok(answer(said())))
    extractor = make(max_retries=0, circuit_cooldown=0.0, fallback=FixedExtractor())
    objects = [[f.object for f in extractor.extract(ALICE_AT_ACME, []).facts] for _ in range(3)]
    assert objects == [["tea"], ["tea"], ["Acme"]] and len(server.requests) == 3


def test_a_wrong_model_opens_the_circuit_too(server: FakeOpenAI, make: Make) -> None:
    server.responder = always(Reply(status=404, error="model 'm' not found"))
    extractor = make(fallback=FixedExtractor())
    for _ in range(3):
        extractor.extract(ALICE_AT_ACME, [])
    assert len(server.requests) == 1


def test_an_open_circuit_without_fallback_raises_at_once(server: FakeOpenAI, make: Make) -> None:
    server.responder = always(server_error(503))
    extractor = make(max_retries=0)
    with pytest.raises(LLMError, match=r"server error \(503\)"):
        extractor.extract(ALICE_AT_ACME, [])
    with pytest.raises(LLMError, match=r"is skipped for 60s after it failed"):
        extractor.extract(ALICE_AT_ACME, [])
    assert len(server.requests) == 1


def test_answers_unusable_episode_after_episode_open_the_circuit(
        server: FakeOpenAI, make: Make, caplog: pytest.LogCaptureFixture) -> None:
    server.responder = always(malformed())
    extractor = make(max_retries=0, fallback=FixedExtractor())

    with caplog.at_level(logging.WARNING, logger="graphmem.extract.llm"):
        for _ in range(UNUSABLE_TO_TRIP + 2):
            extractor.extract(ALICE_AT_ACME, [])

    assert len(server.requests) == UNUSABLE_TO_TRIP  # then skipped
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == UNUSABLE_TO_TRIP and all("not JSON" in w for w in warnings)
    assert "episodes skip" in warnings[-1]


def test_one_good_answer_resets_the_count_of_unusable_ones(server: FakeOpenAI, make: Make) -> None:
    bad = [malformed()] * (UNUSABLE_TO_TRIP - 1)
    server.script(*bad, ok(answer(said())), *bad, ok(answer(said())))
    extractor = make(max_retries=0, fallback=FixedExtractor())
    for _ in range(2 * UNUSABLE_TO_TRIP):
        extractor.extract(ALICE_AT_ACME, [])
    assert len(server.requests) == 2 * UNUSABLE_TO_TRIP and extractor.usage().skipped == 0
