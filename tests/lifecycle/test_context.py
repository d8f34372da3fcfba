"""The layered context under a time view: nothing first stated after ``as_of`` enters it.

Facts, raw excerpts, session summaries and the profile all obey the view: a
context built as of an earlier day carries the profile version and the
summaries written by then, and no turn said later. Both stores.
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.lifecycle.profile import refresh_profile
from graphmem.lifecycle.summaries import summarize_session
from graphmem.memory import Memory
from graphmem.search.context import Context, ContextRequest
from graphmem.store.base import FactQuery
from tests.lifecycle.conftest import ALICE, START, Clock
from tests.lifecycle.helpers import chat

QUESTION = "Where does Alice work, and which car does she drive?"


def _history(memory: Memory, tenant: str, clock: Clock) -> tuple[str, str]:
    """Acme and a Honda in March (summary, profile v1); Globex and a Subaru in April (v2)."""
    chat(memory, tenant, "I work at Acme.", "Nice.", "I drive a Honda Civic to work.", "Good car.",
         session="march")
    clock.advance(hours=1)
    early = summarize_session(memory, tenant, ALICE, "march")
    first = refresh_profile(memory, tenant, ALICE, force=True).profile.text
    clock.advance(days=30)
    chat(memory, tenant, "I work at Globex now.", "Congrats!",
         "I traded in my car for a Subaru Outback.", "Enjoy it.", session="april")
    clock.advance(hours=1)
    assert summarize_session(memory, tenant, ALICE, "april") is not None
    assert refresh_profile(memory, tenant, ALICE, force=True).changed
    assert early is not None
    return early.summary, first


def _context(memory: Memory, tenant: str, **view: datetime) -> Context:
    return memory.context(tenant, ContextRequest(scope=ALICE, message=QUESTION, **view))


def test_context_as_of_carries_only_what_was_stated_by_then(memory: Memory, tenant: str,
                                                             clock: Clock) -> None:
    early_summary, first_profile = _history(memory, tenant, clock)
    then = datetime(2025, 3, 10, tzinfo=UTC)

    now = _context(memory, tenant)
    assert "Globex" in now.prompt and now.profile != first_profile

    for view in ({"as_of": then}, {"as_known_at": then}):
        past = _context(memory, tenant, **view)
        assert "Acme" in past.prompt, view
        assert "Globex" not in past.prompt and "Subaru" not in past.prompt, (view, past.prompt)
        assert past.profile == first_profile and past.summaries == [early_summary]
        assert all(hit.valid_from is None or hit.valid_from <= then for hit in past.items)


def test_context_before_anything_was_said_is_empty(memory: Memory, tenant: str,
                                                   clock: Clock) -> None:
    _history(memory, tenant, clock)
    before = _context(memory, tenant, as_of=START.replace(year=2024))
    assert before.profile is None and before.summaries == []
    assert before.items == []
    assert "Acme" not in before.prompt and "Honda" not in before.prompt
    # nothing to say is an empty prompt, not a heading over nothing (seen by a new user)
    assert before.prompt == "" and before.tokens == 0


def test_include_history_shows_what_ended_before_as_of_but_nothing_later(
        memory: Memory, tenant: str, clock: Clock) -> None:
    _history(memory, tenant, clock)
    request = ContextRequest(scope=ALICE, message=QUESTION, include_history=True,
                             as_of=datetime(2025, 4, 20, tzinfo=UTC))
    built = memory.context(tenant, request)
    assert "Acme" in built.prompt and "Globex" in built.prompt
    assert "no longer true" in built.prompt


#: (when it was said, what was said, a word only that statement brings into a context)
STATEMENTS = [
    (datetime(2023, 1, 10, tzinfo=UTC), "I work at Acme.", "Acme"),
    (datetime(2023, 5, 3, tzinfo=UTC), "I moved to Lisbon last week.", "Lisbon"),
    (datetime(2023, 9, 20, tzinfo=UTC), "I adopted a cat named Miso.", "Miso"),
    (datetime(2024, 2, 12, tzinfo=UTC), "I work at Globex now.", "Globex"),
]


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(as_of=st.datetimes(min_value=datetime(2022, 6, 1), max_value=datetime(2024, 6, 1),
                          timezones=st.just(UTC)),
       include_history=st.booleans())
def test_no_context_line_was_first_stated_after_as_of(memory: Memory, tenant: str,
                                                      as_of: datetime,
                                                      include_history: bool) -> None:
    if not memory.list_facts(tenant, FactQuery(scope_keys=ALICE.visible_keys)):
        for when, text, _ in STATEMENTS:
            chat(memory, tenant, text, "I see.", at=when)
    built = memory.context(tenant, ContextRequest(
        scope=ALICE, message="Tell me about Alice's work, her home and her pets.",
        as_of=as_of, include_history=include_history))
    assert all(hit.valid_from is None or hit.valid_from <= as_of for hit in built.items)
    for when, _, word in STATEMENTS:
        if when > as_of:
            assert word not in built.prompt, (as_of, word, built.prompt)


def test_another_persons_facts_are_under_people_not_the_users_preferences(
        memory: Memory, tenant: str, clock: Clock) -> None:
    """A new user's context listed "Greg does golf as their sport." (her husband's) under
    Preferences, as if it were hers."""
    chat(memory, tenant, "My husband Greg plays golf every weekend.", "Fun!",
         "I love hiking and I live in Scottsdale.", "Nice.")
    built = memory.context(tenant, ContextRequest(scope=ALICE,
                                                  message="any ideas for a weekend trip?"))
    sections = {s.title: [h.text for h in s.items] for s in built.sections}
    assert any("Greg" in t and "golf" in t for t in sections.get("People", [])), sections
    assert not any("Greg" in t for t in sections.get("Preferences", [])), sections
    assert any("Alice" in t and "hiking" in t for t in sections.get("Preferences", [])), sections
