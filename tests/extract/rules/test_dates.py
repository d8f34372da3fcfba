"""A date inside the sentence beats the message's date: births, moves, jobs, events."""

from __future__ import annotations

from datetime import date

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import said

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
