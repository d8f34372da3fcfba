"""Consolidation: duplicates merged with all provenance, old groups compressed and expanded."""

from __future__ import annotations

from datetime import timedelta

import pytest

from graphmem.ingest.inputs import FactInput
from graphmem.lifecycle.consolidate import consolidate, derived_from, expand_summary
from graphmem.lifecycle.relations import RelationKind, classify
from graphmem.memory import Memory
from graphmem.models import Category, Fact, FactStatus
from graphmem.search.models import SearchRequest
from tests.lifecycle.conftest import ALICE, START, Clock
from tests.lifecycle.helpers import add, by_status, stored


def said(memory: Memory, tenant: str, predicate: str, obj: str, text: str, source: str, *,
         category: Category = Category.PREFERENCE, importance: float = 0.5, **kw: object) -> Fact:
    result = memory.add_facts(tenant, [FactInput(
        scope=ALICE, subject="Alice", predicate=predicate, object=obj, text=text,
        category=category, importance=importance, source_id=source, **kw)])  # type: ignore[arg-type]
    return result.created[0]


def test_near_duplicates_merge_keeping_every_source(memory: Memory, tenant: str) -> None:
    food = said(memory, tenant, "LOVES", "Italian food", "Alice loves Italian food.", "m1",
                importance=0.6)
    cuisine = said(memory, tenant, "LOVES", "italian cuisine", "Alice loves italian cuisine.", "m2")
    hiking = said(memory, tenant, "LIKES", "hiking", "Alice likes hiking.", "m8")
    jazz = said(memory, tenant, "LIKES", "jazz", "Alice likes jazz.", "m3", importance=0.6)
    music = said(memory, tenant, "LIKES", "jazz music", "Alice likes jazz music.", "m4")
    a_lot = said(memory, tenant, "LIKES", "jazz a lot", "Alice likes jazz a lot.", "m9")
    alps = said(memory, tenant, "LIKES", "hiking in the Alps", "Alice likes hiking in the Alps.",
                "m5")
    spicy = said(memory, tenant, "LIKES", "spicy food", "Alice likes spicy food.", "m6")
    no_spice = said(memory, tenant, "DISLIKES", "spicy dishes", "Alice dislikes spicy dishes.",
                    "m7")
    before = by_status(memory, tenant)
    assert len(before) == 9

    report = consolidate(memory, tenant, ALICE)
    assert sorted((m.keeper_id, m.duplicate_id) for m in report.merged) == sorted(
        [(food.id, cuisine.id), (jazz.id, music.id), (jazz.id, a_lot.id)])
    assert all(m.similarity >= 0.95 for m in report.merged)

    after = by_status(memory, tenant)  # archived duplicates are no longer listed...
    assert sorted(set(before) - set(after)) == ["Alice likes jazz a lot.", "Alice likes jazz music.",
                                                "Alice loves italian cuisine."]
    assert sorted(stored(memory, tenant, jazz.id).message_ids) == ["m3", "m4", "m9"]
    kept = stored(memory, tenant, food.id)  # ...their sources moved to the keeper
    assert sorted(kept.message_ids) == ["m1", "m2"] and len(kept.evidence) == 2
    archived = stored(memory, tenant, cuisine.id)  # ...and they are archived, not destroyed
    assert archived.status is FactStatus.ARCHIVED and archived.superseded_by == food.id
    assert archived.message_ids == ["m2"]

    kinds = {(r.source_id, r.target_id): r.kind for r in report.relations}
    assert kinds[(alps.id, hiking.id)] is RelationKind.REFINES
    assert RelationKind.CONTRADICTS in {kinds.get((spicy.id, no_spice.id)),
                                        kinds.get((no_spice.id, spicy.id))}

    again = consolidate(memory, tenant, ALICE)  # idempotent
    assert again.merged == [] and again.compressed == []
    assert by_status(memory, tenant) == after


def test_duplicates_with_history_are_left_alone(memory: Memory, tenant: str) -> None:
    said(memory, tenant, "LIKES", "jazz", "Alice likes jazz.", "m1",
         valid_from=START - timedelta(days=90), valid_until=START - timedelta(days=60))
    current = said(memory, tenant, "LIKES", "jazz", "Alice likes jazz.", "m2",
                   valid_from=START - timedelta(days=10))
    said(memory, tenant, "LIKES", "jazz music", "Alice likes jazz music.", "m3")
    report = consolidate(memory, tenant, ALICE)
    assert report.merged == []
    assert any(current.id in note for note in report.skipped)


def test_old_rarely_used_groups_compress_and_expand(memory: Memory, tenant: str,
                                                     clock: Clock) -> None:
    trips = [add(memory, tenant, "HAS_VISITED", city, text=f"Alice visited {city}.",
                 category=Category.EVENT, valid_from=START - timedelta(days=30 * i))
             for i, city in enumerate(["Lisbon", "Porto", "Madrid"], start=1)]
    recent = add(memory, tenant, "HAS_VISITED", "Rome", text="Alice visited Rome.",
                 category=Category.EVENT)
    clock.advance(days=100)
    memory.store.record_access(tenant, [recent.id], clock.now)
    assert consolidate(memory, tenant, ALICE).compressed == []  # not old enough yet

    clock.advance(days=100)
    report = consolidate(memory, tenant, ALICE)
    [group] = report.compressed
    assert sorted(group.original_ids) == sorted(t.id for t in trips)
    assert group.summary_text == ("Alice, event memories from December 2024 to February 2025: "
                                  "Alice visited Madrid; Alice visited Porto; Alice visited Lisbon.")
    after = by_status(memory, tenant)
    assert after == {group.summary_text: "active", "Alice visited Rome.": "active"}
    for trip in trips:  # archived, linked to the summary, not destroyed
        original = stored(memory, tenant, trip.id)
        assert original.status is FactStatus.ARCHIVED and original.superseded_by == group.summary_id
    assert sorted(f.id for f in derived_from(memory, tenant, group.summary_id)) == sorted(
        t.id for t in trips)
    summary = stored(memory, tenant, group.summary_id)
    assert summary.valid_from == trips[-1].valid_from and summary.embedding is not None
    hits = memory.search(tenant, SearchRequest(scope=ALICE, query="Which cities did Alice visit?",
                                               include_turns=False)).results
    memory.engine.close()
    assert group.summary_text in [h.text for h in hits]

    restored = expand_summary(memory, tenant, group.summary_id)
    assert sorted(f.id for f in restored) == sorted(t.id for t in trips)
    assert sorted(by_status(memory, tenant)) == sorted(
        ["Alice visited Lisbon.", "Alice visited Porto.", "Alice visited Madrid.",
         "Alice visited Rome."])
    assert memory.store.get_facts(tenant, [group.summary_id]) == []


@pytest.mark.parametrize(("a", "b", "similarity", "kind"), [
    (("LIKES", "spicy food", "Alice likes spicy food."),
     ("DISLIKES", "spicy dishes", "Alice dislikes spicy dishes."), 0.86, RelationKind.CONTRADICTS),
    (("USES", "Docker", "Alice uses Docker at work."),
     ("USES", "Docker", "Alice does not use Docker at work."), 0.9, RelationKind.CONTRADICTS),
    (("LIKES", "hiking", "Alice likes hiking."),
     ("LIKES", "hiking in the Alps", "Alice likes hiking in the Alps."), 0.5, RelationKind.REFINES),
    (("LOVES", "Italian food", "Alice loves Italian food."),
     ("LIKES", "pasta", "Alice likes pasta."), 0.88, RelationKind.SUPPORTS),
    (("HAS_VISITED", "Lisbon", "Alice visited Lisbon."),
     ("LIKES", "jazz", "Alice likes jazz."), 0.3, None),
])
def test_relation_classifier(a: tuple[str, str, str], b: tuple[str, str, str], similarity: float,
                             kind: RelationKind | None) -> None:
    def fact(p: str, o: str, text: str) -> Fact:
        return Fact(tenant="t", scope_key="user:alice", subject_id="ent_alice",
                    subject_name="Alice", predicate=p, object_id=f"ent_{o}", object_name=o,
                    text=text, valid_from=START)

    found = classify(fact(*a), fact(*b), similarity)
    assert (found.kind if found else None) is kind
