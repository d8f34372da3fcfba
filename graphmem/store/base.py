"""The store interface the rest of graphmem uses.

A store is deliberately dumb: it persists what it is given, atomically, and
answers a handful of typed reads. Every rule about time, supersession and
resolution lives outside the store (:mod:`graphmem.temporal`,
:mod:`graphmem.ingest`), so both backends share one behaviour, and the contract
tests in ``tests/store/`` define it.

Every method takes the tenant first; no read or write may cross tenants.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from pydantic import BaseModel, Field

from graphmem.errors import StoreError
from graphmem.models import Category, Entity, Episode, Fact, FactStatus, UtcDateTime
from graphmem.temporal import TimeFilter


class Mention(BaseModel):
    """An episode mentions an entity: ``(:Episode)-[:MENTIONS]->(:Entity)``."""

    episode_id: str
    entity_id: str


class Reminder(BaseModel):
    """When to remind someone of a todo, and when that was done: at most once, ever.

    ``todo_id`` is the id of the todo's ``TODO`` fact (fact ids are unique
    across tenants). Scheduling a reminder again never resets one already sent.
    """

    tenant: str
    scope_key: str
    todo_id: str
    remind_at: UtcDateTime
    sent_at: UtcDateTime | None = None


class WriteBatch(BaseModel):
    """Everything one ingestion step changes, applied in one transaction.

    Facts and entities are upserted whole (their derived fields included), so
    a store never has to compute anything. ``delete_*`` removes nodes and every
    edge and index entry attached to them.
    """

    episodes: list[Episode] = Field(default_factory=list)
    entities: list[Entity] = Field(default_factory=list)
    facts: list[Fact] = Field(default_factory=list)
    mentions: list[Mention] = Field(default_factory=list)
    turn_vectors: dict[str, list[list[float]]] = Field(
        default_factory=dict,
        description="episode id -> one embedding per turn (see models.episode_turns), in order")
    reminders: list[Reminder] = Field(
        default_factory=list, description="scheduled if absent; deleting a fact drops its own")
    delete_fact_ids: list[str] = Field(default_factory=list)
    delete_episode_ids: list[str] = Field(default_factory=list)
    delete_entity_ids: list[str] = Field(default_factory=list)
    timeline_versions: dict[str, int] = Field(
        default_factory=dict,
        description="timeline key -> the version the writer read (see GraphStore.write)")

    def refuse_foreign(self, tenant: str, dimension: int) -> None:
        """Raise :class:`StoreError` before anything is written when a record is another
        tenant's, or a vector has another dimension than the store's (the embedded file would
        take it and its mirror refuse it after the commit). Every store calls this first."""
        records: list[Episode | Entity | Fact] = [*self.episodes, *self.entities, *self.facts]
        owners = [(m.id, m.tenant) for m in records]
        owners += [(r.todo_id, r.tenant) for r in self.reminders]
        for model_id, owner in owners:
            if owner != tenant:
                raise StoreError(f"refusing to write {model_id} of another tenant into {tenant!r}")
        vectors = [(e.id, e.embedding) for e in self.entities]
        vectors += [(f.id, f.embedding) for f in self.facts]
        vectors += [(f"{episode_id}:{i}", v) for episode_id, turns in self.turn_vectors.items()
                    for i, v in enumerate(turns)]
        for model_id, vector in vectors:
            if vector is not None and len(vector) != dimension:
                raise StoreError(f"{model_id} has a {len(vector)}-dimensional embedding; this "
                                 f"store holds {dimension}-dimensional ones")

    def merged(self, later: WriteBatch) -> WriteBatch:
        """This batch and ``later`` as one, field by field, so that a new field is merged
        without being listed anywhere: records with an ``id`` are upserted (``later``'s
        copy wins, in first-seen order), other lists are appended and maps joined."""
        parts: dict[str, Any] = {}
        for name in type(self).model_fields:
            mine, theirs = getattr(self, name), getattr(later, name)
            if isinstance(mine, dict):
                parts[name] = {**mine, **theirs}
            elif any(hasattr(item, "id") for item in [*mine, *theirs]):
                parts[name] = list({item.id: item for item in [*mine, *theirs]}.values())
            else:
                parts[name] = [*mine, *theirs]
        return WriteBatch(**parts)

    def is_empty(self) -> bool:
        return not any(
            (self.episodes, self.entities, self.facts, self.mentions, self.reminders,
             self.delete_fact_ids,
             self.delete_episode_ids, self.delete_entity_ids)
        )


class FactQuery(BaseModel):
    """Filters for listing facts (the browsing side of the API, not ranked search)."""

    scope_keys: list[str]
    time: TimeFilter = Field(default_factory=TimeFilter)
    categories: list[Category] | None = None
    statuses: list[FactStatus] | None = None  # when set, exactly these statuses (time still applies)
    predicates: list[str] | None = None
    entity_id: str | None = None
    text_contains: str | None = None
    limit: int = Field(default=50, ge=1, le=10_000)
    offset: int = Field(default=0, ge=0)


class Scored(BaseModel):
    """One candidate from a search channel: an id and the channel's own score."""

    id: str
    score: float


class ScoredEntity(BaseModel):
    """An entity near a query vector, with its cosine similarity (entity resolution's read)."""

    entity: Entity
    score: float


class TurnHit(BaseModel):
    """A raw conversation turn found by the raw-turn channel."""

    episode_id: str
    message_index: int
    message_id: str | None
    speaker: str | None
    content: str
    timestamp: datetime | None
    score: float
    recorded_at: datetime | None = None
    role: str | None = None
    """The message's role ("user", "assistant"...); None for an episode of plain text."""


class ChannelPlan(BaseModel):
    """Every read one search makes before fusion, asked of the store in one call.

    ``names`` are the query's normalised n-grams, looked up exactly by name or
    alias once, for the focus and for the walk's seeds (the entities matched by
    one of ``seed_names``; if none, the best ``seed_limit`` BM25 name matches of
    ``name_text``). ``turn_limit`` 0 leaves the raw-turn channels out.
    """

    scope_keys: list[str]
    text: str = Field(description="the words the BM25 channels search for")
    embedding: list[float] = Field(description="the query's vector")
    time: TimeFilter = Field(default_factory=TimeFilter)
    limit: int = Field(ge=1, description="candidates per fact channel")
    turn_limit: int = Field(default=0, ge=0, description="candidates per turn channel")
    names: list[str] = Field(default_factory=list)
    seed_names: list[str] = Field(default_factory=list)
    name_text: str = ""
    name_limit: int = Field(default=16, ge=1)
    seed_limit: int = Field(default=8, ge=1)
    walk_depth: int = Field(default=2, ge=0)
    walk_per_hop: int = Field(default=60, ge=1)


class ChannelHits(BaseModel):
    """What :meth:`GraphStore.search_channels` found, channel by channel, best first.

    ``walked`` holds the walk's hops in order (hop 1 first), each as the store's
    one-hop read returned it (with or without vectors: nothing reads them);
    ``similarity`` has each walked fact's cosine similarity to the query. ``facts`` are
    the BM25 and vector hits' facts, without vectors.
    """

    entities: list[Entity] = Field(default_factory=list, description="named exactly")
    named: list[Entity] = Field(default_factory=list, description="best BM25 name matches")
    seeds: list[str] = Field(default_factory=list)
    bm25: list[Scored] = Field(default_factory=list)
    vector: list[Scored] = Field(default_factory=list)
    walked: list[list[Fact]] = Field(default_factory=list)
    similarity: dict[str, float] = Field(default_factory=dict)
    turns: list[TurnHit] = Field(default_factory=list)
    turns_vector: list[TurnHit] = Field(default_factory=list)
    facts: list[Fact] = Field(default_factory=list)


class StoreStats(BaseModel):
    episodes: int = 0
    entities: int = 0
    facts_by_status: dict[str, int] = Field(default_factory=dict)
    facts_by_category: dict[str, int] = Field(default_factory=dict)
    current_facts: int = 0


class ScopeIds(BaseModel):
    """The episodes and entities stored under one scope: what erasing it deletes besides
    its facts, named in the erasure's answer and its audit line."""

    episodes: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)


class StoredResponse(BaseModel):
    """The answer to a request sent with an ``Idempotency-Key`` (HTTP), kept so a retry gets
    the same answer instead of doing the work twice.

    ``status`` is None while the first request is still being processed.
    """

    key: str
    fingerprint: str = Field(description="a hash of the request (method, path, query, body)")
    created_at: datetime
    status: int | None = None
    body: str = ""
    media_type: str = "application/json"


class GraphStore(Protocol):
    """What graphmem needs from a backend."""

    #: Whether independent reads gain from running side by side (a server store does;
    #: an in-process store serialises them on its own lock, and threads only add cost).
    parallel_reads: bool

    def open(self) -> None:
        """Connect (or open the file) and make sure the schema is in place."""

    def close(self) -> None: ...

    def write(self, tenant: str, batch: WriteBatch) -> None:
        """Apply the whole batch atomically, or raise and change nothing.

        Timelines are versioned, so writers in several processes cannot both
        act on the same state of one: in the write's transaction the store
        locks every timeline in ``batch.timeline_versions`` and every timeline
        a written or deleted fact belongs to, raises
        :class:`~graphmem.errors.TimelineConflictError` (writing nothing) when
        one of ``timeline_versions`` is no longer the version stored, and
        advances each locked timeline's version by one.
        """

    def timeline_versions(self, tenant: str, timeline_keys: list[str]) -> dict[str, int]:
        """Each timeline's version (0 for one never written); read it before its facts."""

    # -- episodes -------------------------------------------------------------
    def get_episode(self, tenant: str, episode_id: str) -> Episode | None: ...

    def find_episode(self, tenant: str, scope_key: str, client_id: str) -> Episode | None:
        """The episode a client sent with this idempotency id, if any."""

    def episodes_by_client_id(self, tenant: str, client_id: str) -> list[Episode]:
        """Every episode of the tenant a client sent with this id, in any scope.

        A client id is unique only within a scope, so the caller decides which
        scope's episode it meant (``GET /v1/episodes/{client id}``).
        """

    def list_episodes(self, tenant: str, scope_keys: list[str], *, limit: int = 50,
                      before: datetime | None = None) -> list[Episode]:
        """Newest first by reference time."""

    def expired_episode_ids(self, tenant: str, now: datetime) -> list[str]: ...

    def scope_keys(self, tenant: str) -> list[str]:
        """Every scope key the tenant has episodes or facts in, sorted (for a scope picker)."""

    # -- entities -------------------------------------------------------------
    def get_entities(self, tenant: str, ids: list[str]) -> list[Entity]: ...

    def find_entities(self, tenant: str, scope_keys: list[str], names: list[str]) -> list[Entity]:
        """Entities whose normalised name or alias is one of ``names`` (already normalised)."""

    def find_entities_by_prefix(self, tenant: str, scope_keys: list[str], prefixes: list[str],
                                limit: int) -> list[Entity]:
        """At most ``limit`` entities with a normalised name or alias that starts with one
        of ``prefixes`` (normalised, letters only): the people a short form such as "mel"
        may stand for ("melanie chen"), which an exact lookup cannot find."""

    def vector_entities(self, tenant: str, scope_keys: list[str], embedding: list[float],
                        limit: int) -> list[Scored]: ...

    def nearest_entities(self, tenant: str, scope_keys: list[str],
                         embeddings: list[list[float]], limit: int) -> list[list[ScoredEntity]]:
        """For each vector, what :meth:`vector_entities` finds, as whole entities (with
        their vectors) in the same order: the candidates of many names read at once, in
        one round trip on a server store (more only when a large scope needs the index
        widened)."""

    def fulltext_entities(self, tenant: str, scope_keys: list[str], text: str,
                          limit: int) -> list[Scored]: ...

    # -- facts ----------------------------------------------------------------
    def get_facts(self, tenant: str, ids: list[str], *, embeddings: bool = True) -> list[Fact]:
        """Facts by id, in the order asked; without their vectors if ``embeddings`` is false."""

    def facts_in_timelines(self, tenant: str, timeline_keys: list[str]) -> list[Fact]:
        """All facts (any status) of the given timelines."""

    def facts_of_episode(self, tenant: str, episode_id: str) -> list[Fact]:
        """Facts the episode asserted (``ASSERTS``) or retracted (``RETRACTS``)."""

    def list_facts(self, tenant: str, query: FactQuery) -> list[Fact]:
        """Newest ``valid_from`` first."""

    def facts_about(self, tenant: str, scope_keys: list[str], entity_ids: list[str],
                    time: TimeFilter, limit: int, *, embeddings: bool = True) -> list[Fact]:
        """Facts whose subject or object is one of the entities (one hop), most important
        first; without their vectors if ``embeddings`` is false (a slot read takes up to 200
        facts and needs none of their 384 floats)."""

    def record_access(self, tenant: str, fact_ids: list[str], at: datetime) -> None:
        """Count one access per occurrence of an id and set last access.

        Not part of any ingestion batch; search calls it off the hot path,
        coalescing many searches into one call.
        """

    # -- search channels ------------------------------------------------------
    def fulltext_facts(self, tenant: str, scope_keys: list[str], text: str, time: TimeFilter,
                       limit: int) -> list[Scored]:
        """BM25 over fact text."""

    def vector_facts(self, tenant: str, scope_keys: list[str], embedding: list[float],
                     time: TimeFilter, limit: int) -> list[Scored]:
        """Nearest facts by cosine similarity, from an index (never a scan of all facts)."""

    def fulltext_turns(self, tenant: str, scope_keys: list[str], text: str,
                       limit: int, time: TimeFilter | None = None) -> list[TurnHit]:
        """BM25 over raw conversation turns; with ``time``, only the turns it sees
        (:meth:`TimeFilter.sees_statement`), still up to ``limit`` of them."""

    def vector_turns(self, tenant: str, scope_keys: list[str], embedding: list[float],
                     limit: int, time: TimeFilter | None = None) -> list[TurnHit]:
        """Nearest raw turns by cosine similarity, from an index; ``time`` as above."""

    def facts_of_episodes(self, tenant: str, episode_ids: list[str]) -> list[Fact]:
        """Facts (any status, without vectors) that the episodes asserted or retracted:
        what recall needs to tell whether a turn still says something true."""

    def search_channels(self, tenant: str, plan: ChannelPlan) -> ChannelHits:
        """Every channel of one search at once: the same hits as the channel methods
        (:func:`graphmem.search.channels.channels_by_parts`), in one round trip on a
        server store."""

    def prepare_searches(self, tenant: str, plans: list[ChannelPlan], *,
                         parallel: int = 1) -> None:
        """Make :meth:`search_channels` for ``plans`` as quick the first time as after: a
        server store plans each query it may send for them (``parallel`` at once) by
        running it in ``tenant``, which should hold nothing. Writes nothing."""

    # -- reminders ------------------------------------------------------------
    def due_reminders(self, until: datetime, limit: int) -> list[Reminder]:
        """Unsent reminders due by ``until``, oldest first, of every tenant.

        The one read that spans tenants: a server's scheduler serves them all.
        Each reminder names its tenant, and every later step runs in it.
        """

    def claim_reminder(self, tenant: str, todo_id: str, at: datetime) -> bool:
        """Mark a reminder sent at ``at`` unless it already was; True for the one caller that did.

        A compare-and-set in one transaction, so of several processes serving
        one database exactly one wins, and a restart never sends it again.
        """

    # -- housekeeping ---------------------------------------------------------
    def stats(self, tenant: str, scope_keys: list[str], now: datetime) -> StoreStats: ...

    def ids_in_scope(self, tenant: str, scope_key: str) -> ScopeIds:
        """The ids of the episodes and entities stored under exactly ``scope_key``, sorted."""

    def delete_scope(self, tenant: str, scope_key: str) -> int:
        """Hard-delete everything in one scope; returns the number of nodes removed."""

    def purge_deleted(self) -> None:
        """Make what was deleted unrecoverable from the store's own files, where the backend
        can (after a privacy erasure). SQLite checkpoints and truncates its write-ahead log
        and merges its full-text segments; Neo4j keeps deleted data in its transaction log
        for as long as ``db.tx_log.rotation.retention_policy`` says (see docs/neo4j-local.md)."""

    # -- idempotent requests --------------------------------------------------
    def claim_request(self, tenant: str, request: StoredResponse, *, stale_before: datetime,
                      expire_before: datetime) -> StoredResponse | None:
        """Record ``request`` (pending) under its key, atomically, unless the key is taken.

        Returns None when claimed, else the record holding the key. A pending record
        created before ``stale_before`` (its process died) and any record created before
        ``expire_before`` no longer hold their key.
        """

    def finish_request(self, tenant: str, request: StoredResponse) -> None:
        """Store the answer of a claimed request."""

    def drop_requests(self, tenant: str, keys: list[str] | None = None) -> None:
        """Forget stored requests (all of the tenant's when ``keys`` is None), so a retry
        runs again; an erasure drops all, as stored answers may quote what it erased."""
