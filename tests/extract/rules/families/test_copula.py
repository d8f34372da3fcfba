"""Facts carried by "to be" and by noun phrases alone (families.copula)."""

from __future__ import annotations

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.cases import ONE_PER_RULE
from tests.extract.rules.conftest import Triple, family_cases, said, triples


@family_cases(ONE_PER_RULE["copula"])
def test_copula_rules(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))
