"""How facts are worded and scored: third-person sentences, categories and importance."""

from __future__ import annotations

import re

from graphmem.extract.rules import RuleExtractor
from graphmem.extract.rules.render import display
from graphmem.models import Category
from tests.extract.rules.conftest import fact, said

def test_texts_are_third_person_sentences(extractor: RuleExtractor) -> None:
    extraction = said(extractor, "I prefer TypeScript and a functional style. My sister Anna "
                                 "lives in Paris. I'm allergic to peanuts.", speaker="Alice")
    for f in extraction.facts:
        assert f.text.endswith(".") and f.text[0].isupper()
        assert not re.search(r"\b(I|my|me)\b", f.text), f.text


def test_categories_and_importance(extractor: RuleExtractor) -> None:
    work = fact(said(extractor, "I work at Acme.", speaker="Alice"), "WORKS_AT")
    hobby = fact(said(extractor, "I love hiking.", speaker="Alice"), "LOVES")
    goal = fact(said(extractor, "I want to learn Rust.", speaker="Alice"), "GOAL")
    skill = fact(said(extractor, "I'm good at Python.", speaker="Alice"), "SKILLED_IN")
    assert work.category is Category.FACT and hobby.category is Category.PREFERENCE
    assert goal.category is Category.GOAL and skill.category is Category.SKILL
    assert work.importance > hobby.importance


def test_an_unnamed_users_relative_is_worded_as_the_users() -> None:
    """"My dad is a tram driver" from a user who gave no name: "The user's dad ...", never
    the placeholder "SELF's dad" (a new user saw it in the fact's text)."""
    assert display("SELF's dad") == "the user's dad"
    assert display("SELF") == "the user"
