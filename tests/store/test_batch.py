"""``WriteBatch.merged``: what the write path does when one edit stages several batches."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.models import Entity, Episode, Fact
from graphmem.store.base import Mention, Reminder, WriteBatch

WHEN = datetime(2024, 3, 1, tzinfo=UTC)
MAYA = Entity(tenant="t", scope_key="user:maya", name="Maya")
GLOBEX = Entity(tenant="t", scope_key="user:maya", name="Globex", type="organization")


def _fact(text: str) -> Fact:
    return Fact(tenant="t", scope_key="user:maya", subject_id=MAYA.id, subject_name="Maya",
                predicate="WORKS_AT", object_id=GLOBEX.id, object_name="Globex", text=text,
                valid_from=WHEN, timeline_key="k")


def _full(tag: str) -> WriteBatch:
    """A batch with something in every field, so the test notices a field left unmerged."""
    episode = Episode(tenant="t", scope_key="user:maya", reference_time=WHEN, content=tag)
    fact = _fact(f"Maya works at Globex ({tag})")
    return WriteBatch(
        episodes=[episode], entities=[Entity(tenant="t", scope_key="user:maya", name=tag)],
        facts=[fact], mentions=[Mention(episode_id=episode.id, entity_id=MAYA.id)],
        turn_vectors={episode.id: [[0.1, 0.2]]},
        reminders=[Reminder(tenant="t", scope_key="user:maya", todo_id=fact.id, remind_at=WHEN)],
        delete_fact_ids=[f"gone-{tag}"], delete_episode_ids=[f"gone-{tag}"],
        delete_entity_ids=[f"gone-{tag}"], timeline_versions={f"k-{tag}": 3})


def test_every_field_of_both_batches_is_kept() -> None:
    first, second = _full("a"), _full("b")
    merged = first.merged(second)
    for name in WriteBatch.model_fields:
        mine, theirs, both = (getattr(b, name) for b in (first, second, merged))
        assert len(both) == len(mine) + len(theirs), name
        if isinstance(both, dict):
            assert both == {**mine, **theirs}, name
        else:
            assert both == [*mine, *theirs], name


def test_a_record_staged_twice_is_written_once_as_last_staged() -> None:
    fact = _fact("Maya works at Globex")
    changed = fact.model_copy(update={"valid_until": WHEN})
    merged = WriteBatch(entities=[MAYA], facts=[fact]).merged(
        WriteBatch(entities=[MAYA, GLOBEX], facts=[changed]))
    assert merged.facts == [changed]
    assert [e.id for e in merged.entities] == [MAYA.id, GLOBEX.id]
