"""People, pets and possessions (families.life; where one lives is families.home, in
test_home)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.cases import ONE_PER_RULE
from tests.extract.rules.conftest import Triple, family_cases, said, triples


@family_cases(ONE_PER_RULE["life"])
def test_life_rules(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


def test_a_partner_the_parser_hangs_off_the_verb_is_still_the_partner(
        extractor: RuleExtractor) -> None:
    # the small model reads "Raj" here as an interjection, "Tom" as a modifier
    assert triples(said(extractor, "Raj and I got married.")) == {
        ("Bob", "MARRIED_TO", "Raj", "assert")}
    assert triples(said(extractor, "Tom and I got married last June.")) == {
        ("Bob", "MARRIED_TO", "Tom", "assert")}
    # an interjection is not a partner
    assert triples(said(extractor, "Wow and I got married.")) == {
        ("Bob", "RELATIONSHIP_STATUS", "married", "assert")}


@pytest.mark.parametrize(("text", "owner", "name"), [
    ("I have a parrot called Kiwi.", "Bob", "Kiwi"),  # parsed as "Kiwi" modified by "called"
    ("We adopted a parrot called Kiwi.", "Bob", "Kiwi"),
    ("We adopted a tortoise called Speedy.", "Bob", "Speedy"),
    ("My sister has a cat called Mochi.", "Bob's sister", "Mochi"),
])
def test_a_pet_called_by_name_is_the_named_pet(extractor: RuleExtractor, text: str, owner: str,
                                               name: str) -> None:
    assert triples(said(extractor, text)) == {(owner, "HAS_PET", name, "assert")}


def test_a_switch_still_ahead_with_no_date_changes_nothing_yet(
        extractor: RuleExtractor) -> None:
    assert not {t for t in triples(said(extractor, "I'm going to switch to a Honda."))
                if t[1] == "DRIVES"}


@pytest.mark.parametrize(("text", "predicate", "obj", "start", "end"), [
    ("I lived in Paris from 2015 to 2020.", "LIVES_IN", "Paris", "2015-01-01", "2021-01-01"),
    ("I worked at Google from March 2016 until last year.", "WORKS_AT", "Google",
     "2016-03-01", "2024-01-01"),
])
def test_a_past_stretch_is_history_with_both_ends(
        extractor: RuleExtractor, text: str, predicate: str, obj: str, start: str,
        end: str) -> None:
    """A past "from X to Y" is what held then, not nothing (a bare past "I worked at
    Google" still says nothing of when) and not a current fact."""
    facts = said(extractor, text).facts
    assert [(f.predicate, f.object, f.action, f.valid_from.date().isoformat(),
             f.valid_until and f.valid_until.date().isoformat()) for f in facts] == [
        (predicate, obj, "assert", start, end)]
    assert facts[0].text == text.replace("I ", "Bob ", 1).replace("until last year", "to 2023")


@pytest.mark.parametrize(("text", "parent", "child"), [
    ("I had a baby girl named Ava.", "Bob", "Ava"),
    ("We had a baby boy, Leo.", "Bob", "Leo"),
    ("I gave birth to a son named Leo.", "Bob", "Leo"),
    ("My sister had a baby boy called Sam.", "Bob's sister", "Sam"),
])
def test_a_named_newborn_is_a_child(extractor: RuleExtractor, text: str, parent: str,
                                    child: str) -> None:
    assert triples(said(extractor, text)) >= {(parent, "HAS_CHILD", child, "assert")}


@pytest.mark.parametrize("text", ["I had a baby.", "I didn't have a baby.",
                                  "I had a great time."])
def test_no_named_newborn_no_child(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "HAS_CHILD"}


@pytest.mark.parametrize(("text", "expected"), [
    ("joined the rowing club. 6am sessions are brutal", ("Bob", "PLAYS_SPORT", "rowing", "assert")),
    ("joined a handball team, very Danish of me", ("Bob", "PLAYS_SPORT", "handball", "assert")),
    ("got a OnePlus 9 for my birthday, the battery lasts all day",
     ("Bob", "HAS_PHONE", "OnePlus 9", "assert")),
    ("I have a Nokia X30.", ("Bob", "HAS_PHONE", "Nokia X30", "assert")),
    ("bought a used Mazda MX-5 because life is short", ("Bob", "DRIVES", "Mazda MX-5", "assert")),
    ("we adopted a shiba named Mochi!!", ("Bob", "HAS_PET", "Mochi", "assert")),
    ("I'm not moving to Berlin after all.", ("Bob", "PLANS", "move to Berlin", "retract")),
])
def test_chat_phrasings_of_a_life_change(extractor: RuleExtractor, text: str,
                                         expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("I'm not going to move to Berlin.", "LIVES_IN"),
    ("I got a call from my mom.", "OWNS"),
])
def test_what_has_not_happened_to_the_speaker_changes_nothing(
        extractor: RuleExtractor, text: str, predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[0] == "Bob" and t[1] == predicate}


def test_a_relatives_relative_is_their_own_person(extractor: RuleExtractor) -> None:
    assert triples(said(extractor, "my best friend's husband drives a Tesla")) == {
        ("Bob's friend's husband", "DRIVES", "Tesla", "assert")}


@pytest.mark.parametrize(("text", "ended"), [
    ("My boyfriend and I broke up.", True),
    ("Tomás and I broke up.", True),
    ("tomás and i broke up last week 😢", True),
    ("Me and Tomás split up.", True),
    ("Tom and I broke up the fight.", False),
    ("My sister and her husband broke up.", False),
])
def test_the_speaker_and_another_breaking_up_ends_the_partner(
        extractor: RuleExtractor, text: str, ended: bool) -> None:
    found = triples(said(extractor, text))
    assert (("Bob", "HAS_PARTNER", "", "retract") in found) is ended


@pytest.mark.parametrize(("text", "pets"), [
    ("we adopted a kitten last week, her name is Miso 🐱", {"Miso"}),  # one pet, not two
    ("I have a dog and a cat named Tom.", {"dog", "Tom"}),
])
def test_a_pet_named_in_the_same_breath_is_one_pet(extractor: RuleExtractor, text: str,
                                                  pets: set[str]) -> None:
    assert {t[2] for t in triples(said(extractor, text)) if t[1] == "HAS_PET"} == pets


@pytest.mark.parametrize(("text", "expected"), [
    ("my mum lives in Leeds", ("Bob's mum", "LIVES_IN", "Leeds", "assert")),
    ("my sister works at Google", ("Bob's sister", "WORKS_AT", "Google", "assert")),
])
def test_a_verb_tagged_as_a_plural_noun_is_still_the_verb(extractor: RuleExtractor, text: str,
                                                          expected: Triple) -> None:
    """The tagger reads "lives" in "my mum lives in Leeds" as the plural of "life" (a new
    user's "my mum lives in Leeds" stored nothing; "my mom lives in Leeds" did)."""
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "partner"), [
    ("me n mia are officially together now", "Mia"),
    ("Mia and I are together now", "Mia"),
    ("been going out w priya for like 2 weeks", "Priya"),
    ("I'm dating Priya", "Priya"),
    ("I have been seeing Geoffrey for a month", "Geoffrey"),
    ("started seeing Omar last month", "Omar"),
    ("I have been seeing a gentleman called Geoffrey Hale, a retired solicitor.", "Geoffrey Hale"),
    ("Promoted to CFO 🎉. Also dating someone new, her name's Amara, she's a pharmacist.",
     "Amara"),
    ("been seeing someone new since the spring, Tobias. any date ideas?", "Tobias"),
    ("my fella Ruairi wants a dog", "Ruairi"),
    ("my novia Lucia just got a new job", "Lucia"),
])
def test_a_partner_said_in_the_words_of_dating(extractor: RuleExtractor, text: str,
                                               partner: str) -> None:
    """A new user's partners that were never stored: "together", "going out with",
    "dating", "been seeing"."""
    assert ("Bob", "HAS_PARTNER", partner, "assert") in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "I'm seeing Tom tomorrow", "went out with Priya last night", "going out with friends tonight",
    "we're together in Rome", "we were together for 3 years", "I saw Geoffrey at the club",
])
def test_a_meeting_a_night_out_or_a_past_couple_is_no_partner(extractor: RuleExtractor,
                                                              text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "HAS_PARTNER"}


def test_he_or_she_after_a_named_subject_is_that_person(extractor: RuleExtractor) -> None:
    """"Maria lives in Rome and she works at Fiat": the joined clause's "she" is Maria; a
    clause someone says ("Sarah said he moved") is not about its speaker."""
    assert ("Maria", "WORKS_AT", "Fiat", "assert") in triples(
        said(extractor, "Maria lives in Rome and she works at Fiat"))
    assert not {t for t in triples(said(extractor, "Sarah said he moved to London"))
                if t[0] == "Sarah"}


def test_a_business_opened_under_its_name_is_owned_by_that_name(extractor: RuleExtractor) -> None:
    # the fifth new-user trial: stored as "Priya owns a bakery", the name lost
    text = "I finally did it - I opened my own bakery, Crumbs Bakery, on Elm Street in Portland!"
    assert ("Bob", "OWNS", "Crumbs Bakery", "assert") in triples(said(extractor, text))


def test_a_pet_named_in_an_apposition_is_the_named_pet(extractor: RuleExtractor) -> None:
    # the fifth new-user trial: "Hannah has a dog." with no name, so "Biscuit died" ended nothing
    found = triples(said(extractor, "We adopted a dog from the shelter, a beagle called Biscuit."))
    assert {t for t in found if t[1] == "HAS_PET"} == {("Bob", "HAS_PET", "Biscuit", "assert")}


@pytest.mark.parametrize(("text", "partner"), [
    ("My wife Ann's mother passed away.", "Ann"),  # a review of this round: ended the marriage
    ("My girlfriend Ava's dog died yesterday.", "Ava"),
    ("My husband Geoffrey nearly died last year.", "Geoffrey"),
    ("My husband Geoffrey didn't die.", "Geoffrey"),
])
def test_a_death_that_is_not_the_partners_ends_no_partner(
        extractor: RuleExtractor, text: str, partner: str) -> None:
    found = triples(said(extractor, text))
    assert not {t for t in found if t[1] in ("HAS_PARTNER", "MARRIED_TO") and t[3] == "retract"}
    assert {t[2] for t in found if t[1] in ("HAS_PARTNER", "MARRIED_TO")} == {partner}


def test_a_partners_death_ends_the_marriage(extractor: RuleExtractor) -> None:
    assert ("Bob", "MARRIED_TO", "Geoffrey", "retract") in triples(
        said(extractor, "My husband Geoffrey passed away last week."))


@pytest.mark.parametrize("text", ["Geoffrey passed away in March.", "Geoffrey died last week."])
def test_a_death_said_by_name_alone_ends_a_partner_of_that_name(extractor: RuleExtractor,
                                                               text: str) -> None:
    """A new user's "Geoffrey passed away", her husband named before: a retraction of a
    value not held ends nothing, so a namesake who is no partner loses nothing."""
    found = triples(said(extractor, text))
    assert {("Bob", p, "Geoffrey", "retract") for p in ("MARRIED_TO", "HAS_PARTNER")} <= found
    assert not {t for t in found if t[3] == "assert"}


@pytest.mark.parametrize("text", ["Geoffrey nearly died.", "Geoffrey didn't die.",
                                  "My uncle Geoffrey died.", "Geoffrey will die of boredom."])
def test_no_partner_ends_when_no_bare_name_died(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] in ("MARRIED_TO", "HAS_PARTNER") and t[3] == "retract"}


@pytest.mark.parametrize(("text", "partner"), [
    ("Daniel proposed last night and I said yes!", "Daniel"),
    ("Daniel proposed to me last night!", "Daniel"),
    ("I proposed to Sofia on the beach and she said yes.", "Sofia"),
])
def test_who_proposed_or_was_proposed_to_is_a_partner(extractor: RuleExtractor, text: str,
                                                      partner: str) -> None:
    """A new user's "Daniel proposed... we're engaged" stored no partner."""
    assert ("Bob", "HAS_PARTNER", partner, "assert") in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "Daniel proposed a new plan at work.", "Daniel proposed to Emma.", "I proposed a toast.",
    "Daniel proposed that we meet at noon.", "Daniel didn't propose.", "He proposed!",
    "Daniel might propose soon.",
])
def test_a_proposal_of_something_or_to_someone_else_is_no_partner(extractor: RuleExtractor,
                                                                  text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "HAS_PARTNER"}


def test_a_clause_joined_before_i_said_is_not_what_was_said(extractor: RuleExtractor) -> None:
    """"Tom moved to Leeds and I said nothing": the parser hangs the move on "said" as what
    was said; an "and" between them joins them instead."""
    assert ("Tom", "LIVES_IN", "Leeds", "assert") in triples(
        said(extractor, "Tom moved to Leeds and I said nothing."))
    assert not {t for t in triples(said(extractor, "Tom moved to Leeds, I said.")) if t[0] == "Tom"}


def test_a_possession_still_to_be_sold_is_kept(extractor: RuleExtractor) -> None:
    found = triples(said(extractor, "I'm going to sell my Honda Civic."))
    assert ("Bob", "PLANS", "sell Honda Civic", "assert") in found
    assert not {t for t in found if t[3] == "retract"}
    sold = triples(said(extractor, "I sold my Honda Civic."))
    assert {("Bob", "DRIVES", "Honda Civic", "retract"),
            ("Bob", "OWNS", "Honda Civic", "retract")} <= sold


@pytest.mark.parametrize("text", ["I have no car.", "I've got no phone.", "We have no pets."])
def test_what_no_one_has_is_owned_by_no_one(extractor: RuleExtractor, text: str) -> None:
    """"no" before the thing negates it: nothing is asserted (an empty slot is retracted)."""
    assert not [t for t in triples(said(extractor, text)) if t[3] == "assert"]


def test_a_car_named_after_chats_exclamation(extractor: RuleExtractor) -> None:
    assert ("Bob", "DRIVES", "Nissan Note", "assert") in triples(
        said(extractor, "finally bought a car!! a secondhand Nissan Note, so happy"))


@pytest.mark.parametrize("text", ["totaled my car on the ring road, I'm fine",
                                  "I wrote off my car last winter."])
def test_a_car_wrecked_is_gone(extractor: RuleExtractor, text: str) -> None:
    assert ("Bob", "DRIVES", "", "retract") in triples(said(extractor, text))


def test_a_partner_named_the_tagger_took_for_a_town(extractor: RuleExtractor) -> None:
    """"Tomasz" tagged a place: right after "my husband" it is his name."""
    found = triples(said(extractor,
                         "my husband Tomasz is turning 40 next month, help me plan a party"))
    assert ("Bob", "MARRIED_TO", "Tomasz", "assert") in found


@pytest.mark.parametrize("text", ["Ruairi and I called it quits last week.",
                                  "Lucia and I went our separate ways, it's for the best"])
def test_a_couple_calling_it_quits_ends_the_partner(extractor: RuleExtractor, text: str) -> None:
    name = text.split()[0]
    assert ("Bob", "HAS_PARTNER", name, "retract") in triples(said(extractor, text))


def test_a_wish_someone_has_for_the_speaker_is_no_fact(extractor: RuleExtractor) -> None:
    """"wants us to try paleo": what another wants the speaker to do, not what they do."""
    found = triples(said(extractor, "my wife Ines wants us to try paleo together"))
    assert not [t for t in found if t[1] == "DIET"], found
