"""Names typed in lower case after the relation that introduces them (rules.namecase), and
first names the tagger misreads: with the real first-name list and dictionary."""

from __future__ import annotations

import pytest

from graphmem.extract.base import CandidateFact
from graphmem.extract.rules import RuleExtractor
from graphmem.models import Message
from tests.extract.rules.conftest import REF, Triple, episode, said, triples


@pytest.mark.parametrize(("text", "expected"), [
    ("my bf tom works at amazon", ("Bob", "HAS_PARTNER", "Tom", "assert")),
    ("my sister jess lives in denver", ("Jess", "LIVES_IN", "Denver", "assert")),
    ("my sister jess lives in denver", ("Bob", "HAS_SISTER", "Jess", "assert")),
    ("my manager is dana kowalski", ("Bob", "REPORTS_TO", "Dana Kowalski", "assert")),
    ("my bf omar is great", ("Bob", "HAS_PARTNER", "Omar", "assert")),
    ("started seeing someone new, his name is omar", ("Bob", "HAS_PARTNER", "Omar", "assert")),
    ("marcus and i broke up :( started seeing someone new, his name is omar",
     ("Bob", "HAS_PARTNER", "Omar", "assert")),
    ("Emily lives in Denver now, not Chicago", ("Emily", "LIVES_IN", "Denver", "assert")),
    ("Kelly works at Google", ("Kelly", "WORKS_AT", "Google", "assert")),
    ("new manager at msft is raj patel, hes chill", ("Bob", "REPORTS_TO", "Raj Patel", "assert")),
])
def test_people_typed_as_people_type_them(extractor: RuleExtractor, text: str,
                                          expected: Triple) -> None:
    """Seen by a new user: lower-case names after "my sister", "my bf", "my manager is" were
    read as nouns, and "Emily" (tagged an adverb for its "-ly") was no subject: nothing was
    stored."""
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("my sister is vegan", "HAS_SISTER"),  # what she is, not who
    ("my manager is kinda strict", "REPORTS_TO"),
    ("new manager is kinda strict", "REPORTS_TO"),
    ("The new manager is Raj", "REPORTS_TO"),  # a manager, not said to be the speaker's
    ("my sister jsut moved to leeds", "HAS_SISTER"),  # a slip of "just", no name
    ("my brother will visit soon", "HAS_BROTHER"),  # "will" is a word here
    ("started seeing a therapist, her name is Dr Lee", "HAS_PARTNER"),
])
def test_words_after_a_relation_are_no_names(extractor: RuleExtractor, text: str,
                                             predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] == predicate and t[3] == "assert"}


@pytest.mark.parametrize(("text", "expected"), [
    ("got a hamster called nugget", ("Bob", "HAS_PET", "Nugget", "assert")),
    ("got a hamster called nugget 🐹", ("Bob", "HAS_PET", "Nugget", "assert")),  # not "Nugget 🐹"
    ("nugget died this morning", ("Bob", "HAS_PET", "Nugget", "retract")),
    ("my cat is called biscuit", ("Bob", "HAS_PET", "Biscuit", "assert")),
    ("we got a puppy named max", ("Bob", "HAS_PET", "Max", "assert")),
    ("gonna live w my dad prob", None),
])
def test_pets_named_in_lower_case(extractor: RuleExtractor, text: str,
                                  expected: Triple | None) -> None:
    """A fourth trial: "a hamster called nugget" stored a nameless hamster, so "nugget died"
    ended nothing; and "live w my dad prob" stored a father named "Prob"."""
    found = triples(said(extractor, text))
    if expected is None:
        assert not {t for t in found if "Prob" in t[2] or "Prob" in t[0]}
    else:
        assert expected in found


@pytest.mark.parametrize("text", ["mum died last year", "he passed away in May",
                                  "everything died down after that"])
def test_a_death_of_someone_unnamed_names_no_one(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "HAS_PET"}


def test_a_first_name_that_is_mostly_a_word_stays_a_word(extractor: RuleExtractor) -> None:
    """"left" is in the names dataset: "my manager left" had made Left a manager, whose
    retraction then stood in for the one the user's "no manager" meant."""
    stored = CandidateFact(id="f1", text="Bob reports to Marisol.", subject="Bob",
                           predicate="REPORTS_TO", object="Marisol", valid_from=REF, own=True)
    text = "my manager left and they haven't hired anyone yet, so I have no manager at the moment."
    extraction = extractor.extract(episode(Message(id="m", speaker="Bob", content=text)),
                                   [stored])
    assert triples(extraction) == {("Bob", "REPORTS_TO", "Marisol", "retract")}
