"""With an LLM configured it writes summaries and profiles; when it fails, the template does."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem.errors import LLMError
from graphmem.factory import build_writer
from graphmem.lifecycle.llm_writer import LLMWriter
from graphmem.lifecycle.profile import refresh_profile
from graphmem.lifecycle.summaries import summarize_session
from graphmem.lifecycle.writer import ProfileDigest, TemplateWriter
from graphmem.memory import Memory
from graphmem.settings import Settings
from tests.extract.fake_openai import FakeOpenAI, malformed, ok, server_error
from tests.lifecycle.conftest import ALICE, Clock
from tests.lifecycle.helpers import add, chat

SUMMARY = {"summary": "Alice planned a Lisbon trip with the assistant.", "topics": ["Lisbon"],
           "intent": "plan a trip", "tone": "positive", "key_facts": ["Alice works at Acme."],
           "unresolved": ["where to stay"]}


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def session(memory: Memory, tenant: str, clock: Clock) -> None:
    chat(memory, tenant, "I work at Acme.", "Nice.", "Help me plan a trip to Lisbon!",
         "Happy to.", session="s1")
    clock.advance(hours=1)


def test_llm_writes_the_summary(memory: Memory, tenant: str, clock: Clock,
                                server: FakeOpenAI) -> None:
    session(memory, tenant, clock)
    server.script(ok(SUMMARY))
    writer = LLMWriter(server.base_url, "test-key", "fake-model", max_retries=0)
    summary = summarize_session(memory, tenant, ALICE, "s1", writer=writer)
    assert summary is not None
    assert (summary.summary, summary.tone, summary.written_by) == (
        SUMMARY["summary"], "positive", "llm/fake-model")
    [request] = server.requests
    assert request.body["response_format"] == {"type": "json_object"}
    assert "Help me plan a trip to Lisbon!" in request.body["messages"][1]["content"]
    writer.close()


@pytest.mark.parametrize("reply", [server_error(), malformed(), ok({"summary": ""})])
def test_a_failing_llm_falls_back_to_the_template(memory: Memory, tenant: str, clock: Clock,
                                                  server: FakeOpenAI, reply: object) -> None:
    session(memory, tenant, clock)
    server.script(reply)  # type: ignore[arg-type]
    writer = LLMWriter(server.base_url, "test-key", "fake-model", max_retries=0)
    summary = summarize_session(memory, tenant, ALICE, "s1", writer=writer)
    assert summary is not None and summary.written_by == "template"
    assert summary.summary.startswith("Session on 2025-03-03: Alice talked about")
    writer.close()


def test_llm_writes_the_profile(memory: Memory, tenant: str, server: FakeOpenAI) -> None:
    add(memory, tenant, "WORKS_AT", "Acme", text="Alice works at Acme.")
    server.script(ok({"profile": "Alice is an engineer at Acme."}))
    writer = LLMWriter(server.base_url, "secret-key", "fake-model", max_retries=0)
    refreshed = refresh_profile(memory, tenant, ALICE, writer=writer)
    assert refreshed.profile.text == "Alice is an engineer at Acme."
    assert "Alice works at Acme." in server.requests[0].body["messages"][1]["content"]
    server.script(server_error())
    with pytest.raises(LLMError) as caught:
        writer.write_profile(ProfileDigest(owner="Alice", sections=[]))
    assert "secret-key" not in str(caught.value)
    writer.close()


def test_build_writer_follows_the_settings() -> None:
    assert isinstance(build_writer(Settings(extractor="rules")), TemplateWriter)
    llm = build_writer(Settings(extractor="llm", llm_model="m", llm_base_url="http://x/v1"))
    assert isinstance(llm, LLMWriter) and llm.name == "llm/m"
