"""The sentence gate: what is worth parsing."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from graphmem.extract.rules.gate import Gate, split_sentences
from graphmem.models import Message
from tests.extract.rules.conftest import episode, gold_rows, said, triples


@pytest.mark.parametrize("text", ["I'm with Globex now.", "I'm not at Cyberdyne anymore.",
                                  "I'm unemployed for now.", "I eat pescatarian.",
                                  "Home for me is Kyoto.", "Our daughter Mia was born in May."])
def test_change_sentences_pass_the_gate(text: str) -> None:
    assert Gate().worth_parsing(text)


def test_gate_changes_nothing_on_the_gold_set(extractor: RuleExtractor) -> None:
    """Skipping sentences before parsing is an optimisation only."""
    ungated = RuleExtractor(prefilter=False)
    for r in gold_rows():
        ep = episode(Message(id="m", speaker=r["speaker"], content=str(r["text"])))  # type: ignore[arg-type]
        assert triples(extractor.extract(ep, [])) == triples(ungated.extract(ep, [])), r["text"]


@pytest.mark.parametrize(("text", "pieces"), [
    # chat's lower-case sentence openings end the sentence before them
    ("hey im zoe lol. omg just got a puppy", ["hey im zoe lol.", "omg just got a puppy"]),
    # an abbreviation, a time of day and a lower-case word after a capital's dot do not
    ("I start at 9 a.m. tomorrow", ["I start at 9 a.m. tomorrow"]),
    ("we moved to St. albans last year", ["we moved to St. albans last year"]),
    ("I use vim, emacs etc. and more", ["I use vim, emacs etc. and more"]),
    # a heading before a diary clause, even one naming a slot, and after a clause of its own
    ("new job: joined Brightwell last week", ["new job:", "joined Brightwell last week"]),
    ("Sold the flat in Leeds, big news though: moved to Hull", [
        "Sold the flat in Leeds.", "big news though:", "moved to Hull"]),
    ("Todo: call the landlord", ["Todo: call the landlord"]),  # a label keeps its clause
    ("New phone: a Pixel 8", ["New phone: a Pixel 8"]),  # a slot's label keeps its value
    # a list's last item is no heading; someone else's news keeps its heading
    ("We moved to Leeds, Bristol, Bath: loved them all",
     ["We moved to Leeds, Bristol, Bath:", "loved them all"]),
    ("Tom's new job: started at Google", ["Tom's new job: started at Google"]),
])
def test_sentences_are_split_where_chat_ends_them(text: str, pieces: list[str]) -> None:
    assert split_sentences(text) == pieces


def test_a_full_stop_before_a_lower_case_opening_of_chat_ends_a_sentence() -> None:
    """"didn't take the role. our new manager is Ana. what should i ask her?": the question
    at the end is a sentence of its own, and does not make the rest one."""
    assert split_sentences("didn't take it. our new manager is Ana. what should i ask her?") == [
        "didn't take it.", "our new manager is Ana. what should i ask her?"]


def test_a_statement_before_a_lower_case_question_is_read(extractor: RuleExtractor) -> None:
    found = triples(said(extractor, "didn't take the role in the end. our new manager is an "
                                    "external hire, Agnieszka. what should i ask her?"))
    assert ("Bob", "REPORTS_TO", "Agnieszka", "assert") in found
