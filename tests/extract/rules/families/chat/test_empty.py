"""A slot said to be empty, in chat shorthand (families.chat.empty)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


@pytest.mark.parametrize(("text", "expected"), [
    ("No sport for me these days, too busy.", ("Bob", "PLAYS_SPORT", "", "retract")),
    ("dropped my phone in the lake lol, no phone at the moment.",
     ("Bob", "HAS_PHONE", "", "retract")),
])
def test_a_slot_said_to_be_empty_in_shorthand(extractor: RuleExtractor, text: str,
                                              expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("no car for me", "DRIVES"),  # not said to be over, maybe never wanted
])
def test_no_empty_slot_where_none_is_said_to_be_over(extractor: RuleExtractor, text: str,
                                                     predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[0] == "Bob" and t[1] == predicate}


def test_no_coding_leaves_no_main_language(extractor: RuleExtractor) -> None:
    assert ("Bob", "MAIN_LANGUAGE", "", "retract") in triples(
        said(extractor, "I went into product; no coding for me now."))


@pytest.mark.parametrize(("text", "expected"), [
    ("Currently phoneless, long story.", ("Bob", "HAS_PHONE", "", "retract")),
    ("Currently between jobs, enjoying the break.", ("Bob", "WORKS_AT", "", "retract")),
    ("Mei is gone and our team is leaderless for now.", ("Bob", "REPORTS_TO", "", "retract")),
    ("no manager for me rn, it's weird", ("Bob", "REPORTS_TO", "", "retract")),
    ("No special diet for me these days.", ("Bob", "DIET", "", "retract")),
])
def test_more_slots_said_to_be_empty_in_shorthand(extractor: RuleExtractor, text: str,
                                                  expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("I'm currently without a line manager; Raj Patel's departure left a gap.",
     ("Bob", "REPORTS_TO", "", "retract")),
])
def test_a_slot_said_to_be_empty_in_passing(extractor: RuleExtractor, text: str,
                                            expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("I'm car-free now, the bike does it all", ("Bob", "DRIVES", "", "retract")),
    ("no car to speak of now, I bike", ("Bob", "DRIVES", "", "retract")),
    ("quit the keto thing. not on any diet at the moment", ("Bob", "DIET", "", "retract")),
    ("team got reshuffled so rn i basically have no manager", ("Bob", "REPORTS_TO", "",
                                                              "retract")),
    ("boss-free life: Ottilie left and nobody replaced her", ("Bob", "REPORTS_TO", "", "retract")),
])
def test_no_car_diet_or_boss_said_in_chat(extractor: RuleExtractor, text: str,
                                          expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("insurance is paying out but i'm going without a car for now",
     ("Bob", "DRIVES", "", "retract")),
])
def test_a_slot_said_to_be_empty_after_but(extractor: RuleExtractor, text: str,
                                           expected: Triple) -> None:
    assert expected in triples(said(extractor, text))
