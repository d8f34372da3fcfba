"""Whom a person reports to (families.manager)."""

from __future__ import annotations

import pytest

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.conftest import Triple, said, triples


@pytest.mark.parametrize(("text", "expected"), [
    ("i answer to Siobhan at work.", ("Bob", "REPORTS_TO", "Siobhan", "assert")),
    ("Siobhan got promoted and Carlos Mendes took over as my manager.",
     ("Bob", "REPORTS_TO", "Carlos Mendes", "assert")),
    ("Gustavo runs our team and is my direct manager.",
     ("Bob", "REPORTS_TO", "Gustavo", "assert")),
    ("The reorg put me under Sunita.", ("Bob", "REPORTS_TO", "Sunita", "assert")),
    ("i work under Tomasz", ("Bob", "REPORTS_TO", "Tomasz", "assert")),
    ("Wiebke, my new manager at Zalando, loves long meetings",
     ("Bob", "REPORTS_TO", "Wiebke", "assert")),
    # chat's interjection is no part of the name the tagger folds it into
    ("lol Priyanka is my manager now", ("Bob", "REPORTS_TO", "Priyanka", "assert")),
    ("omg Marco Bianchi isn't my boss anymore", ("Bob", "REPORTS_TO", "Marco Bianchi",
                                                 "retract")),
])
def test_a_manager_in_other_words(extractor: RuleExtractor, text: str,
                                  expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


@pytest.mark.parametrize("text", ["Tom took over as team captain.", "I work under pressure.",
                                  "I answer to nobody."])
def test_no_manager_where_none_is_named(extractor: RuleExtractor, text: str) -> None:
    assert not {t for t in triples(said(extractor, text)) if t[1] == "REPORTS_TO"}


def test_the_name_beside_the_role_one_reports_to_is_the_manager(extractor: RuleExtractor) -> None:
    found = triples(said(extractor, "I report to the COO, Ines Falk."))
    assert ("Bob", "REPORTS_TO", "Ines Falk", "assert") in found
    assert ("Bob", "REPORTS_TO", "COO", "assert") not in found
