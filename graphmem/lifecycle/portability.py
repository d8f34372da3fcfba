"""Data portability: everything stored under one scope, as one JSON document.

The export holds the episodes (raw conversations and graphmem's own records),
every fact with its whole history (superseded, retracted, forgotten and
archived facts, and the retraction markers that close them) and the entities
those facts and episodes are about. Embeddings are left out: they are derived
data, and large.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from graphmem.lifecycle import records
from graphmem.edit.changes import Change
from graphmem.lifecycle.consolidate import ConsolidationLog
from graphmem.memory import Memory
from graphmem.models import Entity, Episode, Fact, Scope

FORMAT: Literal["graphmem.scope-export/1"] = "graphmem.scope-export/1"


class ScopeExport(BaseModel):
    format: Literal["graphmem.scope-export/1"] = FORMAT
    tenant: str
    scope_key: str
    exported_at: datetime
    episodes: list[Episode] = Field(default_factory=list)
    facts: list[Fact] = Field(default_factory=list)
    entities: list[Entity] = Field(default_factory=list)


def export_scope(memory: Memory, tenant: str, scope: Scope, *,
                 now: datetime | None = None) -> ScopeExport:
    """Everything stored under exactly ``scope.key`` (not the group scopes it can read).

    Archived facts are not listable, so they are found through the timelines
    of the listed facts, the episodes that assert them and the consolidation
    records that archived them. The export is audited (what left, not its content).
    """
    now = now or memory.clock()
    keys = [scope.key]
    episodes = records.all_episodes(memory, tenant, keys)
    facts = {f.id: f for f in records.all_facts(memory, tenant, keys)}
    for fact in memory.store.facts_in_timelines(tenant, sorted({f.timeline_key for f in facts.values()})):
        facts.setdefault(fact.id, fact)
    archived: list[str] = []
    for episode in episodes:
        for fact in memory.store.facts_of_episode(tenant, episode.id):
            facts.setdefault(fact.id, fact)
        log = records.payload_of(episode, ConsolidationLog) if records.is_record(episode) else None
        if log is not None:
            archived += [m.duplicate_id for m in log.merges]
            archived += [i for c in log.compressions for i in c.original_ids]
    for fact in memory.store.get_facts(tenant, [i for i in archived if i not in facts]):
        facts[fact.id] = fact
    mine = [f for f in facts.values() if f.scope_key == scope.key]
    entity_ids = sorted({i for f in mine for i in (f.subject_id, f.object_id) if i})
    entities = [e for e in memory.store.get_entities(tenant, entity_ids) if e.scope_key == scope.key]
    memory.announce(tenant, [Change(target="", audit="export", scope_key=scope.key,
                                    detail=f"{len(episodes)} episodes, {len(mine)} facts, "
                                           f"{len(entities)} entities")])
    return ScopeExport(
        tenant=tenant, scope_key=scope.key, exported_at=now,
        episodes=sorted(episodes, key=lambda e: (e.reference_time, e.id)),
        facts=sorted((f.public() for f in mine), key=lambda f: (f.valid_from, f.id)),
        entities=sorted((e.public() for e in entities),
                        key=lambda e: (e.created_at, e.id)))
