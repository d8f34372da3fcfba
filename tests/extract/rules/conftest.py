"""One loaded RuleExtractor for the rule-family tests, and helpers to read what it says."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.extract.base import Extraction
from graphmem.extract.rules import RuleExtractor
from graphmem.models import Episode, Message

REF = datetime(2024, 6, 12, 10, 0, tzinfo=UTC)  # a Wednesday

Triple = tuple[str, str, str, str]


@pytest.fixture(scope="package")
def extractor() -> RuleExtractor:
    rules = RuleExtractor()
    rules.load()
    return rules


def said(extractor: RuleExtractor, *texts: str, speaker: str = "Bob",
         when: datetime = REF) -> Extraction:
    """What the extractor reads from ``texts``, one message each, said by ``speaker``."""
    messages = [Message(id=f"m{i}", speaker=speaker, content=t, timestamp=when)
                for i, t in enumerate(texts)]
    return extractor.extract(Episode(tenant="t", scope_key="user:u", reference_time=when,
                                     messages=messages), [])


def exact_cases(cases: list[tuple[str, set[Triple]]]) -> pytest.MarkDecorator:
    """Parametrize a test over (sentence, the exact facts it gives), named by the sentence."""
    return pytest.mark.parametrize(("text", "expected"), cases, ids=[c[0][:40] for c in cases])


def triples(extraction: Extraction) -> set[Triple]:
    return {(f.subject, f.predicate, f.object, f.action) for f in extraction.facts}
