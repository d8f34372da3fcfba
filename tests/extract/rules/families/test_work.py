"""Jobs, employers, titles, joining and promotion (families.work; leaving a job is
families.leaving, in test_leaving)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.cases import ONE_PER_RULE
from tests.extract.rules.conftest import REF, Triple, family_cases, said, triples


@family_cases(ONE_PER_RULE["work"])
def test_work_rules(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("They promoted me to senior engineer.", ("Bob", "JOB_TITLE", "senior engineer", "assert")),
    ("My boss promoted me to team lead last week.", ("Bob", "JOB_TITLE", "team lead", "assert")),
    ("got bumped up to principal designer today!",
     ("Bob", "JOB_TITLE", "principal designer", "assert")),
])
def test_a_promotion_is_the_speakers_title(extractor: RuleExtractor, text: str,
                                           expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("They promoted Tom to director.", "JOB_TITLE"),  # Tom's title, not the speaker's
    ("They bumped up my rent again.", "JOB_TITLE"),
    ("They might promote me to manager.", "JOB_TITLE"),
    ("I'm going to quit my job at Google.", "WORKS_AT"),  # not yet
    # an offer is no job until it is taken
    ("Got a job offer from Stripe but turned it down.", "WORKS_AT"),
    ("I got an offer from Stripe.", "WORKS_AT"),
    ("I got an offer from Stripe and didn't take it.", "WORKS_AT"),
    # a possibility is no fact
    ("I might take the job at Stripe.", "WORKS_AT"),
    ("I could work at Stripe.", "WORKS_AT"),
    ("I would work at Google for that salary.", "WORKS_AT"),
])
def test_what_has_not_happened_to_the_speaker_changes_nothing(
        extractor: RuleExtractor, text: str, predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[0] == "Bob" and t[1] == predicate}


@pytest.mark.parametrize(("text", "employer"), [
    ("I accepted an offer from Stripe.", "Stripe"),
    ("I took a job at Meta.", "Meta"),
    ("I signed the offer from Datadog.", "Datadog"),
    # a company the term marker knows as a tool
    ("Just started at Figma as a UX designer", "Figma"),
    # an offer gotten, then taken
    ("Got the offer from Deloitte and signed it, so that's where I work now.", "Deloitte"),
    ("I got an offer from Stripe and accepted it.", "Stripe"),
    # "work" read as a noun joined to "live"
    ("I live in Lisbon and work at Netflix as a recruiter.", "Netflix"),
    # ... or heading a clause after a comma, its subject left out
    ("i live in Tartu, work at Bolt as a courier", "Bolt"),
    # ... or after a heading that names the slot
    ("We moved to Tartu in May, new job too: started monday at Bolt", "Bolt"),
])
def test_a_job_or_offer_taken_is_the_employer(extractor: RuleExtractor, text: str,
                                              employer: str) -> None:
    assert ("Bob", "WORKS_AT", employer, "assert") in triples(said(extractor, text))


def test_a_past_until_ends_the_value_then(extractor: RuleExtractor) -> None:
    facts = said(extractor, "I worked at Google until 2020.").facts
    assert [(f.predicate, f.object, f.action, f.valid_from.date().isoformat())
            for f in facts] == [("WORKS_AT", "Google", "retract", "2021-01-01")]
    assert said(extractor, "I worked at Google.").facts == []

@pytest.mark.parametrize(("text", "day"), [
    ("I started working at Apple in May.", "2024-05-01"),  # "started" sets the tense
    ("I start at Apple on Monday.", "2024-06-17"),  # ahead, said on a Wednesday
    ("I started at Etsy on Monday.", "2024-06-10"),
])
def test_a_job_starts_on_the_day_its_tense_points_to(extractor: RuleExtractor, text: str,
                                                     day: str) -> None:
    facts = said(extractor, text).facts
    assert [(f.predicate, f.valid_from.date().isoformat()) for f in facts] == [("WORKS_AT", day)]


@pytest.mark.parametrize(("text", "out"), [
    ("I'm not working at the moment.", True), ("I'm currently not working.", True),
    ("I'm not working today.", False),  # a day off
    ("I'm not working on that.", False),  # a task
    ("It's not working.", False),
])
def test_not_working_now_ends_whatever_job_it_was(extractor: RuleExtractor, text: str,
                                                  out: bool) -> None:
    ended = ("Bob", "WORKS_AT", "", "retract") in triples(said(extractor, text))
    assert ended is out

def test_training_for_a_job_now_is_the_title(extractor: RuleExtractor) -> None:
    assert ("Bob", "JOB_TITLE", "paramedic", "assert") in triples(
        said(extractor, "left nursing, I'm training as a paramedic now"))
    for text in ("I trained as a chef.", "I'm training for a marathon."):
        assert not {t for t in triples(said(extractor, text)) if t[1] == "JOB_TITLE"}

@pytest.mark.parametrize(("text", "expected"), [
    ("Salesforce poached me from Bosch, lol", {("Bob", "WORKS_AT", "Salesforce", "assert"),
                                               ("Bob", "WORKS_AT", "Bosch", "retract")}),
    ("I handed in my resignation at Booking.com.", {("Bob", "WORKS_AT", "Booking.com",
                                                     "retract")}),
    ("I gave my notice today.", {("Bob", "WORKS_AT", "", "retract")}),
    ("i work under Tomasz", {("Bob", "REPORTS_TO", "Tomasz", "assert")}),
    ("The reorg put me under Sunita.", {("Bob", "REPORTS_TO", "Sunita", "assert")}),
])
def test_a_job_or_manager_changed_in_other_words(extractor: RuleExtractor, text: str,
                                                 expected: set[Triple]) -> None:
    assert expected <= triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "I gave him a notice about the rent.", "Management hired me last year.",
    "I put my keys under Sunita's desk.",
])
def test_no_job_change_where_none_is_said(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] in ("WORKS_AT", "REPORTS_TO")}


@pytest.mark.parametrize(("text", "expected"), [
    ("I'm teaching at Hillcrest Elementary now.",
     {("Bob", "JOB_TITLE", "teacher", "assert"),
      ("Bob", "WORKS_AT", "Hillcrest Elementary", "assert")}),
    ("I teach third grade at Hillcrest Elementary.",
     {("Bob", "JOB_TITLE", "third grade teacher", "assert"),
      ("Bob", "WORKS_AT", "Hillcrest Elementary", "assert")}),
    ("I teach yoga.", {("Bob", "JOB_TITLE", "yoga teacher", "assert")}),
    ("I'm teaching a class tonight.", set()),  # a class, not a job
])
def test_teaching_at_a_school_is_a_job_there(extractor: RuleExtractor, text: str,
                                             expected: set[Triple]) -> None:
    assert triples(said(extractor, text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I work at Bosch in Stuttgart", ("Bob", "WORKS_AT", "Bosch", "assert")),
    ("I work for Bosch in Stuttgart now", ("Bob", "WORKS_AT", "Bosch", "assert")),
    ("im a junior developer at Spotify", ("Bob", "WORKS_AT", "Spotify", "assert")),
    ("I'm a developer at Spotify in Stockholm", ("Bob", "WORKS_AT", "Spotify", "assert")),
])
def test_an_employer_said_with_its_town_is_the_employer(extractor: RuleExtractor, text: str,
                                                        expected: Triple) -> None:
    """Seen by a new user: the NER took "Bosch in Stuttgart" for one organisation (merged into
    one word, no employer was read) and "Spotify" for a town (a title, no employer)."""
    found = triples(said(extractor, text))
    assert expected in found
    assert not {t for t in found if t[1] == "WORKS_AT" and t[2] != expected[2]}


def test_a_title_at_a_known_town_is_no_employer(extractor: RuleExtractor) -> None:
    found = triples(said(extractor, "I'm a nurse at Boston"))
    assert ("Bob", "JOB_TITLE", "nurse", "assert") in found
    assert not {t for t in found if t[1] == "WORKS_AT"}


def test_a_job_title_kept_through_a_new_job_is_restated(extractor: RuleExtractor) -> None:
    """"new job at Asda, still nursing tho" had ended the title with the old employer."""
    found = triples(said(extractor, "new job at Asda, still nursing tho"))
    assert {("Bob", "WORKS_AT", "Asda", "assert"),
            ("Bob", "JOB_TITLE", "nurse", "assert")} <= found
    assert not {t for t in triples(said(extractor, "I'm still driving tho"))
                if t[1] == "JOB_TITLE"}


@pytest.mark.parametrize(("text", "org", "title"), [
    ("I'm starting at Ledgerly on 1 July", "Ledgerly", None),
    ("Starting at a fintech startup called Ledgerly as Head of Finance on 1 July.", "Ledgerly",
     "Head of Finance"),
    ("I started at Google in 2020", "Google", None),
    ("Handed in my notice. Starting at a bakery called Crumbs as head baker on 1 July.",
     "Crumbs", "head baker"),  # tried by hand: a bakery is a firm introduced by its name
])
def test_a_workplace_started_at_without_a_job_noun(extractor: RuleExtractor, text: str, org: str,
                                                   title: str | None) -> None:
    """A fourth trial: "Starting at a fintech startup called Ledgerly as Head of Finance on 1
    July" stored neither the employer nor the title. An arrangement ahead ("starting ... on
    1 July") starts on the next 1 July, not the last one."""
    found = said(extractor, text)
    assert ("Bob", "WORKS_AT", org, "assert") in triples(found)
    if title is not None:
        assert ("Bob", "JOB_TITLE", title, "assert") in triples(found)
    if "July" in text:
        start = next(f.valid_from for f in found.facts
                     if f.predicate == "WORKS_AT" and f.object == org)
        assert start is not None and start > REF


@pytest.mark.parametrize("text", ["I started at 9", "we started at the bottom",
                                  "I started at Leeds University in 2019",
                                  "the race started at noon"])
def test_a_start_at_a_time_a_place_or_a_school_is_no_job(extractor: RuleExtractor,
                                                         text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "WORKS_AT"}


@pytest.mark.parametrize("text", ["I work at scale.", "I work at speed.", "I work for hours.",
                                  "I work for a living.", "I work at hospitals."])
def test_a_manner_or_a_measure_is_no_employer(extractor: RuleExtractor, text: str) -> None:
    """A bare lower-case noun after "work at" is how or how long ("I work at scale" had
    stored an employer called "scale")."""
    assert not {t for t in triples(said(extractor, text)) if t[1] == "WORKS_AT"}


@pytest.mark.parametrize(("text", "employer"), [
    ("I work at school.", "school"), ("I work for the council.", "council"),
    ("I work for my dad.", "dad"), ("I work at a hospital.", "hospital"),
    ("i work at tesco", "Tesco"), ("I work for a startup.", "startup"),
])
def test_a_named_determined_or_institutional_workplace_is_one(
        extractor: RuleExtractor, text: str, employer: str) -> None:
    assert ("Bob", "WORKS_AT", employer, "assert") in triples(said(extractor, text))


def test_a_title_said_after_the_named_business_started_at(extractor: RuleExtractor) -> None:
    """"as head baker" hangs on "bakery": it was dropped."""
    assert ("Bob", "JOB_TITLE", "head baker", "assert") in triples(
        said(extractor, "I started at Crumbs bakery as head baker."))


@pytest.mark.parametrize(("text", "expected"), [
    ("first month at deliveroo done. loving it", ("Bob", "WORKS_AT", "Deliveroo", "assert")),
    ("left Vostok last month and now contracting for Wolt",
     ("Bob", "WORKS_AT", "Vostok", "retract")),
    ("passed the interview! I'll be a ward manager from March",
     ("Bob", "JOB_TITLE", "ward manager", "assert")),
])
def test_jobs_begun_left_or_dated_ahead(extractor: RuleExtractor, text: str,
                                        expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


def test_a_title_ahead_without_a_day_is_no_fact(extractor: RuleExtractor) -> None:
    assert not triples(said(extractor, "I'll be a doctor one day"))
