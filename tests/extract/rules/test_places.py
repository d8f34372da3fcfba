"""Places typed in lower case (extract.rules.places): written as names before parsing,
from GeoNames' real list, never an everyday word or a first name."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from graphmem.extract.rules.places import PlaceNames
from tests.extract.rules.conftest import said, triples


@pytest.fixture(scope="module")
def places() -> PlaceNames:
    return PlaceNames()


@pytest.mark.parametrize(("text", "written"), [
    ("i live in leeds", "i live in Leeds"),
    ("moved to new york from cardiff", "moved to New York from Cardiff"),
    ("we relocated to cardiff last month", "we relocated to Cardiff last month"),
])
def test_a_known_place_after_a_preposition_is_written_as_a_name(places: PlaceNames, text: str,
                                                                written: str) -> None:
    assert places.capitalised(text) == written


@pytest.mark.parametrize("text", [
    "i am in reading group tonight", "back to normal food", "a weekend in bath",
    "i sent it to charlotte", "in love with my new flat", "I live in Leeds", "headed to man united",
])
def test_words_names_and_capitalised_text_are_left_alone(places: PlaceNames, text: str) -> None:
    assert places.capitalised(text) == text


@pytest.mark.parametrize(("text", "place"), [
    ("i live in leeds", "Leeds"), ("we relocated to cardiff last month", "Cardiff"),
    ("moved to york last week", "York"),
    # a town whose name has marked letters, typed without them ("Kraków", "Malmö")
    ("i live in krakow now", "Krakow"), ("we moved to malmo in june", "Malmo"),
])
def test_a_home_typed_in_lower_case_is_read(extractor: RuleExtractor, text: str,
                                            place: str) -> None:
    """Seen by a new user: "i live in leeds" stored nothing, so "moved to york" later
    left Leeds current."""
    assert ("Bob", "LIVES_IN", place, "assert") in triples(said(extractor, text))
