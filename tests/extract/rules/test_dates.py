"""When facts hold: a date in the sentence beats the message's date; trips and todos get an end."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from graphmem.extract.rules import RuleExtractor
from graphmem.models import Category, Message
from tests.extract.rules.conftest import REF, episode, fact, said

# said on Wednesday 12 June 2024
CASES = [
    ("Our daughter Mia was born in September.", "HAS_CHILD", "Mia", date(2023, 9, 1)),
    ("My son Leo was born two weeks ago.", "HAS_CHILD", "Leo", date(2024, 5, 27)),
    ("I moved to Berlin last month.", "LIVES_IN", "Berlin", date(2024, 5, 1)),
    ("I was hired by Microsoft in September.", "WORKS_AT", "Microsoft", date(2023, 9, 1)),
    ("Started at Cyberdyne on Monday!", "WORKS_AT", "Cyberdyne", date(2024, 6, 10)),
    ("I've been living in Seattle since 2019.", "LIVES_IN", "Seattle", date(2019, 1, 1)),
    ("Sofia became my manager in January.", "REPORTS_TO", "Sofia", date(2024, 1, 1)),
    ("I joined Figma in March as a product manager.", "WORKS_AT", "Figma", date(2024, 3, 1)),
    ("I've been vegetarian since last March.", "DIET", "vegetarian", date(2024, 3, 1)),
]


@pytest.mark.parametrize(("text", "predicate", "obj", "start"), CASES,
                         ids=[c[0][:40] for c in CASES])
def test_sentence_date_wins(extractor: RuleExtractor, text: str, predicate: str, obj: str,
                            start: date) -> None:
    [fact] = [f for f in said(extractor, text).facts if f.predicate == predicate]
    assert fact.object == obj
    assert fact.valid_from is not None and fact.valid_from.date() == start


def test_a_span_that_includes_now_does_not_backdate(extractor: RuleExtractor) -> None:
    [fact] = said(extractor, "I went vegetarian this year.").facts
    assert fact.predicate == "DIET" and fact.valid_from is not None
    assert fact.valid_from.date() == date(2024, 6, 12)


def test_a_vague_duration_does_not_backdate(extractor: RuleExtractor) -> None:
    [fact] = said(extractor, "I've been vegetarian for a few weeks now.").facts
    assert fact.valid_from is not None and fact.valid_from.date() == date(2024, 6, 12)
    [exact] = said(extractor, "I've been vegan for three weeks.").facts
    assert exact.valid_from is not None and exact.valid_from.date() == date(2024, 5, 22)


def test_a_departure_is_dated_at_the_end_of_its_span(extractor: RuleExtractor) -> None:
    [left] = [f for f in said(extractor, "I left Google last month.").facts
              if f.action == "retract"]
    assert (left.predicate, left.object) == ("WORKS_AT", "Google")
    assert left.valid_from is not None and left.valid_from.date() == date(2024, 6, 1)


def test_trip_next_week_is_an_event_in_that_week(extractor: RuleExtractor) -> None:
    trip = fact(said(extractor, "I have a business trip to Tokyo next week.", speaker="Alice"),
                "TRAVELS_TO")
    assert trip.category is Category.EVENT
    assert trip.valid_from == datetime(2024, 6, 17, tzinfo=UTC)
    assert trip.valid_until == datetime(2024, 6, 24, tzinfo=UTC)
    assert trip.text == "Alice has a business trip to Tokyo in the week of 17 June 2024."


def test_switch_starts_at_the_stated_time(extractor: RuleExtractor) -> None:
    react = fact(said(extractor, "We switched from Vue 3 to React last month.", speaker="Alice"),
                 "USES_FRAMEWORK")
    assert react.valid_from == datetime(2024, 5, 1, tzinfo=UTC)
    assert react.text == "Alice switched from Vue 3 to React in May 2024."


def test_todo_due_date_goes_to_valid_until(extractor: RuleExtractor) -> None:
    todo = fact(said(extractor, "I need to send the report by Friday.", speaker="Alice"), "TODO")
    assert todo.category is Category.TODO
    assert todo.valid_from == REF
    assert todo.valid_until == datetime(2024, 6, 15, tzinfo=UTC)
    assert todo.text == "Alice needs to send the report by 14 June 2024."


def test_move_in_the_past_sets_valid_from(extractor: RuleExtractor) -> None:
    lives = fact(said(extractor, "I moved to Berlin two years ago.", speaker="Alice"), "LIVES_IN")
    assert lives.valid_from == datetime(2022, 1, 1, tzinfo=UTC)
    assert lives.text == "Alice moved to Berlin in 2022."


def test_without_a_time_the_message_timestamp_is_used(extractor: RuleExtractor) -> None:
    at = datetime(2024, 6, 1, 8, tzinfo=UTC)
    extraction = extractor.extract(episode(
        Message(id="m1", speaker="Alice", content="I live in Seattle.", timestamp=at)), [])
    assert fact(extraction, "LIVES_IN").valid_from == at
