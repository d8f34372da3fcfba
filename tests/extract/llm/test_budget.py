"""The answer budget: every request carries ``max_tokens``, sized by the episode, capped;
a grammar schema is capped so a well-formed answer fits it."""

from __future__ import annotations

import json
import logging

import pytest

from graphmem.extract.llm.budget import BUDGET_FLOOR, answer_budget, item_caps
from tests.extract.fake_openai import FakeOpenAI, Reply, ok
from tests.extract.llm.helpers import (
    ALICE_AT_ACME,
    FixedExtractor,
    Make,
    answer,
    candidate,
    episode,
    said,
)


def test_every_request_carries_a_budget_that_grows_with_the_episode(
        server: FakeOpenAI, make: Make) -> None:
    short = episode(("Alice", "I work at Acme."))
    long = episode(*[("Alice", f"Sentence {i} about my week, my work and my family.")
                     for i in range(40)])
    extractor = make()

    extractor.extract(short, [])
    extractor.extract(long, [])
    extractor.extract(short, [candidate(f"fact_{i}") for i in range(5)])

    budgets = [r.body["max_tokens"] for r in server.requests]
    assert budgets == [answer_budget(short, [], 4096), answer_budget(long, [], 4096),
                       answer_budget(short, [candidate(f"fact_{i}") for i in range(5)], 4096)]
    assert BUDGET_FLOOR < budgets[0] < budgets[2] < budgets[1]


def test_the_budget_never_exceeds_the_cap(server: FakeOpenAI, make: Make) -> None:
    huge = episode(*[("Alice", "word " * 200) for _ in range(30)])
    make(max_tokens=300).extract(huge, [])
    assert server.requests[0].body["max_tokens"] == 300


def test_every_request_carries_a_timeout(server: FakeOpenAI, make: Make) -> None:
    make(timeout=7.5).extract(ALICE_AT_ACME, [])
    # the client sends its read timeout as a header; the server sees a bounded request
    assert server.requests[0].headers.get("x-stainless-read-timeout") == "7.5"


def test_an_answer_cut_off_at_the_budget_is_not_retried_and_falls_back(
        server: FakeOpenAI, make: Make, caplog: pytest.LogCaptureFixture) -> None:
    server.script(Reply(content='{"entities": [], "facts": [{"subj', finish_reason="length"),
                  ok(answer(said())))
    extractor = make(max_retries=2, fallback=FixedExtractor())

    with caplog.at_level(logging.WARNING, logger="graphmem.extract.llm"):
        extraction = extractor.extract(ALICE_AT_ACME, [])

    assert len(server.requests) == 1  # the same request would be cut at the same place
    budget = server.requests[0].body["max_tokens"]
    assert extraction.warnings[0] == (f"LLM extraction failed: the answer was cut off at "
                                      f"max_tokens={budget}")
    assert [f.object for f in extraction.facts] == ["tea"]
    assert len(caplog.records) == 1
    # an answer problem is the episode's, not the endpoint's: the next episode is sent
    assert len(extractor.extract(ALICE_AT_ACME, []).facts) == 1 and len(server.requests) == 2


def test_max_tokens_must_be_positive() -> None:
    from graphmem.extract.llm import LLMExtractor

    with pytest.raises(ValueError, match=r"max_tokens must be >= 1, got 0"):
        LLMExtractor("http://127.0.0.1:9/v1", "key", "m", max_tokens=0)


def test_a_grammar_schema_is_capped_by_the_budget_and_a_strict_one_is_not(
        server: FakeOpenAI, make: Make) -> None:
    shown = [candidate(f"fact_{i}") for i in range(2)]
    make(response_format="json_object").extract(ALICE_AT_ACME, shown)
    make(response_format="json_object", max_tokens=48).extract(ALICE_AT_ACME, shown)
    make().extract(ALICE_AT_ACME, shown)

    roomy, tight, strict = (r.body for r in server.requests)
    for body in (roomy, tight):
        caps = item_caps(body["max_tokens"], len(shown))
        props = body["response_format"]["schema"]["properties"]
        assert {name: props[name]["maxItems"] for name in caps} == caps
        assert props["language"]["maxLength"] == 8
        fact = props["facts"]["items"]["properties"]
        assert fact["text"]["maxLength"] == 200 and fact["object"]["maxLength"] == 60
        assert fact["message_id"]["anyOf"][0]["maxLength"] == 80
    assert item_caps(roomy["max_tokens"], 2)["facts"] >= 2  # a short episode still has room
    assert item_caps(tight["max_tokens"], 2) == {"entities": 0, "facts": 0, "decisions": 0}
    assert "maxItems" not in json.dumps(strict["response_format"])  # OpenAI's strict subset
