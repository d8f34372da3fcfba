"""Hobbies, learning, goals, plans and todos (families.intent)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.cases import ONE_PER_RULE
from tests.extract.rules.conftest import Triple, family_cases, said, triples


@family_cases(ONE_PER_RULE["intent"])
def test_intent_rules(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "sport"), [
    ("I picked up padel this spring.", "padel"),
    ("took up bouldering - my mate built a little wall in his garage", "bouldering"),
    ("started kickboxing to blow off steam after shifts", "kickboxing"),
    ("started playing padel with some coworkers, totally hooked", "padel"),
    ("quit rowing, the mornings were killing me. doing judo twice a week instead", "judo"),
])
def test_a_sport_taken_up_in_a_diary_line(extractor: RuleExtractor, text: str,
                                          sport: str) -> None:
    found = triples(said(extractor, text))
    assert ("Bob", "PLAYS_SPORT", sport, "assert") in found
    assert not {t for t in found if t[1] == "PLAYS_SPORT" and t[2] != sport and t[3] == "assert"}


def test_picking_someone_up_is_no_hobby(extractor: RuleExtractor) -> None:
    assert not {t for t in triples(said(extractor, "I picked up my sister."))
                if t[1] in ("HOBBY", "PLAYS_SPORT")}


def test_a_sport_played_with_someone_is_still_the_sport(extractor: RuleExtractor) -> None:
    assert ("Bob", "PLAYS_SPORT", "tennis", "assert") in triples(
        said(extractor, "been playing tennis every sunday with my sister"))
    assert not triples(said(extractor, "I play with my kids."))


@pytest.mark.parametrize("text", ["I'm no longer playing volleyball.", "I no longer play volleyball."])
def test_a_sport_no_longer_played_ends(extractor: RuleExtractor, text: str) -> None:
    assert ("Bob", "PLAYS_SPORT", "volleyball", "retract") in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "I'm no longer planning to move to Lisbon.",  # had stated the plan
    "I decided not to move to Lisbon.",
    "I decided against moving to Lisbon.",
    "decided against Lisbon btw, staying in Berlin for now",  # "btw" read as Lisbon's noun
])
def test_a_plan_called_off_is_retracted(extractor: RuleExtractor, text: str) -> None:
    assert triples(said(extractor, text)) == {("Bob", "PLANS", "move to Lisbon", "retract")}


@pytest.mark.parametrize(("text", "sport"), [
    ("I run 5k three times a week", "running"),
    ("I swim 40 laps most mornings", "swimming"),
    ("I run marathons", "running"),
])
def test_a_distance_is_how_much_of_the_sport_not_the_sport(extractor: RuleExtractor, text: str,
                                                           sport: str) -> None:
    found = triples(said(extractor, text))
    assert ("Bob", "PLAYS_SPORT", sport, "assert") in found
    assert {t[2] for t in found} == {sport}


@pytest.mark.parametrize("text", ["I run a small bakery", "I run the company"])
def test_running_a_business_is_no_sport(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] in ("PLAYS_SPORT", "HOBBY")}


@pytest.mark.parametrize(("text", "sport"), [
    ("started pickleball 3x a week with my friend Barb", "pickleball"),
    ("I started pickleball", "pickleball"),
    ("started rock climbing 2x a week", "climbing"),
])
def test_a_sport_started_as_people_say_it(extractor: RuleExtractor, text: str,
                                          sport: str) -> None:
    """Seen by a new user: "2x a week" was read as the object, and a sport the parser took
    for a complement of "started" was none."""
    assert ("Bob", "PLAYS_SPORT", sport, "assert") in triples(said(extractor, text))


def test_a_sport_that_is_a_verb_too_started(extractor: RuleExtractor) -> None:
    """"squash" is read as a verb after "started"; "started to squash the bugs" is no sport."""
    assert ("Bob", "PLAYS_SPORT", "squash", "assert") in triples(
        said(extractor, "started squash twice a week at a club"))
    assert not triples(said(extractor, "I started to squash the bugs"))


@pytest.mark.parametrize("text", [
    "I play hurling on Saturdays with the Ballyboden lads, any tips for my first final",
    "I play chess most evenings, any advice for the Sicilian?",
])
def test_what_a_message_asks_for_is_no_hobby(extractor: RuleExtractor, text: str) -> None:
    found = {t[2] for t in triples(said(extractor, text)) if t[1] == "HOBBY"}
    assert found and not found & {"tips", "advice"}
