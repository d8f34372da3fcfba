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
