"""A home said in chat shorthand (families.chat.home)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


@pytest.mark.parametrize(("text", "expected"), [
    ("Copenhagen is where I live now, and honestly I love it.",
     ("Bob", "LIVES_IN", "Copenhagen", "assert")),
    ("been a Zurich resident for 2 years now!!", ("Bob", "LIVES_IN", "Zurich", "assert")),
    ("we moved, i'm a Lisbon ressident now", ("Bob", "LIVES_IN", "Lisbon", "assert")),  # a slip
    ("can you recommend a dentist? i'm Edinburgh-based", ("Bob", "LIVES_IN", "Edinburgh",
                                                          "assert")),
    ("so um new city, new me: I'm in Zurich now", ("Bob", "LIVES_IN", "Zurich", "assert")),
    ("New town: we're living in Leeds", ("Bob", "LIVES_IN", "Leeds", "assert")),
])
def test_a_home_said_in_shorthand(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", ["Paris was where I lived.",
                                  "I was a Paris resident for years.",
                                  "My sister is a Paris resident.",
                                  "My sister has been a Paris resident for years."])
def test_no_home_for_the_past_or_someone_else(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] in ("LIVES_IN", "PLAYS_SPORT", "DIET")}


@pytest.mark.parametrize(("text", "expected"), [
    ("My address is in Ghent now, so update the invoices",
     [("Bob", "LIVES_IN", "Ghent", "assert")]),
])
def test_the_town_an_address_is_in_is_home(extractor: RuleExtractor, text: str,
                                           expected: list[Triple]) -> None:
    found = triples(said(extractor, text))
    assert all(t in found for t in expected), found


@pytest.mark.parametrize("text", ["my place is in a mess"])
def test_no_home_where_a_place_is_in_no_town(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] in ("MAIN_LANGUAGE", "HAS_PHONE", "PLAYS_SPORT", "LIVES_IN")}


@pytest.mark.parametrize(("text", "expected"), [
    ("My new address is in Kota Kinabalu City, still unpacking",
     ("Bob", "LIVES_IN", "Kota Kinabalu City", "assert")),
    ("new apartment in Tallinn! finally moved", ("Bob", "LIVES_IN", "Tallinn", "assert")),
])
def test_a_new_address_or_flat_is_home(extractor: RuleExtractor, text: str,
                                       expected: Triple) -> None:
    assert expected in triples(said(extractor, text))
