"""States open a slot's value (families.states): copulas, possessed slot nouns, diets, employers.

Each sentence, taken from the issue and the dev temporal suite, must produce
exactly the facts listed.
"""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import REF, Triple, exact_cases, said, triples

B = "Bob"

CASES: list[tuple[str, set[Triple]]] = [
    # states open a value
    ("I joined Datadog as a staff engineer.",
     {(B, "WORKS_AT", "Datadog", "assert"), (B, "JOB_TITLE", "staff engineer", "assert")}),
    ("These days I'm employed by Globex.", {(B, "WORKS_AT", "Globex", "assert")}),
    ("My title is tech lead now.", {(B, "JOB_TITLE", "tech lead", "assert")}),
    ("My new job is at Figma.", {(B, "WORKS_AT", "Figma", "assert")}),
    ("My job is no longer at Figma.", {(B, "WORKS_AT", "Figma", "retract")}),
    ("My home is in Porto now.", {(B, "LIVES_IN", "Porto", "assert")}),
    ("My company is in Berlin.", set()),
    ("My car these days is a Tesla Model 3.", {(B, "DRIVES", "Tesla Model 3", "assert")}),
    ("My phone is a Galaxy S24.", {(B, "HAS_PHONE", "Galaxy S24", "assert")}),
    ("I use a Galaxy S24 as my phone.", {(B, "HAS_PHONE", "Galaxy S24", "assert")}),
    ("Got a new phone, a Pixel 8.", {(B, "HAS_PHONE", "Pixel 8", "assert")}),
    ("I'm with Massive Dynamic now.", {(B, "WORKS_AT", "Massive Dynamic", "assert")}),
    ("I got hired by Oscorp.", {(B, "WORKS_AT", "Oscorp", "assert")}),
    ("I report to Yusuf now.", {(B, "REPORTS_TO", "Yusuf", "assert")}),
    ("Camille became my boss after the reorg.", {(B, "REPORTS_TO", "Camille", "assert")}),
    ("My new manager is Rosa.", {(B, "REPORTS_TO", "Rosa", "assert")}),
    ("I'm vegetarian.", {(B, "DIET", "vegetarian", "assert")}),
    ("I eat vegan.", {(B, "DIET", "vegan", "assert")}),
    ("I'm trying a keto diet now.", {(B, "DIET", "keto", "assert")}),
    ("Kotlin is my main language now.", {(B, "MAIN_LANGUAGE", "Kotlin", "assert")}),
    ("My main programming language is Elixir.", {(B, "MAIN_LANGUAGE", "Elixir", "assert")}),
    ("Home for me is Prague.", {(B, "LIVES_IN", "Prague", "assert")}),
    ("I'm based in Oslo these days.", {(B, "LIVES_IN", "Oslo", "assert")}),
    ("Finally settled in Denver.", {(B, "LIVES_IN", "Denver", "assert")}),
    ("New job: Aperture Labs.", {(B, "WORKS_AT", "Aperture Labs", "assert")}),
    ("Started at Cyberdyne on Monday!", {(B, "WORKS_AT", "Cyberdyne", "assert")}),
    ("Tennis is my only sport now.", {(B, "PLAYS_SPORT", "tennis", "assert")}),
    ("My sport is cycling.", {(B, "PLAYS_SPORT", "cycling", "assert")}),
    ("Lisbon is home now.", {(B, "LIVES_IN", "Lisbon", "assert")}),
    ("I became a manager last year.", {(B, "JOB_TITLE", "manager", "assert")}),
    ("Currently living in Denver.", {(B, "LIVES_IN", "Denver", "assert")}),
    ("I lease a BMW X3.", {(B, "DRIVES", "BMW X3", "assert")}),
    ("I'm on an iPhone 15 now.", {(B, "HAS_PHONE", "iPhone 15", "assert")}),
    ("I accepted an offer from Google.", {(B, "WORKS_AT", "Google", "assert")}),
    ("I got promoted to senior engineer.", {(B, "JOB_TITLE", "senior engineer", "assert")}),
    ("I was promoted to team lead.", {(B, "JOB_TITLE", "team lead", "assert")}),
    ("I now call Lisbon home.", {(B, "LIVES_IN", "Lisbon", "assert")}),
    ("These days I mostly swim.", {(B, "PLAYS_SPORT", "swimming", "assert")}),
    # a coordinated clause does not lend its noun to the first clause's object
    ("I work at Siemens and my favourite band is Radiohead.",
     {(B, "WORKS_AT", "Siemens", "assert"), (B, "FAVORITE_BAND", "Radiohead", "assert")}),
]


@exact_cases(CASES)
def test_sentence_gives_exactly_these_facts(extractor: RuleExtractor, text: str,
                                            expected: set[Triple]) -> None:
    assert triples(said(extractor, text)) == expected


def test_a_past_state_opens_nothing(extractor: RuleExtractor) -> None:
    assert triples(said(extractor, "My manager was Henrik.")) == set()
    assert triples(said(extractor, "My favourite language is Python.")) == {
        (B, "FAVORITE_LANGUAGE", "Python", "assert")}


def test_a_company_that_hired_me_is_my_employer(extractor: RuleExtractor) -> None:
    assert triples(said(extractor, "Apple hired me as a designer.")) == {
        ("Bob", "WORKS_AT", "Apple", "assert"), ("Bob", "JOB_TITLE", "designer", "assert")}
    assert [(f.valid_from.date().isoformat(), f.text)
            for f in said(extractor, "Apple hired me in May.").facts] == [
        ("2024-05-01", "Bob works at Apple since May 2024.")]
    assert triples(said(extractor, "Apple hired Tom.")) == set()


@pytest.mark.parametrize(("text", "expected"), [
    ("I went back to eating meat.", ("Bob", "DIET", "vegetarian", "retract")),
    ("I returned to eating meat.", ("Bob", "DIET", "vegan", "retract")),
    ("I do judo twice a week.", ("Bob", "PLAYS_SPORT", "judo", "assert")),
    ("most of my day is C#, we're a .NET shop", ("Bob", "MAIN_LANGUAGE", "C#", "assert")),
    ("my research code is all Julia now", ("Bob", "MAIN_LANGUAGE", "Julia", "assert")),
    ("I've switched over to iOS work, it's Swift all day now",
     ("Bob", "MAIN_LANGUAGE", "Swift", "assert")),
    ("my main language is Ruby, been a Rails dev for years",
     ("Bob", "MAIN_LANGUAGE", "Ruby", "assert")),
    ("I started at the University of Porto in September.",
     ("Bob", "STUDIES_AT", "the University of Porto", "assert")),
])
def test_chat_phrasings_of_a_current_state(extractor: RuleExtractor, text: str,
                                           expected: tuple[str, str, str, str]) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "I might go back to eating meat.", "I didn't go back to eating meat.",
    "I went back to the office.", "most of my friends are Julia fans", "I met Julia."])
def test_no_diet_or_language_change_where_none_is_said(extractor: RuleExtractor,
                                                       text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] in ("DIET", "MAIN_LANGUAGE")}


@pytest.mark.parametrize(("text", "expected"), [
    ("I've been vegetarian my whole life, never eaten meat", ("Bob", "DIET", "vegetarian", "assert")),
    ("gave up paleo, I'm gluten-free now", ("Bob", "DIET", "gluten-free", "assert")),
    ("big news, just started at Blue Harbor Analytics this week!",
     ("Bob", "WORKS_AT", "Blue Harbor Analytics", "assert")),
    ("got poached by Redwing Aerospace! starting there as a test automation engineer",
     ("Bob", "WORKS_AT", "Redwing Aerospace", "assert")),
    ("we're in Copenhagen now, the bike lanes are amazing", ("Bob", "LIVES_IN", "Copenhagen", "assert")),
    ("Melbourne didn't happen, we ended up in Wellington instead!",
     ("Bob", "LIVES_IN", "Wellington", "assert")),
])
def test_chat_openers_and_fragments_still_state_the_fact(extractor: RuleExtractor, text: str,
                                                         expected: tuple[str, str, str, str]) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", ["I'm in Paris.", "I'm in Paris for the weekend.",
                                  "I'm in a meeting now.", "The news said it rained."])
def test_being_somewhere_is_no_home_unless_said_to_be_now(extractor: RuleExtractor,
                                                          text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "LIVES_IN"}


@pytest.mark.parametrize(("text", "expected"), [
    ("been doing low-carb for about a month now", ("Bob", "DIET", "low-carb", "assert")),
    ("I'm not doing low-carb anymore so bring on the pasta", ("Bob", "DIET", "low-carb", "retract")),
    ("New job, new language: it's all C# here.", ("Bob", "MAIN_LANGUAGE", "C#", "assert")),
    ("Nkechi's on leave, so Hamid is covering as my manager until early next year.",
     ("Bob", "REPORTS_TO", "Hamid", "assert")),
    ("Reorg again... I sit under Leticia now.", ("Bob", "REPORTS_TO", "Leticia", "assert")),
    ("Got a Pixel 8a to replace the A54, the camera is great",
     ("Bob", "HAS_PHONE", "Pixel 8a", "assert")),
])
def test_more_chat_phrasings_of_a_slot(extractor: RuleExtractor, text: str,
                                       expected: tuple[str, str, str, str]) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", ["I work under pressure.", "it's all good here",
                                  "Hamid is covering for Tom."])
def test_no_manager_or_language_where_none_is_named(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] in ("REPORTS_TO", "MAIN_LANGUAGE")}


@pytest.mark.parametrize(("text", "expected"), [
    ("The phone I carry around is a Pixel 9.", ("Bob", "HAS_PHONE", "Pixel 9", "assert")),
    ("The car I drive is a Golf.", ("Bob", "DRIVES", "Golf", "assert")),
    ("Toronto is home these days.", ("Bob", "LIVES_IN", "Toronto", "assert")),
    ("Home is Tel Aviv now - Toronto feels like ages ago.",
     ("Bob", "LIVES_IN", "Tel Aviv", "assert")),
    ("Day to day I program in Java.", ("Bob", "MAIN_LANGUAGE", "Java", "assert")),
    ("quick update: home base is Valencia now", ("Bob", "LIVES_IN", "Valencia", "assert")),
])
def test_a_slot_said_of_the_speakers_own(extractor: RuleExtractor, text: str,
                                          expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("The phone I want is a Pixel 9.", "HAS_PHONE"),
    ("The car I'd buy is a Golf.", "DRIVES"),
    ("The phone I had in college was a Nokia.", "HAS_PHONE"),
    ("Home is where the heart is.", "LIVES_IN"),
    ("My brother's home base is Lyon.", "LIVES_IN"),
    ("I use Python at work.", "MAIN_LANGUAGE"),
])
def test_no_slot_for_what_the_speaker_has_not(extractor: RuleExtractor, text: str,
                                              predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[0] == "Bob" and t[1] == predicate}


@pytest.mark.parametrize(("text", "expected"), [
    ("I'm off keto now.", ("Bob", "DIET", "keto", "retract")),
    ("I'm off all diets now, I just eat normally", ("Bob", "DIET", "", "retract")),
    ("I'm off phones for a month.", ("Bob", "HAS_PHONE", "", "retract")),
    ("I just eat normally", ("Bob", "DIET", "", "retract")),
    ("I don't really program anymore.", ("Bob", "MAIN_LANGUAGE", "", "retract")),
    ("I use an Xperia 5 V for everything.", ("Bob", "HAS_PHONE", "Xperia 5 V", "assert")),
    ("I'm gluten-free.", ("Bob", "DIET", "gluten-free", "assert")),
    ("I do jiu-jitsu twice a week.", ("Bob", "PLAYS_SPORT", "jiu-jitsu", "assert")),
])
def test_a_slot_ended_or_held_in_chat_words(extractor: RuleExtractor, text: str,
                                             expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("I'm off work today.", "DIET"), ("I'm off to Paris.", "LIVES_IN"),
    ("I don't program in Lua.", "MAIN_LANGUAGE"), ("I use Android Studio.", "HAS_PHONE"),
    ("I eat normally sized portions.", "DIET"),
])
def test_nothing_ends_where_nothing_is_said_to(extractor: RuleExtractor, text: str,
                                              predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == predicate}


@pytest.mark.parametrize(("text", "expected"), [
    ("I'm playing rugby now instead of playing handball",
     ("Bob", "PLAYS_SPORT", "handball", "retract")),
    ("I'm swimming now instead of playing cricket.", ("Bob", "PLAYS_SPORT", "swimming", "assert")),
    ("Sport-wise, I mostly do kickboxing.", ("Bob", "PLAYS_SPORT", "kickboxing", "assert")),
    ("Said goodbye to Melbourne and moved to Dubai", ("Bob", "LIVES_IN", "Dubai", "assert")),
])
def test_a_sport_or_home_in_other_words(extractor: RuleExtractor, text: str,
                                                expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("I'm playing tennis.", "PLAYS_SPORT"),
    ("She said she moved to Dubai.", "LIVES_IN"),
])
def test_no_sport_or_home_where_none_is_said(extractor: RuleExtractor, text: str,
                                                     predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[0] == "Bob" and t[1] == predicate}


@pytest.mark.parametrize(("text", "car"), [
    ("Got a new car, a Kia Niro.", "Kia Niro"),
    # an appositive that only says what kind of thing it is names no second car
    ("just bought a Mazda 3 hatchback, first car ever!!", "Mazda 3 hatchback"),
])
def test_a_new_thing_is_the_model_its_apposition_names(extractor: RuleExtractor, text: str,
                                                        car: str) -> None:
    drives = {t[2] for t in triples(said(extractor, text)) if t[1] == "DRIVES"}
    assert drives == {car}


@pytest.mark.parametrize(("text", "expected"), [
    ("I just started as a junior data analyst at Kestrel Insurance.",
     {("Bob", "WORKS_AT", "Kestrel Insurance", "assert"),
      ("Bob", "JOB_TITLE", "junior data analyst", "assert")}),
    # a value's emoji and its state ("second-hand") are no part of it
    ("i work at Brindle Games as a level designer 🎮",
     {("Bob", "WORKS_AT", "Brindle Games", "assert"),
      ("Bob", "JOB_TITLE", "level designer", "assert")}),
    ("I bought a second-hand Nissan Leaf.", {("Bob", "DRIVES", "Nissan Leaf", "assert")}),
    # what a partner is, not who
    ("My partner Rhona is still a vet.", {("Bob", "HAS_PARTNER", "Rhona", "assert"),
                                          ("Rhona", "JOB_TITLE", "vet", "assert")}),
])
def test_values_said_in_passing_are_read_clean(extractor: RuleExtractor, text: str,
                                               expected: set[Triple]) -> None:
    assert triples(said(extractor, text)) == expected


@pytest.mark.parametrize(("text", "school"), [
    ("I started at Stanford as a freshman last fall.", "Stanford"),  # had a job and a title
    ("I'm at Leeds as a PhD student now.", "Leeds"),
    ("I joined Harvard as a freshman in 2023.", "Harvard"),
    ("Starting at MIT as a grad student in September.", "MIT"),
])
def test_a_place_started_at_as_a_student_is_a_school_not_a_job(
        extractor: RuleExtractor, text: str, school: str) -> None:
    found = triples(said(extractor, text))
    assert ("Bob", "STUDIES_AT", school, "assert") in found
    assert not {t for t in found if t[1] in ("WORKS_AT", "JOB_TITLE")}


@pytest.mark.parametrize(("text", "employer", "title"), [
    ("I started at Google as a senior engineer in May.", "Google", "senior engineer"),
    ("I joined Stripe as a junior developer.", "Stripe", "junior developer"),
    ("I'm at Leeds University as a lecturer.", "Leeds University", "lecturer"),
])
def test_a_students_year_as_an_adjective_is_still_a_job(
        extractor: RuleExtractor, text: str, employer: str, title: str) -> None:
    found = triples(said(extractor, text))
    assert {("Bob", "WORKS_AT", employer, "assert"), ("Bob", "JOB_TITLE", title, "assert")} <= found


@pytest.mark.parametrize(("text", "employer"), [
    # a hand trial of 2026-11-29: nothing was stored ("bakery" lower case, its name a compound)
    ("Big news: I started at Crumbs bakery as head baker this week!", "Crumbs bakery"),
    ("I got a job at Crumbs bakery.", "Crumbs bakery"),
    ("I work at Luigi's pizzeria.", "Luigi's pizzeria"),
])
def test_a_business_named_before_its_noun_is_an_employer(
        extractor: RuleExtractor, text: str, employer: str) -> None:
    assert ("Bob", "WORKS_AT", employer, "assert") in triples(said(extractor, text))


def test_an_unnamed_business_is_no_employer(extractor: RuleExtractor) -> None:
    assert not {t for t in triples(said(extractor, "I started at the bakery this week."))
                if t[1] == "WORKS_AT"}


def test_a_title_started_with_the_job_starts_when_it_does(extractor: RuleExtractor) -> None:
    found = said(extractor, "I started at Crumbs bakery as head baker this week.")
    starts = {f.predicate: f.valid_from for f in found.facts}
    assert starts["JOB_TITLE"] == starts["WORKS_AT"] < REF  # this week's start, both


def test_a_students_year_begun_somewhere_is_study_there(extractor: RuleExtractor) -> None:
    # the fifth new-user trial: "Leo works at UC Davis" was stored
    found = triples(said(extractor, "just started freshman year at UC Davis, majoring in biology"))
    assert ("Bob", "STUDIES_AT", "UC Davis", "assert") in found
    assert not {t for t in found if t[1] == "WORKS_AT"}


@pytest.mark.parametrize(("text", "partner"), [
    ("my gf Ava and I broke up today. kinda rough", "Ava"),  # was stored as his girlfriend now
    ("My boyfriend Sam and I split up.", "Sam"),
    ("Me and my boyfriend Sam split up.", "Sam"),
])
def test_a_partner_named_in_a_break_up_is_not_a_partner_now(
        extractor: RuleExtractor, text: str, partner: str) -> None:
    found = triples(said(extractor, text))
    assert not {t for t in found if t[1] == "HAS_PARTNER" and t[3] == "assert"}
    assert {t for t in found if t[1] == "HAS_PARTNER" and t[3] == "retract"}


def test_a_sister_named_beside_a_fight_broken_up_is_still_a_sister(
        extractor: RuleExtractor) -> None:
    assert ("Bob", "HAS_SISTER", "Anna", "assert") in triples(
        said(extractor, "My sister Anna and I broke up the fight."))


@pytest.mark.parametrize(("text", "employer", "title"), [
    # a review of this round: these had become study
    ("I joined Deloitte as a junior.", "Deloitte", "junior"),
    ("I started at Google as a senior.", "Google", "senior"),
])
def test_a_standing_that_is_a_job_elsewhere_is_a_job_there(
        extractor: RuleExtractor, text: str, employer: str, title: str) -> None:
    found = triples(said(extractor, text))
    assert {("Bob", "WORKS_AT", employer, "assert"), ("Bob", "JOB_TITLE", title, "assert")} <= found
    assert not {t for t in found if t[1] == "STUDIES_AT"}


def test_a_standing_at_a_school_is_study(extractor: RuleExtractor) -> None:
    found = triples(said(extractor, "I'm at Leeds University as a senior."))
    assert ("Bob", "STUDIES_AT", "Leeds University", "assert") in found
    assert not {t for t in found if t[1] in ("WORKS_AT", "JOB_TITLE")}


@pytest.mark.parametrize(("text", "partner"), [
    ("My wife Ann and I watched a movie about a couple who broke up.", "Ann"),
    ("My girlfriend Ava is sad because her parents separated.", "Ava"),
    ("My husband Tom helped me when my parents divorced.", "Tom"),
])
def test_someone_elses_parting_leaves_the_speakers_partner(
        extractor: RuleExtractor, text: str, partner: str) -> None:
    assert {t[2] for t in triples(said(extractor, text))
            if t[1] in ("HAS_PARTNER", "MARRIED_TO") and t[3] == "assert"} == {partner}


def test_a_firm_the_tagger_takes_for_a_town_one_is_at_now(extractor: RuleExtractor) -> None:
    """The gazetteer knows no town called Cabify (the tagger's GPE); Leeds it knows."""
    assert ("Bob", "WORKS_AT", "Cabify", "assert") in triples(said(extractor, "I'm at Cabify now"))
    assert not [t for t in triples(said(extractor, "Back home. I'm at Leeds now"))
                if t[1] == "WORKS_AT" and t[3] == "assert"]


@pytest.mark.parametrize(("text", "expected"), [
    ("I've been at Stripe since March.", ("Bob", "WORKS_AT", "Stripe", "assert")),
    ("I've been with Stripe for a year now, love the job.", ("Bob", "WORKS_AT", "Stripe", "assert")),
    ("I've been in Lisbon for two years.", ("Bob", "LIVES_IN", "Lisbon", "assert")),
    ("I'm in Lisbon now.", ("Bob", "LIVES_IN", "Lisbon", "assert")),  # no trigger word in it
    ("These days I'm in Lisbon.", ("Bob", "LIVES_IN", "Lisbon", "assert")),
])
def test_a_stay_said_in_the_perfect_with_how_long_it_has_lasted(
        extractor: RuleExtractor, text: str, expected: tuple[str, str, str, str]) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", ["I've been in Lisbon for two weeks.",
                                  "I haven't been in Lisbon for years.",
                                  "I've been at Glastonbury twice.", "I've been in London before.",
                                  "I'm in London for a conference.",
                                  "I've been with Ines for three months now, it's getting serious"])
def test_a_visit_or_an_experience_in_the_perfect_is_no_home_or_job(extractor: RuleExtractor,
                                                                  text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] in ("LIVES_IN", "WORKS_AT")}
