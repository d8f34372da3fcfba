"""Redaction before storage: measured on a corpus, applied before ingestion, configurable."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.ingest.inputs import EpisodeInput, FactInput
from graphmem.ingest.redact import (
    LabelledText,
    RedactionPattern,
    Redactor,
    iban_ok,
    luhn_ok,
    score_redaction,
)
from graphmem.lifecycle.portability import export_scope
from graphmem.memory import Memory
from graphmem.models import Message
from graphmem.embed.base import Embedder
from graphmem.extract.rules import RuleExtractor
from graphmem.store.base import GraphStore
from tests.lifecycle.conftest import ALICE

CORPUS = Path(__file__).resolve().parent.parent / "data" / "privacy_corpus.jsonl"


def corpus() -> list[LabelledText]:
    return [LabelledText.model_validate(json.loads(line))
            for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_corpus_precision_and_recall() -> None:
    cases = corpus()
    assert len(cases) >= 40
    assert sum(1 for c in cases if c.secrets) >= 20 and sum(1 for c in cases if not c.secrets) >= 20
    score = score_redaction(Redactor(), cases)
    assert score.precision >= 0.95, score.false_findings
    assert score.recall >= 0.9, score.missed
    holdout = score_redaction(Redactor(), [c for c in cases if c.split == "holdout"])
    assert holdout.recall >= 0.8, holdout.missed  # lines written after the patterns were tuned


def test_checks_reject_lookalikes() -> None:
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")
    assert iban_ok("DE89 3704 0044 0532 0130 00") and not iban_ok("DE89 3704 0044 0532 0130 01")
    redactor = Redactor()
    assert redactor.redact("card 4111 1111 1111 1112, v3.11.4 on 10.0.0.12").findings == []
    result = redactor.redact("Bearer FAKEtoken0123456789abcdefXYZ and x@y.org")
    assert result.text == "Bearer [TOKEN] and [EMAIL]"  # only the secret group is replaced
    assert [(f.kind, f.start) for f in result.findings] == [("bearer", 7), ("email", 40)]


def test_patterns_are_configurable() -> None:
    ticket = RedactionPattern(name="ticket", pattern=r"\bTCK-\d{4,}\b", replacement="[TICKET]")
    redactor = Redactor(extra=[ticket], disabled=["email"])
    out = redactor.redact("TCK-12345 from alice@example.com")
    assert out.text == "[TICKET] from alice@example.com"
    only_cards = Redactor(patterns=[p for p in Redactor().patterns if p.name == "card_number"])
    assert only_cards.redact("4111111111111111 alice@example.com").text == "[CARD] alice@example.com"


@pytest.fixture
def memory(store: GraphStore, embedder: Embedder) -> Iterator[Memory]:
    mem = Memory(store, RuleExtractor(), embedder)
    yield mem
    mem.engine.close()


def test_redaction_happens_before_storage(memory: Memory, tenant: str) -> None:
    secret_mail, key = "alice.private@example.com", "sk-proj-FAKEfake1234567890abcdefghijklmn"
    episode = EpisodeInput(scope=ALICE, messages=[
        Message(speaker="Alice", content=f"My email is {secret_mail} and I work at Acme."),
        Message(role="assistant", speaker="assistant", content="Noted."),
        Message(speaker="Alice", content=f"My OpenAI key is {key}."),
    ])
    redacted = Redactor().redact_episode(episode)
    assert [f.kind for f in redacted.findings] == ["email", "openai_key"]
    memory.add_episode(tenant, redacted.episode)
    fact, _ = Redactor().redact_fact(FactInput(scope=ALICE, subject="Alice", predicate="HAS",
                                               object=f"the key {key}"))
    memory.add_facts(tenant, [fact])

    everything = export_scope(memory, tenant, ALICE).model_dump_json()
    assert secret_mail not in everything and key not in everything
    assert "[EMAIL]" in everything and "[API_KEY]" in everything
    assert "Alice works at Acme." in everything  # the rest of the message still became memory
    document = Redactor().redact_episode(EpisodeInput(
        scope=ALICE, document={"contact": {"mail": secret_mail}, "n": 3}))
    assert document.episode.document == {"contact": {"mail": "[EMAIL]"}, "n": 3}


@pytest.mark.parametrize("text", [
    "I moved to Berlin on 2024-03-15.", "numpy 1.26.0 on 192.168.1.10", "My password is strong.",
    "Order number 4532 8810 2231 has shipped.", "ISBN 978-3-16-148410-0",
])
def test_lookalikes_survive(text: str) -> None:
    assert Redactor().redact(text).text == text
