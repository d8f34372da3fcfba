"""The LLM extractor against a real local OpenAI-compatible server (llama-cpp-python).

The extractor talks to the server through a relay that records every exchange, so the
tests read the wire: which ``response_format`` was asked for and what the server
answered, the ``max_tokens`` of each request and the tokens the server spent, and
whether the model's JSON parses into the response schema. A 270M model's extraction
quality is not the point; the protocol is. Time per episode is bounded by
``max_tokens`` (checked against the server's own usage), never by timing asserts.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pydantic import ValidationError

from graphmem.embed.base import Embedder
from graphmem.extract.base import Extraction
from graphmem.extract.llm import LLMExtractor
from graphmem.extract.llm.prompt import LLMResponse, UnusableResponse, read_response
from graphmem.extract.rules import RuleExtractor
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Episode
from tests.extract.fake_openai import Exchange, FakeOpenAI, relay
from tests.extract.llm.helpers import ALICE, episode
from tests.llm_server_fixtures import LLMServer
from tests.store_fixtures import open_store

pytestmark = pytest.mark.llm_server

#: llama-cpp-python rebuilds its grammar sampler for every token and runs it over Gemma's
#: 262k-token vocabulary: about a second per token on a busy 2-core machine. Budgets stay
#: small; the protocol, not the model's prose, is under test.
MAX_TOKENS = 48
TIMEOUT = 900.0  # generous: the budget, not the clock, bounds an episode

ALICE_AT_ACME = episode(("Alice", "I work at Acme as a data engineer."))
#: What the rule extractor, the fallback, finds in ALICE_AT_ACME.
RULES_SAY = [("WORKS_AT", "Acme"), ("JOB_TITLE", "data engineer")]
BOB = episode(("Bob", "My sister Carol just adopted a cat named Miso."))


class Wire:
    """The relay in front of the real server, and what went through it."""

    def __init__(self, relay_server: FakeOpenAI, exchanges: list[Exchange]) -> None:
        self.server = relay_server
        self.exchanges = exchanges

    @property
    def base_url(self) -> str:
        return self.server.base_url

    def formats(self) -> list[tuple[str | None, int]]:
        return [(e.request.format_type, e.status) for e in self.exchanges]


@pytest.fixture
def wire(llm_server: LLMServer) -> Iterator[Wire]:
    exchanges: list[Exchange] = []
    with FakeOpenAI(relay(llm_server.base_url, exchanges, TIMEOUT)) as relay_server:
        yield Wire(relay_server, exchanges)


def extractor(wire: Wire, llm_server: LLMServer, **settings: Any) -> LLMExtractor:
    defaults: dict[str, Any] = {"timeout": TIMEOUT, "max_retries": 1, "backoff": 0.01,
                                "max_tokens": MAX_TOKENS, "fallback": RuleExtractor()}
    # no key, as the README's local-server commands leave GRAPHMEM_LLM_API_KEY unset
    return LLMExtractor(wire.base_url, "", llm_server.model, **(defaults | settings))


def check_answer(exchange: Exchange, ep: Episode, extraction: Extraction,
                 budget: int = MAX_TOKENS) -> None:
    """Bounded by the request's budget; schema-valid facts when the JSON is whole; else the rules."""
    sent = exchange.request.body
    assert 0 < exchange.body["usage"]["completion_tokens"] <= sent["max_tokens"] <= budget
    try:
        response = LLMResponse.model_validate_json(exchange.content)
    except ValidationError:  # cut off at the budget, or not the schema: the rules answered
        assert extraction.warnings[0].startswith("LLM extraction failed: ")
        assert "facts extracted by the fallback extractor 'rules'" in extraction.warnings
        if exchange.finish_reason == "length":
            assert f"cut off at max_tokens={sent['max_tokens']}" in extraction.warnings[0]
        return
    assert extraction == read_response(exchange.content, ep, [])
    dropped = [w for w in extraction.warnings if w.startswith("LLM fact ") and " dropped" in w]
    assert len(extraction.facts) + len(dropped) == len(response.facts)


def test_json_object_is_negotiated_once_and_every_answer_is_bounded(
        wire: Wire, llm_server: LLMServer) -> None:
    llm = extractor(wire, llm_server)
    extractions = [llm.extract(ep, []) for ep in (ALICE_AT_ACME, BOB)]

    # llama-cpp-python refuses json_schema with a 500 naming response_format: asked once
    assert wire.formats() == [("json_schema", 500), ("json_object", 200), ("json_object", 200)]
    assert "response_format" in json.dumps(wire.exchanges[0].body)
    assert llm.usage().response_format == "json_object"
    for exchange, ep, extraction in zip(wire.exchanges[1:], (ALICE_AT_ACME, BOB), extractions,
                                        strict=True):
        # the schema goes along, capped by the budget, and the server turns it into a grammar:
        # the answer is well-formed and ends within the budget (the caps leave room for the
        # envelope only at this budget), so the LLM's extraction is used, not the rules'
        schema = exchange.request.body["response_format"]["schema"]
        assert schema["properties"]["facts"]["maxItems"] == 0
        assert exchange.finish_reason == "stop"
        check_answer(exchange, ep, extraction)
        assert not any(w.startswith("LLM extraction failed") for w in extraction.warnings)
    llm.close()


def test_a_budget_with_room_for_a_fact_gets_a_whole_answer_whose_facts_are_read(
        wire: Wire, llm_server: LLMServer) -> None:
    budget = 300  # the caps allow two entities and one fact, strings of bounded length
    llm = extractor(wire, llm_server, response_format="json_object", max_tokens=budget)
    extraction = llm.extract(ALICE_AT_ACME, [])

    for exchange in wire.exchanges:
        props = exchange.request.body["response_format"]["schema"]["properties"]
        assert (props["entities"]["maxItems"], props["facts"]["maxItems"]) == (2, 1)
        assert exchange.finish_reason == "stop"  # the grammar closed it within the budget
        LLMResponse.model_validate_json(exchange.content)  # whole, and in the schema
    last = wire.exchanges[-1]
    try:
        read = read_response(last.content, ALICE_AT_ACME, [])
    except UnusableResponse as err:
        # a 270M model often copies the schema's descriptions as its fact: asked again,
        # then the rules answer, saying why
        assert len(wire.exchanges) == 2  # max_retries=1
        assert str(err) in extraction.warnings[0]
        assert "facts extracted by the fallback extractor 'rules'" in extraction.warnings
    else:
        assert extraction == read
        check_answer(last, ALICE_AT_ACME, extraction, budget)
    llm.close()


def test_plain_json_in_the_prompt_is_bounded_and_read_or_replaced(
        wire: Wire, llm_server: LLMServer) -> None:
    llm = extractor(wire, llm_server, response_format="prompt", max_retries=0)
    extraction = llm.extract(ALICE_AT_ACME, [])

    [exchange] = wire.exchanges
    assert "response_format" not in exchange.request.body
    assert "Answer with JSON only" in exchange.request.body["messages"][0]["content"]
    check_answer(exchange, ALICE_AT_ACME, extraction)
    llm.close()


def test_a_forced_json_schema_falls_back_to_the_rules_once_with_one_warning(
        wire: Wire, llm_server: LLMServer, caplog: pytest.LogCaptureFixture) -> None:
    llm = extractor(wire, llm_server, response_format="json_schema")

    with caplog.at_level(logging.WARNING, logger="graphmem.extract.llm"):
        first = llm.extract(ALICE_AT_ACME, [])
        second = llm.extract(BOB, [])

    assert wire.formats() == [("json_schema", 500)]  # no retries, and the circuit spared BOB
    [warning] = [r.getMessage() for r in caplog.records]
    assert "refused response_format 'json_schema'" in warning
    assert "Input should be 'text' or 'json_object'" in warning
    assert [(f.predicate, f.object) for f in first.facts] == RULES_SAY
    assert "facts extracted by the fallback extractor 'rules'" in first.warnings
    assert "is skipped for 60s" in second.warnings[0]
    assert llm.usage().skipped == 1
    llm.close()


def test_an_episode_cut_off_at_its_budget_is_stored_with_the_rules_facts(
        wire: Wire, llm_server: LLMServer, tmp_path: Path, request: pytest.FixtureRequest,
        embedder: Embedder) -> None:
    store = open_store("embedded", tmp_path, request)
    llm = extractor(wire, llm_server, response_format="json_object", max_tokens=8)
    result = Ingestor(store, llm, embedder).ingest("acme", EpisodeInput(
        scope=ALICE, messages=ALICE_AT_ACME.messages))

    [exchange] = wire.exchanges
    assert exchange.request.body["max_tokens"] == 8
    assert exchange.finish_reason == "length" and exchange.body["usage"]["completion_tokens"] == 8
    assert result.warnings[0] == "LLM extraction failed: the answer was cut off at max_tokens=8"
    assert [(f.predicate, f.object_name) for f in result.created] == RULES_SAY
    assert {f.subject_name for f in result.created} == {"Alice"}
    assert store.get_episode("acme", str(result.episode_id)) is not None
    llm.close()
    store.close()
