"""Work, home, people and possessions (families.life)."""

from __future__ import annotations

from graphmem.extract.rules import RuleExtractor
from tests.extract.rules.cases import ONE_PER_RULE
from tests.extract.rules.conftest import Triple, family_cases, said, triples


@family_cases(ONE_PER_RULE["life"])
def test_life_rules(extractor: RuleExtractor, text: str, expected: Triple) -> None:
    assert expected in triples(said(extractor, text))


def test_a_partner_the_parser_hangs_off_the_verb_is_still_the_partner(
        extractor: RuleExtractor) -> None:
    # the small model reads "Raj" here as an interjection, "Tom" as a modifier
    assert triples(said(extractor, "Raj and I got married.")) == {
        ("Bob", "MARRIED_TO", "Raj", "assert")}
    assert triples(said(extractor, "Tom and I got married last June.")) == {
        ("Bob", "MARRIED_TO", "Tom", "assert")}
    # an interjection is not a partner
    assert triples(said(extractor, "Wow and I got married.")) == {
        ("Bob", "RELATIONSHIP_STATUS", "married", "assert")}
