"""Negation, cessation and transition (families.change, and the negation guard in dispatch).

The cases are the sentences of the issue and of the dev temporal suite: each
must produce exactly the facts listed, and a negated statement must never be
asserted under any predicate.
"""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, exact_cases, said, triples

B = "Bob"

CASES: list[tuple[str, set[Triple]]] = [
    # negation and cessation close, never assert
    ("I no longer play tennis, my knee is bad.", {(B, "PLAYS_SPORT", "tennis", "retract")}),
    ("I'm not at Cyberdyne anymore, taking a break from work.",
     {(B, "WORKS_AT", "Cyberdyne", "retract")}),
    ("I don't work at Deloitte any more.", {(B, "WORKS_AT", "Deloitte", "retract")}),
    ("I'll never do CrossFit again.", {(B, "PLAYS_SPORT", "CrossFit", "retract")}),
    ("I prefer tea now; I gave up coffee.",
     {(B, "PREFERS", "tea", "assert"), (B, "LIKES", "coffee", "retract")}),
    ("I stopped doing frontend work entirely and don't use SolidJS anymore.",
     {(B, "USES_FRAMEWORK", "Solid.js", "retract")}),
    ("We rehomed our cat Milo.", {(B, "HAS_PET", "Milo", "retract")}),
    ("I gave up being vegetarian.", {(B, "DIET", "vegetarian", "retract")}),
    ("I'm not keto anymore, I eat everything again.",
     {(B, "DIET", "keto", "retract"), (B, "DIET", "", "retract")}),
    ("Felix isn't my manager anymore.", {(B, "REPORTS_TO", "Felix", "retract")}),
    # slots emptied without a value
    ("I left Aperture Labs last month and I'm unemployed for now.",
     {(B, "WORKS_AT", "Aperture Labs", "retract"), (B, "WORKS_AT", "", "retract")}),
    ("I stopped tennis after the injury and don't do any sport now.",
     {(B, "PLAYS_SPORT", "tennis", "retract"), (B, "PLAYS_SPORT", "", "retract")}),
    # transitions close X and open Y
    ("I left Stripe and joined Datadog as a staff engineer.",
     {(B, "WORKS_AT", "Stripe", "retract"), (B, "WORKS_AT", "Datadog", "assert"),
      (B, "JOB_TITLE", "staff engineer", "assert")}),
    ("I traded in my car for a Subaru Outback.",
     {(B, "DRIVES", "", "retract"), (B, "DRIVES", "Subaru Outback", "assert")}),
    ("I sold my old car and now drive a Honda Civic.",
     {(B, "OWNS", "car", "retract"), (B, "DRIVES", "", "retract"),
      (B, "DRIVES", "Honda Civic", "assert")}),
    ("I dropped Go; Rust is my go-to language now.",
     {(B, "USES", "Go", "retract"), (B, "MAIN_LANGUAGE", "Go", "retract"),
      (B, "MAIN_LANGUAGE", "Rust", "assert")}),
    ("I quit yoga and do swimming now.",
     {(B, "PLAYS_SPORT", "yoga", "retract"), (B, "PLAYS_SPORT", "swimming", "assert")}),
    ("I switched from climbing to tennis.",
     {(B, "PLAYS_SPORT", "climbing", "retract"), (B, "PLAYS_SPORT", "tennis", "assert")}),
    ("Replaced my Galaxy S24 with a Pixel 8.",
     {(B, "HAS_PHONE", "Galaxy S24", "retract"), (B, "HAS_PHONE", "Pixel 8", "assert")}),
    ("We packed up and moved from Cape Town to Vancouver.",
     {(B, "LIVES_IN", "Cape Town", "retract"), (B, "LIVES_IN", "Vancouver", "assert")}),
    ("I changed jobs from IBM to SAP.",
     {(B, "WORKS_AT", "IBM", "retract"), (B, "WORKS_AT", "SAP", "assert")}),
    ("I ditched my iPhone for a Pixel 9.",
     {(B, "HAS_PHONE", "iPhone", "retract"), (B, "HAS_PHONE", "Pixel 9", "assert")}),
    ("I used to live in Paris.", {(B, "LIVES_IN", "Paris", "retract")}),
    ("I don't drink coffee anymore.", {(B, "LIKES", "coffee", "retract")}),
    ("Chris and I aren't together anymore.", {(B, "HAS_PARTNER", "Chris", "retract")}),
    ("I'm not married anymore.",
     {(B, "RELATIONSHIP_STATUS", "married", "retract"), (B, "MARRIED_TO", "", "retract")}),
    ("Our cat Luna passed away last week.", {(B, "HAS_PET", "Luna", "retract")}),
    # found by hand: the name as the subject, the kind beside it; a job given up by name
    ("Our dog Rex died last week.", {(B, "HAS_PET", "Rex", "retract")}),
    ("Rex, our dog, passed away.", {(B, "HAS_PET", "Rex", "retract")}),
    ("I gave up my job at Acme.", {(B, "WORKS_AT", "Acme", "retract")}),
    ("I'm done with my job at Acme.", {(B, "WORKS_AT", "Acme", "retract")}),
    ("I got rid of my car.", {(B, "OWNS", "car", "retract"), (B, "DRIVES", "", "retract")}),
    ("I'm not allergic to peanuts after all.", {(B, "ALLERGIC_TO", "peanuts", "retract")}),
    ("I don't live in Rome after all.", {(B, "LIVES_IN", "Rome", "retract")}),
    ("We separated last year.", {(B, "RELATIONSHIP_STATUS", "separated", "assert"),
                                 (B, "MARRIED_TO", "", "retract")}),
    ("I'm done with tennis.", {(B, "PLAYS_SPORT", "tennis", "retract")}),
    ("I no longer drive.", {(B, "DRIVES", "", "retract")}),
    ("I switched my diet to keto.", {(B, "DIET", "keto", "assert")}),
    ("We're no longer together.", {(B, "HAS_PARTNER", "", "retract")}),
    ("We split up last year.", {(B, "HAS_PARTNER", "", "retract")}),
    ("I stepped down as CTO.", {(B, "JOB_TITLE", "CTO", "retract")}),
    ("My manager changed from Henrik to Rosa.",
     {(B, "REPORTS_TO", "Henrik", "retract"), (B, "REPORTS_TO", "Rosa", "assert")}),
    ("I gave my car to my son.", {(B, "OWNS", "car", "retract"), (B, "DRIVES", "", "retract")}),
    # "no longer with" a person ends the partner, not an employer (trial sentences)
    ("I'm no longer with Tom.", {(B, "HAS_PARTNER", "Tom", "retract")}),
    ("Sara is no longer with Tom.", {("Sara", "HAS_PARTNER", "Tom", "retract")}),
    ("I'm no longer with my girlfriend Ana.", {(B, "HAS_PARTNER", "Ana", "retract")}),
    ("I'm not with my boyfriend anymore.", {(B, "HAS_PARTNER", "", "retract")}),
    # a bare name's death: the speaker's pet of that name, if there is one, is gone
    ("Biscuit died last week.", {(B, "HAS_PET", "Biscuit", "retract")}),
    ("Luna passed away yesterday.", {(B, "HAS_PET", "Luna", "retract")}),
    ("Biscuit didn't die.", set()),
    # a name the parser reads as a plural noun; not a plural that names no pet
    ("Pickles passed away last month.", {(B, "HAS_PET", "Pickles", "retract")}),
    ("Grandparents passed away in 2019.", set()),
    ("Things died down.", set()),
    # a pet that ran away or went missing is gone too; people who do are not pets
    ("Our dog Max ran away.", {(B, "HAS_PET", "Max", "retract")}),
    ("Our cat went missing.", {(B, "HAS_PET", "cat", "retract")}),
    ("I ran away from home.", set()),
    ("Tom and I got engaged.", {(B, "RELATIONSHIP_STATUS", "engaged", "assert"),
                                (B, "HAS_PARTNER", "Tom", "assert")}),
    ("I went to the gym.", set()),
]


@exact_cases(CASES)
def test_sentence_gives_exactly_these_facts(extractor: RuleExtractor, text: str,
                                            expected: set[Triple]) -> None:
    assert triples(said(extractor, text)) == expected


NEGATED = [
    ("I no longer play tennis, my knee is bad.", "tennis"),
    ("I don't like jazz anymore.", "jazz"),
    ("We rehomed our cat Milo.", "Milo"),
    ("Our dog Rex was rehomed last week.", "Rex"),
    ("I'm not vegan anymore.", "vegan"),
    ("I never play golf any more.", "golf"),
    ("I don't drive the Volvo anymore.", "Volvo"),
    ("I'm no longer with Accenture.", "Accenture"),
]


@pytest.mark.parametrize(("text", "thing"), NEGATED, ids=[n[0][:40] for n in NEGATED])
def test_negated_statement_is_never_asserted(extractor: RuleExtractor, text: str,
                                             thing: str) -> None:
    facts = said(extractor, text).facts
    assert [f for f in facts if f.object == thing and f.action == "retract"], facts
    assert not [f for f in facts if f.object == thing and f.action == "assert"], facts


def test_quitting_a_job_without_naming_it_closes_the_employer(extractor: RuleExtractor) -> None:
    assert triples(said(extractor, "I'm unemployed at the moment.")) == {
        (B, "WORKS_AT", "", "retract")}



@pytest.mark.parametrize(("sentence", "org"), [
    ("I quit Acme Robotics to freelance.", "Acme Robotics"),
    ("I left Globex to start my own company.", "Globex"),
])
def test_leaving_a_job_for_a_purpose_still_ends_it(extractor: RuleExtractor, sentence: str,
                                                  org: str) -> None:
    assert (B, "WORKS_AT", org, "retract") in triples(said(extractor, sentence))


@pytest.mark.parametrize(("text", "expected"), [
    ("kickboxing is out, I've taken up paddleboarding",
     {("Bob", "PLAYS_SPORT", "kickboxing", "retract"),
      ("Bob", "PLAYS_SPORT", "paddleboarding", "assert")}),
    ("ok keto is over, I'm back to being pescatarian", {("Bob", "DIET", "keto", "retract")}),
    ("badminton is done for me, knee surgery.", {("Bob", "PLAYS_SPORT", "badminton", "retract")}),
    ("low-carb didn't last. I'm a vegetarian these days",
     {("Bob", "DIET", "low-carb", "retract"), ("Bob", "DIET", "vegetarian", "assert")}),
    ("cross-country skiing is my thing", {("Bob", "PLAYS_SPORT", "cross-country skiing", "assert")}),
    ("I went from vegetarian to vegan.",
     {("Bob", "DIET", "vegetarian", "retract"), ("Bob", "DIET", "vegan", "assert")}),
    ("swapped the Outback for a BMW i3, she was right",
     {("Bob", "DRIVES", "Outback", "retract"), ("Bob", "DRIVES", "BMW i3", "assert")}),
])
def test_a_habit_said_to_be_over_or_swapped(extractor: RuleExtractor, text: str,
                                            expected: set[tuple[str, str, str, str]]) -> None:
    assert expected <= triples(said(extractor, text))


@pytest.mark.parametrize("text", ["my brother's football is over", "the party is over",
                                  "I'll give up coffee.", "I'm going to quit my job at Google."])
def test_nothing_of_the_speakers_ends_by_someone_elses_or_a_future_ending(
        extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[0] == "Bob" and t[3] == "retract" and t[1] != "PLANS"}


def test_a_pet_lost_is_gone_but_lost_keys_are_no_fact(extractor: RuleExtractor) -> None:
    assert ("Bob", "HAS_PET", "Pepper", "retract") in triples(
        said(extractor, "We lost our greyhound Pepper last night, she was 12."))
    assert not triples(said(extractor, "I lost my keys."))


@pytest.mark.parametrize(("text", "expected", "absent"), [
    ("Dropped my phone in the sea. The replacement is a OnePlus 9 and so far so good.",
     {("Bob", "HAS_PHONE", "OnePlus 9", "assert")}, "retract"),  # it fell; nothing given up
    ("I dropped Java for Go.", {("Bob", "MAIN_LANGUAGE", "Java", "retract"),
                                ("Bob", "MAIN_LANGUAGE", "Go", "assert")}, None),
    ("Mochi the guinea pig died this morning", {("Bob", "HAS_PET", "Mochi", "retract")}, None),
    ("Leaving Wrenfield Clinic on Friday, so no more educator life for a while.",
     {("Bob", "WORKS_AT", "Wrenfield Clinic", "retract")}, None),
])
def test_what_ends_and_what_only_fell(extractor: RuleExtractor, text: str,
                                      expected: set[tuple[str, str, str, str]],
                                      absent: str | None) -> None:
    found = triples(said(extractor, text))
    assert expected <= found
    assert not {t for t in found if t[3] == absent}


@pytest.mark.parametrize(("text", "expected"), [
    ("quit the low-carb thing, eating whatever now", {("Bob", "DIET", "low-carb", "retract")}),
    ("I gave up the keto thing.", {("Bob", "DIET", "keto", "retract")}),
    ("Moved from dairy-free to gluten-free.", {("Bob", "DIET", "dairy-free", "retract"),
                                               ("Bob", "DIET", "gluten-free", "assert")}),
    ("Cricket has replaced everything else for me, sport-wise.",
     {("Bob", "PLAYS_SPORT", "Cricket", "assert")}),
    ("Cricket has replaced tennis for me.", {("Bob", "PLAYS_SPORT", "Cricket", "assert"),
                                             ("Bob", "PLAYS_SPORT", "tennis", "retract")}),
])
def test_a_value_given_up_or_replaced_in_chat_words(extractor: RuleExtractor, text: str,
                                                    expected: set[Triple]) -> None:
    assert expected <= triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("Our team moved off Scala; I'm on F# now.", {("Bob", "MAIN_LANGUAGE", "Scala", "retract"),
                                                  ("Bob", "MAIN_LANGUAGE", "F#", "assert")}),
    ("Moved over to Deloitte in March, the team is great.",
     {("Bob", "WORKS_AT", "Deloitte", "assert")}),
    ("I don't write Python anymore; I've moved into a role where I don't code.",
     {("Bob", "MAIN_LANGUAGE", "Python", "retract")}),
    ("I stopped playing rugby; now I do fencing", {("Bob", "PLAYS_SPORT", "rugby", "retract"),
                                                   ("Bob", "PLAYS_SPORT", "fencing", "assert")}),
    ("I got that wrong, I'm into Brazilian jiu-jitsu, not karate.",
     {("Bob", "PLAYS_SPORT", "Brazilian jiu-jitsu", "assert"),
      ("Bob", "PLAYS_SPORT", "karate", "retract")}),
    ("I've been playing ultimate frisbee since June, and honestly I love it.",
     {("Bob", "PLAYS_SPORT", "ultimate frisbee", "assert")}),
])
def test_a_team_job_or_sport_moved_on_from(extractor: RuleExtractor, text: str,
                                           expected: set[Triple]) -> None:
    assert expected <= triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("Moved over to Deloitte in March.", "LIVES_IN"), ("I'm on Python 3.11.", "MAIN_LANGUAGE"),
    ("I don't write Python.", "MAIN_LANGUAGE"), ("I'm fencing tomorrow.", "PLAYS_SPORT"),
])
def test_no_move_or_language_where_none_is_said(extractor: RuleExtractor, text: str,
                                               predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == predicate}


def test_a_move_over_the_holidays_is_a_move(extractor: RuleExtractor) -> None:
    assert triples(said(extractor, "we moved to Tartu over the holidays. cold but cozy")) == {
        ("Bob", "LIVES_IN", "Tartu", "assert")}


@pytest.mark.parametrize(("text", "expected"), [
    ("The Pixel 6 has been replaced by a Galaxy S21 FE; loving it so far.",
     {("Bob", "HAS_PHONE", "Pixel 6", "retract"), ("Bob", "HAS_PHONE", "Galaxy S21 FE", "assert")}),
    ("Leila Haddad replaced Anneke de Vries as my manager last week.",
     {("Bob", "REPORTS_TO", "Leila Haddad", "assert")}),
    ("Since August my main language has been Haskell.",
     {("Bob", "MAIN_LANGUAGE", "Haskell", "assert")}),
])
def test_a_value_replaced_in_the_passive_or_as_a_role(extractor: RuleExtractor, text: str,
                                                      expected: set[Triple]) -> None:
    assert expected <= triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    # a habit said now is the liking its end closes ("I don't drink coffee anymore")
    ("I drink way too much coffee, like 4 cups a day", {(B, "LIKES", "coffee", "assert")}),
    ("I drink green tea.", {(B, "LIKES", "green tea", "assert")}),
    ("I don't drink coffee anymore.", {(B, "LIKES", "coffee", "retract")}),
    ("I don't drink coffee.", set()),
    ("I drink a lot.", set()),
])
def test_a_drinking_habit_is_a_liking_that_can_end(extractor: RuleExtractor, text: str,
                                                    expected: set[Triple]) -> None:
    assert triples(said(extractor, text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a language switched away from is no longer used either; "Go" read as a verb
    ("I switched from Python to Go.", {(B, "MAIN_LANGUAGE", "Python", "retract"),
                                       (B, "MAIN_LANGUAGE", "Go", "assert"),
                                       (B, "USES", "Python", "retract")}),
    ("I switched from Python to Rust.", {(B, "MAIN_LANGUAGE", "Python", "retract"),
                                         (B, "MAIN_LANGUAGE", "Rust", "assert"),
                                         (B, "USES", "Python", "retract")}),
])
def test_a_language_switched_from_is_left(extractor: RuleExtractor, text: str,
                                          expected: set[Triple]) -> None:
    assert triples(said(extractor, text)) == expected


@pytest.mark.parametrize("text", ["I lost interest in chess", "honestly I've lost all interest in chess"])
def test_interest_lost_ends_the_pastime(extractor: RuleExtractor, text: str) -> None:
    assert ("Bob", "LIKES", "chess", "retract") in triples(said(extractor, text))


@pytest.mark.parametrize("text", ["I never lost interest in chess", "I might lose interest in chess",
                                  "I'll lose interest in chess soon"])
def test_interest_not_lost_ends_nothing(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[3] == "retract"}


@pytest.mark.parametrize(("text", "expected"), [
    ("we had to rehome Biscuit", ("Bob", "HAS_PET", "Biscuit", "retract")),
    ("I had to quit my job", ("Bob", "WORKS_AT", "", "retract")),
    ("I had to sell my car", ("Bob", "OWNS", "car", "retract")),
    ("dont really play tennis anymore, switched to padel",
     ("Bob", "PLAYS_SPORT", "padel", "assert")),
    ("dont really play tennis anymore, switched to padel",
     ("Bob", "PLAYS_SPORT", "tennis", "retract")),
])
def test_what_was_done_or_given_up_in_chat_shorthand(extractor: RuleExtractor, text: str,
                                                     expected: Triple) -> None:
    """A past obligation is what was done; a dropped "I" before "don't ... anymore" is the
    speaker's, and the clause after it is not under its "don't"."""
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "I have to sell my car", "I didn't have to sell my car", "don't forget the milk",
])
def test_what_is_still_to_do_or_an_order_ends_nothing(extractor: RuleExtractor,
                                                      text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[3] == "retract"}


def test_we_had_to_rehome_our_cat_does_not_keep_the_cat(extractor: RuleExtractor) -> None:
    found = triples(said(extractor, "we had to rehome our cat Biscuit"))
    assert ("Bob", "HAS_PET", "Biscuit", "retract") in found
    assert ("Bob", "HAS_PET", "Biscuit", "assert") not in found


@pytest.mark.parametrize(("text", "expected"), [
    ("vegan diet didnt stick tbh, eating fish again", ("Bob", "DIET", "vegan", "retract")),
    ("I used to live in Vancouver but not anymore, moved to toronto in 2023",
     ("Bob", "LIVES_IN", "Toronto", "assert")),
])
def test_more_endings_and_moves_in_chat(extractor: RuleExtractor, text: str,
                                        expected: Triple) -> None:
    """Seen by a new user: "didn't stick" ended nothing, and the first clause's "not
    anymore", hung by the parser on "moved", made the move to Toronto an ending."""
    found = triples(said(extractor, text))
    assert expected in found
    assert (*expected[:3], "retract" if expected[3] == "assert" else "assert") not in found


@pytest.mark.parametrize(("text", "expected"), [
    ("I stopped vegetarian, in Bavaria is too hard", ("Bob", "DIET", "vegetarian", "retract")),
    ("I stopped the german course, now my german is B2",
     ("Bob", "LEARNING", "german", "retract")),
    ("keto's gone out the window too, cant be bothered", ("Bob", "DIET", "keto", "retract")),
    ("think im done w skateboarding", ("Bob", "PLAYS_SPORT", "skateboarding", "retract")),
    ("That's the end of running for me.", ("Bob", "PLAYS_SPORT", "running", "retract")),
    ("I stopped painting last year", ("Bob", "HOBBY", "painting", "retract")),
])
def test_endings_a_fourth_trial_said_their_own_way(extractor: RuleExtractor, text: str,
                                                   expected: Triple) -> None:
    """A new user's endings that kept the value current: a diet stopped without "being",
    a language's course dropped, a diet "gone out the window", "done w" a sport, "the end
    of" a sport, a pastime stopped."""
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "that was the end of the film", "I stopped worrying about it", "we stopped for coffee",
])
def test_an_end_of_something_not_the_speakers_ends_nothing(extractor: RuleExtractor,
                                                           text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[3] == "retract"}


@pytest.mark.parametrize(("text", "expected"), [
    ("Geoffrey and I have parted ways, quite amicably.",
     ("Bob", "HAS_PARTNER", "Geoffrey", "retract")),
    ("I have given up the watercolours, I am afraid; my hands are not steady enough.",
     ("Bob", "LIKES", "watercolours", "retract")),
])
def test_a_couple_parted_and_a_giving_up_before_a_negated_clause(
        extractor: RuleExtractor, text: str, expected: Triple) -> None:
    """A fourth trial: "Geoffrey and I have parted ways" kept him current (only a job could
    be parted from), and the clause after a semicolon ("my hands are not steady") negated
    the giving up before it."""
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected"), [
    ("moved from Brightwell to Redgate Partners in March, same role though",
     {("Bob", "WORKS_AT", "Brightwell", "retract"),
      ("Bob", "WORKS_AT", "Redgate Partners", "assert")}),
    ("Moved from Ghent to Leuven in May.",
     {("Bob", "LIVES_IN", "Ghent", "retract"), ("Bob", "LIVES_IN", "Leuven", "assert")}),
    ("Moved over to Kotlin last year, loving it.", set()),  # a language: no home, no job
])
def test_a_move_from_one_firm_to_another_is_a_change_of_job(
        extractor: RuleExtractor, text: str, expected: set[Triple]) -> None:
    found = {t for t in triples(said(extractor, text)) if t[1] in ("WORKS_AT", "LIVES_IN")}
    assert found == expected
