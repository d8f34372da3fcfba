"""Soft changes to memories one by one: forget, restore, importance, correct.

Each is one edit of the write path (:meth:`graphmem.memory.Memory.edit`), so
it cannot interleave with an ingestion, a failure changes nothing, and the
event subscribers and the audit trail hear of it once.

Soft forgetting keeps the fact with status ``forgotten``: searches no longer
see it and :func:`restore_fact` brings it back. Hard deletion is
:mod:`graphmem.manage.erasure`.

>>> forget_fact(memory, "acme", "fact_123")                      # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from typing import Literal

from pydantic import BaseModel

from graphmem.edit.changes import Change, ChangeKind, fact_changes
from graphmem.edit.audit import Action
from graphmem.edit.unit import Edit
from graphmem.errors import ConflictError, ValidationError
from graphmem.extract.rules.render import stated
from graphmem.ingest.apply import Statement, TimelineEditor
from graphmem.ingest.resolve import NameRequest
from graphmem.manage.reads import fact_in_scope
from graphmem.memory import Memory
from graphmem.models import Cardinality, Category, Entity, Episode, Fact, FactStatus, Scope
from graphmem.scan import all_episodes, all_facts
from graphmem.store.base import FactQuery, WriteBatch
from graphmem.temporal import TimeFilter
from graphmem.edit.unit import decided_again_on_conflict

#: The importance a restored memory has at least, so the next decay run does not take it
#: straight back (``DecayPolicy.restore_importance`` passes its own).
RESTORE_IMPORTANCE = 0.5


#: From when a corrected value holds: the old one's start (it was wrong) or now (it changed).
CorrectionSince = Literal["start", "now"]


class Correction(BaseModel):
    memory: Fact
    superseded: Fact | None = None


def restored(fact: Fact, now: datetime, importance: float = RESTORE_IMPORTANCE) -> Fact:
    """The one rule of restoring: active again, used ``now`` (so decay starts over) and at
    least ``importance`` (so the next decay run does not take it straight back)."""
    return fact.model_copy(update={"status": FactStatus.ACTIVE, "last_accessed": now,
                                   "importance": max(fact.importance, importance)})


@decided_again_on_conflict
def _update(memory: Memory, tenant: str, fact_id: str, scope: Scope | None,
            kind: ChangeKind, audit: Action | None, change: Callable[[Fact], Fact]) -> Fact:
    """Change one fact in place, checked like any decision: the fact is read after its
    timeline's version, and the write carries that version, so a change another process
    made to the fact meanwhile (an erasure, a correction) sends this one back to read again
    instead of being written over with this process's copy."""
    with memory.edit(tenant) as edit:
        key = fact_in_scope(memory, tenant, fact_id, scope).timeline_key
        versions = memory.store.timeline_versions(tenant, [key])
        fact = fact_in_scope(memory, tenant, fact_id, scope)  # as of that version
        if fact.status not in (FactStatus.ACTIVE, FactStatus.FORGOTTEN):
            raise ConflictError(f"memory {fact_id!r} is {fact.status.value} and cannot be changed")
        updated = change(fact)
        if updated != fact:
            edit.write(WriteBatch(facts=[updated], timeline_versions=versions))
            edit.record(fact_changes(kind, [updated], audit=audit))
    return updated.public()


def forget_fact(memory: Memory, tenant: str, fact_id: str, scope: Scope | None = None) -> Fact:
    """Soft forget: searches stop seeing the fact; it is kept and :func:`restore_fact` undoes it."""
    return _update(memory, tenant, fact_id, scope, "memory.forgotten", "forget",
                   lambda fact: fact.model_copy(update={"status": FactStatus.FORGOTTEN}))


def restore_fact(memory: Memory, tenant: str, fact_id: str, scope: Scope | None = None, *,
                 importance: float = RESTORE_IMPORTANCE, now: datetime | None = None) -> Fact:
    """Undo :func:`forget_fact` (or decay's forgetting): the one restore.

    Restoring counts as a use (``last_accessed``) and lifts the importance to
    at least ``importance``, so decay does not take the memory straight back.
    """
    at = now or memory.clock()
    return _update(memory, tenant, fact_id, scope, "memory.restored", "restore",
                   lambda fact: restored(fact, at, importance))


class ScopeCleared(BaseModel):
    """What "Clear all memories" forgot: the facts, and the conversations whose turns no
    view recalls any more (:attr:`graphmem.models.Episode.forgotten`)."""

    facts: list[Fact]
    episode_ids: list[str]


def forget_scope(memory: Memory, tenant: str, scope: Scope) -> ScopeCleared:
    """Soft-forget every active fact stored under exactly this scope, and its conversations'
    turns, in one batch.

    "Clear all memories" that can be undone: :func:`restore_facts` with the ids
    returned brings back exactly these, not what was forgotten before. Without the
    conversations, a turn no fact came from ("I don't eat meat.") would still be
    recalled after the user cleared everything.
    """
    with memory.edit(tenant) as edit:
        facts = [f.model_copy(update={"status": FactStatus.FORGOTTEN})
                 for f in all_facts(memory.store, tenant, [scope.key])
                 if f.status is FactStatus.ACTIVE]
        episodes = [e.model_copy(update={"forgotten": True})
                    for e in all_episodes(memory.store, tenant, [scope.key])
                    if not e.forgotten and not e.is_record]
        edit.write(WriteBatch(facts=facts, episodes=episodes))
        edit.record(fact_changes("memory.forgotten", facts, audit="forget",
                                 detail="whole scope"))
        edit.record(_episode_changes(episodes, "forget", "whole scope: its turns"))
    return ScopeCleared(facts=[f.public() for f in facts], episode_ids=[e.id for e in episodes])


def restore_facts(memory: Memory, tenant: str, fact_ids: list[str],
                  scope: Scope | None = None, episode_ids: list[str] | None = None) -> list[Fact]:
    """Undo :func:`forget_scope` (or several :func:`forget_fact`) in one batch: the facts,
    and the conversations ``episode_ids`` names.

    Ids that are not forgotten facts (or conversations) visible in ``scope`` are
    skipped, so a retried undo changes nothing the second time.
    """
    with memory.edit(tenant) as edit:
        found = memory.store.get_facts(tenant, list(dict.fromkeys(fact_ids)))
        facts = [restored(f, edit.now) for f in found if f.status is FactStatus.FORGOTTEN
                 and (scope is None or f.scope_key in scope.visible_keys)]
        episodes = [e.model_copy(update={"forgotten": False})
                    for i in dict.fromkeys(episode_ids or [])
                    if (e := memory.store.get_episode(tenant, i)) is not None and e.forgotten
                    and (scope is None or e.scope_key in scope.visible_keys)]
        edit.write(WriteBatch(facts=facts, episodes=episodes))
        edit.record(fact_changes("memory.restored", facts, audit="restore"))
        edit.record(_episode_changes(episodes, "restore", "its turns"))
    return [f.public() for f in facts]


def _episode_changes(episodes: list[Episode], audit: Action, detail: str) -> list[Change]:
    return [Change(target=e.id, audit=audit, scope_key=e.scope_key, episode_id=e.id,
                   detail=detail) for e in episodes]


def set_importance(memory: Memory, tenant: str, fact_id: str, importance: float,
                   scope: Scope | None = None) -> Fact:
    if not 0.0 <= importance <= 1.0:
        raise ValidationError(f"importance must be between 0 and 1, got {importance}")
    return _update(memory, tenant, fact_id, scope, "memory.updated", None,
                   lambda fact: fact.model_copy(update={"importance": importance}))


@decided_again_on_conflict
def correct_fact(memory: Memory, tenant: str, fact_id: str, *, object: str | None = None,
                 text: str | None = None, category: Category | None = None,
                 scope: Scope | None = None, since: CorrectionSince = "start") -> Correction:
    """Correct a current fact's content.

    A new value (``object``) makes a new fact that supersedes the old one and is
    linked to it. ``since="start"`` (the old value was wrong): the new fact holds
    from the old one's start and the old one never held (it stays in the history,
    and ``as_known_at`` an earlier instant still shows what was believed then).
    ``since="now"`` (the value changed): the old fact ends now, where the new one
    starts. A functional predicate ("works at") goes through the normal timeline;
    another one's old fact is ended by the source. New wording or category for
    the same value edits the fact in place (same value, same fact), and
    ``superseded`` is None.
    """
    with memory.edit(tenant) as edit:
        old = fact_in_scope(memory, tenant, fact_id, scope)
        if old.status is not FactStatus.ACTIVE:
            raise ConflictError(f"memory {fact_id!r} is {old.status.value}; restore it first")
        if old.ended_by(edit.now):
            raise ConflictError(f"memory {fact_id!r} no longer holds; correct the current one")
        new_object = (object or old.object_name).strip()
        said = stated(old.subject_name, old.predicate, new_object) if object else old.text
        new_text = (text or said).strip()
        new_category = category or old.category
        if (new_object, new_text, new_category) == (old.object_name, old.text, old.category):
            raise ValidationError("text, object, category: the correction changes nothing")
        resolution = edit.resolve(Scope.from_key(old.scope_key),
                                  [NameRequest(new_object, _object_type(memory, tenant, old))])
        obj = resolution.get(new_object)
        if obj is None:
            raise ValidationError(f"cannot use {new_object!r} as a value")
        edit.write(WriteBatch(entities=[*resolution.created, *resolution.updated]))
        if obj.id == old.object_id:
            edited = old.model_copy(update={"text": new_text, "category": new_category,
                                            "embedding": None})
            edit.write(WriteBatch(facts=[edited]))
            edit.record(fact_changes("memory.updated", [edited]))
            return Correction(memory=edited.public(), superseded=None)
        correction = _supersede(edit, old, obj, new_text, new_category, since)
        edit.record([*fact_changes("memory.superseded", [correction.superseded or old]),
                     *fact_changes("memory.created", [correction.memory])])
        return correction


def _supersede(edit: Edit, old: Fact, obj: Entity, text: str, category: Category,
               since: CorrectionSince) -> Correction:
    """Correct ``old`` to ``obj`` and, when it was misread (``since="start"``), the facts
    read with it from the same words (:func:`_read_with`), all in one timeline edit."""
    others = _read_with(edit, old) if since == "start" else []
    wanted = [(old, text, category),
              *((f, stated(f.subject_name, f.predicate, obj.name), f.category) for f in others)]
    editor = edit.timeline()
    editor.load_facts([f for f, _, _ in wanted])
    for fact, said, kind in wanted:
        _restate(edit, editor, fact, obj, said, kind, since)
    outcome = editor.finish()
    changed = {f.id: f for f in outcome.changed if f.id not in set(outcome.deleted_ids)}
    made = [*outcome.created, *outcome.confirmed]
    successor: dict[str, str] = {}
    for fact, _, _ in wanted:
        new = next((f for f in made if f.object_id == obj.id and f.predicate == fact.predicate
                    and f.subject_id == fact.subject_id), None)
        if new is None:
            raise ConflictError(f"memory {fact.id!r} could not be corrected")
        successor[fact.id] = new.id
        current_old = changed.get(fact.id, fact)
        if current_old.superseded_by != new.id:  # different timelines: link them here
            changed[fact.id] = current_old.model_copy(update={"superseded_by": new.id})
            latest_new = changed.get(new.id, new)
            changed[new.id] = latest_new.model_copy(
                update={"supersedes": list(dict.fromkeys([*latest_new.supersedes, fact.id]))})
    edit.write(WriteBatch(facts=list(changed.values()),
                          delete_fact_ids=sorted(set(outcome.deleted_ids))))
    if others:  # the caller records the named memory's own change
        edit.record([*fact_changes("memory.superseded", [changed[f.id] for f in others]),
                     *fact_changes("memory.created", [changed[successor[f.id]] for f in others])])
    return Correction(memory=changed[successor[old.id]].public(),
                      superseded=changed[old.id].public())


def _restate(edit: Edit, editor: TimelineEditor, old: Fact, obj: Entity, text: str,
             category: Category, since: CorrectionSince) -> None:
    """Put the corrected value into ``old``'s timeline: from ``old``'s start when it was
    wrong, from now when it changed."""
    when = old.valid_from if since == "start" else max(edit.now, old.valid_from)

    def statement(object_id: str, object_name: str, said: str, retract: bool) -> Statement:
        return Statement(
            scope_key=old.scope_key, subject_id=old.subject_id, subject_name=old.subject_name,
            predicate=old.predicate, object_id=object_id, object_name=object_name, text=said,
            category=category, importance=old.importance, confidence=old.confidence,
            cardinality=old.cardinality.value, valid_from=when, stated_until=None,
            episode_id=None, message_ids=[], retract=retract)

    spec = edit.registry.spec(old.predicate, old.cardinality)
    if spec.cardinality is not Cardinality.ONE and since == "start":  # it never held
        editor.replace(old.model_copy(update={"stated_until": old.valid_from}))
    elif spec.cardinality is not Cardinality.ONE:
        editor.apply(statement(old.object_id, old.object_name, f"Corrected: {old.text}", True))
    editor.apply(statement(obj.id, obj.name, text, False))


def _read_with(edit: Edit, old: Fact) -> list[Fact]:
    """The current facts only the messages of ``old`` gave, about the same value, of the
    predicates it implies or is implied by ("mainly programs in Erlang" and "uses Erlang",
    both read from "I mostly code in Erlang"): a misreading of the value is theirs too."""
    related = edit.registry.read_with(old.predicate)
    if not related or not old.message_ids:
        return []
    found = edit.store.list_facts(edit.tenant, FactQuery(
        scope_keys=[old.scope_key], predicates=related, entity_id=old.subject_id,
        time=TimeFilter(as_of=edit.now), limit=50))
    return [f for f in found if f.subject_id == old.subject_id and f.object_id == old.object_id
            and f.status is FactStatus.ACTIVE and f.valid_at(edit.now)
            and f.message_ids and set(f.message_ids) <= set(old.message_ids)]


def _object_type(memory: Memory, tenant: str, fact: Fact) -> str:
    found = memory.store.get_entities(tenant, [fact.object_id]) if fact.object_id else []
    return found[0].type if found else "concept"

