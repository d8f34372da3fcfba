"""Employers typed in lower case after a workplace's introduction (rules.orgcase), with the
real dictionary."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


@pytest.mark.parametrize(("text", "expected"), [
    ("got a part time job at tesco stacking shelves", ("Bob", "WORKS_AT", "Tesco", "assert")),
    ("i work at nike", ("Bob", "WORKS_AT", "Nike", "assert")),
    ("I work at farfetch as a backend developer", ("Bob", "WORKS_AT", "Farfetch", "assert")),
    ("my sister works at google", ("Bob's sister", "WORKS_AT", "Google", "assert")),
    # an emoji between words is a comma: "job 💪 barista" is no one noun phrase
    ("ok got the costa job 💪 barista now", ("Bob", "WORKS_AT", "Costa", "assert")),
    ("I got the Costa job", ("Bob", "WORKS_AT", "Costa", "assert")),
])
def test_employers_typed_in_lower_case(extractor: RuleExtractor, text: str,
                                       expected: Triple) -> None:
    """A fourth trial: "a job at tesco stacking shelves" stored "works at stacking"."""
    found = triples(said(extractor, text))
    assert expected in found
    assert not {t for t in found if t[1] == "WORKS_AT" and t[2].lower() == "stacking"}


@pytest.mark.parametrize("text", ["he works at home", "I work at night", "I work for myself",
                                  "she works at a bakery in town", "I got the London job",
                                  "got the new job"])
def test_everyday_words_after_work_at_are_no_employer_names(extractor: RuleExtractor,
                                                            text: str) -> None:
    assert not {t for t in triples(said(extractor, text))
                if t[1] == "WORKS_AT" and t[2][:1].isupper()}
