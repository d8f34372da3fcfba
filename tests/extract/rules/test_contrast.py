"""Contrastive negation: "X, not Y" states X and denies Y; how a correction is read
("*OCaml", "typo earlier: Dart, not Python"). Where it lands is in test_corrections."""

from __future__ import annotations

import pytest

from graphmem.extract.base import CandidateFact
from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import REF, Triple, episode, said, triples
from graphmem.models import Message


@pytest.mark.parametrize(("text", "right", "wrong"), [
    ("Sorry, I meant I work at Hooli, not Initech.", ("WORKS_AT", "Hooli"), ("WORKS_AT", "Initech")),
    ("I work for Hooli now, not for Initech.", ("WORKS_AT", "Hooli"),
     ("WORKS_AT", "Initech")),
    ("I live in Lisbon, not in Porto.", ("LIVES_IN", "Lisbon"), ("LIVES_IN", "Porto")),
    ("We moved to Oslo, not Bergen.", ("LIVES_IN", "Oslo"), ("LIVES_IN", "Bergen")),
    ("I use Vue, not React.", ("USES", "Vue"), ("USES", "React")),
    ("I like tea but not coffee.", ("LIKES", "tea"), ("LIKES", "coffee")),
    ("My manager is Sarah, not Tom.", ("REPORTS_TO", "Sarah"), ("REPORTS_TO", "Tom")),
    ("I'm vegetarian, not vegan.", ("DIET", "vegetarian"), ("DIET", "vegan")),
    # the parser leaves "Porto" hanging: no rule reads it, the stated value's slot denies it
    ("Sorry, I live in Lisbon, not Porto.", ("LIVES_IN", "Lisbon"), ("LIVES_IN", "Porto")),
    ("I drive a Honda, not a Toyota.", ("DRIVES", "Honda"), ("DRIVES", "Toyota")),
    # "instead of" / "rather than" deny the same way
    ("I moved to Lisbon instead of Porto.", ("LIVES_IN", "Lisbon"), ("LIVES_IN", "Porto")),
    ("I use Helix these days instead of Vim.", ("USES", "Helix"), ("USES", "Vim")),
    ("I bought a Tesla instead of a BMW.", ("DRIVES", "Tesla"), ("DRIVES", "BMW")),
])
def test_the_denied_value_is_retracted_never_asserted(
        extractor: RuleExtractor, text: str, right: tuple[str, str],
        wrong: tuple[str, str]) -> None:
    found = triples(said(extractor, text))
    assert ("Bob", *right, "assert") in found
    assert ("Bob", *wrong, "retract") in found
    assert ("Bob", *wrong, "assert") not in found


@pytest.mark.parametrize("text", [
    "I moved to Berlin, not because I wanted to.",
    "I love not only Python but also Go.",
    "I work at Globex, not that it matters.",
    "I moved to Berlin instead of staying in Paris.",
    "I said it was fine, but it's not.",
    "I'm at home, not working.",
])
def test_a_not_that_denies_no_value_changes_nothing(extractor: RuleExtractor, text: str) -> None:
    found = triples(said(extractor, text))
    assert not [t for t in found if t[1] in ("LIVES_IN", "LOVES", "WORKS_AT") and t[3] == "retract"]


@pytest.mark.parametrize("text", [
    "*this* song is so good",  # emphasis, not a correction
    "**Update**: I'm still here",
    "meant to tell you, the weather was great",
])
def test_what_only_looks_like_chat_shorthand_corrects_nothing(extractor: RuleExtractor,
                                                               text: str) -> None:
    stored = CandidateFact(id="f1", text="Bob lives in Porto.", subject="Bob",
                           predicate="LIVES_IN", object="Porto", valid_from=REF, own=True)
    extraction = extractor.extract(episode(Message(id="m", speaker="Bob", content=text)), [stored])
    assert not [t for t in triples(extraction) if t[3] == "retract"]


@pytest.mark.parametrize(("text", "slip"), [
    ("Sorry, I live in Lisbon, not Porto.", True),
    ("Actually, my car is a Honda, not a Toyota.", True),
    ("Wait, I work at Hooli, not Initech.", True),
    ("I work at Hooli, not Initech.", False),  # a contrast without a correction's words
    ("Actually I moved to Lisbon last year.", False),  # no value denied
    # a slip owned up to in words of its own, anywhere in the message
    ("I beg your pardon, I misspoke. We live in Wells, not Bath.", True),
    ("I must correct myself: I live in Wells, not Bath.", True),
    ("Forgive me, I made an error earlier. I live in Wells rather than Bath.", True),
    ("I gave you the wrong town. I live in Wells, not Bath.", True),
    ("I gave the wrong town earlier. I live in Wells, not Bath.", True),
    ("I should clarify that I work at Hooli, not Initech.", True),
    ("I misspoke earlier: I drive a Honda, not a Toyota.", True),
    # a mistake that was no slip of the tongue, and a slip with no value denied
    ("I made a mistake moving to Bath. I live in Wells now, not Bath.", False),
    ("Sorry if I misspoke. I moved to Wells last year.", False),
])
def test_a_contrast_said_as_a_correction_marks_a_slip(extractor: RuleExtractor, text: str,
                                                      slip: bool) -> None:
    facts = said(extractor, text).facts
    assert facts and all(f.corrects is slip for f in facts)


@pytest.mark.parametrize(("text", "right", "wrong"), [
    ("I'm pescatarian these days, no longer vegan.", ("DIET", "pescatarian"), ("DIET", "vegan")),
    ("I work at Hooli now, no longer at Initech.", ("WORKS_AT", "Hooli"),
     ("WORKS_AT", "Initech")),
])
def test_a_no_longer_after_a_comma_ends_only_its_own_value(
        extractor: RuleExtractor, text: str, right: tuple[str, str],
        wrong: tuple[str, str]) -> None:
    """The "no longer" of "X now, no longer Y" is Y's; X holds."""
    found = triples(said(extractor, text))
    assert ("Bob", *right, "assert") in found
    assert ("Bob", *wrong, "retract") in found
    assert ("Bob", *right, "retract") not in found


def test_a_plan_to_hang_up_a_sport_ends_nothing(extractor: RuleExtractor) -> None:
    assert not triples(said(extractor, "I'll hang up my tennis racket next year."))


def test_the_anymore_of_a_denied_value_is_its_own(extractor: RuleExtractor) -> None:
    assert triples(said(extractor, "I'm vegan these days, not keto anymore.")) == {
        ("Bob", "DIET", "vegan", "assert"), ("Bob", "DIET", "keto", "retract")}
    assert triples(said(extractor, "I live in Lisbon, not Porto anymore.")) == {
        ("Bob", "LIVES_IN", "Lisbon", "assert"), ("Bob", "LIVES_IN", "Porto", "retract")}


@pytest.mark.parametrize(("stored", "text", "right"), [
    (("MAIN_LANGUAGE", "Python"), "Typo earlier: Dart, not Python.", "Dart"),
    (("DIET", "paleo"), "typo earlier, it's gluten-free, not paleo.", "gluten-free"),
    (("LIVES_IN", "São Paulo"), "Small fix: Seattle, not São Paulo. I mix those two up.",
     "Seattle"),
    (("LIVES_IN", "Amsterdam"), "Autocorrect changed it, I'm in São Paulo, not Amsterdam.",
     "São Paulo"),
    (("PLAYS_SPORT", "field hockey"), "Typo earlier — it's fencing, not field hockey.", "fencing"),
    (("WORKS_AT", "Deutsche Bahn"), "Sorry, typo earlier — I meant Ocado, not Deutsche Bahn.",
     "Ocado"),
    (("LIVES_IN", "Tel Aviv"), "Typo in my last message: it's Montreal, not Tel Aviv.",
     "Montreal"),
    # the value labelled, by any one word, after chat's interjection
    (("WORKS_AT", "Hooli"), "lol correction: the employer is Initech, not Hooli", "Initech"),
    (("WORKS_AT", "Hooli"), "ok small fix: the compnay is Initech, not Hooli", "Initech"),
    (("DIET", "keto"), "Sorry, meant to type paleo there, not keto.", "paleo"),
    # owned, then contrasted with a word of the slip ("senior" of "senior engineer")
    (("JOB_TITLE", "senior engineer"), "oops I got that wrong - it's lead engineer, not senior.",
     "lead engineer"),
    (("WORKS_AT", "Globex"), "*Initech actually, the payments arm. same group lol", "Initech"),
])
def test_a_cued_correction_without_a_verb(extractor: RuleExtractor, stored: tuple[str, str],
                                          text: str, right: str) -> None:
    predicate, wrong = stored
    assert _after_stored(extractor, stored, text) == {("Bob", predicate, right, "assert"),
                                                      ("Bob", predicate, wrong, "retract")}


@pytest.mark.parametrize(("stored", "text", "right"), [
    (("LIVES_IN", "Leeds"), "Ignore the bit where I said Leeds; the city is York.", "York"),
    (("HAS_PHONE", "Pixel 6"), "Hang on, I said Pixel 6? It's an iPhone 14, my mistake.",
     "iPhone 14"),
    (("DIET", "paleo"), "Forget the paleo thing I wrote; it's pescatarian.", "pescatarian"),
    (("MAIN_LANGUAGE", "Go"), "Brain fart earlier: the language is Kotlin.", "Kotlin"),
    (("DIET", "vegan"), "Mixed up my words \u2014 the diet is vegetarian.", "vegetarian"),
])
def test_a_slip_owned_then_the_value_said_again(extractor: RuleExtractor,
                                                stored: tuple[str, str], text: str,
                                                right: str) -> None:
    """A slip named ("I said Pixel 6?", "the paleo thing I wrote") or owned ("brain fart"),
    then the right value as "it's X" or "the <slot> is X": the stored value is mended."""
    predicate, wrong = stored
    assert _after_stored(extractor, stored, text) == {("Bob", predicate, right, "assert"),
                                                      ("Bob", predicate, wrong, "retract")}


@pytest.mark.parametrize("text", [
    "Sorry, it's raining.",  # an apology owns no slip
    "Ugh, the city is York, so parking is hard.",  # no slip owned or named
    "I said Leeds? It's a long story.",  # "a long story" is no value
])
def test_a_restated_value_needs_a_slip_owned_or_named(extractor: RuleExtractor,
                                                      text: str) -> None:
    assert not [t for t in _after_stored(extractor, ("LIVES_IN", "Leeds"), text)
                if t[3] == "retract"]


def _after_stored(extractor: RuleExtractor, stored: tuple[str, str], text: str) -> set[Triple]:
    """What Bob's ``text`` says once Bob's ``stored`` (predicate, value) is in memory."""
    predicate, value = stored
    fact = CandidateFact(id="f1", text=f"Bob: {value}", subject="Bob", predicate=predicate,
                         object=value, valid_from=REF, own=True)
    return triples(extractor.extract(episode(Message(id="m", speaker="Bob", content=text)),
                                     [fact]))


def test_a_correction_after_an_ellipsis_mends_its_own_message(extractor: RuleExtractor) -> None:
    found = triples(said(extractor,
                         "I live in Berlin and I work at Zalando... sorry, I meant Delivery Hero"))
    assert ("Bob", "WORKS_AT", "Delivery Hero", "assert") in found
    assert ("Bob", "LIVES_IN", "Berlin", "assert") in found
    assert ("Bob", "WORKS_AT", "Zalando", "assert") not in found


def test_a_value_denied_for_two_subjects_is_denied_for_each(extractor: RuleExtractor) -> None:
    """"Actually, I misspoke in an earlier conversation: Geoffrey and I live in Wells, not
    Bath" (fifth trial) was read as a move: the denied town was retracted only when one
    subject had stated the value."""
    found = triples(said(extractor, "Geoffrey and I live in Wells, not Bath."))
    assert {("Bob", "LIVES_IN", "Bath", "retract"), ("Geoffrey", "LIVES_IN", "Bath", "retract")} \
        <= found


def test_a_correction_heading_makes_what_follows_it_correct(extractor: RuleExtractor) -> None:
    found = said(extractor, "Small correction about yesterday: I'm not a paralegal, I'm a legal "
                            "secretary. Same firm.")
    assert {(f.predicate, f.object, f.action, f.corrects) for f in found.facts} >= {
        ("JOB_TITLE", "paralegal", "retract", True),
        ("JOB_TITLE", "legal secretary", "assert", True)}
