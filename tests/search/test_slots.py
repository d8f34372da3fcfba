"""The slot matcher maps questions to registry slots by meaning, with the real MiniLM."""

from __future__ import annotations

import pytest

from graphmem.embed.base import Embedder
from graphmem.predicates import PredicateRegistry
from graphmem.search.slots import SlotMatcher


@pytest.fixture(scope="module")
def matcher(embedder: Embedder) -> SlotMatcher:
    return SlotMatcher(PredicateRegistry(), embedder)


@pytest.mark.parametrize(("question", "family"), [
    ("Where does X work?", "WORKS_AT"),
    ("Who did X work for?", "WORKS_AT"),
    ("Which city does X live in?", "LIVES_IN"),
    ("What phone did X use?", "HAS_PHONE"),
    ("What diet does X follow?", "DIET"),
    ("Which programming language did X use most?", "MAIN_LANGUAGE"),
    ("Which sport does X do?", "PLAYS_SPORT"),
    ("Who is X's manager?", "REPORTS_TO"),
    ("What car does X drive these days?", "DRIVES"),
    ("which frontend framework does X use?", "USES_FRAMEWORK"),
])
def test_paraphrases_find_their_slot(matcher: SlotMatcher, question: str, family: str) -> None:
    found = matcher.match(question)
    assert found is not None and found.spec.family == family, (question, found)


@pytest.mark.parametrize("question", [
    "What did X paint last summer?",
    "When did X go to the support group?",
    "How does X feel about the adoption?",
])
def test_open_questions_ask_for_no_slot(matcher: SlotMatcher, question: str) -> None:
    assert matcher.match(question) is None
