"""One loaded RuleExtractor for the rule-family tests, and helpers to read what it says."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphmem.extract.base import ExtractedFact, Extraction
from graphmem.extract.rules import RuleExtractor
from graphmem.models import Episode, Message

REF = datetime(2024, 6, 12, 10, 0, tzinfo=UTC)  # a Wednesday
GOLD = Path(__file__).resolve().parents[2] / "data" / "extraction_gold.jsonl"

Triple = tuple[str, str, str, str]


@pytest.fixture(scope="package")
def extractor() -> RuleExtractor:
    rules = RuleExtractor()
    rules.load()
    return rules


def said(extractor: RuleExtractor, *texts: str, speaker: str | None = "Bob",
         when: datetime = REF) -> Extraction:
    """What the extractor reads from ``texts``, one message each, said by ``speaker``."""
    messages = [Message(id=f"m{i}", speaker=speaker, content=t, timestamp=when)
                for i, t in enumerate(texts)]
    return extractor.extract(Episode(tenant="t", scope_key="user:u", reference_time=when,
                                     messages=messages), [])


def episode(*messages: Message, content: str = "") -> Episode:
    """An episode of ``messages`` (or a text episode of ``content``) at :data:`REF`."""
    return Episode(tenant="t", scope_key="user:u", reference_time=REF, messages=list(messages),
                   source="messages" if messages else "text", content=content)


def exact_cases(cases: list[tuple[str, set[Triple]]]) -> pytest.MarkDecorator:
    """Parametrize a test over (sentence, the exact facts it gives), named by the sentence."""
    return pytest.mark.parametrize(("text", "expected"), cases, ids=[c[0][:40] for c in cases])


def triples(extraction: Extraction) -> set[Triple]:
    return {(f.subject, f.predicate, f.object, f.action) for f in extraction.facts}



def family_cases(cases: list[tuple[str, str, Triple]]) -> pytest.MarkDecorator:
    """Parametrize a test over (rule, sentence, one fact it gives), named by the rule."""
    return pytest.mark.parametrize(("text", "expected"), [c[1:] for c in cases],
                                   ids=[c[0] for c in cases])


def fact(extraction: Extraction, predicate: str) -> ExtractedFact:
    """The one fact with ``predicate``."""
    found = [f for f in extraction.facts if f.predicate == predicate]
    assert len(found) == 1, extraction.facts
    return found[0]


def gold_rows() -> list[dict[str, object]]:
    """The labelled sentences of ``tests/data/extraction_gold.jsonl``."""
    return [json.loads(line) for line in GOLD.read_text().splitlines() if line.strip()]
