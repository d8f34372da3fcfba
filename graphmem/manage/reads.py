"""Browsing memory: one fact, episode or entity, an entity's timeline and neighbours, provenance.

Reads only: nothing here takes the write lock or changes the store. Every
fact and entity returned is public (no embedding). A ``scope`` argument makes
an object outside it not found, so a guessed id reveals nothing.

>>> getfact_in_scope(memory, "acme", "fact_123", Scope(user_id="alice"))   # doctest: +SKIP
>>> neighbors(memory, "acme", "ent_9", depth=2)                    # doctest: +SKIP
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, Field

from graphmem.embed.base import embed_one
from graphmem.errors import ConflictError, NotFoundError, StoreError, StoreUnavailableError
from graphmem.extract.base import Extraction
from graphmem.ingest.inputs import EpisodeInput
from graphmem.memory import Memory
from graphmem.models import Entity, Episode, Fact, FactStatus, Scope, UtcDateTime
from graphmem.scan import all_facts
from graphmem.search.fuse import reciprocal_rank_fusion
from graphmem.search.traverse import walk
from graphmem.store.base import StoreStats
from graphmem.temporal import TimeFilter, as_viewed


class Source(BaseModel):
    """Where a fact was said: one message (or a whole text episode)."""

    episode_id: str
    message_id: str | None = None
    speaker: str | None = None
    role: str | None = None
    content: str
    timestamp: UtcDateTime | None = None


class EntityHit(BaseModel):
    entity: Entity
    score: float
    channels: dict[str, int] = Field(default_factory=dict)


class Neighborhood(BaseModel):
    entity: Entity
    entities: list[Entity]
    facts: list[Fact]
    hops: dict[str, int] = Field(default_factory=dict, description="entity id -> hop distance")


class MonthCount(BaseModel):
    month: str  # "2024-05"
    added: int
    total: int


class Growth(BaseModel):
    stats: StoreStats
    facts_by_month: list[MonthCount]


def fact_in_scope(memory: Memory, tenant: str, fact_id: str, scope: Scope | None) -> Fact:
    """The stored fact with its embedding; a fact outside ``scope`` does not exist."""
    found = memory.store.get_facts(tenant, [fact_id])
    if (not found or found[0].status is FactStatus.RETRACTION
            or (scope is not None and found[0].scope_key not in scope.visible_keys)):
        raise NotFoundError(f"memory {fact_id!r} not found")
    return found[0]


def entity_in_scope(memory: Memory, tenant: str, entity_id: str, scope: Scope | None) -> Entity:
    found = memory.store.get_entities(tenant, [entity_id])
    if not found or (scope is not None and found[0].scope_key not in scope.visible_keys):
        raise NotFoundError(f"entity {entity_id!r} not found")
    return found[0]


def scopes(memory: Memory, tenant: str) -> list[Scope]:
    """The scopes a tenant has memories or conversations in (what a scope picker offers)."""
    return [Scope.from_key(key) for key in memory.store.scope_keys(tenant)]


def get_fact(memory: Memory, tenant: str, fact_id: str, scope: Scope | None = None) -> Fact:
    """One fact, any status, optionally only if ``scope`` can see it."""
    return fact_in_scope(memory, tenant, fact_id, scope).public()


def get_episode(memory: Memory, tenant: str, episode_id: str,
                scope: Scope | None = None) -> Episode:
    """An episode by the server's id or by the ``episode_id`` its client sent.

    A client id is unique within a scope, not across the tenant: with a scope
    the most specific visible scope's episode wins; without one, a client id
    used in several scopes is a conflict the caller resolves by naming the scope.
    """
    episode = memory.store.get_episode(tenant, episode_id)
    if episode is None:
        episode = _by_client_id(memory, tenant, episode_id, scope)
    if episode is None or (scope is not None and episode.scope_key not in scope.visible_keys):
        raise NotFoundError(f"episode {episode_id!r} not found")
    return episode


def _by_client_id(memory: Memory, tenant: str, client_id: str,
                  scope: Scope | None) -> Episode | None:
    found = memory.store.episodes_by_client_id(tenant, client_id)
    if scope is not None:
        rank = {key: i for i, key in enumerate(scope.visible_keys)}
        found = sorted((e for e in found if e.scope_key in rank), key=lambda e: rank[e.scope_key])
        return found[0] if found else None
    if len(found) > 1:
        raise ConflictError(f"episode id {client_id!r} was sent in {len(found)} scopes; "
                            "name one with user_id and/or group_id")
    return found[0] if found else None


def episode_facts(memory: Memory, tenant: str, episode_id: str) -> list[Fact]:
    """The facts an episode asserted or retracted (markers excluded)."""
    return [f.public() for f in memory.store.facts_of_episode(tenant, episode_id)
            if f.status is not FactStatus.RETRACTION]


def get_entity(memory: Memory, tenant: str, entity_id: str, scope: Scope | None = None) -> Entity:
    return entity_in_scope(memory, tenant, entity_id, scope).public()


def supersession_chain(memory: Memory, tenant: str, fact: Fact, *,
                       max_steps: int = 100) -> list[Fact]:
    """The fact and every fact it superseded or was superseded by, oldest first."""
    seen: dict[str, Fact] = {fact.id: fact}
    frontier = [*fact.supersedes, *([fact.superseded_by] if fact.superseded_by else [])]
    while frontier and len(seen) < max_steps:
        wanted = [i for i in dict.fromkeys(frontier) if i not in seen]
        found = memory.store.get_facts(tenant, wanted)
        frontier = []
        for f in found:
            seen[f.id] = f
            frontier += [*f.supersedes, *([f.superseded_by] if f.superseded_by else [])]
    return sorted((f.public() for f in seen.values()), key=lambda f: (f.valid_from, f.recorded_at))


def provenance(memory: Memory, tenant: str, fact: Fact) -> list[Source]:
    """The messages a fact came from (the whole text for text and JSON episodes)."""
    out: list[Source] = []
    wanted = set(fact.message_ids)
    for episode_id in fact.episode_ids:
        episode = memory.store.get_episode(tenant, episode_id)
        if episode is None:
            continue
        messages = [m for m in episode.messages if m.id in wanted]
        if not messages:
            out.append(Source(episode_id=episode.id, content=episode.content,
                              timestamp=episode.reference_time))
        out += [Source(episode_id=episode.id, message_id=m.id, speaker=m.speaker, role=m.role,
                       content=m.content, timestamp=m.timestamp) for m in messages]
    return out


def entity_keys(entity: Entity, scope: Scope | None) -> list[str]:
    keys = scope.visible_keys if scope else Scope.from_key(entity.scope_key).visible_keys
    return list(dict.fromkeys([*keys, entity.scope_key]))


def search_entities(memory: Memory, tenant: str, scope: Scope, query: str,
                    limit: int = 10) -> list[EntityHit]:
    """Entities by name (BM25 over names and aliases) and by meaning (name embeddings), fused."""
    keys = scope.visible_keys
    ranked: dict[str, Sequence[str]] = {
        "bm25": [s.id for s in memory.store.fulltext_entities(tenant, keys, query, limit * 2)],
        "vector": [s.id for s in memory.store.vector_entities(
            tenant, keys, embed_one(memory.embedder, query), limit * 2)],
    }
    scores, ranks = reciprocal_rank_fusion(ranked)
    top = sorted(scores, key=lambda i: scores[i], reverse=True)[:limit]
    entities = {e.id: e for e in memory.store.get_entities(tenant, top)}
    return [EntityHit(entity=entities[i].public(), score=scores[i],
                      channels=ranks[i]) for i in top if i in entities]


def entity_timeline(memory: Memory, tenant: str, entity_id: str,
                    scope: Scope | None = None) -> list[Fact]:
    """Every fact about an entity, past ones and forgotten ones included, oldest first."""
    entity = entity_in_scope(memory, tenant, entity_id, scope)
    facts = all_facts(memory.store, tenant, entity_keys(entity, scope), entity_id=entity_id)
    return sorted((f.public() for f in facts), key=lambda f: (f.valid_from, f.recorded_at))


def neighbors(memory: Memory, tenant: str, entity_id: str, *, depth: int = 1,
              scope: Scope | None = None, as_of: datetime | None = None,
              per_hop: int = 100) -> Neighborhood:
    """The entities within ``depth`` hops and the facts (valid at ``as_of``) linking them."""
    root = entity_in_scope(memory, tenant, entity_id, scope)
    hops: dict[str, int] = {root.id: 0}
    facts: dict[str, Fact] = {}
    time, now = TimeFilter(as_of=as_of), memory.clock()
    walked = walk(memory.store, tenant, entity_keys(root, scope), [root.id],
                  time=time, depth=depth, per_hop=per_hop)
    for hop, found in enumerate(walked, start=1):
        facts.update((f.id, as_viewed(f.public(), time, now)) for f in found if f.id not in facts)
        for end in (e for f in found for e in (f.subject_id, f.object_id) if e):
            hops.setdefault(end, hop)
    others = [e.public() for e in memory.store.get_entities(tenant, [i for i in hops if i != root.id])]
    return Neighborhood(entity=root.public(), entities=others, facts=list(facts.values()),
                        hops=hops)


def growth(memory: Memory, tenant: str, scope: Scope) -> Growth:
    """The store's counts for a scope, plus facts recorded per month (and running totals)."""
    stats = memory.stats(tenant, scope)
    months = Counter(f.recorded_at.strftime("%Y-%m")
                     for f in all_facts(memory.store, tenant, scope.visible_keys))
    total = 0
    by_month: list[MonthCount] = []
    for month in sorted(months):
        total += months[month]
        by_month.append(MonthCount(month=month, added=months[month], total=total))
    return Growth(stats=stats, facts_by_month=by_month)


def preview_extraction(memory: Memory, tenant: str, data: EpisodeInput) -> Extraction:
    """What the extractor finds in an episode, with nothing stored (a dry run)."""
    return memory.preview(tenant, data)


def ping(memory: Memory, tenant: str) -> None:
    """Raise :class:`StoreUnavailableError` unless the store answers a trivial read."""
    try:
        memory.store.stats(tenant, ["user:__ping__"], memory.clock())
    except StoreError as err:
        raise StoreUnavailableError(f"the store did not answer: {err}") from err


