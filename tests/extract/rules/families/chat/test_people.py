"""People said in chat shorthand: a manager or partner named, a date, a pet
(families.chat.people)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


@pytest.mark.parametrize(("text", "expected"), [
    ("seeing someone new, his name is Karim. early days!",
     ("Bob", "HAS_PARTNER", "Karim", "assert")),
    ("I've been seeing a guy named Jonas for a couple of months",
     ("Bob", "HAS_PARTNER", "Jonas", "assert")),
])
def test_the_one_the_speaker_is_seeing_is_a_partner(extractor: RuleExtractor, text: str,
                                                    expected: tuple[str, str, str, str]) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("my sister is dating a guy called Niall", "HAS_PARTNER"),  # the sister's
])
def test_no_partner_where_someone_else_is_dating(extractor: RuleExtractor, text: str,
                                                 predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[0] == "Bob" and t[1] == predicate}


@pytest.mark.parametrize(("text", "expected"), [
    ("My manager's name is Teodora", ("Bob", "REPORTS_TO", "Teodora", "assert")),
    ("my new boss is called Sam Lee", ("Bob", "REPORTS_TO", "Sam Lee", "assert")),
    ("My boss has changed: it's Wiremu Tane now", ("Bob", "REPORTS_TO", "Wiremu Tane", "assert")),
    ("My wife's name is Ana.", ("Bob", "HAS_PARTNER", "Ana", "assert")),
])
def test_a_manager_or_partner_named_in_shorthand(extractor: RuleExtractor, text: str,
                                                 expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "predicate"), [
    ("My sister's manager's name is Teodora.", "REPORTS_TO"),  # hers, not the speaker's
])
def test_no_manager_named_for_someone_else(extractor: RuleExtractor, text: str,
                                           predicate: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[0] == "Bob" and t[1] == predicate}


def test_a_new_pet_named_in_the_next_sentence_is_one_pet(extractor: RuleExtractor) -> None:
    """"adopted a dog!! shes a greyhound named Luna" stored a pet called "dog" (new-user
    trial); the dog is Luna."""
    pets = {t for t in triples(said(extractor, "adopted a dog!! shes a greyhound named Luna"))
            if t[1] == "HAS_PET"}
    assert pets == {("Bob", "HAS_PET", "Luna", "assert")}
