"""The store contract: what every backend must do, written once, run on both."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.embed.base import Embedder
from graphmem.errors import StoreError
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Entity, Episode, Fact, FactStatus, Message, Scope
from graphmem.store.base import FactQuery, GraphStore, WriteBatch
from graphmem.temporal import TimeFilter
from tests.ingest.helpers import ALICE, ScriptedExtractor, day, fact, said

NOW = datetime(2025, 1, 1, tzinfo=UTC)


def _episode(tenant: str) -> Episode:
    return Episode(tenant=tenant, scope_key=ALICE.key, reference_time=day(3), client_id="c-1",
                   content="Alice: I moved to Lisbon", session_id="s1",
                   messages=[Message(id="m1", speaker="Alice", content="I moved to Lisbon",
                                     timestamp=day(3))])


def test_episode_round_trips(store: GraphStore, tenant: str) -> None:
    episode = _episode(tenant)
    store.write(tenant, WriteBatch(episodes=[episode]))

    assert store.get_episode(tenant, episode.id) == episode
    assert store.find_episode(tenant, ALICE.key, "c-1") == episode
    assert store.episodes_by_client_id(tenant, "c-1") == [episode]
    assert store.list_episodes(tenant, ALICE.visible_keys) == [episode]


def test_nothing_crosses_tenants(store: GraphStore, embedder: Embedder, tenant: str) -> None:
    episode = _episode(tenant)
    store.write(tenant, WriteBatch(episodes=[episode]))
    result = Ingestor(store, ScriptedExtractor({}), embedder).add_facts(
        tenant, [fact("LIVES_IN", "Lisbon", 3)])
    fact_id = result.created[0].id
    other = tenant + "x"

    assert store.get_episode(other, episode.id) is None
    assert store.find_episode(other, ALICE.key, "c-1") is None
    assert store.episodes_by_client_id(other, "c-1") == []
    assert store.get_facts(other, [fact_id]) == []
    assert store.get_entities(other, [result.entities[0].id]) == []
    assert store.list_facts(other, FactQuery(scope_keys=ALICE.visible_keys)) == []
    assert store.fulltext_facts(other, ALICE.visible_keys, "Lisbon", TimeFilter(), 10) == []
    vector = [float(x) for x in embedder.embed(["Lisbon"])[0]]
    assert store.vector_facts(other, ALICE.visible_keys, vector, TimeFilter(), 10) == []
    assert store.fulltext_turns(other, ALICE.visible_keys, "Lisbon", 10) == []
    assert store.find_entities(other, ALICE.visible_keys, ["lisbon"]) == []
    with pytest.raises(StoreError, match="another tenant"):
        store.write(other, WriteBatch(episodes=[episode]))


def test_scope_keys_are_the_tenants_own(store: GraphStore, embedder: Embedder,
                                        tenant: str) -> None:
    store.write(tenant, WriteBatch(episodes=[_episode(tenant)]))
    group = Scope(group_id="team")
    Ingestor(store, ScriptedExtractor({}), embedder).add_facts(
        tenant, [fact("LIVES_IN", "Lisbon", 3, scope=group)])

    assert store.scope_keys(tenant) == sorted([ALICE.key, group.key])
    assert store.scope_keys(tenant + "x") == []


def test_a_failing_batch_writes_nothing(store: GraphStore, tenant: str) -> None:
    good = _episode(tenant)
    foreign = Entity(tenant=tenant + "x", scope_key=ALICE.key, name="Mallory")
    with pytest.raises(StoreError):
        store.write(tenant, WriteBatch(episodes=[good], entities=[foreign]))

    assert store.get_episode(tenant, good.id) is None


@pytest.mark.parametrize("record", ["entity", "fact", "turn"])
def test_a_vector_of_another_dimension_is_refused_before_anything_is_written(
        store: GraphStore, embedder: Embedder, tenant: str, record: str) -> None:
    good = _episode(tenant)
    short = [0.5] * 7
    entity = Entity(tenant=tenant, scope_key=ALICE.key, name="Alice",
                    embedding=short if record == "entity" else None)
    facts = [Fact(tenant=tenant, scope_key=ALICE.key, subject_id=entity.id,
                  subject_name="Alice", predicate="LIVES_IN", object_id=entity.id,
                  object_name="Alice", text="Alice lives in Lisbon.", valid_from=day(3),
                  timeline_key="t", embedding=short)] if record == "fact" else []
    turns = {good.id: [short]} if record == "turn" else {}
    with pytest.raises(StoreError, match="7-dimensional embedding"):
        store.write(tenant, WriteBatch(episodes=[good], entities=[entity], facts=facts,
                                       turn_vectors=turns))
    assert store.get_episode(tenant, good.id) is None
    assert store.get_entities(tenant, [entity.id]) == []
    # and the store still takes a batch of the right dimension
    store.write(tenant, WriteBatch(episodes=[good]))
    assert store.get_episode(tenant, good.id) == good


def test_delete_scope_leaves_nothing_in_any_index(store: GraphStore, embedder: Embedder,
                                                  tenant: str) -> None:
    ingestor = Ingestor(store, ScriptedExtractor({"I moved to Lisbon": [said("LIVES_IN", "Lisbon")]}),
                        embedder)
    ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=[
        Message(id="m1", speaker="Alice", content="I moved to Lisbon", timestamp=day(3))]))
    vector = [float(x) for x in embedder.embed(["Alice lives in Lisbon"])[0]]
    assert store.vector_facts(tenant, ALICE.visible_keys, vector, TimeFilter(), 5)
    Ingestor(store, ScriptedExtractor({}), embedder).add_facts(
        tenant, [fact("LIKES", "tea", 3, scope=Scope(user_id="bob"))])
    [episode] = store.list_episodes(tenant, [ALICE.key])
    listed = store.ids_in_scope(tenant, ALICE.key)
    assert listed.episodes == [episode.id]
    assert listed.entities == sorted(e.id for e in store.find_entities(
        tenant, [ALICE.key], ["alice", "lisbon"]))  # not Bob's, nor another tenant's
    assert len(listed.entities) == 2
    assert store.ids_in_scope(tenant + "x", ALICE.key).entities == []

    removed = store.delete_scope(tenant, ALICE.key)

    assert removed >= 3
    assert store.list_facts(tenant, FactQuery(scope_keys=ALICE.visible_keys,
                                              time=TimeFilter(include_history=True))) == []
    assert store.fulltext_facts(tenant, ALICE.visible_keys, "Lisbon", TimeFilter(), 10) == []
    assert store.vector_facts(tenant, ALICE.visible_keys, vector, TimeFilter(), 10) == []
    assert store.fulltext_turns(tenant, ALICE.visible_keys, "Lisbon", 10) == []
    assert store.find_entities(tenant, ALICE.visible_keys, ["lisbon", "alice"]) == []
    assert store.fulltext_entities(tenant, ALICE.visible_keys, "Lisbon", 10) == []
    assert store.list_episodes(tenant, ALICE.visible_keys) == []
    assert store.ids_in_scope(tenant, ALICE.key).model_dump() == {"episodes": [], "entities": []}
    assert len(store.ids_in_scope(tenant, Scope(user_id="bob").key).entities) == 2


def test_explicit_statuses_and_predicates_filter_listings(store: GraphStore, embedder: Embedder,
                                                          tenant: str) -> None:
    result = Ingestor(store, ScriptedExtractor({}), embedder).add_facts(
        tenant, [fact("LIVES_IN", "Lisbon", 3), fact("LIKES", "surfing", 3)])
    archived = result.created[0].model_copy(update={"status": FactStatus.ARCHIVED})
    store.write(tenant, WriteBatch(facts=[archived]))

    def listed(**kw: object) -> list[str]:
        facts = store.list_facts(tenant, FactQuery(scope_keys=ALICE.visible_keys, **kw))  # type: ignore[arg-type]
        return [f.object_name for f in facts]

    assert listed() == ["surfing"]
    assert listed(statuses=[FactStatus.ARCHIVED]) == ["Lisbon"]
    assert listed(predicates=["LIKES"]) == ["surfing"]
    assert listed(predicates=["LIVES_IN"]) == []


def test_record_access_touches_only_access_fields(store: GraphStore, embedder: Embedder,
                                                  tenant: str) -> None:
    [created] = Ingestor(store, ScriptedExtractor({}), embedder).add_facts(
        tenant, [fact("LIKES", "surfing", 3)]).created
    stale: Fact = store.get_facts(tenant, [created.id])[0]
    store.write(tenant, WriteBatch(facts=[stale.model_copy(update={"status": FactStatus.FORGOTTEN})]))

    store.record_access(tenant, [created.id], NOW)

    [after] = store.get_facts(tenant, [created.id])
    assert after.status is FactStatus.FORGOTTEN
    assert after.access_count == 1 and after.last_accessed == NOW


def test_facts_about_without_vectors_are_the_same_facts(store: GraphStore, embedder: Embedder,
                                                        tenant: str) -> None:
    created = Ingestor(store, ScriptedExtractor({}), embedder).add_facts(
        tenant, [fact("LIVES_IN", "Lisbon", 1), fact("LIKES", "surfing", 2),
                 fact("WORKS_AT", "Acme", 3)]).created
    alice = created[0].subject_id

    def about(embeddings: bool) -> list[Fact]:
        return store.facts_about(tenant, ALICE.visible_keys, [alice], TimeFilter(), 10,
                                 embeddings=embeddings)

    full, bare = about(True), about(False)
    assert [f.id for f in bare] == [f.id for f in full] and len(full) == 3
    assert all(f.embedding for f in full) and all(f.embedding is None for f in bare)
    assert [f.model_copy(update={"embedding": None}) for f in full] == bare


def test_stats_count_by_status_and_category(store: GraphStore, embedder: Embedder,
                                            tenant: str) -> None:
    Ingestor(store, ScriptedExtractor({}), embedder).add_facts(
        tenant, [fact("WORKS_AT", "Acme", 1)])
    Ingestor(store, ScriptedExtractor({}), embedder).add_facts(
        tenant, [fact("WORKS_AT", "Globex", 2)])

    stats = store.stats(tenant, ALICE.visible_keys, NOW)

    assert stats.facts_by_status == {"active": 2}
    assert stats.current_facts == 1
    assert stats.entities == 3


def test_turns_are_found_by_words_and_by_meaning(store: GraphStore, embedder: Embedder,
                                                 tenant: str) -> None:
    Ingestor(store, ScriptedExtractor({}), embedder).ingest(tenant, EpisodeInput(
        scope=ALICE, messages=[
            Message(id="m1", speaker="Alice", content="My sourdough starter is called Bubbles."),
            Message(id="m2", speaker="Bob", content="The quarterly report is due on Friday.")]))
    vector = [float(x) for x in embedder.embed(["baking bread at home"])[0]]

    by_meaning = store.vector_turns(tenant, ALICE.visible_keys, vector, 2)
    by_words = store.fulltext_turns(tenant, ALICE.visible_keys, "quarterly report", 2)

    assert [h.message_id for h in by_meaning][0] == "m1"
    assert by_words[0].message_id == "m2" and by_words[0].speaker == "Bob"
    assert store.vector_turns(tenant + "x", ALICE.visible_keys, vector, 2) == []


def test_a_turn_is_found_by_its_neighbours_words_below_the_turn_that_says_them(
        store: GraphStore, embedder: Embedder, tenant: str) -> None:
    Ingestor(store, ScriptedExtractor({}), embedder).ingest(tenant, EpisodeInput(
        scope=ALICE, messages=[
            Message(id="q", speaker="Bob", content="Did you paint that sunrise over the lake?"),
            Message(id="a", speaker="Alice", content="Yes! I did it last year."),
            Message(id="x", speaker="Bob", content="The weather turned cold today.")]))

    found = store.fulltext_turns(tenant, ALICE.visible_keys, "who painted the sunrise", 3)

    ids = [h.message_id for h in found]
    assert ids[:2] == ["q", "a"]  # the answer is found through the question before it
    assert found[0].score > found[1].score
    assert found[1].content == "Yes! I did it last year."  # returned alone, not with context
