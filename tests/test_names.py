"""Name normalisation: case, width, articles, and one legal-form suffix for every company."""

from __future__ import annotations

import pytest

from graphmem.names import legacy_name, normalize_name, whole_words


@pytest.mark.parametrize(("name", "normal"), [
    (" The  Acme Corp.", "acme inc"), ("ACME Inc", "acme inc"), ("Acme, Inc.", "acme inc"),
    ("Acme GmbH", "acme inc"), ("Acme Co. Ltd.", "acme inc"), ("Banco Santander S.A.",
                                                               "banco santander inc"),
    ("Philips N.V.", "philips inc"), ("Smith & Co", "smith inc"),
    ("Acme", "acme"), ("Inc", "inc"), ("Johnson & Johnson", "johnson & johnson"),
    ("Alex", "alex"), ("Ｔｏｋｙｏ", "tokyo"), ("New York", "new york"),
])
def test_normalize_name(name: str, normal: str) -> None:
    assert normalize_name(name) == normal


def test_the_legacy_form_keeps_the_suffix_as_written() -> None:
    assert legacy_name("Acme Corp.") == "acme corp"
    assert normalize_name("Acme Corp.") != normalize_name("Acme")


def test_whole_words_match_names_whole_longest_first() -> None:
    pattern = whole_words(["Ana", "Ana Lima", ""])
    assert pattern is not None
    assert pattern.findall("ana lima met Anabel and ANA") == ["ana lima", "ANA"]
    assert whole_words([]) is None
