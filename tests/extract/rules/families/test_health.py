"""Health conditions one lives with (families.health): said, diagnosed, ended, and what is
no condition."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


@pytest.mark.parametrize(("text", "expected"), [
    ("Also I have asthma, nothing serious", ("Bob", "HAS_CONDITION", "asthma", "assert")),
    ("I have Asthma", ("Bob", "HAS_CONDITION", "asthma", "assert")),
    ("my dad has type 2 diabetes", ("Bob's dad", "HAS_CONDITION", "type 2 diabetes", "assert")),
    ("I was diagnosed with ADHD last year", ("Bob", "HAS_CONDITION", "ADHD", "assert")),
    ("I suffer from migraines", ("Bob", "HAS_CONDITION", "migraines", "assert")),
    ("I'm diabetic", ("Bob", "HAS_CONDITION", "diabetes", "assert")),
    ("I don't have asthma anymore", ("Bob", "HAS_CONDITION", "asthma", "retract")),
])
def test_a_condition_one_lives_with(extractor: RuleExtractor, text: str,
                                    expected: Triple) -> None:
    """A fourth trial's "I have asthma" was stored nowhere: graphmem had no slot for health."""
    found = triples(said(extractor, text))
    assert expected in found
    assert not {t for t in found if t[1] == "OWNS"}  # "I have Asthma" owns nothing


@pytest.mark.parametrize("text", ["I have a cold", "I suffer from stage fright at work",
                                  "I might have asthma", "I don't have asthma",
                                  "my doctor thinks it could be asthma"])
def test_a_passing_illness_a_guess_or_a_denial_is_no_condition(extractor: RuleExtractor,
                                                                text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] == "HAS_CONDITION" and t[3] == "assert"}
