"""Which clauses state facts: small talk, questions and hypotheticals state none; hedges weaken."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import fact, said, triples

NO_FACTS = [
    "Hey Mel! How have you been?", "That sounds amazing!", "Thanks so much, see you later!",
    "Do you like coffee?", "You should try React.", "If I moved to Berlin, I would learn German.",
    "I love it!", "I think so too.", "I'm feeling a bit overwhelmed with everything lately.",
    "Take care and talk soon!", "Keep at it and don't give up!", "I have a question about the API.",
    "They motivate me and remind me why I'm doing this.", "I love his paintings.",
    "Whenever I run out of things to watch, I call you.",
    "My sister is getting married in October.", "I'm no writer like you.",
    "I love the thought, Nate!", "I'd love to join in!", "Don't forget to bring the tent!",
    # said, but not as holding: doubted, denied, nearly or never done
    "I'm not sure I still like jazz.", "It's not true that I live in Berlin.",
    "I no longer think I'll move to Rome.", "I doubt I'll join Stripe.",
    "I was going to join Stripe but didn't.", "I almost joined Stripe.",
    "I don't know if I like jazz.",
    # possible, not so: "may", "could", "would" state no value (nor close the one held)
    "I may switch to a vegan diet.", "I could live in Lisbon.", "My sister might work at Google.",
    # a statement asked back
    "I live in Paris?", "I work at Acme??",
]


def test_an_idiom_with_a_negation_is_not_a_denial(extractor: RuleExtractor) -> None:
    found = said(extractor, "I'm planning a ring-toss tournament, I can't wait!",
                 speaker="Alice")
    assert [(f.predicate, f.action) for f in found.facts] == [("PLANS", "assert")]


@pytest.mark.parametrize("text", NO_FACTS)
def test_small_talk_states_nothing(extractor: RuleExtractor, text: str) -> None:
    assert said(extractor, text, speaker="Alice").facts == []


def test_a_statement_asked_back_then_denied_is_denied(extractor: RuleExtractor) -> None:
    found = triples(said(extractor, "I live in Paris? No, I never lived in Paris."))
    assert found == {("Bob", "LIVES_IN", "Paris", "retract")}


@pytest.mark.parametrize(("text", "expected"), [
    ("I moved to Berlin last month, right?", ("Bob", "LIVES_IN", "Berlin", "assert")),
    ("I work at Acme, didn't you know?", ("Bob", "WORKS_AT", "Acme", "assert")),
    ("I'm starting at Stripe next month, isn't it wild?", ("Bob", "WORKS_AT", "Stripe", "assert")),
])
def test_a_statement_with_a_tag_question_is_read(extractor: RuleExtractor, text: str,
                                                 expected: tuple[str, str, str, str]) -> None:
    assert expected in triples(said(extractor, text))


def test_hedging_lowers_confidence(extractor: RuleExtractor) -> None:
    sure = fact(said(extractor, "I'm moving to Denver next month.", speaker="Alice"), "LIVES_IN")
    hedged = fact(said(extractor, "I think I might move to Denver.", speaker="Alice"), "PLANS")
    assert hedged.confidence < sure.confidence
    assert hedged.object == "move to Denver"


@pytest.mark.parametrize("text", ["Hi, I'm Maya", "My name is Maya.", "Hey all, I'm Maya."])
def test_introducing_oneself_by_ones_own_name_states_nothing(extractor: RuleExtractor,
                                                             text: str) -> None:
    assert said(extractor, text, speaker="Maya").facts == []
    assert [(f.subject, f.object) for f in said(extractor, text, speaker=None).facts] == [
        ("SELF", "Maya")]  # an unknown speaker's name is news
