"""Chat shorthand for the value in use of a one-valued slot (families.chat.in_use)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


def test_a_language_said_in_passing_is_the_main_one(extractor: RuleExtractor) -> None:
    assert ("Bob", "MAIN_LANGUAGE", "PHP", "assert") in triples(
        said(extractor, "I'm a junior developer at an agency, mostly PHP and WordPress"))
    assert not {t for t in triples(said(extractor, "Mostly Julia fans here."))
                if t[1] == "MAIN_LANGUAGE"}


@pytest.mark.parametrize(("text", "expected"), [
    ("Shoulder injury means no more rowing for me", ("Bob", "PLAYS_SPORT", "rowing", "retract")),
    ("Not plant-based anymore. I tried, I really did.", ("Bob", "DIET", "plant-based", "retract")),
])
def test_a_sport_or_diet_said_to_be_over_without_a_verb(extractor: RuleExtractor, text: str,
                                                        expected: tuple[str, str, str, str]) -> None:
    assert expected in triples(said(extractor, text))
    assert not triples(said(extractor, "no more coffee for me"))


@pytest.mark.parametrize(("text", "expected"), [
    ("Most of my code is in C#.", ("Bob", "MAIN_LANGUAGE", "C#", "assert")),
    ("nearly all the code I write is Dart.", ("Bob", "MAIN_LANGUAGE", "Dart", "assert")),
])
def test_the_language_most_code_is_in_is_the_main_one(extractor: RuleExtractor, text: str,
                                                       expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("Most of my code is in bad shape.", "MAIN_LANGUAGE"),
])
def test_no_main_language_where_the_code_is_in_none(extractor: RuleExtractor, text: str,
                                                    predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[0] == "Bob" and t[1] == predicate}


def test_a_value_in_place_of_another_said_without_a_verb(extractor: RuleExtractor) -> None:
    assert triples(said(extractor, "Switched it up: Brazilian jiu-jitsu instead of handball "
                                   "these days.")) >= {
        ("Bob", "PLAYS_SPORT", "Brazilian jiu-jitsu", "assert"),
        ("Bob", "PLAYS_SPORT", "handball", "retract")}
    assert triples(said(extractor, "Tea instead of coffee now.")) == set()  # no slot


@pytest.mark.parametrize(("text", "expected"), [
    ("If you're wondering, handball is how I keep fit.", ("Bob", "PLAYS_SPORT", "handball", "assert")),
    ("I try to keep everything dairy-free.", ("Bob", "DIET", "dairy-free", "assert")),
    ("i do most of my coding in OCaml", ("Bob", "MAIN_LANGUAGE", "OCaml", "assert")),
    ("Pretty much all my projects are in Python.", ("Bob", "MAIN_LANGUAGE", "Python", "assert")),
    ("Said goodbye to Java, it's OCaml for me now.", ("Bob", "MAIN_LANGUAGE", "OCaml", "assert")),
])
def test_a_sport_diet_or_language_said_in_shorthand(extractor: RuleExtractor, text: str,
                                                    expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", ["Tea is how I keep sane.", "I keep everything in the cloud."])
def test_no_sport_or_diet_for_a_non_value(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] in ("LIVES_IN", "PLAYS_SPORT", "DIET")}


@pytest.mark.parametrize(("text", "expected"), [
    ("Weekends are for badminton (and the pub afterwards).",
     ("Bob", "PLAYS_SPORT", "badminton", "assert")),
    ("At work, the bulk of what I write is Swift.", ("Bob", "MAIN_LANGUAGE", "Swift", "assert")),
])
def test_a_sport_or_language_said_in_passing(extractor: RuleExtractor, text: str,
                                             expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("90% of what I write is Clojure these days", [("Bob", "MAIN_LANGUAGE", "Clojure", "assert")]),
    ("honestly, Zig is what i reach for now", [("Bob", "MAIN_LANGUAGE", "Zig", "assert")]),
    # found by hand through REST: a filler word before the value, "and mostly code in"
    ("honestly Zig is what i reach for now", [("Bob", "MAIN_LANGUAGE", "Zig", "assert")]),
    ("I work at Brightline and mostly code in Java.",
     [("Bob", "MAIN_LANGUAGE", "Java", "assert"), ("Bob", "WORKS_AT", "Brightline", "assert")]),
    ("upgraded - Galaxy S24 is my main one now", [("Bob", "HAS_PHONE", "Galaxy S24", "assert")]),
    ("I hardly touch Scala anymore, it's all Go",
     [("Bob", "MAIN_LANGUAGE", "Go", "assert"), ("Bob", "MAIN_LANGUAGE", "Scala", "retract")]),
    ("traded squash for climbing this winter",
     [("Bob", "PLAYS_SPORT", "climbing", "assert"), ("Bob", "PLAYS_SPORT", "squash", "retract")]),
    ("rocking a Pixel 9 these days", [("Bob", "HAS_PHONE", "Pixel 9", "assert")]),
])
def test_a_value_said_to_be_the_one_in_use(extractor: RuleExtractor, text: str,
                                           expected: list[Triple]) -> None:
    found = triples(said(extractor, text))
    assert all(t in found for t in expected), found


@pytest.mark.parametrize("text", ["my brother says Zig is what i reach for",
                                  "it's all good now", "10% of what I write is Clojure",
                                  "traded stories for hours"])
def test_no_value_in_use_where_none_is_the_speakers(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] in ("MAIN_LANGUAGE", "HAS_PHONE", "PLAYS_SPORT", "LIVES_IN")}


@pytest.mark.parametrize(("text", "expected"), [
    ("hung up my squash racket in June, my knee won", ("Bob", "PLAYS_SPORT", "squash",
                                                        "retract")),
])
def test_a_sport_whose_gear_is_hung_up_is_over(extractor: RuleExtractor, text: str,
                                               expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("update: 4 months fully pescatarian now 🐟 any recipes?",
     ("Bob", "DIET", "pescatarian", "assert")),
    ("two years vegan next month!", ("Bob", "DIET", "vegan", "assert")),
    ("switched the Micra for a used Skoda Fabia, any tips?",
     ("Bob", "DRIVES", "Skoda Fabia", "assert")),
    ("switched the Micra for a used Skoda Fabia, any tips?", ("Bob", "DRIVES", "Micra", "retract")),
    ("traded the Yaris in for a Kia Niro last week", ("Bob", "DRIVES", "Kia Niro", "assert")),
])
def test_chat_values_kept_for_a_while_or_switched(extractor: RuleExtractor, text: str,
                                                  expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("no badminton since moving, can't find a club",
     ("Bob", "PLAYS_SPORT", "badminton", "retract")),
    ("no keto for months now", ("Bob", "DIET", "keto", "retract")),
])
def test_a_sport_or_diet_said_to_have_ended_a_while_ago(extractor: RuleExtractor, text: str,
                                                        expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("been porting everything to Rust and rust is my main language now",
     ("Bob", "MAIN_LANGUAGE", "Rust", "assert")),
])
def test_a_value_in_use_said_after_and(extractor: RuleExtractor, text: str,
                                       expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "taken", "left"), [
    ("pixel 7a now instead of the oneplus 11", ("HAS_PHONE", "pixel 7a"),
     ("HAS_PHONE", "oneplus 11")),
    ("Atkins now instead of low-FODMAP 🤷", ("DIET", "Atkins"), ("DIET", "low-FODMAP")),
    ("Berlin now instead of Seoul. The rent is half what it was", ("LIVES_IN", "Berlin"),
     ("LIVES_IN", "Seoul")),  # two towns the gazetteer knows
])
def test_a_value_now_in_place_of_another(extractor: RuleExtractor, text: str,
                                        taken: tuple[str, str], left: tuple[str, str]) -> None:
    assert {("Bob", *taken, "assert"), ("Bob", *left, "retract")} <= triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("fencing is what I do now, fully hooked", ("Bob", "PLAYS_SPORT", "fencing", "assert")),
    ("keto is what I eat these days", ("Bob", "DIET", "keto", "assert")),
])
def test_a_value_said_to_be_what_one_does_or_eats(extractor: RuleExtractor, text: str,
                                                 expected: Triple) -> None:
    assert expected in triples(said(extractor, text))
