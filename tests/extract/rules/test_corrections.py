"""Placing a correction: the slot "Actually it was Lisbon, not Porto" mends, said earlier
in the episode or stored, and whose it is."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.extract.base import CandidateFact
from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import REF, episode, said, triples
from graphmem.models import Message


@pytest.mark.parametrize(("first", "fix", "right", "wrong"), [
    ("I live in Porto.", "Actually it was Lisbon, not Porto.", "Lisbon", "Porto"),
    ("I work at Initech.", "Sorry, I meant Hooli, not Initech.", "Hooli", "Initech"),
    ("We adopted a dog called Rex.", "No, it's Max, not Rex.", "Max", "Rex"),
    ("I go cycling twice a week.", "Sorry, I meant squash, not cycling.", "squash", "cycling"),
    ("I follow a vegan diet.", "oops, I said vegan but it's vegetarian", "vegetarian", "vegan"),
    ("I play golf on weekends.", "oops, I said golf, it's kickboxing", "kickboxing", "golf"),
    ("My manager is Farid.", "I said Farid, it's Marcus", "Marcus", "Farid"),
    ("I live in Helsinki.", "oops, it's Turin not Helsinki, I was thinking of my trip", "Turin",
     "Helsinki"),
    ("I live in Valencia.", "Let me correct that - the city is Dubai, not Valencia.", "Dubai",
     "Valencia"),
    # chat's shorthand: an asterisk, "meant" without its "I", "wrote X? meant Y"
    ("I mostly code in Erlang.", "*Elixir. no idea why I said Erlang 😬", "Elixir", "Erlang"),
    ("My manager is Ingrid.", "lol *Gunnar. I typed Ingrid by mistake", "Gunnar", "Ingrid"),
    ("I live in Porto.", "*Lisbon", "Lisbon", "Porto"),
    ("I work at Initech.", "ugh, meant Hooli not Initech", "Hooli", "Initech"),
    ("I drive a Toyota.", "wait i wrote Toyota? meant Honda", "Honda", "Toyota"),
    ("I play handball.", "btw *netball. autocorrect changed it to handball", "netball",
     "handball"),
    # a value the parser reads as a verb: "not Go"
    ("I work at Acme and mostly code in Go.", "*Rust. no idea why I said Go.", "Rust", "Go"),
    ("I mostly code in Go.", "Sorry, I meant Rust, not Go.", "Rust", "Go"),
    ("We run everything on Node.js.", "Sorry, I meant Deno, not Node.js.", "Deno", "Node.js"),
    # the slip names a word of the value said: the rest of it stays
    ("I drive a Honda Civic.", "wait i wrote Civic? meant Accord", "Honda Accord", "Honda Civic"),
    ("I drive a Honda Civic.", "Sorry, I meant Toyota Corolla, not Civic.", "Toyota Corolla",
     "Honda Civic"),
    # the right value and the wrong one alone, the message's first words, no cue
    ("I play squash every week.", "lol fencing, not squash, completely different sport",
     "fencing", "squash"),
    ("My phone is an Xperia 1 V.", "iPhone SE, not Xperia 1 V! I always mix up the names",
     "iPhone SE", "Xperia 1 V"),
    ("I mostly code in Kotlin.", "ugh, JavaScript, not Kotlin. Too many languages in my head",
     "JavaScript", "Kotlin"),
])
def test_a_correction_takes_the_slot_of_the_value_said_before(
        extractor: RuleExtractor, first: str, fix: str, right: str, wrong: str) -> None:
    extraction = extractor.extract(episode(
        Message(id="m1", speaker="Bob", content=first, timestamp=datetime(2024, 1, 5, tzinfo=UTC)),
        Message(id="m2", speaker="Bob", content=fix, timestamp=datetime(2024, 1, 6, tzinfo=UTC)),
    ), [])
    said_first = {(f.object, f.action): f for f in extraction.facts}
    assert (wrong, "assert") not in said_first  # the slip is dropped
    kept = said_first[(right, "assert")]
    assert kept.valid_from == datetime(2024, 1, 5, tzinfo=UTC) and kept.message_id == "m1"
    assert said_first[(wrong, "retract")].predicate == kept.predicate


@pytest.mark.parametrize(("first", "fix", "right", "wrong", "also"), [
    ("I mostly code in Haskell.", "*OCaml. no idea why I said Haskell. Also I moved to Bergen.",
     "OCaml", "Haskell", ("LIVES_IN", "Bergen")),
    ("My manager is Petra.",
     "lol *Joana. I typed Petra by mistake! I started working at Umbrella.", "Joana", "Petra", ("WORKS_AT", "Umbrella")),
    ("I drive a Kia.", "wait i wrote Kia? meant Mazda. And I moved to Tromso.", "Mazda", "Kia",
     ("LIVES_IN", "Tromso")),
    ("I drive a Kia.", "I moved to Tromso. wait i wrote Kia? meant Mazda", "Mazda", "Kia",
     ("LIVES_IN", "Tromso")),
])
def test_a_correction_in_shorthand_keeps_what_else_the_message_says(
        extractor: RuleExtractor, first: str, fix: str, right: str, wrong: str,
        also: tuple[str, str]) -> None:
    extraction = extractor.extract(episode(
        Message(id="m1", speaker="Bob", content=first, timestamp=datetime(2024, 1, 5, tzinfo=UTC)),
        Message(id="m2", speaker="Bob", content=fix, timestamp=datetime(2024, 1, 6, tzinfo=UTC)),
    ), [])
    said = {(f.predicate, f.object, f.action): f for f in extraction.facts}
    corrected = [f for f in extraction.facts if (f.object, f.action) == (right, "assert")]
    assert corrected and all(f.message_id == "m1" for f in corrected), extraction.facts
    assert [f for f in extraction.facts if (f.object, f.action) == (wrong, "retract")]
    assert said[(*also, "assert")].message_id == "m2", extraction.facts


def test_a_correction_of_a_value_stored_in_two_slots_corrects_both(
        extractor: RuleExtractor) -> None:
    """"I mostly code in Erlang" stored a language used and the main one: the slip was in both."""
    stored = [CandidateFact(id=f"f{i}", text="Bob codes in Erlang.", subject="Bob",
                            predicate=predicate, object="Erlang", valid_from=REF, own=True)
              for i, predicate in enumerate(("USES", "MAIN_LANGUAGE"))]
    text = "*Elixir. no idea why I said Erlang"
    extraction = extractor.extract(episode(Message(id="m", speaker="Bob", content=text)), stored)
    assert triples(extraction) == {("Bob", "USES", "Elixir", "assert"),
                                   ("Bob", "USES", "Erlang", "retract"),
                                   ("Bob", "MAIN_LANGUAGE", "Elixir", "assert"),
                                   ("Bob", "MAIN_LANGUAGE", "Erlang", "retract")}


def test_a_correction_of_a_stored_value_uses_its_slot(extractor: RuleExtractor) -> None:
    stored = CandidateFact(id="f1", text="Bob lives in Porto.", subject="Bob",
                           predicate="LIVES_IN", object="Porto", valid_from=REF)
    text = "Actually it was Lisbon, not Porto."
    alone = said(extractor, text)
    assert triples(alone) == set()  # no slot to correct: nothing, never Porto...
    assert alone.wants_candidates  # ...and the extractor asks for the stored facts
    extraction = extractor.extract(episode(Message(id="m", speaker="Bob", content=text)), [stored])
    assert not extraction.wants_candidates
    assert triples(extraction) == {("Bob", "LIVES_IN", "Lisbon", "assert"),
                                   ("Bob", "LIVES_IN", "Porto", "retract")}


def test_a_slip_naming_a_word_of_a_stored_value_mends_that_word(
        extractor: RuleExtractor) -> None:
    stored = CandidateFact(id="f1", text="Bob drives a Honda Civic.", subject="Bob",
                           predicate="DRIVES", object="Honda Civic", valid_from=REF, own=True)
    text = "wait i wrote Civic? meant Accord"
    extraction = extractor.extract(episode(Message(id="m", speaker="Bob", content=text)), [stored])
    assert triples(extraction) == {("Bob", "DRIVES", "Honda Accord", "assert"),
                                   ("Bob", "DRIVES", "Honda Civic", "retract")}


@pytest.mark.parametrize(("first", "fix", "right", "wrong"), [
    ("I moved to Porto.", "Sorry, I meant Lisbon.", "Lisbon", "Porto"),
    ("I work at Initech.", "Oops, I meant Microsoft.", "Microsoft", "Initech"),
    ("I work at Initech.", "Sorry, I meant Acme.", "Acme", "Initech"),
    ("I work at Initech.", "Sorry, I meant Globex.", "Globex", "Initech"),  # tagged a product
    ("I drive a Toyota.", "Sorry, I meant a Honda.", "Honda", "Toyota"),
    ("I live in Porto.", "Actually it was Lisbon.", "Lisbon", "Porto"),
    # the seventh trial: York read with "meant" as one town, then as a person
    ("I live in Leeds.", "Sorry, I meant York.", "York", "Leeds"),
])
def test_a_correction_naming_no_wrong_value_replaces_the_last_one_it_can(
        extractor: RuleExtractor, first: str, fix: str, right: str, wrong: str) -> None:
    """"Sorry, I meant Lisbon" after "I moved to Porto": the value said last in a slot
    the right one can fill (a place for a place, a car for a car) was the slip."""
    extraction = extractor.extract(episode(
        Message(id="m1", speaker="Bob", content=first, timestamp=datetime(2024, 1, 5, tzinfo=UTC)),
        Message(id="m2", speaker="Bob", content=fix, timestamp=datetime(2024, 1, 5, 0, 1, tzinfo=UTC)),
    ), [])
    said_first = {(f.object, f.action): f for f in extraction.facts}
    assert (wrong, "assert") not in said_first
    kept = said_first[(right, "assert")]
    assert kept.corrects and kept.message_id == "m1"
    assert said_first[(wrong, "retract")].predicate == kept.predicate


def test_a_correction_naming_no_wrong_value_picks_the_stored_slot_by_kind(
        extractor: RuleExtractor) -> None:
    """The employer was said after the home, but Lisbon is a place: it corrects the home."""
    home = CandidateFact(id="f1", text="Bob moved to Porto.", subject="Bob",
                         predicate="LIVES_IN", object="Porto", valid_from=REF)
    job = CandidateFact(id="f2", text="Bob works at Initech.", subject="Bob",
                        predicate="WORKS_AT", object="Initech",
                        valid_from=REF.replace(minute=REF.minute + 1))
    text = "Sorry, I meant Lisbon."
    assert said(extractor, text).wants_candidates
    extraction = extractor.extract(episode(Message(id="m", speaker="Bob", content=text)),
                                   [job, home])
    assert triples(extraction) == {("Bob", "LIVES_IN", "Lisbon", "assert"),
                                   ("Bob", "LIVES_IN", "Porto", "retract")}


@pytest.mark.parametrize(("first", "fix"), [
    ("I work at Initech.", "Actually it was Tom."),  # a person is no employer
    ("I work at Initech. Sorry, I meant Globex.", "Actually it was Tom."),
])
def test_a_person_named_in_a_correction_never_fills_an_employer(
        extractor: RuleExtractor, first: str, fix: str) -> None:
    extraction = extractor.extract(episode(
        Message(id="m1", speaker="Bob", content=first, timestamp=datetime(2024, 1, 5, tzinfo=UTC)),
        Message(id="m2", speaker="Bob", content=fix, timestamp=datetime(2024, 1, 6, tzinfo=UTC)),
    ), [])
    assert not {t for t in triples(extraction) if t[2] == "Tom"}


@pytest.mark.parametrize("fix", ["Actually it was great.", "I meant it.",
                                 "Actually it was Tom.", "Sorry, I meant Globex.",
                                 "Actually it was Tom who told me."])
def test_words_of_correction_without_a_fitting_value_correct_nothing(
        extractor: RuleExtractor, fix: str) -> None:
    extraction = extractor.extract(episode(
        Message(id="m1", speaker="Bob", content="I moved to Porto.",
                timestamp=datetime(2024, 1, 5, tzinfo=UTC)),
        Message(id="m2", speaker="Bob", content=fix, timestamp=datetime(2024, 1, 6, tzinfo=UTC)),
    ), [])
    assert triples(extraction) == {("Bob", "LIVES_IN", "Porto", "assert")}


def test_a_correction_takes_the_speakers_own_value_before_anothers(
        extractor: RuleExtractor) -> None:
    """In a group, another person may have said the same value: the speaker corrects theirs."""
    mine = CandidateFact(id="f1", text="Bob mainly programs in Scala.", subject="Bob",
                         predicate="MAIN_LANGUAGE", object="Scala", valid_from=REF, own=True)
    hers = CandidateFact(id="f2", text="Ana mainly programs in Scala.", subject="Ana",
                         predicate="MAIN_LANGUAGE", object="Scala", valid_from=REF)
    extraction = extractor.extract(episode(Message(
        id="m", speaker="Bob", content="Sorry, I meant Rust, not Scala.")), [mine, hers])
    assert triples(extraction) == {("Bob", "MAIN_LANGUAGE", "Rust", "assert"),
                                   ("Bob", "MAIN_LANGUAGE", "Scala", "retract")}


def test_a_slip_the_speaker_calls_their_own_corrects_no_one_elses_fact(
        extractor: RuleExtractor) -> None:
    """"typo before, i meant Galaxy A54 not Fairphone 4" said by Bob, whose Fairphone was
    never stored: Ann's Fairphone 4 in the same group stays hers (a group suite saw it turned
    into a Galaxy A54)."""
    anns = CandidateFact(id="f1", text="Ann uses Fairphone 4 as their phone.", subject="Ann",
                         predicate="HAS_PHONE", object="Fairphone 4", valid_from=REF)
    text = "typo before, i meant Galaxy A54 not Fairphone 4."
    extraction = extractor.extract(episode(Message(id="m", speaker="Bob", content=text)), [anns])
    assert not [f for f in extraction.facts if f.subject == "Ann"]


def test_a_value_and_another_denied_mid_message_or_never_said_correct_nothing(
        extractor: RuleExtractor) -> None:
    """"X, not Y" without a cue corrects only at a message's start, and only a value said
    before: "I'm vegan these days, not keto anymore" is a change, kept as one."""
    extraction = extractor.extract(episode(
        Message(id="m1", speaker="Bob", content="I'm strictly keto.",
                timestamp=datetime(2024, 1, 5, tzinfo=UTC)),
        Message(id="m2", speaker="Bob", content="I'm vegan these days, not keto anymore.",
                timestamp=datetime(2024, 2, 6, tzinfo=UTC)),
        Message(id="m3", speaker="Bob", content="Tea, not coffee.",
                timestamp=datetime(2024, 2, 7, tzinfo=UTC)),
    ), [])
    assert not [f for f in extraction.facts if f.corrects]
    assert not [f for f in extraction.facts if f.object.lower() in ("tea", "coffee")]


def test_a_correction_of_a_name_the_tagger_took_for_a_town_fills_the_slot_said_last(
        extractor: RuleExtractor) -> None:
    """"*Spotify" after "I'm a backend dev at Soptify": the tagger calls Spotify a town, which
    no gazetteer knows, so it may be the employer said just before."""
    stored = CandidateFact(id="f1", text="Bob works at Soptify.", subject="Bob",
                           predicate="WORKS_AT", object="Soptify",
                           valid_from=datetime(2024, 1, 5, tzinfo=UTC), own=True)
    fixed = extractor.extract(episode(Message(
        id="m2", speaker="Bob", content="*Spotify, autocorrect strikes again",
        timestamp=datetime(2024, 1, 5, 1, tzinfo=UTC))), [stored])
    assert {("Bob", "WORKS_AT", "Spotify", "assert"), ("Bob", "WORKS_AT", "Soptify", "retract")} \
        <= triples(fixed)


def test_a_correction_placed_nowhere_still_states_a_value_that_names_its_slot(
        extractor: RuleExtractor) -> None:
    """The slip was never read as a sport ("vloleyball"), so no slot holds it; volleyball
    is one by its own words. A right value that names no slot states nothing."""
    assert ("Bob", "PLAYS_SPORT", "volleyball", "assert") in triples(said(
        extractor, "took up vloleyball! first session was brutal. sorry, i meant volleyball "
                   "not vloleyball"))
    assert not triples(said(extractor, "Sorry, I meant Thursday, not Friday."))
