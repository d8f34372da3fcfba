"""Slips mended before the rules read a sentence, and what is never touched."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.extract.rules.extractor import RuleExtractor
from graphmem.extract.rules.spelling import Speller
from graphmem.models import Episode, Message
from tests.extract.rules.conftest import Triple, said, triples


@pytest.fixture(scope="module")
def speller() -> Speller:
    return Speller(frozenset({"paleo", "haskell"}))


@pytest.mark.parametrize(("typed", "meant"), [
    ("wrrite", "write"), ("braely", "barely"), ("phnes", "phones"), ("ressident", "resident"),
    ("stloen", "stolen"), ("boguht", "bought"), ("beneifts", "benefits"), ("vaccant", "vacant"),
])
def test_a_one_edit_slip_becomes_the_word_meant(speller: Speller, typed: str,
                                                meant: str) -> None:
    assert speller.mend(f"so I {typed} it") == f"so I {meant} it"


@pytest.mark.parametrize("kept", [
    "paleo",        # a value the rules know, one edit from "pale"
    "haskell",      # likewise, from "gaskell"
    "Wrrite",       # capitalised: could be a name
    "keto", "lol",  # shorter than five letters ("keto" is one edit from "veto")
    "whole30",      # digits: a product or plan name
    "soooo",        # stretched for effect
    "chhats",       # "chats" or "cheats": no clear likeliest word
    "kotlin",       # no common word one edit away
    "happily",      # a word the dictionary knows
])
def test_what_could_be_a_value_or_is_a_word_is_left_alone(speller: Speller, kept: str) -> None:
    assert speller.mend(f"so I {kept} it") == f"so I {kept} it"


def test_the_extractor_reads_the_mended_sentence_and_stores_what_was_typed() -> None:
    typed = "Dropped my Galaxy S23 in the lake so I boguht a Zenfone 10"
    episode = Episode(tenant="t", scope_key="user:noor",
                      reference_time=datetime(2021, 8, 25, tzinfo=UTC),
                      messages=[Message(speaker="Noor", content=typed)])

    facts = RuleExtractor().extract(episode, []).facts

    assert [(f.predicate, f.object, f.action) for f in facts] == [
        ("HAS_PHONE", "Zenfone 10", "assert")]
    assert episode.messages[0].content == typed


def test_the_rules_know_their_values_as_unmendable() -> None:
    """"paleo" is one edit from "pale", a common word: mended, the diet would be lost."""
    assert Speller().mend("I follow a paleo diet") == "I follow a pale diet"
    episode = Episode(tenant="t", scope_key="user:noor",
                      reference_time=datetime(2021, 8, 25, tzinfo=UTC),
                      messages=[Message(speaker="Noor", content="I follow a paleo diet")])

    facts = RuleExtractor().extract(episode, []).facts

    assert [(f.predicate, f.object) for f in facts] == [("DIET", "paleo")]


def test_a_sentence_the_rules_read_as_typed_is_not_mended() -> None:
    """"backend" is not in the dictionary and is one edit from "backed": the rules read the
    sentence as typed, so it stays as typed."""
    assert Speller().mend("Our backend is written in Go.") == "Our backed is written in Go."
    episode = Episode(tenant="t", scope_key="user:noor",
                      reference_time=datetime(2021, 8, 25, tzinfo=UTC),
                      messages=[Message(speaker="Noor", content="Our backend is written in Go.")])

    facts = RuleExtractor().extract(episode, []).facts

    assert ("PROJECT_USES", "Go") in [(f.predicate, f.object) for f in facts]


def test_chat_shorthand_for_favourite_reads_as_the_word(extractor: RuleExtractor) -> None:
    """"my fav band is Arctic Monkeys now" (seen by a new user) stored nothing."""
    assert ("Bob", "FAVORITE_BAND", "Arctic Monkeys", "assert") in triples(
        said(extractor, "my fav band is Arctic Monkeys now"))


@pytest.mark.parametrize(("text", "expected"), [
    ("bought a Kia Sorento bc we need 7 seats", ("Bob", "DRIVES", "Kia Sorento", "assert")),
    ("started skateboarding w my mates", ("Bob", "PLAYS_SPORT", "skateboarding", "assert")),
])
def test_chat_shorthand_is_read_as_the_words_it_stands_for(extractor: RuleExtractor, text: str,
                                                           expected: Triple) -> None:
    """A fourth trial: "bc" became part of the car's name ("drives Kia Sorento bc")."""
    assert expected in triples(said(extractor, text))


def test_a_name_s_before_a_place_is_the_name_is(extractor: RuleExtractor) -> None:
    """"Tom's at Google" is "Tom is at Google": read as a possessive, a fourth trial stored a
    person called "Chidi's"."""
    found = triples(said(extractor, "Tom's a nurse now, Tom's car is red"))
    assert ("Tom", "JOB_TITLE", "nurse", "assert") in found
    assert not {t for t in found if "'s" in t[0]}


def test_a_modal_typed_as_said_still_asks(extractor: RuleExtractor) -> None:
    """"shud i ... or get new laptop" asks, as "should i" does: no laptop is owned."""
    found = triples(said(extractor, "my laptop is a ThinkPad X1 and the hinge is cracked, shud i "
                                    "fix it or get new laptop"))
    assert not [t for t in found if t[1] == "OWNS" and "laptop" in t[2]]
