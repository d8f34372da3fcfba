"""A question states nothing but what it takes as given about the speaker."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


@pytest.mark.parametrize(("text", "expected"), [
    ("how do I transfer my photos to my new Pixel 9?", ("Bob", "HAS_PHONE", "Pixel 9", "assert")),
    ("Any tips for asking my boss Renata for a raise?",
     ("Bob", "REPORTS_TO", "Renata", "assert")),
    ("which roof box fits my new Skoda Octavia?", ("Bob", "DRIVES", "Skoda Octavia", "assert")),
    ("Should I cc my manager Ines Duarte on this?",
     ("Bob", "REPORTS_TO", "Ines Duarte", "assert")),
])
def test_a_question_tells_the_speakers_manager_or_new_phone_or_car(
        extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert triples(said(extractor, text)) == {expected}


@pytest.mark.parametrize("text", [
    "Should I buy a Pixel 9?",  # nothing is the speaker's yet
    "Is my boss Renata or Ines?",  # a choice, not a given
    "Do you think my new boss will like me?",  # no one named
    "Should I ask my sister's boss Karl for a job?",  # someone else's manager
    "What do you know about Halvorsen Shipping?",
    "Is my new Pixel 9 waterproof?",  # the tagger's "Pixel 9 waterproof" is not the name
])
def test_a_question_states_nothing_else(extractor: RuleExtractor, text: str) -> None:
    found = triples(said(extractor, text))
    assert not [t for t in found if t[3] == "assert" and t[1] in (
        "HAS_PHONE", "REPORTS_TO", "DRIVES", "WORKS_AT")], found
