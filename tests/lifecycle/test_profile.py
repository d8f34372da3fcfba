"""The profile narrative: empty for a new user, traced, versioned, regenerated when due."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.lifecycle.context import layered_context
from graphmem.lifecycle.profile import (
    current_profile,
    profile_due,
    profile_history,
    refresh_profile,
)
from graphmem.lifecycle.policy import ProfilePolicy
from graphmem.lifecycle.summaries import summarize_session
from graphmem.memory import Memory
from graphmem.ingest.inputs import EpisodeInput
from graphmem.models import Category, Message, Scope
from graphmem.search.context import ContextRequest
from tests.lifecycle.conftest import ALICE, Clock
from tests.lifecycle.helpers import add, chat


def seed(memory: Memory, tenant: str) -> None:
    add(memory, tenant, "WORKS_AT", "Acme", text="Alice works at Acme.",
        valid_from=datetime(2022, 1, 10, tzinfo=UTC))
    add(memory, tenant, "WORKS_AT", "Globex", text="Alice works at Globex.",
        valid_from=datetime(2024, 3, 4, tzinfo=UTC))
    add(memory, tenant, "LIKES", "hiking", text="Alice likes hiking.",
        category=Category.PREFERENCE)
    add(memory, tenant, "LESSON", "needs proxy-env", subject="Docker",
        text="Lesson for Docker: The Docker build needs proxy-env.", category=Category.LESSON)


def test_a_new_user_has_an_empty_profile(memory: Memory, tenant: str) -> None:
    bob = Scope(user_id="bob")
    profile = current_profile(memory, tenant, bob)
    assert (profile.text, profile.version, profile.generated_at) == ("", 0, None)
    refresh = refresh_profile(memory, tenant, bob)
    assert not refresh.changed and refresh.reason == "nothing known yet"
    assert profile_history(memory, tenant, bob) == []


def test_profile_keeps_the_trace_and_versions(memory: Memory, tenant: str, clock: Clock) -> None:
    seed(memory, tenant)
    assert profile_due(memory, tenant, ALICE) == "first profile"
    first = refresh_profile(memory, tenant, ALICE)
    assert first.changed and first.profile.version == 1
    assert first.profile.text == (
        "About Alice: Alice used to work at Acme, moved to Globex in March 2024.\n\n"
        "Preferences: Alice likes hiking.\n\n"
        "Skills and lessons: Lesson for Docker: The Docker build needs proxy-env.")
    assert refresh_profile(memory, tenant, ALICE).reason == "not due"

    # five new session summaries make it due; new information makes a new version
    add(memory, tenant, "LIVES_IN", "Berlin", text="Alice lives in Berlin.")
    for i in range(5):
        clock.advance(hours=1)
        chat(memory, tenant, f"I read chapter {i} of the Rust book.", "Nice.",
             "What comes after ownership and borrowing?", "Lifetimes.", session=f"s{i}")
        clock.advance(hours=1)
        assert summarize_session(memory, tenant, ALICE, f"s{i}") is not None
    assert profile_due(memory, tenant, ALICE) == "5 new session summaries"
    second = refresh_profile(memory, tenant, ALICE)
    assert second.changed and second.profile.version == 2
    assert "Alice lives in Berlin." in second.profile.text

    # seven days later with nothing new: due, but an identical text is not a new version
    clock.advance(days=7)
    assert profile_due(memory, tenant, ALICE) == "older than 7 days"
    same = refresh_profile(memory, tenant, ALICE)
    assert not same.changed and same.reason == "older than 7 days; unchanged"
    forced = refresh_profile(memory, tenant, ALICE, force=True)
    assert not forced.changed

    history = profile_history(memory, tenant, ALICE)
    assert [p.version for p in history] == [1, 2]
    assert history[0].text == first.profile.text  # older versions are kept
    assert current_profile(memory, tenant, ALICE) == history[1]


def test_layered_context_carries_profile_and_summaries(memory: Memory, tenant: str,
                                                        clock: Clock) -> None:
    seed(memory, tenant)
    chat(memory, tenant, "I am planning a trip to Lisbon in May.", "Lovely!",
         "Which neighbourhood should I stay in?", "Alfama is charming.", session="trip")
    clock.advance(hours=1)
    summary = summarize_session(memory, tenant, ALICE, "trip")
    refresh_profile(memory, tenant, ALICE)
    context = layered_context(memory, tenant, ContextRequest(scope=ALICE,
                                                             message="Where does Alice work?"))
    memory.engine.close()
    assert context.profile is not None and context.profile.startswith("About Alice:")
    assert summary is not None and context.summaries == [summary.summary]
    assert context.prompt.index("### Profile") < context.prompt.index("### Recent session")
    assert "Alice used to work at Acme, moved to Globex in March 2024." in context.prompt
    # the profile is a stored fact too, and recall finds it: it is said once, in its layer
    assert context.prompt.count(context.profile.splitlines()[0]) == 1, context.prompt


def test_a_users_profile_is_about_the_user(memory: Memory, tenant: str, clock: Clock) -> None:
    chat(memory, tenant, "I live in Lisbon.", "Nice.", "I work at Initech as a data scientist.",
         "Great.", "I'm allergic to peanuts.", "Noted.", session="me")
    clock.advance(days=30)  # what she says of others later must not crowd her own facts out
    chat(memory, tenant, "My sister Melanie lives in Paris.", "Lovely.",
         "Melanie works at Microsoft.", "Cool.", "My friend Sam lives in Rome.", "Nice.",
         "Sam works at Google.", "Ok.", "Mel moved to Rome.", "Ok.", session="others")
    clock.advance(hours=1)
    text = refresh_profile(memory, tenant, ALICE,
                           policy=ProfilePolicy(max_sentences_per_paragraph=5)).profile.text
    about = text.split("\n\n")[0]
    for own in ("Alice lives in Lisbon.", "Alice works at Initech.",
                "Alice works as a data scientist.", "Alice is allergic to peanuts."):
        assert own in about, text
    # other people only as her relations, after her own facts
    assert about.endswith("Alice's relations: sister Melanie, friend Sam."), text
    for theirs in ("Paris", "Microsoft", "Rome", "Google"):
        assert theirs not in text, text


def test_a_slip_corrected_in_words_leaves_no_trace(memory: Memory, tenant: str) -> None:
    """"Actually it was Lisbon, not Porto": Alice never lived in Porto, so the profile does
    not say she used to."""
    for month, text in ((1, "I moved to Porto."), (2, "Actually it was Lisbon, not Porto.")):
        memory.add_episode(tenant, EpisodeInput(scope=ALICE, messages=[
            Message(speaker="Alice", content=text, timestamp=datetime(2024, month, 5, tzinfo=UTC))]))
    text = refresh_profile(memory, tenant, ALICE).profile.text
    assert "Alice lives in Lisbon." in text or "Alice moved to Lisbon" in text, text
    assert "Porto" not in text
