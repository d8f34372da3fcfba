"""speakers.py: the name a scope's user speaks under, one rule for ingestion, search and
the lifecycle."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.models import RECORD_PREFIX, Episode, Message, Scope
from graphmem.speakers import known_speaker, speaker_name
from graphmem.store.base import GraphStore, WriteBatch

WHEN = datetime(2024, 1, 1, tzinfo=UTC)


def test_the_most_frequent_user_speaker_names_the_user() -> None:
    said = [Message(speaker="Maria", content="a"), Message(speaker="Maria", content="b"),
            Message(role="assistant", speaker="Bot", content="c"),
            Message(speaker="Mum", content="d"), Message(content="e")]
    assert speaker_name(said) == "Maria"
    assert speaker_name([Message(content="no names")]) is None


def test_records_graphmem_wrote_do_not_name_the_user(store: GraphStore, tenant: str) -> None:
    scope = Scope(user_id="u77")
    record = Episode(tenant=tenant, scope_key=scope.key, reference_time=WHEN,
                     client_id=f"{RECORD_PREFIX}todo:1",
                     messages=[Message(speaker="Admin", content="Todo for u77: call Bob.")])
    store.write(tenant, WriteBatch(episodes=[record]))
    assert known_speaker(store, tenant, scope) is None
    said = Episode(tenant=tenant, scope_key=scope.key, reference_time=WHEN,
                   messages=[Message(speaker="Maria", content="I live in Oslo.")])
    store.write(tenant, WriteBatch(episodes=[said]))
    assert known_speaker(store, tenant, scope) == "Maria"
    assert known_speaker(store, tenant, Scope(group_id="family")) is None
