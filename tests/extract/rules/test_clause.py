"""Clause analysis as every rule sees it: objects under "no" (``build_clause``, ``dobjs``)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor

from .conftest import said, triples


@pytest.mark.parametrize(("text", "denied"), [
    ("I drink no coffee.", "coffee"),
    ("I speak no French.", "French"),
    ("I play no sports these days.", "sports"),
    ("We have no pets and no kids.", "pets"),
])
def test_a_clause_whose_objects_are_all_under_no_asserts_none_of_them(
        extractor: RuleExtractor, text: str, denied: str) -> None:
    """Each rule reads the clause as negated, not only the ones that check for "no"."""
    stated = {t for t in triples(said(extractor, text)) if t[3] == "assert"}
    assert not [t for t in stated if denied.lower() in t[2].lower()], stated


def test_an_object_under_no_beside_one_that_is_not_leaves_the_other_stated(
        extractor: RuleExtractor) -> None:
    found = triples(said(extractor, "I have no car and two bikes."))
    assert ("Bob", "OWNS", "two bikes", "assert") in found
    assert not [t for t in found if t[2] == "car" and t[3] == "assert"]


def test_a_value_set_beside_the_one_denied_is_stated(extractor: RuleExtractor) -> None:
    """"no framework, just Python": the appositive is what the clause is about."""
    assert ("Bob", "USES", "Python", "assert") in triples(
        said(extractor, "I use no framework, just Python."))


@pytest.mark.parametrize(("text", "long", "expected"), [
    ("I've been at Stripe since March.", False, True),
    ("I've been at Stripe for a year.", False, True),
    ("I've been in Lisbon for two years.", True, True),  # the NER's one token "two years"
    ("I've been in Lisbon for ages.", True, True),
    ("I've been in Lisbon for two weeks.", True, False),  # a stay, not a home
    ("I've been in Lisbon for two weeks.", False, True),
    ("I've been at Glastonbury twice.", False, False),  # an experience
    ("I've been at Acme for personal reasons.", False, False),
])
def test_a_clause_that_says_how_long_it_has_held(extractor: RuleExtractor, text: str, long: bool,
                                                 expected: bool) -> None:
    from graphmem.extract.rules.clause import lasting

    doc = extractor.load()(text)
    assert lasting(next(t for t in doc if t.dep_ == "ROOT"), long=long) is expected


@pytest.mark.parametrize(("text", "expected"), [
    ("My boss is Priya Nair, she wants the slides by Monday.",
     {("Bob", "REPORTS_TO", "Priya Nair", "assert")}),
    ("I moved to Ghent, my sister wants to visit in May.",
     {("Bob", "LIVES_IN", "Ghent", "assert")}),
    ("I moved to Lyon, my mum is asking if you know a good removals firm.",
     {("Bob", "LIVES_IN", "Lyon", "assert")}),  # not what she asks
    ("I live in Rome, I wish.", set()),  # what is wished comes after the verb, or is this
])
def test_a_clause_spliced_before_a_want_is_a_sentence_of_its_own(
        extractor: RuleExtractor, text: str, expected: set[tuple[str, str, str, str]]) -> None:
    found = {t for t in triples(said(extractor, text)) if t[1] in ("REPORTS_TO", "LIVES_IN")}
    assert found == expected
