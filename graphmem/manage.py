"""Managing memories one by one: forget, restore, correct, erase, browse the graph.

These are the operations a memory browser (the REST API, a CLI) needs beyond
:class:`~graphmem.memory.Memory`'s ingest-and-recall. Like the store, every
function takes the memory and the tenant first; every write goes through the
ingestion lock and one :class:`~graphmem.store.base.WriteBatch`, so it cannot
interleave with an ingestion and a failure changes nothing.

Two kinds of forgetting:

* **soft** (:func:`forget_fact`): the fact is kept with status ``forgotten``;
  searches no longer see it and :func:`restore_fact` brings it back;
* **hard** (:func:`erase_scope`, :func:`erase_entity`, :func:`erase_topic`):
  for privacy; the facts, entities and (by default) the conversations they
  came from are deleted from the graph and from every index.

>>> forget_fact(memory, "acme", "fact_123")                      # doctest: +SKIP
>>> erase_entity(memory, "acme", Scope(user_id="alice"), "ent_9")  # doctest: +SKIP
Erasure(facts=4, entities=1, episodes=2, ...)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime

from pydantic import BaseModel, Field

from graphmem import mentions
from graphmem.embed.base import embed_one
from graphmem.errors import (
    ConflictError,
    NotFoundError,
    StoreError,
    StoreUnavailableError,
    ValidationError,
)
from graphmem.extract.base import Extraction
from graphmem.ingest.apply import Statement, TimelineEditor, embed_facts, with_evidence
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.resolve import NameRequest
from graphmem.memory import Memory
from graphmem.models import (
    Cardinality,
    Category,
    Entity,
    Episode,
    Fact,
    FactStatus,
    Scope,
    UtcDateTime,
)
from graphmem.search.fuse import reciprocal_rank_fusion
from graphmem.search.models import SearchRequest
from graphmem.store.base import FactQuery, StoreStats, WriteBatch
from graphmem.temporal import TimeFilter

#: A time filter that sees every fact that is not archived, whenever it holds.
EVERYTHING = TimeFilter(as_of=datetime(9999, 12, 31, tzinfo=UTC), include_history=True,
                        include_forgotten=True)
_PAGE = 10_000


class Source(BaseModel):
    """Where a fact was said: one message (or a whole text episode)."""

    episode_id: str
    message_id: str | None = None
    speaker: str | None = None
    role: str | None = None
    content: str
    timestamp: UtcDateTime | None = None


class Correction(BaseModel):
    memory: Fact
    superseded: Fact | None = None


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


# -- reading ------------------------------------------------------------------
def _public(fact: Fact) -> Fact:
    return fact.model_copy(update={"embedding": None})


def _fact(memory: Memory, tenant: str, fact_id: str, scope: Scope | None) -> Fact:
    """The stored fact with its embedding; a fact outside ``scope`` does not exist."""
    found = memory.store.get_facts(tenant, [fact_id])
    if (not found or found[0].status is FactStatus.RETRACTION
            or (scope is not None and found[0].scope_key not in scope.visible_keys)):
        raise NotFoundError(f"memory {fact_id!r} not found")
    return found[0]


def _entity(memory: Memory, tenant: str, entity_id: str, scope: Scope | None) -> Entity:
    found = memory.store.get_entities(tenant, [entity_id])
    if not found or (scope is not None and found[0].scope_key not in scope.visible_keys):
        raise NotFoundError(f"entity {entity_id!r} not found")
    return found[0]


def scopes(memory: Memory, tenant: str) -> list[Scope]:
    """The scopes a tenant has memories or conversations in (what a scope picker offers)."""
    return [Scope.from_key(key) for key in memory.store.scope_keys(tenant)]


def get_fact(memory: Memory, tenant: str, fact_id: str, scope: Scope | None = None) -> Fact:
    """One fact, any status, optionally only if ``scope`` can see it."""
    return _public(_fact(memory, tenant, fact_id, scope))


def get_episode(memory: Memory, tenant: str, episode_id: str,
                scope: Scope | None = None) -> Episode:
    episode = memory.get_episode(tenant, episode_id)
    if scope is not None and episode.scope_key not in scope.visible_keys:
        raise NotFoundError(f"episode {episode_id!r} not found")
    return episode


def episode_facts(memory: Memory, tenant: str, episode_id: str) -> list[Fact]:
    """The facts an episode asserted or retracted (markers excluded)."""
    return [_public(f) for f in memory.store.facts_of_episode(tenant, episode_id)
            if f.status is not FactStatus.RETRACTION]


def get_entity(memory: Memory, tenant: str, entity_id: str, scope: Scope | None = None) -> Entity:
    return _entity(memory, tenant, entity_id, scope).model_copy(update={"embedding": None})


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
    return sorted((_public(f) for f in seen.values()), key=lambda f: (f.valid_from, f.recorded_at))


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


def _all_facts(memory: Memory, tenant: str, scope_keys: list[str],
               entity_id: str | None = None) -> list[Fact]:
    out: list[Fact] = []
    while True:
        page = memory.store.list_facts(tenant, FactQuery(
            scope_keys=scope_keys, entity_id=entity_id, time=EVERYTHING, limit=_PAGE,
            offset=len(out)))
        out += page
        if len(page) < _PAGE:
            return out


def _entity_keys(entity: Entity, scope: Scope | None) -> list[str]:
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
    return [EntityHit(entity=entities[i].model_copy(update={"embedding": None}), score=scores[i],
                      channels=ranks[i]) for i in top if i in entities]


def entity_timeline(memory: Memory, tenant: str, entity_id: str,
                    scope: Scope | None = None) -> list[Fact]:
    """Every fact about an entity, past ones and forgotten ones included, oldest first."""
    entity = _entity(memory, tenant, entity_id, scope)
    facts = _all_facts(memory, tenant, _entity_keys(entity, scope), entity_id)
    return sorted((_public(f) for f in facts), key=lambda f: (f.valid_from, f.recorded_at))


def neighbors(memory: Memory, tenant: str, entity_id: str, *, depth: int = 1,
              scope: Scope | None = None, as_of: datetime | None = None,
              per_hop: int = 100) -> Neighborhood:
    """The entities within ``depth`` hops and the facts (valid at ``as_of``) linking them."""
    root = _entity(memory, tenant, entity_id, scope)
    keys = _entity_keys(root, scope)
    hops: dict[str, int] = {root.id: 0}
    facts: dict[str, Fact] = {}
    frontier = [root.id]
    for hop in range(1, depth + 1):
        if not frontier:
            break
        found = memory.store.facts_about(tenant, keys, frontier, TimeFilter(as_of=as_of), per_hop)
        frontier = []
        for fact in found:
            facts.setdefault(fact.id, _public(fact))
            for end in (fact.subject_id, fact.object_id):
                if end and end not in hops:
                    hops[end] = hop
                    frontier.append(end)
    others = [e.model_copy(update={"embedding": None})
              for e in memory.store.get_entities(tenant, [i for i in hops if i != root.id])]
    return Neighborhood(entity=root.model_copy(update={"embedding": None}), entities=others,
                        facts=list(facts.values()), hops=hops)


def growth(memory: Memory, tenant: str, scope: Scope) -> Growth:
    """The store's counts for a scope, plus facts recorded per month (and running totals)."""
    stats = memory.stats(tenant, scope)
    months = Counter(f.recorded_at.strftime("%Y-%m")
                     for f in _all_facts(memory, tenant, scope.visible_keys))
    total = 0
    by_month: list[MonthCount] = []
    for month in sorted(months):
        total += months[month]
        by_month.append(MonthCount(month=month, added=months[month], total=total))
    return Growth(stats=stats, facts_by_month=by_month)


def preview_extraction(memory: Memory, tenant: str, data: EpisodeInput) -> Extraction:
    """What the extractor finds in an episode, with nothing stored (a dry run)."""
    now = memory.clock()
    episode = Episode(tenant=tenant, scope_key=data.scope.key, source=data.source(),
                      content=data.rendered(), reference_time=now, recorded_at=now,
                      client_id=data.episode_id, session_id=data.session_id)
    messages = [m if m.id else m.model_copy(update={"id": f"{episode.id}:{i}"})
                for i, m in enumerate(data.messages)]
    stamps = [m.timestamp for m in messages if m.timestamp is not None]
    episode = episode.model_copy(update={
        "messages": messages, "reference_time": data.reference_time or max(stamps, default=now)})
    with memory.ingestor.lock:  # the extractor is not known to be thread-safe
        return memory.extractor.extract(episode, [])


def ping(memory: Memory, tenant: str) -> None:
    """Raise :class:`StoreUnavailableError` unless the store answers a trivial read."""
    try:
        memory.store.stats(tenant, ["user:__ping__"], memory.clock())
    except StoreError as err:
        raise StoreUnavailableError(f"the store did not answer: {err}") from err


# -- soft changes ---------------------------------------------------------------
def _update(memory: Memory, tenant: str, fact_id: str, scope: Scope | None,
            **changes: object) -> Fact:
    with memory.ingestor.lock:
        fact = _fact(memory, tenant, fact_id, scope)
        if fact.status not in (FactStatus.ACTIVE, FactStatus.FORGOTTEN):
            raise ConflictError(f"memory {fact_id!r} is {fact.status.value} and cannot be changed")
        updated = fact.model_copy(update=changes)
        if updated != fact:
            memory.store.write(tenant, WriteBatch(facts=[updated]))
    return _public(updated)


def forget_fact(memory: Memory, tenant: str, fact_id: str, scope: Scope | None = None) -> Fact:
    """Soft forget: searches stop seeing the fact; it is kept and :func:`restore_fact` undoes it."""
    return _update(memory, tenant, fact_id, scope, status=FactStatus.FORGOTTEN)


def restore_fact(memory: Memory, tenant: str, fact_id: str, scope: Scope | None = None) -> Fact:
    """Undo :func:`forget_fact`; restoring counts as a use (``last_accessed``), so decay
    does not take it straight back."""
    return _update(memory, tenant, fact_id, scope, status=FactStatus.ACTIVE,
                   last_accessed=memory.clock())


def forget_scope(memory: Memory, tenant: str, scope: Scope) -> list[Fact]:
    """Soft-forget every active fact stored under exactly this scope, in one batch.

    "Clear all memories" that can be undone: :func:`restore_facts` with the ids
    returned brings back exactly these, not facts forgotten before.
    """
    with memory.ingestor.lock:
        facts = [f.model_copy(update={"status": FactStatus.FORGOTTEN})
                 for f in _all_facts(memory, tenant, [scope.key])
                 if f.status is FactStatus.ACTIVE]
        if facts:
            memory.store.write(tenant, WriteBatch(facts=facts))
    return [_public(f) for f in facts]


def restore_facts(memory: Memory, tenant: str, fact_ids: list[str],
                  scope: Scope | None = None) -> list[Fact]:
    """Undo :func:`forget_scope` (or several :func:`forget_fact`) in one batch.

    Ids that are not forgotten facts visible in ``scope`` are skipped, so a
    retried undo changes nothing the second time.
    """
    with memory.ingestor.lock:
        found = memory.store.get_facts(tenant, list(dict.fromkeys(fact_ids)))
        facts = [f.model_copy(update={"status": FactStatus.ACTIVE,
                                      "last_accessed": memory.clock()})
                 for f in found if f.status is FactStatus.FORGOTTEN
                 and (scope is None or f.scope_key in scope.visible_keys)]
        if facts:
            memory.store.write(tenant, WriteBatch(facts=facts))
    return [_public(f) for f in facts]


def set_importance(memory: Memory, tenant: str, fact_id: str, importance: float,
                   scope: Scope | None = None) -> Fact:
    if not 0.0 <= importance <= 1.0:
        raise ValidationError(f"importance must be between 0 and 1, got {importance}")
    return _update(memory, tenant, fact_id, scope, importance=importance)


def correct_fact(memory: Memory, tenant: str, fact_id: str, *, object: str | None = None,
                 text: str | None = None, category: Category | None = None,
                 scope: Scope | None = None) -> Correction:
    """Correct a current fact's content.

    A new value (``object``) makes a new fact that supersedes the old one: for
    a functional predicate ("works at") through the normal timeline, where the
    old fact ends as the new one starts; otherwise the old fact is retracted
    now and linked to the new one. New wording or category for the same value
    edits the fact in place (same value, same fact), and ``superseded`` is None.
    """
    with memory.ingestor.lock:
        old = _fact(memory, tenant, fact_id, scope)
        now = memory.clock()
        if old.status is not FactStatus.ACTIVE:
            raise ConflictError(f"memory {fact_id!r} is {old.status.value}; restore it first")
        if old.valid_until is not None and old.valid_until <= now:
            raise ConflictError(f"memory {fact_id!r} no longer holds; correct the current one")
        new_object = (object or old.object_name).strip()
        words = old.predicate.lower().replace("_", " ")
        said = f"{old.subject_name} {words} {new_object}." if object else old.text
        new_text = (text or said).strip()
        new_category = category or old.category
        if (new_object, new_text, new_category) == (old.object_name, old.text, old.category):
            raise ValidationError("text, object, category: the correction changes nothing")
        fact_scope = Scope.from_key(old.scope_key)
        resolution = memory.ingestor.resolver.resolve(
            tenant, fact_scope, [NameRequest(new_object, _object_type(memory, tenant, old))])
        obj = resolution.get(new_object)
        if obj is None:
            raise ValidationError(f"cannot use {new_object!r} as a value")
        entities = [*resolution.created, *resolution.updated]
        if obj.id == old.object_id:
            edited = old.model_copy(update={"text": new_text, "category": new_category,
                                            "embedding": None})
            [edited] = embed_facts(memory.embedder, [edited])
            memory.store.write(tenant, WriteBatch(facts=[edited], entities=entities))
            return Correction(memory=_public(edited), superseded=None)
        return _supersede(memory, tenant, old, obj, new_text, new_category, now, entities)


def _supersede(memory: Memory, tenant: str, old: Fact, obj: Entity, text: str,
               category: Category, now: datetime, entities: list[Entity]) -> Correction:
    when = max(now, old.valid_from)
    editor = TimelineEditor(memory.store, tenant, memory.ingestor.registry, now)
    editor.load_facts([old])

    def statement(object_id: str, object_name: str, said: str, retract: bool) -> Statement:
        return Statement(
            scope_key=old.scope_key, subject_id=old.subject_id, subject_name=old.subject_name,
            predicate=old.predicate, object_id=object_id, object_name=object_name, text=said,
            category=category, importance=old.importance, confidence=old.confidence,
            cardinality=old.cardinality.value, valid_from=when, stated_until=None,
            episode_id=None, message_ids=[], retract=retract)

    spec = memory.ingestor.registry.spec(old.predicate, old.cardinality)
    if spec.cardinality is not Cardinality.ONE:
        editor.apply(statement(old.object_id, old.object_name, f"Corrected: {old.text}", True))
    editor.apply(statement(obj.id, obj.name, text, False))
    outcome = editor.finish()
    new = next((f for f in [*outcome.created, *outcome.confirmed] if f.object_id == obj.id), None)
    if new is None:
        raise ConflictError(f"memory {old.id!r} could not be corrected")
    changed = {f.id: f for f in outcome.changed if f.id not in set(outcome.deleted_ids)}
    current_old = changed.get(old.id, old)
    if current_old.superseded_by != new.id:  # different timelines: link them here
        changed[old.id] = current_old.model_copy(update={"superseded_by": new.id})
        latest_new = changed.get(new.id, new)
        changed[new.id] = latest_new.model_copy(
            update={"supersedes": list(dict.fromkeys([*latest_new.supersedes, old.id]))})
    facts = embed_facts(memory.embedder, list(changed.values()))
    memory.store.write(tenant, WriteBatch(facts=facts, entities=entities,
                                          delete_fact_ids=sorted(set(outcome.deleted_ids))))
    written = {f.id: f for f in facts}
    return Correction(memory=_public(written[new.id]), superseded=_public(written[old.id]))


def _object_type(memory: Memory, tenant: str, fact: Fact) -> str:
    found = memory.store.get_entities(tenant, [fact.object_id]) if fact.object_id else []
    return found[0].type if found else "concept"


# -- hard deletion ------------------------------------------------------------------
def _purge(memory: Memory, tenant: str) -> None:
    """After an erasure: stored request answers may quote what was erased, and the store's
    files may still hold it (a write-ahead log, index segments)."""
    memory.store.drop_requests(tenant)
    memory.store.purge_deleted()


def erase_scope(memory: Memory, tenant: str, scope: Scope, *, dry_run: bool = False) -> Erasure:
    """Delete everything stored under exactly this scope (not the scopes it can read)."""
    with memory.ingestor.lock:
        stats = memory.store.stats(tenant, [scope.key], memory.clock())
        fact_ids = sorted(f.id for f in _all_facts(memory, tenant, [scope.key]))
        report = Erasure(facts=len(fact_ids), fact_ids=fact_ids, entities=stats.entities,
                         episodes=stats.episodes, dry_run=dry_run)
        if not dry_run:
            memory.store.delete_scope(tenant, scope.key)
            _purge(memory, tenant)
    return report


def erase_entity(memory: Memory, tenant: str, scope: Scope, entity_id: str, *,
                 delete_sources: bool = True, dry_run: bool = False) -> Erasure:
    """Delete an entity, every fact touching or naming it and (by default) the episodes they
    came from; every other episode that names it keeps its words with the name replaced
    (see :mod:`graphmem.mentions`)."""
    with memory.ingestor.lock:
        entity = _entity(memory, tenant, entity_id, scope)
        keys = _entity_keys(entity, scope)
        facts = _all_facts(memory, tenant, keys, entity.id)
        pattern = mentions.name_pattern([entity])
        if pattern is not None:
            facts += [f for f in mentions.all_facts(memory.store, tenant, keys)
                      if mentions.fact_mentions(f, pattern)]
        return _erase(memory, tenant, facts, {entity.id}, delete_sources, dry_run,
                      scrub=(pattern, keys) if pattern is not None else None)


def erase_topic(memory: Memory, tenant: str, scope: Scope, topic: str, *,
                min_score: float | None = None, delete_sources: bool = True,
                dry_run: bool = False) -> Erasure:
    """Delete the facts whose text matches ``topic``'s words (the BM25 channel found them).

    A lexical match keeps a privacy erasure predictable: vector neighbours and
    graph walks are fuzzy, so they only confirm, never decide. ``min_score``
    narrows further. Use ``dry_run`` first: this cannot be undone.
    """
    with memory.ingestor.lock:
        hits = memory.search(tenant, SearchRequest(
            scope=scope, query=topic, include_history=True, include_turns=False, limit=200,
            min_score=min_score)).results
        facts = memory.store.get_facts(
            tenant, [h.id for h in hits if h.kind == "fact" and "bm25" in h.channels])
        return _erase(memory, tenant, facts, set(), delete_sources, dry_run)


def _erase(memory: Memory, tenant: str, facts: list[Fact], entity_ids: set[str],
           delete_sources: bool, dry_run: bool,
           scrub: tuple[re.Pattern[str], list[str]] | None = None) -> Erasure:
    """One batch: the facts (and retraction markers about them), entities left without facts,
    the source episodes, and the other episodes of ``scrub``'s scopes with its pattern
    replaced; facts that only shared an episode lose the reference but stay."""
    doomed: dict[str, Fact] = {f.id: f for f in facts}
    objects = {(f.timeline_key, f.object_id) for f in facts}
    for f in memory.store.facts_in_timelines(tenant, sorted({f.timeline_key for f in facts})):
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
    episodes = [e for e in (memory.store.get_episode(tenant, i) for i in sorted(episode_ids)) if e]
    sharing = {f.id: f for e in episodes for f in memory.store.facts_of_episode(tenant, e.id)
               if f.id not in doomed}
    ends = {end for f in doomed.values() for end in (f.subject_id, f.object_id) if end}
    doomed_keys = sorted({f.scope_key for f in doomed.values()})
    orphans = {eid for eid in ends - entity_ids
               if all(x.id in doomed for x in memory.store.facts_about(
                   tenant, doomed_keys, [eid], EVERYTHING, len(doomed) + 1))}
    doomed_entities = sorted(
        e.id for e in memory.store.get_entities(tenant, sorted(entity_ids | orphans)))
    gone = {e.id for e in episodes}
    scrubbed = [] if scrub is None else [
        clean for e in mentions.all_episodes(memory.store, tenant, scrub[1])
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
    editor = TimelineEditor(memory.store, tenant, memory.ingestor.registry, memory.clock())
    editor.load_facts([*doomed.values(), *sharing.values()])
    for f in sharing.values():
        editor.replace(with_evidence(f, [e for e in f.evidence if e.episode_id not in gone]))
    for fid in doomed:
        editor.drop(fid)
    outcome = editor.finish()
    deleted = set(doomed) | set(outcome.deleted_ids)
    memory.store.write(tenant, WriteBatch(
        facts=[f for f in outcome.changed if f.id not in deleted],
        delete_fact_ids=sorted(deleted), delete_episode_ids=sorted(gone),
        delete_entity_ids=doomed_entities, episodes=scrubbed,
        turn_vectors=memory.ingestor.turn_vectors(scrubbed)))
    _purge(memory, tenant)
    return report
