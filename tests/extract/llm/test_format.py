"""Response-format negotiation: the ladder, and what goes over the wire on each rung."""

from __future__ import annotations

import logging

import pytest

from graphmem.errors import LLMError
from graphmem.extract.llm.format import FormatNegotiator, names_the_format
from tests.extract.fake_openai import (
    LLAMA_CPP_REFUSAL,
    OPENAI_REFUSAL,
    FakeOpenAI,
    Reply,
    ok,
    refusal,
    server_error,
    slow,
)
from tests.extract.llm.helpers import (
    ALICE_AT_ACME,
    FixedExtractor,
    Make,
    answer,
    episode,
    extract_concurrently,
    said,
)


# -- the negotiator on its own ------------------------------------------------------------
@pytest.mark.parametrize(("status", "message", "expected"), [
    (500, "response_format.type: Input should be 'text' or 'json_object'", True),
    (400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported", True),
    (422, "json_schema is not supported by this backend", True),
    (400, "Structured output is unavailable for this model", True),
    (500, "The server had an error while processing your request", False),
    (503, "response_format backend overloaded", False),  # a gateway error says nothing of the request
    (429, "response_format requests are rate limited", False),
    (404, "The model 'fake-model' does not exist", False),
    (200, "response_format", False),
])
def test_names_the_format(status: int, message: str, expected: bool) -> None:
    assert names_the_format(status, message) is expected


def test_the_ladder_is_walked_once_and_ends() -> None:
    negotiator = FormatNegotiator("auto")
    assert (negotiator.current, negotiator.settled) == ("json_schema", False)
    assert negotiator.refused("json_schema") == "json_object"
    assert negotiator.refused("json_object") == "prompt"
    assert negotiator.refused("prompt") is None
    negotiator.accepted("json_object")  # a late answer to an abandoned rung settles nothing
    assert not negotiator.settled
    negotiator.accepted("prompt")
    assert (negotiator.current, negotiator.settled) == ("prompt", True)


@pytest.mark.parametrize("mode", ["json_schema", "json_object", "prompt"])
def test_a_configured_format_is_never_stepped_down(mode: str) -> None:
    negotiator = FormatNegotiator(mode)  # type: ignore[arg-type]
    assert negotiator.current == mode and negotiator.settled
    assert negotiator.refused(mode) is None
    assert negotiator.current == mode


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match=r"response format must be auto.*'xml'"):
        FormatNegotiator("xml")  # type: ignore[arg-type]


# -- over the wire --------------------------------------------------------------------------
@pytest.mark.parametrize("refused", [LLAMA_CPP_REFUSAL, OPENAI_REFUSAL,
                                     refusal(422, "response_format: json_schema unsupported")],
                         ids=["llama-cpp-500", "openai-400", "422"])
def test_a_refused_json_schema_steps_to_json_object_once_whatever_the_status(
        server: FakeOpenAI, make: Make, refused: Reply) -> None:
    server.refuse["json_schema"] = refused
    server.script(ok(answer(said())), ok(answer(said(obj="Globex"))))
    extractor = make()

    first = extractor.extract(ALICE_AT_ACME, [])
    second = extractor.extract(episode(("Alice", "I moved to Globex.")), [])

    assert [f.object for f in first.facts + second.facts] == ["Acme", "Globex"]
    assert [r.format_type for r in server.requests] == ["json_schema", "json_object", "json_object"]
    json_object = server.requests[1].body["response_format"]
    assert json_object["type"] == "json_object" and json_object["schema"]["required"] == [
        "entities", "facts", "decisions", "language"]
    assert "JSON Schema" in server.requests[1].system
    usage = extractor.usage()
    assert (usage.calls, usage.retries, usage.failures) == (3, 0, 0)
    assert usage.response_format == "json_object"


def test_a_server_refusing_both_formats_gets_plain_json_in_the_prompt(
        server: FakeOpenAI, make: Make) -> None:
    server.refuse = {"json_schema": LLAMA_CPP_REFUSAL,
                     "json_object": refusal(400, "response_format is not supported")}
    server.script(ok(answer(said())), ok(answer(said(obj="Globex"))))
    extractor = make()

    extractor.extract(ALICE_AT_ACME, [])
    extractor.extract(ALICE_AT_ACME, [])

    assert [r.format_type for r in server.requests] == ["json_schema", "json_object", None, None]
    assert all("response_format" not in r.body for r in server.requests[2:])
    assert "Answer with JSON only" in server.requests[3].system
    assert extractor.usage().response_format == "prompt" and "'prompt'" in repr(extractor)


def test_a_plain_server_error_is_retried_not_taken_for_a_refusal(
        server: FakeOpenAI, make: Make) -> None:
    server.script(server_error(500), ok(answer(said())))
    extractor = make(max_retries=1)
    assert len(extractor.extract(ALICE_AT_ACME, []).facts) == 1
    assert [r.format_type for r in server.requests] == ["json_schema", "json_schema"]
    assert extractor.usage().response_format == "json_schema"


@pytest.mark.parametrize("mode", ["json_object", "prompt"])
def test_a_configured_format_is_sent_from_the_first_request(
        server: FakeOpenAI, make: Make, mode: str) -> None:
    make(response_format=mode).extract(ALICE_AT_ACME, [])
    [request] = server.requests
    assert request.format_type == (None if mode == "prompt" else mode)


def test_a_configured_format_that_is_refused_fails_clearly_without_stepping_down(
        server: FakeOpenAI, make: Make, caplog: pytest.LogCaptureFixture) -> None:
    server.refuse["json_schema"] = LLAMA_CPP_REFUSAL
    extractor = make(response_format="json_schema", fallback=FixedExtractor())

    with caplog.at_level(logging.WARNING, logger="graphmem.extract.llm"):
        extraction = extractor.extract(ALICE_AT_ACME, [])

    assert [r.format_type for r in server.requests] == ["json_schema"]  # no retries, no json_object
    assert [(f.predicate, f.object) for f in extraction.facts] == [("LIKES", "tea")]
    assert "refused response_format 'json_schema' (response format setting: json_schema)" in (
        extraction.warnings[0])
    [warning] = [r.getMessage() for r in caplog.records]
    assert "Input should be 'text' or 'json_object'" in warning


def test_a_refused_forced_format_without_fallback_raises(server: FakeOpenAI, make: Make) -> None:
    server.refuse["json_object"] = refusal(400, "response_format json_object is not supported")
    with pytest.raises(LLMError, match=r"refused response_format 'json_object'"):
        make(response_format="json_object").extract(ALICE_AT_ACME, [])


def test_concurrent_episodes_learn_the_refusal_once(server: FakeOpenAI, make: Make) -> None:
    server.refuse["json_schema"] = LLAMA_CPP_REFUSAL
    server.responder = lambda request: slow(0.05, answer())
    extractor = make(max_concurrency=4)
    extract_concurrently(extractor, ALICE_AT_ACME, 4)
    formats = [r.format_type for r in server.requests]
    assert formats.count("json_schema") == 1 and formats.count("json_object") == 4
