"""Trips, visits and events (families.events)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.cases import ONE_PER_RULE
from tests.extract.rules.conftest import Triple, family_cases, said, triples


@family_cases(ONE_PER_RULE["events"])
def test_events_rules(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "I attend a class every Thursday at the community centre.",  # was "planning a class"
    "She attends church on Sundays."])
def test_a_habit_of_attending_is_no_plan(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "PLANS"}


@pytest.mark.parametrize("text", ["I'm attending a conference in Berlin next week.",
                                  "I attend the conference next week."])  # not a habit
def test_attending_ahead_is_still_a_plan(extractor: RuleExtractor, text: str) -> None:
    assert ("Bob", "PLANS", "conference", "assert") in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "town"), [
    ("Got back from Lyon with Ines yesterday.", "Lyon"),  # Lyon: tagged a firm
    ("Got back from Paris with Priya.", "Paris"),  # Priya: tagged a town
])
def test_who_one_came_back_with_is_no_place_visited(extractor: RuleExtractor, text: str,
                                                    town: str) -> None:
    visited = {t[2] for t in triples(said(extractor, text)) if t[1] == "HAS_VISITED"}
    assert visited == {town}
