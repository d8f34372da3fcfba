"""Leaving a job: quitting, dismissals, being let go, redundancy, a last day, a notice
(families.leaving)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import REF, Triple, said, triples


def test_a_dated_leaving_ahead_ends_the_job_on_its_day(extractor: RuleExtractor) -> None:
    facts = [f for f in said(extractor, "I will leave Google next month.").facts
             if f.predicate == "WORKS_AT"]
    assert [(f.object, f.action) for f in facts] == [("Google", "retract")]
    assert facts[0].valid_from > REF  # still there until then


@pytest.mark.parametrize("text", [
    "I got made redundant", "I was made redundant yesterday", "got made redundant last week",
    "they made me redundant", "I got sacked",
])
def test_redundancy_and_the_sack_end_the_job(extractor: RuleExtractor, text: str) -> None:
    assert ("Bob", "WORKS_AT", "", "retract") in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "I handed in my notice at Tesco, my last day is the 30th of June",
    "I handed in my notice. My last day is June 30.",
    "my last day at Tesco is June 30", "I quit my job, my last day is Friday",
])
def test_a_job_ends_on_its_last_day_not_when_the_notice_is_given(extractor: RuleExtractor,
                                                                 text: str) -> None:
    """Seen by a new user: the notice ended the job the day it was handed in, so for the
    weeks worked out the assistant thought them unemployed."""
    endings = [f for f in said(extractor, text).facts if f.predicate == "WORKS_AT"]
    assert [f.action for f in endings] == ["retract"]
    last = datetime(2024, 6, 30 if "June" in text else 14, tzinfo=UTC)  # REF is a Wednesday
    assert endings[0].valid_from == last + timedelta(days=1)  # held through its last day


@pytest.mark.parametrize("text", ["my last day of school is Friday", "My last day is Friday."])
def test_a_last_day_not_of_a_job_ends_none(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "WORKS_AT"}


@pytest.mark.parametrize(("text", "expected"), [
    # a job left or taken, said as people say it (a round of phrasings, 2026-11-29)
    ("Tyler quit Amazon. He's at Microsoft now.", ("Tyler", "WORKS_AT", "Microsoft", "assert")),
    ("Tyler left Amazon, he's at Microsoft now.", ("Tyler", "WORKS_AT", "Microsoft", "assert")),
    ("Tom quit Stark Industries. He's at Initech now.", ("Tom", "WORKS_AT", "Initech", "assert")),
    ("Tom switched jobs. He's at Initech now.", ("Tom", "WORKS_AT", "Initech", "assert")),
    ("Acme laid me off.", ("Bob", "WORKS_AT", "Acme", "retract")),
    ("Acme let me go last week.", ("Bob", "WORKS_AT", "Acme", "retract")),
    ("The company let me go after six years.", ("Bob", "WORKS_AT", "", "retract")),
    ("They fired me from Acme.", ("Bob", "WORKS_AT", "Acme", "retract")),
    ("Acme fired Tom.", ("Tom", "WORKS_AT", "Acme", "retract")),
    ("I was laid off by Acme.", ("Bob", "WORKS_AT", "Acme", "retract")),
    ("Today was my last day at Acme.", ("Bob", "WORKS_AT", "Acme", "retract")),
    ("I've moved on from Acme and I'm now with Globex.", ("Bob", "WORKS_AT", "Acme", "retract")),
    ("I moved on from my job at Acme.", ("Bob", "WORKS_AT", "Acme", "retract")),
])
def test_a_job_left_or_taken_as_people_say_it(extractor: RuleExtractor, text: str,
                                              expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "wrong"), [
    ("Tom and Mia came over. She's at Google now.", ("Tom", "WORKS_AT", "Google")),
    ("Acme laid off 200 people.", ("Acme", "WORKS_AT", "")),
    ("Mum let me go.", ("Bob", "WORKS_AT")),
    ("My boss let me go home early.", ("Bob", "WORKS_AT", "")),
    ("They let me go to the party.", ("Bob", "WORKS_AT", "")),
    ("I've moved on from Acme and I'm now with Globex.", ("Bob", "LIVES_IN", "Acme")),
    ("We moved on from Leeds to York.", ("Bob", "LIVES_IN", "York")),
    ("I've moved on from Tom.", ("Bob", "WORKS_AT", "Tom")),
    ("I've moved on from Tom.", ("Bob", "LIVES_IN", "Tom")),
    ("My last day at school was in 2010.", ("Bob", "WORKS_AT", "")),
    ("My last day of holiday was Friday.", ("Bob", "WORKS_AT", "")),
])
def test_no_job_ends_or_moves_where_none_was_said(extractor: RuleExtractor, text: str,
                                                  wrong: tuple[str, str, str]) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[:3] == wrong}


@pytest.mark.parametrize(("text", "expected"), [
    # the last round's reviews, mended (2026-11-29)
    ("I was let go last week.", ("Bob", "WORKS_AT", "", "retract")),
    ("Google laid off my husband.", ("Bob's husband", "WORKS_AT", "Google", "retract")),
    ("Friday was my last day at Deloitte.", ("Bob", "WORKS_AT", "Deloitte", "retract")),
])
def test_a_job_ended_in_the_passive_for_a_relative_or_on_a_named_day(
        extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


def test_a_last_day_past_at_a_workplace_the_parser_hangs_on_the_verb_has_ended_it(
        extractor: RuleExtractor) -> None:
    text = "Friday was my last day at Deloitte before I move to Google."
    [ended] = [f for f in said(extractor, text).facts if f.predicate == "WORKS_AT"]
    assert (ended.object, ended.action) == ("Deloitte", "retract")
    assert ended.valid_from is not None and ended.valid_from <= REF  # over when it was said


@pytest.mark.parametrize("text", [
    "My company let me go part-time.", "I was let go early from practice.",
    "I never had a proper job before Acme.", "My parents let me go.",
])
def test_fewer_hours_a_practice_or_the_time_before_a_job_ends_no_job(
        extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "WORKS_AT"}


@pytest.mark.parametrize(("text", "left", "joined"), [
    ("Left Google for Meta.", "Google", "Meta"),
    ("I quit Acme for a job at Stripe.", "Acme", "Stripe"),
    ("I left my job at Acme for a role at Stripe.", "Acme", "Stripe"),
])
def test_a_job_left_for_another_firm_is_that_firm_taken(extractor: RuleExtractor, text: str,
                                                        left: str, joined: str) -> None:
    found = triples(said(extractor, text))
    assert {("Bob", "WORKS_AT", left, "retract"), ("Bob", "WORKS_AT", joined, "assert")} <= found


@pytest.mark.parametrize("text", ["I left Acme for good.", "I left Acme for personal reasons.",
                                  "I quit Acme for Sarah.", "I left Berlin for Munich."])
def test_what_a_job_is_left_for_that_is_no_firm_is_no_job(extractor: RuleExtractor,
                                                          text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] == "WORKS_AT" and t[3] == "assert"}
