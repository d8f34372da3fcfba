"""Names and age read off the text before any parse (families.lexical)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.cases import ONE_PER_RULE
from tests.extract.rules.conftest import Triple, family_cases, said, triples


@family_cases(ONE_PER_RULE["lexical"])
def test_lexical_rules(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "expected", "held"), [
    ("I changed my name to Maya Lopez.", ("Bob", "IS_NAMED", "Maya Lopez", "assert"), True),
    ("I'm thinking of changing my name to Lopez.", ("Bob", "IS_NAMED", "Lopez", "assert"), False),
])
def test_a_new_name_is_the_speakers_only_once_taken(extractor: RuleExtractor, text: str,
                                                    expected: Triple, held: bool) -> None:
    assert (expected in triples(said(extractor, text))) is held


@pytest.mark.parametrize(("text", "name"), [
    # the seventh trial: the tagger read these names as an adjective, a town or an adverb
    ("I'm Rory.", "Rory"), ("hey im rory", "Rory"), ("I'm Jayden.", "Jayden"),
    ("I'm Emily.", "Emily"),
])
def test_a_name_the_tagger_misreads_is_still_the_speakers(extractor: RuleExtractor, text: str,
                                                           name: str) -> None:
    assert ("Bob", "IS_NAMED", name, "assert") in triples(said(extractor, text))


@pytest.mark.parametrize("text", ["I'm Knackered.", "I'm Fine.", "I'm Sure.", "I'm Will."])
def test_a_word_after_im_is_no_name(extractor: RuleExtractor, text: str) -> None:
    assert not [t for t in triples(said(extractor, text)) if t[1] == "IS_NAMED"]


def test_my_name_is_will_is_a_name(extractor: RuleExtractor) -> None:
    """"Will" is also a word: "I'm Will." names no one, "My name is Will." does."""
    assert ("Bob", "IS_NAMED", "Will", "assert") in triples(said(extractor, "My name is Will."))
