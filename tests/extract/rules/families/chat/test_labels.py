"""A slot named as a label, then its value, in chat shorthand (families.chat.labels)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


@pytest.mark.parametrize(("text", "expected"), [
    ("switched phones: Nothing Phone 2. the glyph lights are silly",
     ("Bob", "HAS_PHONE", "Nothing Phone 2", "assert")),
    ("new phone: an Asus Zenfone 8, I really like small phones",
     ("Bob", "HAS_PHONE", "Asus Zenfone 8", "assert")),
    ("new phone, a Nokia X30. I wanted something repairable",
     ("Bob", "HAS_PHONE", "Nokia X30", "assert")),
    ("new title as of this week: engineering manager.",
     ("Bob", "JOB_TITLE", "engineering manager", "assert")),
])
def test_a_phone_or_title_after_its_label(extractor: RuleExtractor, text: str,
                                          expected: tuple[str, str, str, str]) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("new phone, honestly a pain to set up", "HAS_PHONE"),
])
def test_no_value_where_the_words_after_a_label_name_none(extractor: RuleExtractor, text: str,
                                                          predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[0] == "Bob" and t[1] == predicate}


@pytest.mark.parametrize(("text", "expected"), [
    ("Got a new manager this month: Yuki Tanaka.", ("Bob", "REPORTS_TO", "Yuki Tanaka", "assert")),
])
def test_a_manager_after_its_label(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("Changed my diet - pescatarian from now on.", ("Bob", "DIET", "pescatarian", "assert")),
])
def test_a_diet_after_its_label_and_a_dash(extractor: RuleExtractor, text: str,
                                           expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


def test_a_slot_label_before_a_clause_takes_the_clause_value(extractor: RuleExtractor) -> None:
    """"new city: I live in Montreal now" named the city "I live in Montreal"."""
    assert {t for t in triples(said(extractor, "new city: I live in Montreal now"))
            if t[1] == "LIVES_IN"} == {("Bob", "LIVES_IN", "Montreal", "assert")}


@pytest.mark.parametrize(("text", "expected"), [
    ("Day job: Airbus. Evenings: trying to finish a novel.", ("Bob", "WORKS_AT", "Airbus", "assert")),
])
def test_an_employer_after_its_label_in_passing(extractor: RuleExtractor, text: str,
                                                expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("fresh start, new diet: keto from now on.", ("Bob", "DIET", "keto", "assert")),
])
def test_a_diet_after_its_label_and_a_lead_in(extractor: RuleExtractor, text: str,
                                              expected: Triple) -> None:
    assert expected in triples(said(extractor, text))
