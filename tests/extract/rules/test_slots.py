"""Which slot a value or a noun belongs to, and what settle() makes of a sentence's findings."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from graphmem.extract.rules.clause import Finding
from graphmem.extract.rules.parties import Party
from graphmem.extract.rules.slots import settle, value_slot
from graphmem.predicates import PredicateRegistry
from graphmem.models import Cardinality
from tests.extract.rules.conftest import said, triples


@pytest.mark.parametrize(("value", "slot"), [
    ("vegan", "DIET"), ("keto diet", "DIET"), ("padel", "PLAYS_SPORT"),
    ("table tennis", "PLAYS_SPORT"), ("Pixel 8 Pro", "HAS_PHONE"), ("iPhone 15", "HAS_PHONE"),
    ("Subaru Outback", "DRIVES"), ("Tesla Model 3", "DRIVES"), ("Kotlin", "MAIN_LANGUAGE"),
    ("coffee", None), ("Berlin", None), ("Model", None),
])
def test_value_slot(value: str, slot: str | None) -> None:
    assert value_slot(value) == slot


ME = Party("Bob", "person", True)


def test_settle_puts_values_into_their_slots() -> None:
    settled = settle([Finding(ME, "HOBBY", "tennis", anchor=1),
                      Finding(ME, "OWNS", "Honda Civic", anchor=1),
                      Finding(ME, "OWNS", "car", action="retract", anchor=2),
                      Finding(ME, "USES", "Go", action="retract", anchor=3)])
    assert {(f.predicate, f.obj, f.action) for f in settled} == {
        ("PLAYS_SPORT", "tennis", "assert"), ("DRIVES", "Honda Civic", "assert"),
        ("OWNS", "car", "retract"), ("DRIVES", "", "retract"),
        ("USES", "Go", "retract"), ("MAIN_LANGUAGE", "Go", "retract")}


def test_a_retraction_beats_its_own_assertion() -> None:
    settled = settle([Finding(ME, "HAS_PET", "Rex", anchor=None),
                      Finding(ME, "HAS_PET", "Rex", action="retract", anchor=4)])
    assert [(f.obj, f.action) for f in settled] == [("Rex", "retract")]


def test_a_named_retraction_replaces_the_bare_one_of_its_clause() -> None:
    settled = settle([Finding(ME, "DRIVES", "", action="retract", anchor=2),
                      Finding(ME, "DRIVES", "Tesla", action="retract", anchor=2)])
    assert [(f.obj, f.action) for f in settled] == [("Tesla", "retract")]


@pytest.mark.parametrize("predicate", ["WORKS_AT", "JOB_TITLE", "LIVES_IN", "DRIVES",
                                       "HAS_PHONE", "DIET", "MAIN_LANGUAGE", "PLAYS_SPORT",
                                       "REPORTS_TO", "RELATIONSHIP_STATUS", "HAS_PARTNER"])
def test_slots_are_single_valued_and_described(predicate: str) -> None:
    spec = PredicateRegistry().spec(predicate)
    assert spec.cardinality is Cardinality.ONE
    assert spec.description and spec.questions


@pytest.mark.parametrize("predicate", ["LIKES", "USES", "HOBBY", "HAS_PET", "OWNS"])
def test_multi_valued_relations_stay_many(predicate: str) -> None:
    assert PredicateRegistry().spec(predicate).cardinality is Cardinality.MANY


@pytest.mark.parametrize(("text", "expected"), [
    ("My Pixel 7 died, so I'm phoneless until payday.", ("Bob", "HAS_PHONE", "Pixel 7", "retract")),
    ("Currently carless, my Mazda 3 got towed and scrapped.",
     ("Bob", "DRIVES", "Mazda 3", "retract")),
])
def test_a_value_named_beside_an_empty_slot_is_the_one_gone(
        extractor: RuleExtractor, text: str, expected: tuple[str, str, str, str]) -> None:
    found = triples(said(extractor, text))
    assert expected in found
    assert (*expected[:3], "assert") not in found


def test_a_slot_emptied_by_a_verb_keeps_the_new_value(extractor: RuleExtractor) -> None:
    """"sold my car and bought a Kia Niro": the car sold was another one."""
    found = triples(said(extractor, "I sold my car and bought a Kia Niro."))
    assert ("Bob", "DRIVES", "Kia Niro", "assert") in found


@pytest.mark.parametrize(("value", "slot"), [
    ("Clio", "DRIVES"), ("Skoda Octavia", "DRIVES"), ("Nexon EV", "DRIVES"), ("e-208", "DRIVES"),
    ("grand party", None), ("Q3", None), ("Tucson", None), ("Swift", None), ("Focus", None),
])
def test_a_car_is_known_by_its_model_alone(value: str, slot: str | None) -> None:
    """Models sold widely are cars by their name; not the ones that are words, places or a
    quarter of the year."""
    assert value_slot(value) == slot


@pytest.mark.parametrize(("text", "expected"), [
    ("my Galaxy A52 battery has been draining fast", ("Bob", "HAS_PHONE", "Galaxy A52", "assert")),
    ("my Honda Civic engine makes a noise", ("Bob", "DRIVES", "Honda Civic", "assert")),
    ("the heater in my Micra blows cold air", ("Bob", "DRIVES", "Micra", "assert")),
])
def test_a_phone_or_car_is_named_without_the_part_talked_about(
        extractor: RuleExtractor, text: str, expected: tuple[str, str, str, str]) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "language"), [
    ("rust is my main language now", "Rust"), ("ruby is what i code in", "Ruby"),
    ("kotlin is what i use for basically everything at work", "Kotlin"),
    ("at this point i write TypeScript all day", "TypeScript"),
])
def test_a_main_language_typed_in_lower_case_or_said_as_all_day(
        extractor: RuleExtractor, text: str, language: str) -> None:
    """A sentence that says a language is meant reads its name in any case, and gives it
    its own spelling."""
    assert ("Bob", "MAIN_LANGUAGE", language, "assert") in triples(said(extractor, text))
