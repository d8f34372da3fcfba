"""LLMExtractor over real HTTP against the scripted server in ``fake_openai``."""

from __future__ import annotations

import itertools
import json
import logging
import time
import traceback
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem.embed.base import Embedder
from graphmem.errors import LLMError
from graphmem.extract.base import SELF
from graphmem.extract.llm import LLMExtractor
from graphmem.extract.llm.prompt import (
    LLMResponse,
    UnusableResponse,
    normalize_predicate,
    read_response,
    strict_json_schema,
)
from graphmem.extract.llm.queue import RetryQueue
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Category, Message
from graphmem.store.base import FactQuery, GraphStore
from graphmem.temporal import TimeFilter
from tests.extract.fake_openai import (
    FakeOpenAI,
    Reply,
    Request,
    malformed,
    ok,
    rate_limited,
    server_error,
    slow,
)
from tests.extract.llm.helpers import (
    ALICE,
    ALICE_AT_ACME,
    KEY,
    WHEN,
    FixedExtractor,
    Make,
    answer,
    candidate,
    episode,
    extract_concurrently,
    said,
)


# -- one call, mapped ---------------------------------------------------------------
def test_a_good_answer_becomes_an_extraction_in_one_call(server: FakeOpenAI, make: Make) -> None:
    server.script(ok(answer(
        said(valid_from="2024-02"),
        said(predicate="JOB_TITLE", obj="data engineer", category="fact", cardinality="one"),
        entities=[{"name": "Acme", "type": "Organization", "aliases": ["Acme Inc."]}])))
    extractor = make()

    extraction = extractor.extract(ALICE_AT_ACME, [])

    assert len(server.requests) == 1
    assert [(f.subject, f.predicate, f.object) for f in extraction.facts] == [
        ("Alice", "WORKS_AT", "Acme"), ("Alice", "JOB_TITLE", "data engineer")]
    first = extraction.facts[0]
    assert first.valid_from == datetime(2024, 2, 1, tzinfo=UTC)
    assert first.message_id == "m1" and first.category is Category.FACT
    assert extraction.entities[0].model_dump() == {"name": "Acme", "type": "organization",
                                                   "aliases": ["Acme Inc."]}
    assert extraction.language == "en" and extraction.warnings == []

    body = server.requests[0].body
    assert body["model"] == "fake-model" and body["temperature"] == 0.0
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["strict"] is True
    sent = server.requests[0].episode
    assert sent["messages"] == [{"id": "m1", "speaker": "Alice", "role": "user",
                                 "timestamp": WHEN.isoformat(),
                                 "content": "I work at Acme now, as a data engineer."}]
    assert sent["reference_time"] == WHEN.isoformat() and sent["existing_facts"] == []
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"

    usage = extractor.usage()
    assert (usage.calls, usage.retries, usage.failures) == (1, 0, 0)
    assert usage.prompt_tokens == server.usage_sent[0]["prompt_tokens"] > 0
    assert usage.completion_tokens == server.usage_sent[0]["completion_tokens"] > 0


def test_each_episode_costs_exactly_one_call(server: FakeOpenAI, make: Make) -> None:
    extractor = make()
    for i in range(5):
        extractor.extract(episode(("Alice", f"Note number {i}.")), [])
    assert len(server.requests) == 5
    assert extractor.usage().calls == 5 and extractor.usage().retries == 0


def test_prompt_says_whose_name_is_the_subject_and_which_language_to_keep(
        server: FakeOpenAI, make: Make) -> None:
    make().extract(ALICE_AT_ACME, [])
    system = server.requests[0].system
    assert "speaker's name exactly as given" in system and '"SELF"' in system
    assert "never translate" in system and "PREFERRED_NAME (one)" in system


def test_first_person_subject_becomes_the_speaker(server: FakeOpenAI, make: Make) -> None:
    server.script(ok(answer(said(subject="I", message_id="m2"), said(subject="me", message_id=None))))
    conversation = episode(("Bob", "Hi!"), ("Alice", "I work at Acme."))
    facts = make().extract(conversation, []).facts
    assert [f.subject for f in facts] == ["Alice", SELF]


# -- retries --------------------------------------------------------------------------
def test_a_429_is_retried_after_retry_after(server: FakeOpenAI, make: Make) -> None:
    server.script(rate_limited("0.2"), ok(answer(said())))
    extractor = make(backoff=30.0)  # so only honouring Retry-After can finish quickly

    started = time.monotonic()
    extraction = extractor.extract(ALICE_AT_ACME, [])
    elapsed = time.monotonic() - started

    assert len(extraction.facts) == 1
    assert len(server.requests) == 2
    assert 0.2 <= elapsed < 5
    usage = extractor.usage()
    assert (usage.calls, usage.retries, usage.failures) == (2, 1, 0)


def test_retry_after_is_bounded(server: FakeOpenAI, make: Make) -> None:
    server.script(rate_limited("3600"), ok(answer()))
    started = time.monotonic()
    make(max_backoff=0.05).extract(ALICE_AT_ACME, [])
    assert time.monotonic() - started < 5
    assert len(server.requests) == 2


def test_server_errors_fail_after_max_retries_plus_one_calls(server: FakeOpenAI, make: Make) -> None:
    server.script(*[server_error(500), server_error(503), server_error(502)])
    extractor = make(max_retries=2)

    with pytest.raises(LLMError, match=r"failed 3 time\(s\); last: server error \(502\)"):
        extractor.extract(ALICE_AT_ACME, [])

    assert len(server.requests) == 3
    usage = extractor.usage()
    assert (usage.calls, usage.retries, usage.failures) == (3, 2, 1)


def test_other_client_errors_are_not_retried(server: FakeOpenAI, make: Make) -> None:
    server.script(Reply(status=404, error="The model 'fake-model' does not exist"))
    with pytest.raises(LLMError, match=r"refused the request \(404\).*does not exist"):
        make().extract(ALICE_AT_ACME, [])
    assert len(server.requests) == 1


def test_a_timeout_is_an_llm_error(server: FakeOpenAI, make: Make) -> None:
    server.script(slow(3.0))
    extractor = make(timeout=0.3, max_retries=0)
    started = time.monotonic()
    with pytest.raises(LLMError, match=r"no answer within 0.3s"):
        extractor.extract(ALICE_AT_ACME, [])
    assert time.monotonic() - started < 2.5
    assert len(server.requests) == 1


def test_a_timeout_then_an_answer_is_retried(server: FakeOpenAI, make: Make) -> None:
    server.script(slow(3.0), ok(answer(said())))
    extraction = make(timeout=0.3, max_retries=1).extract(ALICE_AT_ACME, [])
    assert len(extraction.facts) == 1 and len(server.requests) == 2


# -- unusable answers -------------------------------------------------------------------
def test_malformed_json_is_an_llm_error_after_the_retries(server: FakeOpenAI, make: Make) -> None:
    server.script(malformed(), malformed())
    extractor = make(max_retries=1)
    with pytest.raises(LLMError, match=r"failed 2 time\(s\); last: the answer is not JSON"):
        extractor.extract(ALICE_AT_ACME, [])
    assert len(server.requests) == 2


def test_malformed_then_good_json_recovers(server: FakeOpenAI, make: Make) -> None:
    server.script(malformed(), ok(answer(said())))
    extractor = make(max_retries=1)
    assert len(extractor.extract(ALICE_AT_ACME, []).facts) == 1
    assert extractor.usage().retries == 1


def test_a_wrong_top_level_is_an_llm_error(server: FakeOpenAI, make: Make) -> None:
    server.script(ok({"facts": "none"}), ok(["not", "an", "object"]))  # type: ignore[arg-type]
    with pytest.raises(LLMError, match=r"the answer is not an extraction"):
        make(max_retries=1).extract(ALICE_AT_ACME, [])


def test_a_fenced_answer_is_read(server: FakeOpenAI, make: Make) -> None:
    server.script(ok("```json\n" + json.dumps(answer(said())) + "\n```"))
    assert len(make().extract(ALICE_AT_ACME, []).facts) == 1


def test_failed_episode_is_queued(server: FakeOpenAI, make: Make, tmp_path: Path) -> None:
    queue = RetryQueue(tmp_path / "retry.db")
    server.script(malformed())
    with pytest.raises(LLMError, match=r"not JSON.*\(queued for re-extraction\)$"):
        make(max_retries=0, queue=queue).extract(ALICE_AT_ACME, [])
    [entry] = queue.pending()
    assert (entry.tenant, entry.episode_id) == ("acme", ALICE_AT_ACME.id)
    assert "not JSON" in entry.reason


def test_a_broken_queue_is_reported_not_raised(server: FakeOpenAI, make: Make,
                                               tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory")
    server.script(malformed())
    with pytest.raises(LLMError, match=r"NOT queued for re-extraction: cannot open"):
        make(max_retries=0, queue=RetryQueue(tmp_path / "file" / "retry.db")).extract(
            ALICE_AT_ACME, [])


def test_fallback_answers_when_the_llm_fails_and_the_episode_is_still_queued(
        server: FakeOpenAI, make: Make, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    queue = RetryQueue(tmp_path / "retry.db")
    server.script(malformed())
    extractor = make(max_retries=0, queue=queue, fallback=FixedExtractor())

    with caplog.at_level(logging.WARNING, logger="graphmem.extract.llm"):
        extraction = extractor.extract(ALICE_AT_ACME, [])

    assert [(f.predicate, f.object) for f in extraction.facts] == [("LIKES", "tea")]
    assert extraction.warnings[1:] == ["queued for re-extraction",
                                       "facts extracted by the fallback extractor 'fixed'"]
    [warning] = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert "facts from 'fixed' instead" in warning and "the answer is not JSON" in warning
    assert [e.episode_id for e in queue.pending()] == [ALICE_AT_ACME.id]
    assert extractor.usage().failures == 1


def test_an_invalid_fact_is_dropped_and_the_others_kept(server: FakeOpenAI, make: Make) -> None:
    server.script(ok(answer(
        said(),                                        # 0 kept
        said(category="mood"),                         # 1 not a category
        said(predicate="lives in", obj="Berlin"),      # 2 normalised to LIVES_IN
        said(predicate="喜欢", obj="茶"),               # 3 no ASCII predicate can be made of it
        said(importance=1.7),                          # 4 out of range
        said(predicate="HAS_PET", obj="Rex", valid_from="last spring"),  # 5 kept, date dropped
        {"subject": "Alice"},                          # 6 missing nearly everything
    )))
    extraction = make().extract(ALICE_AT_ACME, [])

    assert [(f.predicate, f.object) for f in extraction.facts] == [
        ("WORKS_AT", "Acme"), ("LIVES_IN", "Berlin"), ("HAS_PET", "Rex")]
    assert extraction.facts[2].valid_from is None
    dropped = [w for w in extraction.warnings if "dropped" in w]
    assert [w.split(" dropped")[0] for w in dropped] == [
        "LLM fact 1", "LLM fact 3", "LLM fact 4", "LLM fact 6"]
    assert any("'last spring' is not ISO 8601" in w for w in extraction.warnings)
    assert len(server.requests) == 1


# -- structured output fallback -----------------------------------------------------------
def test_strict_schema_is_closed_and_complete() -> None:
    schema = strict_json_schema(LLMResponse)
    text = json.dumps(schema)
    assert "$ref" not in text and '"default"' not in text and '"title"' not in text

    def objects(node: Any) -> Iterator[dict[str, Any]]:
        if isinstance(node, dict):
            if node.get("type") == "object":
                yield node
            for value in node.values():
                yield from objects(value)
        elif isinstance(node, list):
            for value in node:
                yield from objects(value)

    found = list(objects(schema))
    assert len(found) == 4  # the response, an entity, a fact, a decision
    for node in found:
        assert node["additionalProperties"] is False
        assert node["required"] == list(node["properties"])
    fact = schema["properties"]["facts"]["items"]["properties"]
    assert set(fact["category"]["enum"]) == {c.value for c in Category}
    assert fact["valid_from"]["anyOf"] == [{"type": "string"}, {"type": "null"}]


@pytest.mark.parametrize(("raw", "expected"), [
    ("WORKS_AT", "WORKS_AT"), ("works at", "WORKS_AT"), ("worksAt", "WORKS_AT"),
    ("has-pet", "HAS_PET"), ("  likes ", "LIKES"), ("ＬＩＫＥＳ", "LIKES"),
    ("喜欢", None), ("2ND_JOB", None), ("", None), ("A" * 65, None),
])
def test_normalize_predicate(raw: str, expected: str | None) -> None:
    assert normalize_predicate(raw) == expected


# -- candidates -------------------------------------------------------------------------
def test_decisions_are_mapped_and_only_shown_candidates_count(server: FakeOpenAI, make: Make) -> None:
    shown = [candidate("fact_old", "Initech"), candidate("fact_same", "Acme"),
             candidate("fact_gone", "Vue")]
    server.script(ok(answer(
        said(category="mood"),  # 0 dropped
        said(obj="Globex"),     # 1 -> index 0 in the extraction
        decisions=[
            {"fact_id": "fact_old", "decision": "superseded", "by_fact_index": 1},
            {"fact_id": "fact_same", "decision": "duplicate", "by_fact_index": 0},  # a dropped fact
            {"fact_id": "fact_gone", "decision": "retracted", "by_fact_index": None},
            {"fact_id": "fact_invented", "decision": "retracted", "by_fact_index": None},
            {"fact_id": "fact_old", "decision": "keep", "by_fact_index": None},
            {"fact_id": "fact_same", "decision": "maybe", "by_fact_index": None},
        ])))
    extraction = make().extract(ALICE_AT_ACME, shown)

    assert [(d.fact_id, d.decision, d.by_fact_index) for d in extraction.decisions] == [
        ("fact_old", "superseded", 0), ("fact_gone", "retracted", None)]
    assert any("'fact_invented' was not a candidate" in w for w in extraction.warnings)
    assert any("already decided" in w for w in extraction.warnings)
    sent = server.requests[0].episode["existing_facts"]
    assert [(c["id"], c["predicate"], c["object"]) for c in sent] == [
        ("fact_old", "WORKS_AT", "Initech"), ("fact_same", "WORKS_AT", "Acme"),
        ("fact_gone", "WORKS_AT", "Vue")]


# -- Chinese ----------------------------------------------------------------------------
PREFERRED = "别叫我小王，叫我王总"
WANG = answer(
    said(subject="王伟", predicate="PREFERRED_NAME", obj="王总", category="preference",
         text="王伟希望别人叫他王总，而不是小王。"),
    entities=[{"name": "王伟", "type": "person", "aliases": ["小王", "王总"]}],
    language="zh-CN")


def test_chinese_round_trip(server: FakeOpenAI, make: Make) -> None:
    server.script(ok(WANG))
    extraction = make().extract(episode(("王伟", PREFERRED)), [])

    [fact] = extraction.facts
    assert (fact.subject, fact.predicate, fact.object) == ("王伟", "PREFERRED_NAME", "王总")
    assert fact.text == "王伟希望别人叫他王总，而不是小王。"
    assert extraction.entities[0].aliases == ["小王", "王总"]
    assert extraction.language == "zh"
    assert server.requests[0].episode["messages"][0]["content"] == PREFERRED
    assert server.requests[0].raw.decode("utf-8")  # the body is valid UTF-8


def test_language_is_guessed_when_the_model_omits_it(server: FakeOpenAI, make: Make) -> None:
    server.script(ok({"facts": []}))
    assert make().extract(episode(("王伟", PREFERRED)), []).language == "zh"


# -- the key ----------------------------------------------------------------------------
def test_the_api_key_never_shows(server: FakeOpenAI, make: Make, tmp_path: Path,
                                 caplog: pytest.LogCaptureFixture) -> None:
    queue = RetryQueue(tmp_path / "retry.db")
    server.script(Reply(status=401, error="Incorrect API key", echo_auth=True),
                  Reply(status=500, error="oops", echo_auth=True))
    extractor = make(queue=queue, max_retries=0)

    with caplog.at_level(logging.DEBUG), pytest.raises(LLMError) as refused:
        extractor.extract(ALICE_AT_ACME, [])
    with caplog.at_level(logging.DEBUG), pytest.raises(LLMError) as failed:
        extractor.extract(ALICE_AT_ACME, [])

    for err in (refused.value, failed.value):
        assert "***" in str(err)
        assert KEY not in "".join(traceback.format_exception(err))
    assert KEY not in repr(extractor) and KEY not in str(extractor)
    assert KEY not in caplog.text
    assert all(KEY not in e.reason for e in queue.pending())


# -- concurrency ------------------------------------------------------------------------
def test_concurrent_calls_are_bounded(server: FakeOpenAI, make: Make) -> None:
    # The first call is held for seconds (the fake server answers the others meanwhile), so
    # the second, started with it, is in flight beside it however the threads are scheduled;
    # the rest are held long enough that a third would overlap them were the bound not kept.
    arrived = itertools.count()

    def held(request: Request) -> Reply:
        return slow(3.0 if next(arrived) == 0 else 0.1)

    server.responder = held
    extractor = make(max_concurrency=2)
    extract_concurrently(extractor, ALICE_AT_ACME, 6)
    assert len(server.requests) == 6
    assert server.max_in_flight == 2
    assert extractor.usage().calls == 6


def test_read_response_needs_no_server() -> None:
    extraction = read_response(json.dumps(answer(said())), ALICE_AT_ACME, [])
    assert extraction.facts[0].object == "Acme"


def test_facts_a_model_too_small_for_the_task_writes_are_dropped() -> None:
    """What gemma3-270m answered on a real server: the message as subject and predicate,
    the schema's description as object. Such facts go; an answer of nothing else is
    unusable, so the extractor asks again or falls back to the rules."""
    message = ALICE_AT_ACME.messages[0].content
    echo = said(subject=message.rstrip("."), predicate=message.upper().replace(" ", "_")[:60],
                obj="a short value; empty only to retract the current value")
    copied = said(obj="A short value; empty only to retract the current value")
    long_predicate = said(predicate="ALICE_SAYS_SHE_WORKS_AT_THE_COMPANY")
    with pytest.raises(UnusableResponse, match="none of its 3 facts could be used"):
        read_response(json.dumps(answer(echo, copied, long_predicate)), ALICE_AT_ACME, [])
    mixed = read_response(json.dumps(answer(copied, said(obj="Globex"))), ALICE_AT_ACME, [])
    assert [f.object for f in mixed.facts] == ["Globex"]
    assert mixed.warnings == ["LLM fact 0 dropped: its object is the schema's own description"]


# -- through the real pipeline ------------------------------------------------------------
def current(store: GraphStore, tenant: str, **time: Any) -> set[tuple[str, str, str]]:
    facts = store.list_facts(tenant, FactQuery(scope_keys=ALICE.visible_keys, time=TimeFilter(**time)))
    return {(f.subject_name, f.predicate, f.object_name) for f in facts}


def conversation(*lines: tuple[str, str], at: datetime = WHEN) -> EpisodeInput:
    return EpisodeInput(scope=ALICE, messages=[Message(speaker=s, content=t, timestamp=at)
                                               for s, t in lines])


def test_pipeline_stores_the_llm_facts(tenant: str, server: FakeOpenAI, make: Make, store: GraphStore,
                                       embedder: Embedder) -> None:
    server.script(ok(answer(said(message_id=None),
                            entities=[{"name": "Acme", "type": "organization", "aliases": []}])))
    ingestor = Ingestor(store, make(), embedder)

    result = ingestor.ingest(tenant, conversation(("Alice", "I work at Acme now.")))

    assert len(server.requests) == 1
    assert [(f.subject_name, f.predicate, f.object_name) for f in result.created] == [
        ("Alice", "WORKS_AT", "Acme")]
    assert current(store, tenant) == {("Alice", "WORKS_AT", "Acme")}
    stored = store.get_facts(tenant, [result.created[0].id])[0]
    assert stored.embedding is not None and len(stored.embedding) == 384
    assert stored.episode_ids == [result.episode_id]


def test_pipeline_applies_the_llm_verdict_on_a_candidate(tenant: str, 
        server: FakeOpenAI, make: Make, store: GraphStore, embedder: Embedder) -> None:
    def judge(request: Request) -> Reply:
        existing = request.episode["existing_facts"]
        if not existing:
            return ok(answer(said(message_id=None)))
        return ok(answer(decisions=[{"fact_id": existing[0]["id"], "decision": "retracted",
                                     "by_fact_index": None}]))

    server.responder = judge
    ingestor = Ingestor(store, make(), embedder)
    first = ingestor.ingest(tenant, conversation(("Alice", "I work at Acme now.")))
    second = ingestor.ingest(tenant, conversation(("Alice", "I quit Acme last week."),
                                                  at=datetime(2024, 6, 1, tzinfo=UTC)))

    shown = server.requests[1].episode["existing_facts"]
    assert [c["id"] for c in shown] == [first.created[0].id]
    assert [f.id for f in second.retracted] == [first.created[0].id]
    assert current(store, tenant) == set()


def test_pipeline_keeps_chinese_end_to_end(tenant: str, server: FakeOpenAI, make: Make, store: GraphStore,
                                           embedder: Embedder) -> None:
    server.script(ok(WANG))
    result = Ingestor(store, make(), embedder).ingest(tenant, conversation(("王伟", PREFERRED)))
    assert result.language == "zh"
    assert current(store, tenant) == {("王伟", "PREFERRED_NAME", "王总")}
    stored = store.get_episode(tenant, str(result.episode_id))
    assert stored is not None and stored.messages[0].content == PREFERRED


def test_a_failing_llm_leaves_the_episode_stored_without_facts(tenant: str, 
        server: FakeOpenAI, make: Make, store: GraphStore, embedder: Embedder,
        tmp_path: Path) -> None:
    queue = RetryQueue(tmp_path / "retry.db")
    server.script(server_error(), server_error())
    ingestor = Ingestor(store, make(max_retries=1, queue=queue), embedder)

    result = ingestor.ingest(tenant, conversation(("Alice", "I work at Acme now.")))

    assert result.created == [] and result.entities == []
    assert any("extraction failed, episode stored without facts" in w
               and "(queued for re-extraction)" in w for w in result.warnings)
    assert store.get_episode(tenant, str(result.episode_id)) is not None
    stats = store.stats(tenant, ALICE.visible_keys, datetime.now(UTC))
    assert (stats.episodes, stats.entities, sum(stats.facts_by_status.values())) == (1, 0, 0)
    assert [e.episode_id for e in queue.pending()] == [result.episode_id]
    assert len(server.requests) == 2


def test_retrieve_compare_act_updates_one_fact_and_deletes_another_by_id(
        tenant: str, server: FakeOpenAI, make: Make, store: GraphStore, embedder: Embedder) -> None:
    """The speaker's stored facts go to the model with their ids, even when the episode's
    words match none of them; its verdicts are applied by id: one fact replaced by a new
    value (linked to it), one ended, one kept."""
    def judge(request: Request) -> Reply:
        existing = {(c["predicate"], c["object"]): c["id"] for c in request.episode["existing_facts"]}
        if not existing:
            return ok(answer(  # texts that share no word with the second episode
                said(message_id=None, text="Employed by Acme."),
                said(predicate="LIKES", obj="coffee", cardinality="many", message_id=None,
                     text="Drinks coffee daily."),
                said(predicate="LIVES_IN", obj="Berlin", message_id=None, text="Resides in Berlin.")))
        return ok(answer(said(obj="Globex", message_id=None), decisions=[
            {"fact_id": existing[("WORKS_AT", "Acme")], "decision": "superseded", "by_fact_index": 0},
            {"fact_id": existing[("LIKES", "coffee")], "decision": "retracted", "by_fact_index": None},
            {"fact_id": existing[("LIVES_IN", "Berlin")], "decision": "keep", "by_fact_index": None},
        ]))

    server.responder = judge
    ingestor = Ingestor(store, make(), embedder)
    first = ingestor.ingest(tenant, conversation(("Alice", "Acme hired me; I drink coffee daily; Berlin.")))
    later = datetime(2024, 6, 1, tzinfo=UTC)
    second = ingestor.ingest(tenant, conversation(("Alice", "Big news, new employer, no more caffeine!"),
                                                  at=later))

    ids = {f.predicate: f.id for f in first.created}
    shown = {c["id"] for c in server.requests[1].episode["existing_facts"]}
    assert set(ids.values()) <= shown
    [globex] = second.created
    acme, coffee, berlin = store.get_facts(tenant, [ids["WORKS_AT"], ids["LIKES"], ids["LIVES_IN"]])
    assert (acme.superseded_by, acme.valid_until, acme.retraction) == (globex.id, later, None)
    assert coffee.retraction is not None and coffee.valid_until == later
    assert coffee.superseded_by is None
    assert berlin.valid_until is None
    assert [f.id for f in second.superseded] == [acme.id]
    assert [f.id for f in second.retracted] == [coffee.id]
    assert current(store, tenant) == {("Alice", "WORKS_AT", "Globex"), ("Alice", "LIVES_IN", "Berlin")}


def test_a_superseding_value_elsewhere_ends_the_old_fact(
        tenant: str, server: FakeOpenAI, make: Make, store: GraphStore, embedder: Embedder) -> None:
    """'Superseded' by a value the timeline cannot link (a many-valued relation) still ends it."""
    def judge(request: Request) -> Reply:
        existing = request.episode["existing_facts"]
        if not existing:
            return ok(answer(said(predicate="USES", obj="Vue", cardinality="many", message_id=None)))
        return ok(answer(said(predicate="USES", obj="React", cardinality="many", message_id=None),
                         decisions=[{"fact_id": existing[0]["id"], "decision": "superseded",
                                     "by_fact_index": 0}]))

    server.responder = judge
    ingestor = Ingestor(store, make(), embedder)
    ingestor.ingest(tenant, conversation(("Alice", "I build with Vue.")))
    ingestor.ingest(tenant, conversation(("Alice", "Moved the frontend over."),
                                         at=datetime(2024, 6, 1, tzinfo=UTC)))
    assert current(store, tenant) == {("Alice", "USES", "React")}


def test_dates_no_store_can_hold_are_dropped_and_others_read_as_utc(server: FakeOpenAI,
                                                                     make: Make) -> None:
    server.script(ok(answer(
        said(valid_from="9999-12-31T23:00:00-05:00"),      # 0 leaves the calendar in UTC
        said(valid_from="2024-01-01T00:00:00+19:00"),      # 1 an offset no store accepts
        said(valid_from="2024-03-01T02:00:00+02:00"),      # 2 kept, in UTC
        said(valid_from="2024-03-01 00:00"),               # 3 naive: UTC
    )))
    extraction = make().extract(ALICE_AT_ACME, [])

    starts = [f.valid_from for f in extraction.facts]
    assert starts == [None, None, datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 3, 1, tzinfo=UTC)]
    assert all(s is None or s.tzinfo is UTC for s in starts)
    ignored = [w for w in extraction.warnings if "was ignored" in w]
    assert [w.split(":")[0] for w in ignored] == ["LLM fact 0", "LLM fact 1"]
