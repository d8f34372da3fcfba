"""The one datetime rule, on both stores: the same instant written four ways reads the same.

A client may send ``2024-03-01T00:00:00`` (naive, taken as UTC),
``2024-03-01T00:00:00Z``, ``2024-03-01T02:00:00+02:00`` or ``2024-03-01``;
every time-filtered read must answer identically for all four, and what the
stores hand back is always aware UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.embed.base import Embedder
from graphmem.ingest.inputs import EpisodeInput, FactInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Message
from graphmem.store.base import FactQuery, GraphStore
from graphmem.temporal import TimeFilter
from tests.ingest.helpers import ALICE, ScriptedExtractor

#: One instant in four spellings each: inside Lisbon's interval, and exactly at Porto's start.
MARCH = ["2024-03-01T00:00:00", "2024-03-01T00:00:00Z", "2024-03-01T02:00:00+02:00", "2024-03-01"]
JUNE = ["2024-06-01T00:00:00", "2024-06-01T00:00:00Z", "2024-06-01T02:00:00+02:00", "2024-06-01"]
#: Just before Porto starts, written with an offset that moves it across midnight UTC.
BEFORE_JUNE = ["2024-05-31T23:59:59", "2024-05-31T23:59:59Z", "2024-06-01T01:59:59+02:00",
               "2024-05-31T18:59:59-05:00"]


def _facts() -> list[FactInput]:
    """Lisbon from January (naive), Porto from June (date-only), Acme from March (+02:00)."""
    return [FactInput.model_validate(body) for body in (
        {"scope": ALICE, "subject": "Alice", "predicate": "LIVES_IN", "object": "Lisbon",
         "valid_from": "2024-01-01T00:00:00", "text": "Alice lives in Lisbon."},
        {"scope": ALICE, "subject": "Alice", "predicate": "LIVES_IN", "object": "Porto",
         "valid_from": "2024-06-01", "text": "Alice lives in Porto."},
        {"scope": ALICE, "subject": "Alice", "predicate": "WORKS_AT", "object": "Acme",
         "valid_from": "2024-03-01T02:00:00+02:00", "text": "Alice works at Acme."},
    )]


def _reads(store: GraphStore, embedder: Embedder, tenant: str, alice_id: str,
           time: TimeFilter) -> dict[str, list[str]]:
    keys = ALICE.visible_keys
    vector = [float(x) for x in embedder.embed(["where does Alice live"])[0]]
    texts = {f.id: f.text for f in store.list_facts(tenant, FactQuery(
        scope_keys=keys, time=TimeFilter(include_history=True), limit=100))}
    return {
        "list": sorted(f.text for f in store.list_facts(tenant, FactQuery(scope_keys=keys,
                                                                          time=time))),
        "about": sorted(f.text for f in store.facts_about(tenant, keys, [alice_id], time, 50)),
        "fulltext": sorted(texts[s.id] for s in store.fulltext_facts(tenant, keys, "Alice",
                                                                      time, 50)),
        "vector": sorted(texts[s.id] for s in store.vector_facts(tenant, keys, vector, time, 50)),
    }


#: The facts are recorded at this instant: before it, graphmem believed nothing yet.
RECORDED = datetime(2024, 4, 1, tzinfo=UTC)


@pytest.mark.parametrize(("spellings", "expected", "known"), [
    (MARCH, ["Alice lives in Lisbon.", "Alice works at Acme."], []),
    (JUNE, ["Alice lives in Porto.", "Alice works at Acme."],
     ["Alice lives in Porto.", "Alice works at Acme."]),
    (BEFORE_JUNE, ["Alice lives in Lisbon.", "Alice works at Acme."],
     ["Alice lives in Lisbon.", "Alice works at Acme."]),
])
def test_every_spelling_of_an_instant_reads_the_same(store: GraphStore, embedder: Embedder,
                                                     tenant: str, spellings: list[str],
                                                     expected: list[str], known: list[str]) -> None:
    ingestor = Ingestor(store, ScriptedExtractor({}), embedder, clock=lambda: RECORDED)
    alice_id = ingestor.add_facts(tenant, _facts()).created[0].subject_id

    for field, want in (("as_of", expected), ("as_known_at", known)):
        answers = [_reads(store, embedder, tenant, alice_id,
                          TimeFilter.model_validate({field: spelling})) for spelling in spellings]
        assert answers == [{"list": want, "about": want, "fulltext": want, "vector": want}] * 4, (
            field, answers)


def test_stored_times_come_back_as_utc(store: GraphStore, embedder: Embedder,
                                       tenant: str) -> None:
    Ingestor(store, ScriptedExtractor({}), embedder).add_facts(tenant, _facts())
    Ingestor(store, ScriptedExtractor({}), embedder).ingest(tenant, EpisodeInput.model_validate({
        "scope": ALICE, "reference_time": "2024-07-01 09:00:00+02:00",
        "messages": [Message(id="m1", content="hello", timestamp="2024-07-01")]}))

    facts = store.list_facts(tenant, FactQuery(scope_keys=ALICE.visible_keys,
                                               time=TimeFilter(include_history=True)))
    acme = next(f for f in facts if f.object_name == "Acme")
    assert acme.valid_from.isoformat() == "2024-03-01T00:00:00+00:00"
    for f in facts:
        assert f.valid_from.utcoffset() == timedelta(0) and f.valid_from.tzinfo is not None
    episode = store.list_episodes(tenant, ALICE.visible_keys)[0]
    assert episode.reference_time.isoformat() == "2024-07-01T07:00:00+00:00"
    assert episode.messages[0].timestamp is not None
    assert episode.messages[0].timestamp.isoformat() == "2024-07-01T00:00:00+00:00"
    # "before" compares instants, not text: 09:00+02:00 is 07:00Z, so 08:00+02:00 is too early
    later = episode.reference_time.astimezone(UTC)
    assert store.list_episodes(tenant, ALICE.visible_keys,
                               before=later.astimezone(UTC) + timedelta(minutes=1)) == [episode]
    early = TimeFilter.model_validate({"as_of": "2024-07-01T08:00:00+02:00"}).as_of
    assert early is not None
    assert store.list_episodes(tenant, ALICE.visible_keys, before=early) == []
