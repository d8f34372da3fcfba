"""Likes, dislikes, preferences and the tools people and projects use (families.prefs)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.cases import ONE_PER_RULE
from tests.extract.rules.conftest import Triple, family_cases, said, triples


@family_cases(ONE_PER_RULE["prefs"])
def test_prefs_rules(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


def test_switch_of_a_multi_valued_tool_retracts_the_old_one(extractor: RuleExtractor) -> None:
    got = triples(said(extractor, "I switched from Vim to VS Code.", speaker="Alice"))
    assert got == {("Alice", "USES", "Vim", "retract"), ("Alice", "USES", "VS Code", "assert")}


def test_a_joined_clause_with_its_own_subject_is_that_subjects(extractor: RuleExtractor) -> None:
    """The parser hangs "Alfie" on "lessons"; "is obsessed" is still Alfie's, not Poppy's."""
    found = triples(said(extractor, "Poppy started violin lessons and Alfie is obsessed with "
                                    "dinosaurs."))
    assert ("Alfie", "LOVES", "dinosaurs", "assert") in found
    assert not [t for t in found if t[0] == "Poppy" and t[2] == "dinosaurs"]


@pytest.mark.parametrize("text", ["I use Go at work", "we use Go and Rust at work"])
def test_go_used_at_work_is_the_language(extractor: RuleExtractor, text: str) -> None:
    """Seen by a new user: the parser read "use Go at work" as "use [to] go", so nothing was
    stored."""
    assert ("Bob", "USES", "Go", "assert") in triples(said(extractor, text))
