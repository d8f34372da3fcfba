"""Where a person studies, and when that ends (families.school)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import said, triples


@pytest.mark.parametrize(("text", "school"), [
    ("I enrolled at Leeds University.", "Leeds University"),
    ("I transferred to Leeds University.", "Leeds University"),
    ("transferred to the Technion, it's way harder", "Technion"),
    ("officially transferred my PhD to ETH Zurich, my supervisor moved there", "ETH Zurich"),
    ("I go to Leeds University.", "Leeds University"),
    ("I attend the University of Porto.", "the University of Porto"),
    ("I'm at Leeds University now.", "Leeds University"),
    ("I started at the University of Porto in September.", "the University of Porto"),
])
def test_studies_begin_where_a_school_is_named(extractor: RuleExtractor, text: str,
                                               school: str) -> None:
    assert ("Bob", "STUDIES_AT", school, "assert") in triples(said(extractor, text))


@pytest.mark.parametrize(("text", "school"), [
    ("I dropped out of college.", ""),
    ("I dropped out of Georgia Tech. long story", "Georgia Tech"),
    ("I graduated in May.", ""),
    ("I finished uni last summer.", ""),
])
def test_graduating_or_dropping_out_ends_the_studies(extractor: RuleExtractor, text: str,
                                                     school: str) -> None:
    assert ("Bob", "STUDIES_AT", school, "retract") in triples(said(extractor, text))


@pytest.mark.parametrize("text", [
    "I'm going to Leeds University next week.",  # a visit or a plan
    "I went to MIT.",  # history, said without when
    "I go to the gym.",  # no school
    "I transferred to the London office.",  # a job move
    "I transferred to Berlin.",
    "I dropped out of the race.",  # no school: nothing ends
    "I finished the book.",
    "I might transfer to Leeds University.",
])
def test_no_studies_without_a_school_or_when_only_considered(extractor: RuleExtractor,
                                                             text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "STUDIES_AT"}


def test_a_lecturer_at_a_university_works_there(extractor: RuleExtractor) -> None:
    assert triples(said(extractor, "I'm at Leeds University as a lecturer.")) == {
        ("Bob", "WORKS_AT", "Leeds University", "assert"),
        ("Bob", "JOB_TITLE", "lecturer", "assert")}
