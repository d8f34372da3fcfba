"""The temporal rules of the core, table-driven, on both stores."""

from __future__ import annotations

import pytest

from graphmem.embed.base import Embedder
from graphmem.extract.base import ExtractedFact
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Message, Scope
from graphmem.store.base import FactQuery, GraphStore
from graphmem.temporal import TimeFilter
from tests.ingest.helpers import ALICE, ScriptedExtractor, day, fact, said


@pytest.fixture
def ingestor(store: GraphStore, embedder: Embedder) -> Ingestor:
    return Ingestor(store, ScriptedExtractor({}), embedder)


def current(store: GraphStore, tenant: str, scope: Scope = ALICE, **time: object) -> set[tuple[str, str]]:
    facts = store.list_facts(tenant, FactQuery(scope_keys=scope.visible_keys,
                                               time=TimeFilter(**time)))  # type: ignore[arg-type]
    return {(f.predicate, f.object_name) for f in facts}


def test_functional_fact_supersedes_the_current_one(ingestor: Ingestor, store: GraphStore,
                                                    tenant: str) -> None:
    first = ingestor.add_facts(tenant, [fact("WORKS_AT", "Acme", 1)])
    second = ingestor.add_facts(tenant, [fact("WORKS_AT", "Globex", 6)])

    assert current(store, tenant) == {("WORKS_AT", "Globex")}
    old = store.get_facts(tenant, [first.created[0].id])[0]
    new = second.created[0]
    assert old.valid_until == day(6)
    assert old.superseded_by == new.id
    assert new.supersedes == [old.id]
    assert [f.id for f in second.superseded] == [old.id]
    assert current(store, tenant, as_of=day(3)) == {("WORKS_AT", "Acme")}


def test_restating_merges_instead_of_duplicating(ingestor: Ingestor, store: GraphStore,
                                                 tenant: str) -> None:
    a = ingestor.add_facts(tenant, [fact("LIVES_IN", "Berlin", 1, confidence=0.6, source_id="m1")])
    b = ingestor.add_facts(tenant, [fact("LIVES_IN", "Berlin", 2, confidence=0.6, source_id="m2")])

    assert b.created == [] and [f.id for f in b.confirmed] == [a.created[0].id]
    stored = store.list_facts(tenant, FactQuery(scope_keys=ALICE.visible_keys,
                                                time=TimeFilter(include_history=True)))
    assert len(stored) == 1
    assert stored[0].message_ids == ["m1", "m2"]
    assert stored[0].confidence == pytest.approx(0.84)


def test_a_firm_named_by_its_first_word_is_the_current_one(ingestor: Ingestor,
                                                          store: GraphStore, tenant: str) -> None:
    """"first month at Halvorsen done" restates "works at Halvorsen Analytics": no new
    employer, so nothing (the title held there included) is ended."""
    first = ingestor.add_facts(tenant, [fact("WORKS_AT", "Halvorsen Analytics", 1),
                                        fact("JOB_TITLE", "platform lead", 1)])
    again = ingestor.add_facts(tenant, [fact("WORKS_AT", "Halvorsen", 3)])

    assert again.created == [] and [f.id for f in again.confirmed] == [first.created[0].id]
    assert current(store, tenant) == {("WORKS_AT", "Halvorsen Analytics"),
                                      ("JOB_TITLE", "platform lead")}
    moved = ingestor.add_facts(tenant, [fact("WORKS_AT", "Halvorsen Group", 5)])
    assert [f.object_name for f in moved.created] == ["Halvorsen Group"]  # another firm


def test_a_restatement_that_moves_the_start_earlier_gives_the_fact_its_words(
        ingestor: Ingestor, store: GraphStore, embedder: Embedder, tenant: str) -> None:
    """The fact's text names the start it holds from: the later statement that moved it
    there, with a vector made from those words; one that leaves the start keeps the text."""
    first = ingestor.add_facts(tenant, [fact("WORKS_AT", "Acme", 6, source_id="m1",
                                             text="Alice works at Acme since June 2024.")])
    ingestor.add_facts(tenant, [fact("WORKS_AT", "Acme", 8, source_id="m2",
                                     text="Alice still works at Acme.")])
    ingestor.add_facts(tenant, [fact("WORKS_AT", "Acme", 2, source_id="m3",
                                     text="Alice works at Acme since February 2024.")])

    [stored] = store.get_facts(tenant, [first.created[0].id])
    assert stored.valid_from == day(2) and stored.message_ids == ["m1", "m2", "m3"]
    assert stored.text == "Alice works at Acme since February 2024."
    expected = embedder.embed([stored.text])[0]
    assert stored.embedding == pytest.approx([float(x) for x in expected], abs=1e-5)


@pytest.mark.parametrize(
    ("first", "second", "both_current"),
    [
        (("LIKES", "coffee"), ("LIKES", "tea"), True),         # multi-valued: both hold
        (("WORKS_AT", "Acme"), ("LIVES_IN", "Paris"), True),   # different predicates
        (("LIKES", "coffee"), ("DISLIKES", "coffee"), False),  # same family, same object
        (("OWNS", "a bike"), ("OWNS", "a car"), True),
    ],
)
def test_only_the_same_timeline_can_be_superseded(
    ingestor: Ingestor, store: GraphStore, tenant: str,
    first: tuple[str, str], second: tuple[str, str], both_current: bool,
) -> None:
    ingestor.add_facts(tenant, [fact(*first, 1)])
    ingestor.add_facts(tenant, [fact(*second, 2)])

    now = current(store, tenant)
    assert second in now
    assert (first in now) is both_current


def test_other_subjects_and_scopes_are_never_invalidated(ingestor: Ingestor, store: GraphStore,
                                                         tenant: str) -> None:
    bob = Scope(user_id="bob")
    ingestor.add_facts(tenant, [fact("WORKS_AT", "Acme", 1),
                                fact("WORKS_AT", "Acme", 1, subject="Carol"),
                                fact("WORKS_AT", "Initech", 1, scope=bob, subject="Alice")])
    ingestor.add_facts(tenant, [fact("WORKS_AT", "Globex", 5)])

    assert current(store, tenant) == {("WORKS_AT", "Globex"), ("WORKS_AT", "Acme")}
    assert current(store, tenant, scope=bob) == {("WORKS_AT", "Initech")}


def test_out_of_order_fact_is_inserted_into_the_past(ingestor: Ingestor, store: GraphStore,
                                                     tenant: str) -> None:
    ingestor.add_facts(tenant, [fact("LIVES_IN", "Berlin", 6)])
    late = ingestor.add_facts(tenant, [fact("LIVES_IN", "Paris", 1)])

    assert current(store, tenant) == {("LIVES_IN", "Berlin")}
    paris = store.get_facts(tenant, [late.created[0].id])[0]
    assert paris.valid_until == day(6)
    assert current(store, tenant, as_of=day(3)) == {("LIVES_IN", "Paris")}


def test_stated_end_closes_without_replacement(ingestor: Ingestor, store: GraphStore,
                                               tenant: str) -> None:
    ingestor.add_facts(tenant, [fact("LIVES_IN", "Rome", 1, until=4)])

    assert current(store, tenant) == set()
    assert current(store, tenant, as_of=day(2)) == {("LIVES_IN", "Rome")}


def _episode(text: str, month: int, episode_id: str | None = None) -> EpisodeInput:
    return EpisodeInput(scope=ALICE, episode_id=episode_id, messages=[
        Message(id=f"{text[:8]}-{month}", speaker="Alice", content=text, timestamp=day(month))])


def test_retraction_closes_without_replacement_and_keeps_provenance(
    store: GraphStore, embedder: Embedder, tenant: str
) -> None:
    script = {"I use Vue": [said("USES", "Vue")],
              "I don't use Vue anymore": [said("USES", "Vue", action="retract")]}
    ingestor = Ingestor(store, ScriptedExtractor(script), embedder)
    ingestor.ingest(tenant, _episode("I use Vue", 1))
    result = ingestor.ingest(tenant, _episode("I don't use Vue anymore", 5))

    assert current(store, tenant) == set()
    [retracted] = result.retracted
    assert retracted.valid_until == day(5)
    assert retracted.retraction is not None
    assert retracted.retraction.episode_id == result.episode_id
    assert retracted.superseded_by is None


def test_deleting_an_episode_reopens_what_it_closed(store: GraphStore, embedder: Embedder,
                                                    tenant: str) -> None:
    script = {"I work at Acme": [said("WORKS_AT", "Acme")],
              "I joined Globex": [said("WORKS_AT", "Globex")]}
    ingestor = Ingestor(store, ScriptedExtractor(script), embedder)
    ingestor.ingest(tenant, _episode("I work at Acme", 1))
    second = ingestor.ingest(tenant, _episode("I joined Globex", 6))
    assert current(store, tenant) == {("WORKS_AT", "Globex")}

    deleted = ingestor.delete_episode(tenant, second.episode_id or "")

    assert [f.object_name for f in deleted.deleted] == ["Globex"]
    assert [f.object_name for f in deleted.reopened] == ["Acme"]
    assert current(store, tenant) == {("WORKS_AT", "Acme")}
    assert store.get_episode(tenant, second.episode_id or "") is None
    [acme] = store.list_facts(tenant, FactQuery(scope_keys=ALICE.visible_keys))
    assert acme.superseded_by is None and acme.valid_until is None


def test_deleting_a_retracting_episode_reopens_the_fact(store: GraphStore, embedder: Embedder,
                                                        tenant: str) -> None:
    script = {"I work at Acme": [said("WORKS_AT", "Acme")],
              "I quit Acme": [said("WORKS_AT", "Acme", action="retract")]}
    ingestor = Ingestor(store, ScriptedExtractor(script), embedder)
    ingestor.ingest(tenant, _episode("I work at Acme", 1))
    quit_ = ingestor.ingest(tenant, _episode("I quit Acme", 3))
    assert current(store, tenant) == set()

    ingestor.delete_episode(tenant, quit_.episode_id or "")

    assert current(store, tenant) == {("WORKS_AT", "Acme")}


def test_client_episode_id_makes_ingestion_idempotent(store: GraphStore, embedder: Embedder,
                                                      tenant: str) -> None:
    ingestor = Ingestor(store, ScriptedExtractor({"I work at Acme": [said("WORKS_AT", "Acme")]}),
                        embedder)
    first = ingestor.ingest(tenant, _episode("I work at Acme", 1, episode_id="client-1"))
    again = ingestor.ingest(tenant, _episode("I work at Acme", 1, episode_id="client-1"))

    assert again.duplicate and again.episode_id == first.episode_id
    assert again.created == [] and again.confirmed == []
    assert len(store.list_episodes(tenant, ALICE.visible_keys)) == 1


def test_as_known_at_shows_what_was_believed_then(ingestor: Ingestor, store: GraphStore,
                                                  tenant: str) -> None:
    clock = iter([day(1, year=2025), day(2, year=2025)])
    ingestor.clock = lambda: next(clock)
    ingestor.add_facts(tenant, [fact("WORKS_AT", "Acme", 1)])
    ingestor.add_facts(tenant, [fact("WORKS_AT", "Globex", 6)])

    believed = current(store, tenant, as_known_at=day(1, 15, year=2025))
    assert believed == {("WORKS_AT", "Acme")}
    assert current(store, tenant, as_known_at=day(1, 15, year=2025), as_of=day(7)) == {
        ("WORKS_AT", "Acme")}
    assert current(store, tenant, as_known_at=day(12, year=2023)) == set()
    assert current(store, tenant) == {("WORKS_AT", "Globex")}


def test_history_returns_the_whole_chain(ingestor: Ingestor, store: GraphStore,
                                         tenant: str) -> None:
    for month, company in [(1, "Acme"), (4, "Globex"), (9, "Initech")]:
        ingestor.add_facts(tenant, [fact("WORKS_AT", company, month)])

    everything = store.list_facts(tenant, FactQuery(scope_keys=ALICE.visible_keys,
                                                    time=TimeFilter(include_history=True)))
    chain = sorted(everything, key=lambda f: f.valid_from)
    assert [f.object_name for f in chain] == ["Acme", "Globex", "Initech"]
    assert [f.superseded_by for f in chain] == [chain[1].id, chain[2].id, None]


def test_a_retraction_by_kind_ends_the_named_things_of_that_kind(
        store: GraphStore, embedder: Embedder, tenant: str) -> None:
    """Any extractor's "no longer has a bike" ends "owns a bike, the Brompton"; a thing
    named by a common noun ("bike shop") or of another kind stays."""
    def owns(obj: str, text: str, action: str = "assert") -> ExtractedFact:
        return said("OWNS", obj, action=action).model_copy(update={"text": text})

    script = {"bikes": [owns("Brompton", "Alice owns a folding bike, a Brompton."),
                        owns("Leica", "Alice owns a camera, a Leica."),
                        owns("bike shop", "Alice owns a bike shop.")],
              "sold": [owns("bike", "Alice no longer owns a bike.", "retract")]}
    ingestor = Ingestor(store, ScriptedExtractor(script), embedder)
    ingestor.ingest(tenant, _episode("bikes", 1))
    result = ingestor.ingest(tenant, _episode("sold", 4))

    assert [f.object_name for f in result.retracted] == ["Brompton"]
    assert current(store, tenant) == {("OWNS", "Leica"), ("OWNS", "bike shop")}
    assert ("OWNS", "Brompton") in current(store, tenant, as_of=day(3))
