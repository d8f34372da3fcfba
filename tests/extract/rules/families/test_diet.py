"""Diets started, ended and ruled out by what one eats (families.diet)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import said, triples


@pytest.mark.parametrize(("text", "ended"), [
    ("I started eating meat again.", {"vegetarian", "vegan", "pescatarian"}),
    ("I eat fish again.", {"vegetarian", "vegan"}),
    ("I've started eating eggs.", {"vegan"}),
])
def test_eating_again_what_a_diet_rules_out_ends_it(extractor: RuleExtractor, text: str,
                                                    ended: set[str]) -> None:
    assert triples(said(extractor, text)) == {("Bob", "DIET", d, "retract") for d in ended}


@pytest.mark.parametrize("text", ["I'm a vegetarian but I still eat eggs.", "I don't eat meat.",
                                  "I ate chicken yesterday.", "I might eat fish again."])
def test_eating_as_a_habit_or_once_ends_no_diet(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[3] == "retract"}


@pytest.mark.parametrize("text", ["im not vegan", "Im not vegan lol", "im not vegan btw"])
def test_a_diet_denied_in_chat_is_no_diet(extractor: RuleExtractor, text: str) -> None:
    """The parser reads "vegan" as the verb there and hangs "not" on "'m"."""
    found = triples(said(extractor, text))
    assert ("Bob", "DIET", "vegan", "assert") not in found
    assert ("Bob", "DIET", "vegan", "retract") in found


@pytest.mark.parametrize("text", ["My doctor has put me on a low-salt diet.",
                                  "I'm on a low-salt diet now"])
def test_a_diet_one_is_put_on_or_is_on(extractor: RuleExtractor, text: str) -> None:
    """A new user's doctor-ordered diet was not stored: neither "put me on" nor "on a ...
    diet" was read, and "low-salt" was no diet word."""
    assert ("Bob", "DIET", "low-salt", "assert") in triples(said(extractor, text))


def test_someone_else_put_on_a_diet_is_not_the_speaker(extractor: RuleExtractor) -> None:
    assert not triples(said(extractor, "The vet put our dog on a diet."))


@pytest.mark.parametrize(("text", "diet"), [
    ("started low-FODMAP last week, fingers crossed", "low-fodmap"),
    ("I began a gluten-free diet in May.", "gluten-free"),
])
def test_a_diet_started(extractor: RuleExtractor, text: str, diet: str) -> None:
    """A hyphenated diet with an acronym's capitals is one word, and "start" begins it."""
    assert ("Bob", "DIET", diet, "assert") in triples(said(extractor, text))
