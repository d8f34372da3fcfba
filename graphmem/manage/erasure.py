"""Hard deletion for privacy: a whole scope, an entity, or a topic.

The facts, entities and (by default) the conversations they came from are
deleted from the graph and from every index, in one edit of the write path;
stored request answers are dropped and the store's files compacted after the
commit. Each erased fact is announced as ``memory.deleted`` and the audit
trail names every erased id (never any content). Use ``dry_run`` first:
this cannot be undone.

>>> erase_entity(memory, "acme", Scope(user_id="alice"), "ent_9")  # doctest: +SKIP
Erasure(facts=4, entities=1, episodes=2, ...)
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from graphmem import mentions
from graphmem.edit.changes import Change
from graphmem.edit.unit import Edit
from graphmem.ingest.normalise import with_evidence
from graphmem.manage.reads import entity_in_scope, entity_keys
from graphmem.memory import Memory
from graphmem.models import Fact, FactStatus, Scope
from graphmem.scan import EVERYTHING, all_facts
from graphmem.search.models import SearchRequest
from graphmem.store.base import WriteBatch
from graphmem.edit.unit import decided_again_on_conflict


class Erasure(BaseModel):
    """What a hard delete removed, and where it blanked out the erased entity's name."""

    facts: int = 0
    entities: int = 0
    episodes: int = 0
    fact_ids: list[str] = Field(default_factory=list)
    entity_ids: list[str] = Field(default_factory=list)
    episode_ids: list[str] = Field(default_factory=list)
    redacted_episodes: int = Field(default=0, description="episodes kept with the name replaced")
    redacted_episode_ids: list[str] = Field(default_factory=list)
    dry_run: bool = False


@decided_again_on_conflict
def erase_scope(memory: Memory, tenant: str, scope: Scope, *, dry_run: bool = False) -> Erasure:
    """Delete everything stored under exactly this scope (not the scopes it can read)."""
    with memory.edit(tenant) as edit:
        ids = memory.store.ids_in_scope(tenant, scope.key)
        fact_ids = sorted(f.id for f in all_facts(memory.store, tenant, [scope.key]))
        report = Erasure(facts=len(fact_ids), fact_ids=fact_ids, entities=len(ids.entities),
                         entity_ids=ids.entities, episodes=len(ids.episodes),
                         episode_ids=ids.episodes, dry_run=dry_run)
        if not dry_run:
            edit.delete_scope(scope.key)
            edit.purge()
            edit.record(_erased(report, scope.key, "whole scope"))
    return report


@decided_again_on_conflict
def erase_entity(memory: Memory, tenant: str, scope: Scope, entity_id: str, *,
                 delete_sources: bool = True, dry_run: bool = False) -> Erasure:
    """Delete an entity, every fact touching or naming it and (by default) the episodes they
    came from; every other episode that names it keeps its words with the name replaced
    (see :mod:`graphmem.mentions`)."""
    with memory.edit(tenant) as edit:
        entity = entity_in_scope(memory, tenant, entity_id, scope)
        keys = entity_keys(entity, scope)
        facts = all_facts(memory.store, tenant, keys, entity_id=entity.id)
        pattern = mentions.name_pattern([entity])
        if pattern is not None:
            facts += [f for f in mentions.all_facts(memory.store, tenant, keys)
                      if mentions.fact_mentions(f, pattern)]
        report = _erase(edit, facts, {entity.id}, delete_sources, dry_run,
                        scrub=(pattern, keys) if pattern is not None else None)
        edit.record([] if dry_run else _erased(report, scope.key, f"entity {entity.id}"))
        return report


@decided_again_on_conflict
def erase_topic(memory: Memory, tenant: str, scope: Scope, topic: str, *,
                min_score: float | None = None, delete_sources: bool = True,
                dry_run: bool = False) -> Erasure:
    """Delete the facts whose text matches ``topic``'s words (the BM25 channel found them).

    A lexical match keeps a privacy erasure predictable: vector neighbours and
    graph walks are fuzzy, so they only confirm, never decide. ``min_score``
    narrows further. Use ``dry_run`` first: this cannot be undone.
    """
    with memory.edit(tenant) as edit:
        hits = memory.search(tenant, SearchRequest(
            scope=scope, query=topic, include_history=True, include_turns=False, limit=200,
            min_score=min_score)).results
        facts = edit.store.get_facts(
            tenant, [h.id for h in hits if h.kind == "fact" and "bm25" in h.channels])
        report = _erase(edit, facts, set(), delete_sources, dry_run)
        # the topic's words may be the private thing itself: the trail says only "topic"
        edit.record([] if dry_run else _erased(report, scope.key, "topic"))
        return report


def _erase(edit: Edit, facts: list[Fact], entity_ids: set[str], delete_sources: bool,
           dry_run: bool,
           scrub: tuple[re.Pattern[str], list[str]] | None = None) -> Erasure:
    """One batch: the facts (and retraction markers about them), entities left without facts,
    the source episodes, and the other episodes of ``scrub``'s scopes with its pattern
    replaced; facts that only shared an episode lose the reference but stay."""
    doomed: dict[str, Fact] = {f.id: f for f in facts}
    objects = {(f.timeline_key, f.object_id) for f in facts}
    for f in edit.store.facts_in_timelines(edit.tenant, sorted({f.timeline_key for f in facts})):
        if (f.subject_id in entity_ids or f.object_id in entity_ids
                or (f.status is FactStatus.RETRACTION
                    and (f.timeline_key, f.object_id) in objects)):
            doomed[f.id] = f
    episode_ids: set[str] = set()
    if delete_sources:
        for f in doomed.values():
            episode_ids.update(f.episode_ids)
            if f.retraction and f.retraction.episode_id:
                episode_ids.add(f.retraction.episode_id)
    episodes = [e for e in (edit.store.get_episode(edit.tenant, i) for i in sorted(episode_ids)) if e]
    sharing = {f.id: f for e in episodes for f in edit.store.facts_of_episode(edit.tenant, e.id)
               if f.id not in doomed}
    ends = {end for f in doomed.values() for end in (f.subject_id, f.object_id) if end}
    doomed_keys = sorted({f.scope_key for f in doomed.values()})
    orphans = {eid for eid in ends - entity_ids
               if all(x.id in doomed for x in edit.store.facts_about(
                   edit.tenant, doomed_keys, [eid], EVERYTHING, len(doomed) + 1,
                   embeddings=False))}
    doomed_entities = sorted(
        e.id for e in edit.store.get_entities(edit.tenant, sorted(entity_ids | orphans)))
    gone = {e.id for e in episodes}
    scrubbed = [] if scrub is None else [
        clean for e in mentions.all_episodes(edit.store, edit.tenant, scrub[1])
        if e.id not in gone and (clean := mentions.scrub_episode(e, scrub[0])) is not None]
    report = Erasure(facts=sum(f.status is not FactStatus.RETRACTION for f in doomed.values()),
                     entities=len(doomed_entities), episodes=len(episodes),
                     fact_ids=sorted(i for i, f in doomed.items()
                                     if f.status is not FactStatus.RETRACTION),
                     entity_ids=doomed_entities, episode_ids=[e.id for e in episodes],
                     redacted_episodes=len(scrubbed),
                     redacted_episode_ids=sorted(e.id for e in scrubbed), dry_run=dry_run)
    if dry_run:
        return report
    editor = edit.timeline()
    editor.load_facts([*doomed.values(), *sharing.values()])
    for f in sharing.values():
        editor.replace(with_evidence(f, [e for e in f.evidence if e.episode_id not in gone]))
    for fid in doomed:
        editor.drop(fid)
    outcome = editor.finish()
    deleted = set(doomed) | set(outcome.deleted_ids)
    edit.write(WriteBatch(
        facts=[f for f in outcome.changed if f.id not in deleted],
        delete_fact_ids=sorted(deleted), delete_episode_ids=sorted(gone),
        delete_entity_ids=doomed_entities, episodes=scrubbed,
        turn_vectors=edit.turn_vectors(scrubbed)))
    edit.purge()
    return report


def _erased(report: Erasure, scope_key: str, target: str) -> list[Change]:
    """A deletion event per erased fact; one audit line names them, and the erased episodes
    and entities, with what was asked for (never the words themselves)."""
    return [*(Change(target=i, kind="memory.deleted", audit="erase", scope_key=scope_key,
                     detail=target) for i in report.fact_ids),
            *(Change(target=i, audit="erase", scope_key=scope_key, detail=target)
              for i in [*report.entity_ids, *report.episode_ids])]
