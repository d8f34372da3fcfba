"""Undo a wrong merge: split the facts some episodes said about an entity off to a new one.

When two people were taken for one ("Maria's colleague Alex" and "Pedro's
neighbour Alex"), the facts of the second wrongly joined the first person's
timelines and may have closed them (Lyon superseding Berlin). Splitting moves
every fact that comes only from the given episodes to a new entity of the same
name, then rebuilds the timelines on both sides from their statements, so
what the move had wrongly closed reopens. Everything happens in one edit of
the write path: moved facts are announced as ``memory.updated``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from graphmem.errors import NotFoundError, ValidationError
from graphmem.edit.changes import fact_changes
from graphmem.models import Entity, Fact, Scope
from graphmem.predicates import PredicateRegistry
from graphmem.store.base import FactQuery, Mention, WriteBatch
from graphmem.temporal import TimeFilter, timeline_key
from graphmem.edit.unit import decided_again_on_conflict

if TYPE_CHECKING:
    from graphmem.memory import Memory

_EVERYTHING = TimeFilter(include_history=True, include_forgotten=True)
_MOST = 10_000


class SplitResult(BaseModel):
    entity: Entity
    new_entity: Entity
    moved: list[Fact] = Field(default_factory=list, description="now about the new entity")
    reopened: list[Fact] = Field(default_factory=list, description="no longer closed by them")


@decided_again_on_conflict
def split_entity(memory: Memory, tenant: str, entity_id: str, episode_ids: list[str], *,
                 fact_ids: list[str] | None = None, scope: Scope | None = None) -> SplitResult:
    """Move what ``episode_ids`` alone said about the entity (and ``fact_ids``) to a new
    entity of its name."""
    wanted, chosen = set(episode_ids), set(fact_ids or [])
    with memory.edit(tenant) as edit:
        found = memory.store.get_entities(tenant, [entity_id])
        if not found or (scope is not None and found[0].scope_key not in scope.visible_keys):
            raise NotFoundError(f"entity {entity_id!r} not found")
        entity = found[0]
        keys = list(dict.fromkeys([*(scope or Scope.from_key(entity.scope_key)).visible_keys,
                                   entity.scope_key]))
        facts = memory.store.list_facts(tenant, FactQuery(
            scope_keys=keys, entity_id=entity_id, time=_EVERYTHING, limit=_MOST))
        moving = [f for f in facts if f.id in chosen
                  or (f.episode_ids and set(f.episode_ids) <= wanted)]
        if not moving:
            raise ValidationError(f"episode_ids/fact_ids: no memory about {entity.name!r} comes "
                                  "only from these episodes, and none has these ids")
        if len(moving) == len(facts):
            raise ValidationError(f"episode_ids/fact_ids: that is every memory about "
                                  f"{entity.name!r}; there is nothing to split from")
        twin = Entity(tenant=tenant, scope_key=entity.scope_key, name=entity.name,
                      type=entity.type, embedding=entity.embedding)
        editor = edit.timeline()
        editor.load_facts(facts)
        for fact in moving:
            editor.drop(fact.id)
            editor.replace(_moved(edit.registry, fact, entity_id, twin.id))
        outcome = editor.finish()
        gone = set(outcome.deleted_ids)
        kept = [f for f in outcome.changed if f.id not in gone]
        edit.write(WriteBatch(
            entities=[twin], facts=kept, delete_fact_ids=outcome.deleted_ids,
            mentions=[Mention(episode_id=e, entity_id=twin.id)
                      for e in sorted({e for f in moving for e in f.episode_ids})]))
        edit.record(fact_changes("memory.updated", kept))
    moved_ids = {f.id for f in moving}
    return SplitResult(
        entity=entity.public(), new_entity=twin.public(),
        moved=[f.public() for f in outcome.changed if f.id in moved_ids],
        reopened=[f.public() for f in outcome.reopened if f.id not in moved_ids])


def _moved(registry: PredicateRegistry, fact: Fact, old_id: str, new_id: str) -> Fact:
    subject = new_id if fact.subject_id == old_id else fact.subject_id
    obj = new_id if fact.object_id == old_id else fact.object_id
    spec = registry.spec(fact.predicate, fact.cardinality)
    return fact.model_copy(update={
        "subject_id": subject, "object_id": obj,
        "timeline_key": timeline_key(fact.scope_key, subject, spec.family, spec.cardinality, obj)})
