"""Where one lives: living, moving, renting, growing up (families.home)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


@pytest.mark.parametrize("text", ["I'm going to move to Oslo.", "I'm moving to Oslo soon.",
                                  "I will move to Oslo.", "I'm moving from Porto to Oslo."])
def test_a_move_still_ahead_with_no_date_is_a_plan(extractor: RuleExtractor, text: str) -> None:
    """It has not happened and no day says when it will: "where does Bob live?" keeps
    his home, and the plan is remembered as one."""
    assert triples(said(extractor, text)) == {("Bob", "PLANS", "move to Oslo", "assert")}


@pytest.mark.parametrize(("text", "day"), [
    ("I'm moving to Oslo next month.", "2024-07-01"),
    ("I will move to Oslo in August.", "2024-08-01"),
])
def test_a_dated_move_ahead_holds_from_its_day(extractor: RuleExtractor, text: str,
                                               day: str) -> None:
    facts = said(extractor, text).facts
    assert [(f.predicate, f.object, f.valid_from.date().isoformat()) for f in facts] == [
        ("LIVES_IN", "Oslo", day)]


def test_one_lives_in_a_place_whatever_the_tagger_says(extractor: RuleExtractor) -> None:
    # the small model tags "Valencia" as a person here
    assert ("Bob", "LIVES_IN", "Valencia", "assert") in triples(
        said(extractor, "i live in Valencia with my partner and our cat. lol"))
    assert not {t for t in triples(said(extractor, "I live with Anna.")) if t[1] == "LIVES_IN"}


@pytest.mark.parametrize(("text", "expected"), [
    ("We rent a small flat in Wellington.", ("Bob", "LIVES_IN", "Wellington", "assert")),
    ("New city! Just signed a lease in Johannesburg.",
     ("Bob", "LIVES_IN", "Johannesburg", "assert")),
    ("Finally made the move to Helsinki, boxes everywhere lol.",
     ("Bob", "LIVES_IN", "Helsinki", "assert")),
    ("I gave up my lease in Osaka; I'm between homes right now.",
     ("Bob", "LIVES_IN", "Osaka", "retract")),
    ("Big life update: I'm living in São Paulo now.", ("Bob", "LIVES_IN", "São Paulo", "assert")),
])
def test_a_home_said_without_living_or_moving(extractor: RuleExtractor, text: str,
                                              expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "We rented a flat in Rome in 2010.", "I'd love to rent a flat in Paris.",
    "We might make the move to Berlin.", "We bought a house in Leeds.",
])
def test_no_home_where_none_is_taken(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] == "LIVES_IN" and t[3] == "assert"}


@pytest.mark.parametrize("text", ["Porto is lovely in spring, I live there now",
                                  "my sister lives in Porto and I live there too"])
def test_living_there_is_living_in_the_place_named_before(extractor: RuleExtractor,
                                                          text: str) -> None:
    assert ("Bob", "LIVES_IN", "Porto", "assert") in triples(said(extractor, text))


@pytest.mark.parametrize("text", ["I live there now", "I met Tom at the gym and I live there now"])
def test_there_with_no_place_before_it_names_no_home(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "LIVES_IN"}


@pytest.mark.parametrize(("text", "plan"), [
    ("Friday was my last day at Deloitte before I move to Google.", "move to Google"),
    ("I'll stay in Leeds until I move to York.", "move to York"),
])
def test_a_move_in_a_clause_of_time_still_ahead_is_a_plan(extractor: RuleExtractor, text: str,
                                                         plan: str) -> None:
    found = triples(said(extractor, text))
    assert ("Bob", "PLANS", plan, "assert") in found
    assert not {t for t in found if t[1] == "LIVES_IN"}


@pytest.mark.parametrize(("text", "expected"), [
    ("I left my job at Acme and moved to Google.", ("Bob", "WORKS_AT", "Google", "assert")),
    ("Work was hard so we moved to Bristol.", ("Bob", "LIVES_IN", "Bristol", "assert")),
    ("Got a new job, so we moved to Manchester.", ("Bob", "LIVES_IN", "Manchester", "assert")),
    ("Finally made the move to Monzo, first week at the new job done.",
     ("Bob", "WORKS_AT", "Monzo", "assert")),
    ("Made the move to Leeds, the new job is intense.", ("Bob", "LIVES_IN", "Leeds", "assert")),
    ("Moved to Narva for a new job in June.", ("Bob", "LIVES_IN", "Narva", "assert")),
    ("Relocated to Vilnius for work last spring.", ("Bob", "LIVES_IN", "Vilnius", "assert")),
    ("We moved to Tartu last year, work is fine.", ("Bob", "LIVES_IN", "Tartu", "assert")),
    # the tagger calls both places: the gazetteer knows Narva (a town of 50,000), not Hooli
    ("Moved to Hooli last week, the new job is great.", ("Bob", "WORKS_AT", "Hooli", "assert")),
    ("Moved to Narva last week, the new job is great.", ("Bob", "LIVES_IN", "Narva", "assert")),
    ("Made the move to Stripe as a product manager.", ("Bob", "WORKS_AT", "Stripe", "assert")),
    ("Moved to Tartu as a teacher.", ("Bob", "LIVES_IN", "Tartu", "assert")),
])
def test_a_firm_moved_to_in_a_message_about_work_is_a_job_and_a_town_a_home(
        extractor: RuleExtractor, text: str, expected: Triple) -> None:
    """Also after "made the move to"; a town moved to for a job, or by a household, is a
    home; one name is never read as both."""
    found = triples(said(extractor, text))
    assert expected in found
    other = "LIVES_IN" if expected[1] == "WORKS_AT" else "WORKS_AT"
    assert not {t for t in found if t[1] == other and t[2] == expected[2]}


def test_a_job_moved_to_keeps_the_title_it_names(extractor: RuleExtractor) -> None:
    found = triples(said(extractor, "Moved over to Kessler Group as a data analyst in May."))
    assert {("Bob", "WORKS_AT", "Kessler Group", "assert"),
            ("Bob", "JOB_TITLE", "data analyst", "assert")} <= found
    assert not [t for t in triples(said(extractor, "Moved to Leeds as a student."))
                if t[1] == "JOB_TITLE"]


def test_moving_in_together_somewhere_is_living_there(extractor: RuleExtractor) -> None:
    assert ("Bob", "LIVES_IN", "Tartu", "assert") in triples(
        said(extractor, "we finally moved in together in Tartu last month"))
    assert not [t for t in triples(said(extractor, "I moved in 2019")) if t[1] == "LIVES_IN"]


@pytest.mark.parametrize("text", ["at Monzo I basically live in Excel all day now",
                                  "I live in VS Code all day lol"])
def test_living_in_a_tool_all_day_is_no_home(extractor: RuleExtractor, text: str) -> None:
    assert not [t for t in triples(said(extractor, text)) if t[1] == "LIVES_IN"]


@pytest.mark.parametrize(("text", "town"), [
    ("Spent my childhood in Ibadan, then uni in Leeds.", "Ibadan"),
    ("I spent my teens in Porto", "Porto"),
    ("grew up in Enugu, moved when I was twelve", "Enugu"),  # Enugu: tagged a person
])
def test_where_one_spent_ones_childhood_is_where_one_is_from(extractor: RuleExtractor,
                                                             text: str, town: str) -> None:
    assert {t[2] for t in triples(said(extractor, text)) if t[1] == "IS_FROM"} == {town}


@pytest.mark.parametrize("text", ["I spent a year in Lisbon", "spent my holiday in Cork",
                                  "spent my savings in Las Vegas"])
def test_time_spent_somewhere_else_is_not_where_one_is_from(extractor: RuleExtractor,
                                                            text: str) -> None:
    assert not [t for t in triples(said(extractor, text)) if t[1] == "IS_FROM"]


@pytest.mark.parametrize("text", [
    "I grew up in Kumasi before we moved to Canada.",
    "Spent my childhood in Ibadan until we moved to the Netherlands.",
    "Spent my adolescence in Enugu before we moved to the UK.",
])
def test_the_move_that_ended_a_childhood_is_no_home_now(extractor: RuleExtractor,
                                                        text: str) -> None:
    found = triples(said(extractor, text))
    assert [t for t in found if t[1] == "IS_FROM"]
    assert not [t for t in found if t[1] == "LIVES_IN"]


def test_a_move_after_a_home_still_is_one(extractor: RuleExtractor) -> None:
    assert ("Bob", "LIVES_IN", "York", "assert") in triples(
        said(extractor, "I lived in Leeds before we moved to York."))
