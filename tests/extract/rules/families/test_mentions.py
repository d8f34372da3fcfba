"""Facts said in passing by a noun phrase (families.mentions)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


@pytest.mark.parametrize(("text", "expected"), [
    ("my manager Marcus keeps scheduling 8am standups, send help",
     ("Bob", "REPORTS_TO", "Marcus", "assert")),
    ("first week of my CS degree at the University of Leeds done, the campus is huge",
     ("Bob", "STUDIES_AT", "the University of Leeds", "assert")),
    ("I'm doing my bachelor's in chemistry at Masaryk University in Brno",
     ("Bob", "STUDIES_AT", "Masaryk University", "assert")),
    ("started my master's at Charles University in Prague",
     ("Bob", "STUDIES_AT", "Charles University", "assert")),
    ("first MBA class at Insper tonight, feeling old among all these kids",
     ("Bob", "STUDIES_AT", "Insper", "assert")),
    ("new job at Greyfield Capital, first week done!",
     ("Bob", "WORKS_AT", "Greyfield Capital", "assert")),
])
def test_the_speakers_own_mention_is_a_fact(extractor: RuleExtractor, text: str,
                                            expected: tuple[str, str, str, str]) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("my wife's manager Bruno is lovely", "REPORTS_TO"),  # the wife's manager
    ("my old manager Tom was great", "REPORTS_TO"),  # a former one
    ("my flatmate is doing his PhD at Imperial and works way more than me", "STUDIES_AT"),
    ("thought about doing a PhD at UCL afterwards but probably not", "STUDIES_AT"),
    ("finished my bachelor's at Leeds University last year", "STUDIES_AT"),
])
def test_someone_elses_or_a_wished_for_mention_is_not_the_speakers(
        extractor: RuleExtractor, text: str, predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[0] == "Bob" and t[1] == predicate and t[3] == "assert"}


@pytest.mark.parametrize(("text", "expected"), [
    ("Day one at Tidewater Labs as a junior researcher. Nervous but excited.",
     {("Bob", "WORKS_AT", "Tidewater Labs", "assert"),
      ("Bob", "JOB_TITLE", "junior researcher", "assert")}),
    # the tagger merges "week one" into a date, and may make the firm the subject
    ("week one at Ostervik Freight done, so far so good",
     {("Bob", "WORKS_AT", "Ostervik Freight", "assert")}),
    ("first week at Ostervik Freight done, way calmer than my last place",
     {("Bob", "WORKS_AT", "Ostervik Freight", "assert")}),
    ("Living in Cardiff has its perks but the rain is relentless lol.",
     {("Bob", "LIVES_IN", "Cardiff", "assert")}),
    ("switched to a Pixel 7a finally, the old one was dying",
     {("Bob", "HAS_PHONE", "Pixel 7a", "assert")}),
    ("my pixel 3a keeps freezing whenever i open the camera, any fixes??",
     {("Bob", "HAS_PHONE", "pixel 3a", "assert")}),
    ("My VW Vento needs new tires before the rains.", {("Bob", "DRIVES", "VW Vento", "assert")}),
    ("My manager Oksana wants the quarterly deck by Friday.",
     {("Bob", "REPORTS_TO", "Oksana", "assert")}),
    ("my manager Henrik Dahl asked me to cover the Friday shift",  # the subject he is part of
     {("Bob", "REPORTS_TO", "Henrik Dahl", "assert")}),
])
def test_a_passing_mention_in_a_chat_message(extractor: RuleExtractor, text: str,
                                             expected: set[tuple[str, str, str, str]]) -> None:
    assert expected <= triples(said(extractor, text))


@pytest.mark.parametrize("text", ["Living in Paris would be a dream.",
                                  "my old iPhone 6 is in a drawer", "I miss my old Honda Civic.",
                                  "my car is a mess", "First day at the beach was fun."])
def test_a_mention_that_is_a_wish_or_the_past_is_not_a_fact(extractor: RuleExtractor,
                                                            text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] in ("LIVES_IN", "HAS_PHONE", "DRIVES", "WORKS_AT")}


def test_a_role_taken_on_is_a_title_and_a_pronoun_is_the_name_before_it(
        extractor: RuleExtractor) -> None:
    assert {("Bob", "JOB_TITLE", "senior analyst", "assert"),
            ("Bob", "WORKS_AT", "Globex", "assert")} <= triples(
        said(extractor, "I took on a senior analyst position at Globex."))
    assert ("Bob", "REPORTS_TO", "Mirela", "assert") in triples(said(
        extractor, "Aurelio left the company and Mirela has taken over the team, so she's my "
        "boss now"))
    assert ("Bob", "REPORTS_TO", "Nkechi", "assert") in triples(
        said(extractor, "Nkechi is back from leave and I'm under her again"))


@pytest.mark.parametrize(("text", "expected"), [
    ("my Civic was written off after the crash", ("Bob", "DRIVES", "Civic", "retract")),
    ("the Yaris got totaled in the flood 😞", ("Bob", "DRIVES", "Yaris", "retract")),
])
def test_a_car_written_off_or_totaled_is_gone(extractor: RuleExtractor, text: str,
                                              expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


def test_a_model_after_the_is_the_speakers_only_when_gone(extractor: RuleExtractor) -> None:
    assert not triples(said(extractor, "the Yaris is on sale this week"))
