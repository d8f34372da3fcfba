"""Facts carried by "to be" and by noun phrases alone (families.copula)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.cases import ONE_PER_RULE
from tests.extract.rules.conftest import Triple, family_cases, said, triples


@family_cases(ONE_PER_RULE["copula"])
def test_copula_rules(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "org"), [
    ("I hate my job at Microsoft.", "Microsoft"),
    ("I love my job at Google.", "Google"),  # "at Google" hung on the verb
    ("My job at Stripe is boring.", "Stripe"),
    ("I don't like my job at Initech anymore.", "Initech"),  # the job is still held
])
def test_a_job_spoken_of_as_held_names_the_employer(extractor: RuleExtractor, text: str,
                                                    org: str) -> None:
    assert ("Bob", "WORKS_AT", org, "assert") in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "I hated my old job at IBM.", "I'd love a job at Apple.", "I lost my job at Microsoft.",
    "I love my job at night."])
def test_a_job_not_held_now_names_no_employer(extractor: RuleExtractor, text: str) -> None:
    assert not [t for t in triples(said(extractor, text))
                if t[1] == "WORKS_AT" and t[3] == "assert"]


def test_the_city_one_works_in_is_home_only_without_a_workplace_between(
        extractor: RuleExtractor) -> None:
    assert ("Bob", "LIVES_IN", "Bilbao", "assert") in triples(
        said(extractor, "I'm a sous chef in Bilbao, the pintxos here ruin you"))
    found = triples(said(extractor, "I'm a nurse at Children's Hospital in Boston."))
    assert ("Bob", "WORKS_AT", "Children's Hospital", "assert") in found
    assert not {t for t in found if t[1] == "LIVES_IN"}  # a workplace's town may be a commute
    assert ("Bob", "WORKS_AT", "Globex", "assert") in triples(
        said(extractor, "I'm now the head of design at Globex."))


def test_a_joined_title_read_as_an_adjective_is_still_the_title(extractor: RuleExtractor) -> None:
    assert ("Bob", "JOB_TITLE", "platform lead", "assert") in triples(
        said(extractor, "Got promoted — I'm platform lead now."))


@pytest.mark.parametrize(("text", "expected"), [
    ("i'm all about water polo now, basketball is done",
     {("Bob", "PLAYS_SPORT", "water polo", "assert"), ("Bob", "PLAYS_SPORT", "basketball",
                                                       "retract")}),
    ("dropped Clojure; I'm all in on Erlang now.", {("Bob", "MAIN_LANGUAGE", "Erlang", "assert")}),
    ("I'm really into yoga.", {("Bob", "PLAYS_SPORT", "yoga", "assert")}),
    ("For context, I'm in São Paulo, so keep the timezone in mind.",
     {("Bob", "LIVES_IN", "São Paulo", "assert")}),
])
def test_what_one_is_all_about_into_or_in(extractor: RuleExtractor, text: str,
                                          expected: set[Triple]) -> None:
    assert expected <= triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("I'm all about the kids these days.", "PLAYS_SPORT"), ("I'm into jazz.", "PLAYS_SPORT"),
    ("I'm in Paris this week.", "LIVES_IN"),
])
def test_no_slot_in_a_liking_or_a_visit(extractor: RuleExtractor, text: str,
                                        predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == predicate}


@pytest.mark.parametrize(("text", "expected"), [
    ("Our new apartment is in Buenos Aires, we moved in December.",
     ("Bob", "LIVES_IN", "Buenos Aires", "assert")),
    ("I'm no longer in Helsinki, living out of a suitcase for now",
     ("Bob", "LIVES_IN", "Helsinki", "retract")),
    ("Correction: my manager is Tomasz. I wrote Gustavo by mistake.",
     ("Bob", "REPORTS_TO", "Tomasz", "assert")),
    ("My doctor suggested paleo, so that's my diet now", ("Bob", "DIET", "paleo", "assert")),
    ("just got the keys to a place in Amsterdam!", ("Bob", "LIVES_IN", "Amsterdam", "assert")),
    ("Swapped to a Moto G84, and honestly I love it.", ("Bob", "HAS_PHONE", "Moto G84", "assert")),
    ("I stopped working at Philips, I'm on a career break.",
     ("Bob", "WORKS_AT", "Philips", "retract")),
])
def test_a_home_job_or_value_said_around_the_slot(extractor: RuleExtractor, text: str,
                                                  expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", ["My house is in a mess.", "My sister's flat is in Rome.",
                                  "I got the keys to my car."])
def test_no_home_from_a_mess_or_someone_elses_flat(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[0] == "Bob" and t[1] == "LIVES_IN"}


def test_a_boss_named_is_the_reporting_line_alone(extractor: RuleExtractor) -> None:
    """"my boss Gerald": the reporting line, which a new manager ends; no "Gerald is Bob's
    boss" beside it that would stay true after the change."""
    found = said(extractor, "my boss Gerald is kind of a micromanager lol")
    assert triples(found) == {("Bob", "REPORTS_TO", "Gerald", "assert")}


def test_a_former_relation_is_worded_as_former(extractor: RuleExtractor) -> None:
    found = said(extractor, "My old boss Gerald called me.")
    assert [(f.predicate, f.object, f.text) for f in found.facts] == [
        ("KNOWS", "Gerald", "Gerald is Bob's old boss.")]


@pytest.mark.parametrize(("text", "expected"), [
    # chat drops the apostrophe: "im" is "I'm"
    ("yo. im Dev.", {("Bob", "IS_NAMED", "Dev", "assert")}),  # a name, not the title "dev"
    ("hey im Omar, barista at Blue Bottle in Oakland",
     {("Bob", "IS_NAMED", "Omar", "assert"), ("Bob", "JOB_TITLE", "barista", "assert"),
      ("Bob", "WORKS_AT", "Blue Bottle", "assert")}),
    ("I'm CTO at Acme.",  # a title in capitals, not a name
     {("Bob", "JOB_TITLE", "CTO", "assert"), ("Bob", "WORKS_AT", "Acme", "assert")}),
    ("im vegan now", {("Bob", "DIET", "vegan", "assert")}),
    # the title after a name and a dash, and where it is based
    ("hi! im Ruth - wedding planner based in Galway",
     {("Bob", "IS_NAMED", "Ruth", "assert"), ("Bob", "JOB_TITLE", "wedding planner", "assert"),
      ("Bob", "LIVES_IN", "Galway", "assert")}),
    ("Hello, I'm Piotr, 41, structural engineer based in Gdansk.",
     {("Bob", "IS_NAMED", "Piotr", "assert"),
      ("Bob", "JOB_TITLE", "structural engineer", "assert"),
      ("Bob", "LIVES_IN", "Gdansk", "assert")}),
])
def test_a_name_or_title_said_after_i_am(extractor: RuleExtractor, text: str,
                                         expected: set[Triple]) -> None:
    assert triples(said(extractor, text)) == expected


def test_life_news_after_a_heading_is_read_as_the_speakers(extractor: RuleExtractor) -> None:
    """A heading, then diary-style news without its "I", and a new job said as a phrase of
    its own (a new user's message lost Austin and Dell)."""
    found = triples(said(extractor, "ok so quick life update since we last talked: moved to "
                         "Austin in January, new job at Dell as a product manager, my wife Hana "
                         "is a nurse at St. David's, and we finally adopted a beagle named Pickles"))
    assert {("Bob", "LIVES_IN", "Austin", "assert"), ("Bob", "WORKS_AT", "Dell", "assert"),
            ("Bob", "JOB_TITLE", "product manager", "assert"),
            ("Bob", "MARRIED_TO", "Hana", "assert")} <= found
    assert ("Bob", "WORKS_AT", "St. David's", "assert") not in found  # Hana's


@pytest.mark.parametrize("text", ["I'm looking for a new job at Dell.",
                                  "A new job at Dell would be nice.", "I want a new job at Dell."])
def test_a_new_job_sought_is_no_job(extractor: RuleExtractor, text: str) -> None:
    assert not [t for t in triples(said(extractor, text)) if t[1] == "WORKS_AT"]


@pytest.mark.parametrize(("text", "expected"), [
    ("my cat is called Biscuit", ("Bob", "HAS_PET", "Biscuit", "assert")),
    ("my dog is named Rex", ("Bob", "HAS_PET", "Rex", "assert")),
    ("my cat's name is Biscuit", ("Bob", "HAS_PET", "Biscuit", "assert")),
    ("my boyfriend is Jake", ("Bob", "HAS_PARTNER", "Jake", "assert")),
    ("my wife is Priya", ("Bob", "MARRIED_TO", "Priya", "assert")),
    ("I have a sister, Anna", ("Bob", "HAS_SISTER", "Anna", "assert")),
    ("I have a new boss, Sarah", ("Bob", "REPORTS_TO", "Sarah", "assert")),
])
def test_a_relative_or_pet_named_in_a_sentence_of_its_own(extractor: RuleExtractor, text: str,
                                                          expected: Triple) -> None:
    """Seen by a new user: only "my cat Biscuit" (an appositive) was read."""
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "my sister is Canadian", "my wife is Italian", "my cat was called Tom",
    "my husband is a doctor", "I don't have a sister, Anna",
])
def test_no_name_is_given_where_none_is_said(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] in ("HAS_SISTER", "MARRIED_TO", "HAS_PET", "HAS_PARTNER")
                and t[3] == "assert"}


@pytest.mark.parametrize(("text", "owner", "title"), [
    ("I am a retired English teacher", "Bob", "English teacher"),
    ("I'm a former nurse", "Bob", "nurse"),
    ("my mum is a retired nurse", "Bob's mum", "nurse"),
])
def test_a_retired_or_former_title_is_not_held_now(extractor: RuleExtractor, text: str,
                                                   owner: str, title: str) -> None:
    """A new user's "retired English teacher" was stored as her current job title, and her
    context said she "works as a retired English teacher"."""
    found = triples(said(extractor, text))
    assert (owner, "JOB_TITLE", title, "retract") in found
    assert not {t for t in found if t[1] == "JOB_TITLE" and t[3] == "assert"}


def test_relatives_named_together_are_each_a_relative(extractor: RuleExtractor) -> None:
    """"My kids are Ella and Sam" stored only Ella, as "Ella is Ann's kids" (a fourth trial)."""
    found = said(extractor, "My kids are Ella and Sam.")
    assert triples(found) == {("Bob", "HAS_CHILD", "Ella", "assert"),
                              ("Bob", "HAS_CHILD", "Sam", "assert")}
    assert {f.text for f in found.facts} == {"Ella is Bob's kid.", "Sam is Bob's kid."}


@pytest.mark.parametrize(("text", "title"), [
    ("I'm a paramedic doing night shifts, any sleep tips?", "paramedic"),
    ("I'm a nurse working weekends.", "nurse"),
])
def test_a_title_the_parser_reads_as_a_modifier(extractor: RuleExtractor, text: str,
                                                title: str) -> None:
    """"a paramedic doing night shifts" parsed as one phrase about shifts."""
    assert ("Bob", "JOB_TITLE", title, "assert") in triples(said(extractor, text))


def test_a_title_denied_beside_the_right_one_is_left(extractor: RuleExtractor) -> None:
    found = said(extractor, "I'm not a paralegal, I'm a legal secretary.")
    assert {("Bob", "JOB_TITLE", "paralegal", "retract"),
            ("Bob", "JOB_TITLE", "legal secretary", "assert")} <= triples(found)
    assert not [f for f in found.facts if f.corrects]  # no cue: a change, not a slip
    assert not [t for t in triples(said(extractor, "I'm not a lawyer, but is this clause "
                                                   "enforceable?")) if t[1] == "JOB_TITLE"]


@pytest.mark.parametrize(("text", "title", "employer"), [
    ("now I'm a barrister at Hale Chambers in Leeds.", "barrister", "Hale Chambers"),
    ("I'm a sommelier at Osteria Lucca these days.", "sommelier", "Osteria Lucca"),
])
def test_a_trade_said_with_where_it_is_plied(extractor: RuleExtractor, text: str, title: str,
                                             employer: str) -> None:
    found = triples(said(extractor, text))
    assert {("Bob", "JOB_TITLE", title, "assert"), ("Bob", "WORKS_AT", employer, "assert")} <= found
