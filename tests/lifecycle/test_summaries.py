"""Session summaries: written when a session ends with substance, searchable, idempotent."""

from __future__ import annotations

import pytest

from graphmem.errors import NotFoundError
from graphmem.lifecycle.summaries import (
    ended_sessions,
    get_summary,
    latest_summaries,
    summarize_session,
)
from graphmem.memory import Memory
from graphmem.search.models import SearchRequest
from graphmem.store.base import FactQuery
from graphmem.temporal import TimeFilter
from tests.lifecycle.conftest import ALICE, Clock
from tests.lifecycle.helpers import chat

DOCKER = ("Hi!", "Hello Alice, how can I help?",
          "I work at Acme. Can you help me fix the Docker build? It keeps failing and I'm "
          "frustrated.", "Try setting the proxy environment variables.")
DOCKER_2 = ("That worked. Lesson learned: the Docker build needs proxy-env.", "Glad it works now.",
            "I still need to figure out the CI cache.")


def fact_count(memory: Memory, tenant: str) -> int:
    return len(memory.store.list_facts(tenant, FactQuery(
        scope_keys=[ALICE.key], limit=1000, time=TimeFilter(as_of=memory.clock()))))


def test_a_session_with_substance_is_summarised(memory: Memory, tenant: str,
                                                clock: Clock) -> None:
    chat(memory, tenant, *DOCKER, session="s1")
    clock.advance(minutes=5)
    chat(memory, tenant, *DOCKER_2, session="s1")
    assert ended_sessions(memory, tenant, ALICE) == []  # still going
    clock.advance(hours=1)
    assert ended_sessions(memory, tenant, ALICE) == ["s1"]
    before = fact_count(memory, tenant)

    summary = summarize_session(memory, tenant, ALICE, "s1")
    assert summary is not None
    assert summary.message_count == 7 and len(summary.episode_ids) == 2
    assert summary.topics[:2] == ["Docker", "Acme"]
    assert summary.intent == "Alice asked: Can you help me fix the Docker build?"
    assert summary.tone == "frustrated"
    assert summary.key_facts == ["Lesson for Docker: The Docker build needs proxy-env.",
                                 "Alice works at Acme."]
    assert summary.unresolved == ["I still need to figure out the CI cache."]
    assert summary.summary.startswith("Session on 2025-03-03: Alice talked about Docker, Acme")
    assert fact_count(memory, tenant) == before + 1  # the searchable SESSION_SUMMARY fact
    assert get_summary(memory, tenant, ALICE, "s1") == summary
    assert ended_sessions(memory, tenant, ALICE) == []

    hits = memory.search(tenant, SearchRequest(scope=ALICE, query="what was unresolved about CI?",
                                               include_turns=False)).results
    memory.engine.close()
    assert hits[0].id == summary.fact_id and hits[0].category is not None

    again = summarize_session(memory, tenant, ALICE, "s1")  # idempotent
    assert again == summary and fact_count(memory, tenant) == before + 1

    chat(memory, tenant, "Also, I'm moving to Berlin next month.", "Exciting!", session="s1")
    clock.advance(hours=1)
    assert ended_sessions(memory, tenant, ALICE) == ["s1"]  # it grew: summarise again, in place
    grown = summarize_session(memory, tenant, ALICE, "s1")
    assert grown is not None and grown.fact_id == summary.fact_id
    assert grown.message_count == 9 and grown.summary != summary.summary


def test_small_talk_and_short_sessions_are_not_summarised(memory: Memory, tenant: str) -> None:
    chat(memory, tenant, "Hi!", "Hello!", "Thanks, bye!", session="chit")
    chat(memory, tenant, "I work at Acme.", "Noted.", session="short")
    assert summarize_session(memory, tenant, ALICE, "chit") is None
    assert summarize_session(memory, tenant, ALICE, "short") is None
    with pytest.raises(NotFoundError, match="no episodes"):
        summarize_session(memory, tenant, ALICE, "nope")


def test_latest_summaries_newest_first(memory: Memory, tenant: str, clock: Clock) -> None:
    for i, city in enumerate(["Lisbon", "Porto", "Madrid"]):
        chat(memory, tenant, f"I am planning a trip to {city}.", "Nice!",
             f"What should I see in {city}?", "The old town.", session=f"s{i}")
        clock.advance(hours=2)
        assert summarize_session(memory, tenant, ALICE, f"s{i}") is not None
    latest = latest_summaries(memory, tenant, ALICE, 2)
    assert [s.session_id for s in latest] == ["s2", "s1"]
    assert "Madrid" in latest[0].summary
    assert latest_summaries(memory, tenant, ALICE, 0) == []
