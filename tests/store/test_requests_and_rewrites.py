"""Contract additions for retries and erasure, on both stores: stored answers of idempotent
requests, rewritten episodes re-indexed, and the purge after an erasure."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from graphmem.embed.base import Embedder, embed_one
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Entity, Episode, Message
from graphmem.store.base import GraphStore, StoredResponse, WriteBatch
from graphmem.temporal import TimeFilter
from tests.ingest.helpers import ALICE, ScriptedExtractor, day, fact

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def _request(key: str, at: datetime = T0, fingerprint: str = "f1") -> StoredResponse:
    return StoredResponse(key=key, fingerprint=fingerprint, created_at=at)


def _claim(store: GraphStore, tenant: str, request: StoredResponse,
           now: datetime = T0) -> StoredResponse | None:
    return store.claim_request(tenant, request, stale_before=now - timedelta(minutes=10),
                               expire_before=now - timedelta(hours=24))


def test_a_key_is_claimed_once_then_answers(store: GraphStore, tenant: str) -> None:
    assert _claim(store, tenant, _request("k1")) is None
    held = _claim(store, tenant, _request("k1", fingerprint="f2"))
    assert held is not None and held.status is None and held.fingerprint == "f1"  # pending

    done = _request("k1").model_copy(update={"status": 201, "body": '{"ok":true}'})
    store.finish_request(tenant, done)
    assert _claim(store, tenant, _request("k1")) == done
    assert _claim(store, tenant + "x", _request("k1")) is None  # tenants never share keys


def test_stale_claims_and_old_answers_give_their_key_up(store: GraphStore, tenant: str) -> None:
    assert _claim(store, tenant, _request("pending")) is None
    store.finish_request(tenant, _request("answered").model_copy(update={"status": 200}))
    an_hour_on = T0 + timedelta(hours=1)
    assert _claim(store, tenant, _request("pending", an_hour_on), an_hour_on) is None
    held = _claim(store, tenant, _request("answered", an_hour_on), an_hour_on)
    assert held is not None and held.status == 200  # answers last a day, not an hour
    two_days_on = T0 + timedelta(days=2)
    assert _claim(store, tenant, _request("answered", two_days_on), two_days_on) is None


def test_dropped_requests_run_again(store: GraphStore, tenant: str) -> None:
    for key in ("a", "b", "c"):
        assert _claim(store, tenant, _request(key)) is None
    store.drop_requests(tenant, ["a"])
    assert _claim(store, tenant, _request("a")) is None
    assert _claim(store, tenant, _request("b")) is not None
    store.drop_requests(tenant)
    assert _claim(store, tenant, _request("b")) is None and _claim(store, tenant,
                                                                   _request("c")) is None


def test_a_rewritten_episode_is_found_by_its_new_words_only(store: GraphStore, embedder: Embedder,
                                                           tenant: str) -> None:
    said = ["Alice: I had dinner with Maria in Porto", "Alice: the fish was great"]
    episode = Episode(tenant=tenant, scope_key=ALICE.key, reference_time=day(3), content="",
                      messages=[Message(id=f"m{i}", speaker="Alice", content=text.split(": ")[1])
                                for i, text in enumerate(said)])
    store.write(tenant, WriteBatch(episodes=[episode],
                                   turn_vectors={episode.id: embedder.embed(said).tolist()}))
    assert store.fulltext_turns(tenant, ALICE.visible_keys, "Maria", 10)

    scrubbed = episode.model_copy(update={"messages": [
        episode.messages[0].model_copy(update={"content": "I had dinner with [forgotten] in Porto"}),
    ]})
    texts = ["Alice: I had dinner with [forgotten] in Porto"]
    store.write(tenant, WriteBatch(episodes=[scrubbed],
                                   turn_vectors={episode.id: embedder.embed(texts).tolist()}))
    store.purge_deleted()
    assert store.fulltext_turns(tenant, ALICE.visible_keys, "Maria", 10) == []
    assert store.fulltext_turns(tenant, ALICE.visible_keys, "fish", 10) == []  # turn 2 is gone
    [hit] = store.fulltext_turns(tenant, ALICE.visible_keys, "dinner Porto", 10)
    assert hit.content == "I had dinner with [forgotten] in Porto"
    near = store.vector_turns(tenant, ALICE.visible_keys, embed_one(embedder, "Maria"), 10)
    assert [h.content for h in near] == ["I had dinner with [forgotten] in Porto"]


def test_concurrent_claims_of_one_key_have_one_winner(store: GraphStore, tenant: str) -> None:
    start = threading.Barrier(6)

    def claim(_: int) -> StoredResponse | None:
        start.wait()
        return _claim(store, tenant, _request("raced"))

    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(claim, range(6)))
    assert sum(o is None for o in outcomes) == 1


def test_rewritten_facts_and_entities_are_found_by_their_new_words_only(
        store: GraphStore, embedder: Embedder, tenant: str) -> None:
    """A batch that rewrites stored records beside new ones: the stored records' old names,
    words and sources are gone, the new records' are found."""
    old_episode, new_episode = (
        Episode(tenant=tenant, scope_key=ALICE.key, reference_time=day(month), content=text)
        for month, text in [(3, "Alice: I live in Lisbon"), (4, "Alice: Porto now, Madrid soon")])
    store.write(tenant, WriteBatch(episodes=[old_episode, new_episode]))
    result = Ingestor(store, ScriptedExtractor({}), embedder).add_facts(
        tenant, [fact("LIVES_IN", "Lisbon", 3, episode_ids=[old_episode.id])])
    [lived] = result.created
    [lisbon] = [e for e in result.entities if e.name == "Lisbon"]

    porto = lisbon.model_copy(update={"name": "Porto", "aliases": ["Oporto"]})
    madrid = Entity(tenant=tenant, scope_key=ALICE.key, name="Madrid")
    moved = lived.model_copy(update={"object_id": porto.id, "object_name": "Porto",
                                     "text": "Alice lives in Porto.",
                                     "episode_ids": [new_episode.id]})
    visits = lived.model_copy(update={"id": "fact-visits", "predicate": "HAS_VISITED",
                                      "object_id": madrid.id, "object_name": "Madrid",
                                      "text": "Alice visited Madrid.", "timeline_key": "visits",
                                      "episode_ids": [new_episode.id]})
    store.write(tenant, WriteBatch(entities=[porto, madrid], facts=[moved, visits]))

    keys = ALICE.visible_keys
    assert store.find_entities(tenant, keys, ["lisbon"]) == []
    assert [e.id for e in store.find_entities(tenant, keys, ["oporto"])] == [porto.id]
    assert [e.id for e in store.find_entities(tenant, keys, ["madrid"])] == [madrid.id]
    assert store.fulltext_entities(tenant, keys, "Lisbon", 10) == []
    assert store.fulltext_facts(tenant, keys, "Lisbon", TimeFilter(include_history=True), 10) == []
    found = store.fulltext_facts(tenant, keys, "Porto Madrid", TimeFilter(include_history=True), 10)
    assert sorted(hit.id for hit in found) == sorted([moved.id, visits.id])
    assert store.facts_of_episode(tenant, old_episode.id) == []
    assert sorted(f.id for f in store.facts_of_episode(tenant, new_episode.id)) == sorted(
        [moved.id, visits.id])
