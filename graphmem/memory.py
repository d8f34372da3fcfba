"""The library's front door: one object that ingests, recalls and forgets.

>>> memory = Memory.from_settings(Settings())            # doctest: +SKIP
>>> memory.open()                                         # doctest: +SKIP
>>> memory.add_episode("default", EpisodeInput(scope=Scope(user_id="alice"),  # doctest: +SKIP
...     messages=[Message(speaker="Alice", content="I switched from Vue to React")]))
>>> memory.search("default", SearchRequest(scope=Scope(user_id="alice"),  # doctest: +SKIP
...     query="which framework does Alice use?"))

Every method takes the tenant first, like the store: the REST API passes the
tenant its API key maps to, and nothing can cross it.

Every change goes through :meth:`Memory.edit` (the write path, see
:mod:`graphmem.edit.unit`); whoever holds the memory hears of the changes by
attaching a sink (:meth:`Memory.attach`), as the REST app does for its event
stream and audit log.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from types import TracebackType
from typing import TypeVar

from graphmem.edit.changes import Change, ChangeSink, Sinks
from graphmem.edit.unit import Edit, WritePath
from graphmem.embed.base import Embedder
from graphmem.errors import NotFoundError
from graphmem.extract.base import Extraction, Extractor
from graphmem.ingest.inputs import EpisodeInput, FactInput
from graphmem.ingest.pipeline import IngestResult, Ingestor
from graphmem.ingest.redact import Redactor
from graphmem.ingest.resolve import NameRequest, Resolution
from graphmem.models import Entity, Episode, Fact, Scope, utcnow
from graphmem.predicates import PredicateRegistry
from graphmem.embed.tokens import TokenCounter
from graphmem.search.context import Context, ContextRequest
from graphmem.search.engine import SearchEngine
from graphmem.search.models import SearchRequest, SearchResponse
from graphmem.settings import Settings
from graphmem.store.base import FactQuery, GraphStore, StoreStats
from graphmem.names import normalize_name
from graphmem.temporal import TimeFilter, as_viewed

T = TypeVar("T")


class Memory:
    def __init__(self, store: GraphStore, extractor: Extractor, embedder: Embedder, *,
                 registry: PredicateRegistry | None = None,
                 episode_retention: timedelta | None = None,
                 clock: Callable[[], datetime] = utcnow,
                 redactor: Redactor | None = None,
                 sinks: list[ChangeSink] | None = None) -> None:
        self.store = store
        self.extractor = extractor
        self.embedder = embedder
        self.clock = clock
        self.redactor = redactor
        self._writes = WritePath(store, embedder, registry or PredicateRegistry(), clock=clock,
                                 lock=threading.RLock(), sinks=Sinks(sinks))
        self.ingestor = Ingestor(store, extractor, embedder, episode_retention=episode_retention,
                                 clock=clock, writes=self._writes)
        self.engine = SearchEngine(store, embedder, registry=self.registry, clock=clock)
        self.tokens = TokenCounter()

    @classmethod
    def from_settings(cls, settings: Settings) -> Memory:
        """A Memory wired as ``settings`` say: see :func:`graphmem.factory.build_memory`."""
        from graphmem.factory import build_memory

        return build_memory(settings)

    def open(self) -> Memory:
        self.store.open()
        return self

    def warm_up(self) -> None:
        """Load the models now, so the first request does not pay for it: the embedder, the
        search's slot questions (embedded once), the token counter and a local extractor's
        pipeline (its ``load()``)."""
        self.embedder.embed(["graphmem warms up"])
        self.engine.slots.match("what is X's job?")
        self.tokens.load()
        load = getattr(self.extractor, "load", None)
        if callable(load):
            load()

    def close(self) -> None:
        self.engine.close()
        self.store.close()

    def __enter__(self) -> Memory:
        return self.open()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- the write path ---------------------------------------------------------
    def edit(self, tenant: str, *, now: datetime | None = None) -> AbstractContextManager[Edit]:
        """The one way to change memory: ``with memory.edit(tenant) as edit: ...``.

        Locked, written as one batch when the block ends (nothing if it raises),
        and announced to the attached sinks after the store committed.
        """
        return self._writes.edit(tenant, now=now)

    def committed(self, step: Callable[[], T]) -> T:
        """Run ``step`` (which opens its own edit) again while another process's write to a
        timeline it read makes the store refuse it (see :meth:`WritePath.committed`)."""
        return self._writes.committed(step)

    def attach(self, sink: ChangeSink) -> None:
        """Hand every change committed from now on to ``sink`` too (see :meth:`detach`)."""
        self._writes.sinks.attach(sink)

    def detach(self, sink: ChangeSink) -> None:
        self._writes.sinks.detach(sink)

    def announce(self, tenant: str, changes: list[Change]) -> None:
        """Tell the sinks of something that wrote nothing: a refused request, an export."""
        self._writes.announce(tenant, changes)

    @property
    def registry(self) -> PredicateRegistry:
        """The predicate rules (cardinality, families) the timelines follow."""
        return self._writes.registry

    def resolve(self, tenant: str, scope: Scope, requests: list[NameRequest], *,
                create: bool = True) -> Resolution:
        """Names to entities, as ingestion resolves them; nothing is stored (an edit writes
        the new entities it returns)."""
        return self._writes.resolver.resolve(tenant, scope, requests, create=create)

    def preview(self, tenant: str, data: EpisodeInput) -> Extraction:
        """What the extractor finds in an episode, storing nothing."""
        return self.ingestor.preview(tenant, data)

    # -- ingestion ------------------------------------------------------------
    def add_episode(self, tenant: str, episode: EpisodeInput) -> IngestResult:
        return self.add_episodes(tenant, [episode])[0]

    def add_episodes(self, tenant: str, episodes: list[EpisodeInput]) -> list[IngestResult]:
        """Bulk ingestion: one transaction for the whole list. Secrets are redacted first."""
        if self.redactor is not None:
            episodes = [self.redactor.redact_episode(e).episode for e in episodes]
        return self.ingestor.ingest_many(tenant, episodes)

    def add_facts(self, tenant: str, facts: list[FactInput]) -> IngestResult:
        if self.redactor is not None:
            facts = [self.redactor.redact_fact(f)[0] for f in facts]
        return self.ingestor.add_facts(tenant, facts)

    def delete_episode(self, tenant: str, episode_id: str) -> IngestResult:
        return self.ingestor.delete_episode(tenant, episode_id)

    # -- reading --------------------------------------------------------------
    def search(self, tenant: str, request: SearchRequest) -> SearchResponse:
        return self.engine.search(tenant, request)

    def context(self, tenant: str, request: ContextRequest) -> Context:
        """The memory section of a system prompt for one chat turn, within a token budget.

        Profile, latest session summaries, then memories by relevance, all under
        the request's time view; the one way context is built (REST included).
        """
        from graphmem.lifecycle.context import layered_context  # the lifecycle imports Memory

        return layered_context(self, tenant, request)

    def get_episode(self, tenant: str, episode_id: str) -> Episode:
        episode = self.store.get_episode(tenant, episode_id)
        if episode is None:
            raise NotFoundError(f"episode {episode_id!r} not found")
        return episode

    def get_fact(self, tenant: str, fact_id: str) -> Fact:
        facts = self.store.get_facts(tenant, [fact_id])
        if not facts:
            raise NotFoundError(f"memory {fact_id!r} not found")
        return facts[0].public()

    def list_facts(self, tenant: str, query: FactQuery) -> list[Fact]:
        """The facts ``query`` selects, each as its view of time knew it (``as_viewed``)."""
        now = self.clock()
        return [as_viewed(f.public(), query.time, now)
                for f in self.store.list_facts(tenant, query)]

    def history(self, tenant: str, scope: Scope, subject: str, predicate: str) -> list[Fact]:
        """The whole chain of a subject's predicate, oldest first, with what superseded what."""
        entities = self.store.find_entities(tenant, scope.visible_keys, [normalize_name(subject)])
        facts: list[Fact] = []
        for entity in entities:
            facts += [f for f in self.store.list_facts(tenant, FactQuery(
                scope_keys=scope.visible_keys, entity_id=entity.id, limit=10_000,
                time=TimeFilter(include_history=True, include_forgotten=True)))
                if f.subject_id == entity.id and f.predicate == predicate]
        return sorted((f.public() for f in facts),
                      key=lambda f: (f.valid_from, f.recorded_at))

    def get_entity(self, tenant: str, entity_id: str) -> Entity:
        found = self.store.get_entities(tenant, [entity_id])
        if not found:
            raise NotFoundError(f"entity {entity_id!r} not found")
        return found[0].public()

    def stats(self, tenant: str, scope: Scope) -> StoreStats:
        return self.store.stats(tenant, scope.visible_keys, self.clock())
