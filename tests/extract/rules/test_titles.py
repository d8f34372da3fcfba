"""Job titles of several words (extract.rules.titles): joined before the parse, so the
title is read whole, stated or ended, and nothing else is taken for one."""

from __future__ import annotations

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, exact_cases, said, triples

B = "Bob"

CASES: list[tuple[str, set[Triple]]] = [
    ("I am the team lead.", {(B, "JOB_TITLE", "team lead", "assert")}),
    ("I work as a tech lead.", {(B, "JOB_TITLE", "tech lead", "assert")}),
    ("I'm a team lead at Acme.", {(B, "JOB_TITLE", "team lead", "assert"),
                                  (B, "WORKS_AT", "Acme", "assert")}),
    ("I am now the head of design.", {(B, "JOB_TITLE", "head of design", "assert")}),
    ("I'm the director of engineering.", {(B, "JOB_TITLE", "director of engineering", "assert")}),
    ("I'm no longer the team lead.", {(B, "JOB_TITLE", "team lead", "retract")}),
    ("I'm not the team lead anymore.", {(B, "JOB_TITLE", "team lead", "retract")}),
    ("I stepped down as team lead.", {(B, "JOB_TITLE", "team lead", "retract")}),
    ("I'm not a manager anymore.", {(B, "JOB_TITLE", "manager", "retract")}),
    # not titles, or not the speaker's
    ("I'm not a doctor.", set()),
    ("My team leads the project.", set()),
    ("The team lead approved my leave.", set()),
]


@exact_cases(CASES)
def test_sentence_gives_exactly_these_facts(extractor: RuleExtractor, text: str,
                                            expected: set[Triple]) -> None:
    assert triples(said(extractor, text)) == expected


def test_a_promotion_to_a_title_of_several_words_keeps_its_date(extractor: RuleExtractor) -> None:
    [fact] = said(extractor, "I was promoted to vice president of sales in March.").facts
    assert (fact.predicate, fact.object, fact.action) == ("JOB_TITLE", "vice president of sales",
                                                          "assert")
    assert fact.valid_from is not None and (fact.valid_from.year, fact.valid_from.month) == (2024, 3)
