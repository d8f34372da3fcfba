"""The one write path: every change to memory is an :class:`Edit` opened by a :class:`WritePath`.

>>> with memory.edit("acme") as edit:                              # doctest: +SKIP
...     timeline = edit.timeline()
...     timeline.load_facts([fact])
...     timeline.replace(fact.model_copy(update={"status": FactStatus.FORGOTTEN}))
...     outcome = timeline.finish()
...     edit.write(WriteBatch(facts=outcome.changed))
...     edit.record(fact_changes("memory.forgotten", [fact], audit="forget"))

Why one unit: reads, decisions and the write of a change must not
interleave with another change (the lock); a change is all or nothing (one
:class:`~graphmem.store.base.WriteBatch`, written when the ``with`` block
ends, and nothing written if it raises); new facts get their vectors the
same way wherever they come from; and every change reaches the event
subscribers and the audit trail (the sinks) exactly once, after the store
has committed it, whichever entry point made it (REST, MCP, CLI, a
maintenance run, an import).

The lock is re-entrant, so a job may open an edit while it holds another
(maintenance runs many jobs; each commits its own edit). Edits made by
another process (a CLI run against the server's database) are seen by that
process's sinks only: there is no store-level change feed.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import wraps
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from graphmem.edit.changes import Change, Sinks
from graphmem.embed.base import Embedder
from graphmem.errors import TimelineConflictError
from graphmem.embed.turns import turn_vectors
from graphmem.embed.facts import embed_facts
from graphmem.ingest.apply import TimelineEditor
from graphmem.ingest.resolve import EntityResolver, NameRequest, Resolution
from graphmem.models import Episode, Scope
from graphmem.predicates import PredicateRegistry
from graphmem.store.base import GraphStore, WriteBatch

#: How many times a step runs before a TimelineConflictError reaches the caller, and the
#: first pause between attempts (doubled each time, randomised).
COMMIT_ATTEMPTS = 8
COMMIT_BACKOFF_SECONDS = 0.01

T = TypeVar("T")
P = ParamSpec("P")


class Committing(Protocol):
    """What :func:`decided_again_on_conflict` needs of a memory."""

    def committed(self, step: Callable[[], T]) -> T: ...


M = TypeVar("M", bound=Committing)


def decided_again_on_conflict(
        operation: Callable[Concatenate[M, P], T]) -> Callable[Concatenate[M, P], T]:
    """Run ``operation(memory, ...)`` through :meth:`WritePath.committed`.

    For operations that open one edit, read the timelines they decide on inside it and
    have no effect before it commits (a correction, an erasure, a todo...): when another
    process changed one of those timelines first, the store refuses the write and the
    operation runs again from its reads, as ingestion does, instead of failing with 409.
    """
    @wraps(operation)
    def again(memory: M, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return memory.committed(lambda: operation(memory, *args, **kwargs))
    return again


class Edit:
    """One change in the making: read the store, decide, stage a batch, record what changed.

    Built by :meth:`WritePath.edit` only; ``now`` is the edit's one clock reading.
    """

    def __init__(self, path: WritePath, tenant: str, now: datetime) -> None:
        self.tenant = tenant
        self.now = now
        self.store = path.store
        self.registry = path.registry
        self._path = path
        self._batch = WriteBatch()
        self._changes: list[Change] = []
        self._timeline: TimelineEditor | None = None
        self._claims: dict[str, int] = {}
        self._deleted_scopes: list[str] = []
        self._purge = False

    def timeline(self) -> TimelineEditor:
        """The edit's timeline editor (one per edit, so every rule sees every staged change)."""
        if self._timeline is None:
            self._timeline = TimelineEditor(self.store, self.tenant, self.registry, self.now)
        return self._timeline

    def resolve(self, scope: Scope, requests: list[NameRequest], *,
                create: bool = True) -> Resolution:
        """Names to entities; new ones are returned, not stored: :meth:`write` them.
        The write checks that no other process created one of those names meanwhile."""
        resolution = self._path.resolver.resolve(self.tenant, scope, requests, create=create)
        self._claims.update(resolution.claims)
        return resolution

    def resolve_many(self, asks: list[tuple[Scope, list[NameRequest]]], *,
                     create: bool = True) -> list[Resolution]:
        """:meth:`resolve` for several scopes at once (side by side on a server store)."""
        resolutions = self._path.resolver.resolve_many(self.tenant, asks, create=create)
        for resolution in resolutions:
            self._claims.update(resolution.claims)
        return resolutions

    def turn_vectors(self, episodes: list[Episode]) -> dict[str, list[list[float]]]:
        """The turn vectors of episodes the edit writes (none when turns are not embedded)."""
        if not self._path.embed_turns:
            return {}
        return turn_vectors(self._path.embedder, episodes)

    def write(self, batch: WriteBatch) -> None:
        """Stage ``batch``; it is written with everything else staged when the edit ends."""
        self._batch = self._batch.merged(batch)

    def delete_scope(self, scope_key: str) -> None:
        """Delete everything stored under exactly ``scope_key`` when the edit ends."""
        self._deleted_scopes.append(scope_key)

    def purge(self) -> None:
        """After the commit, drop stored request answers and compact the store's files: an
        erasure must not survive in a cached response or a write-ahead log."""
        self._purge = True

    def record(self, changes: list[Change]) -> None:
        """Say what the edit changed; the sinks hear of it once the store has committed."""
        self._changes += changes

    def _commit(self) -> list[Change]:
        batch = self._batch
        batch.facts = embed_facts(self._path.embedder, batch.facts)
        # what the decisions were read from, and the names created, checked by the store
        versions = dict(self._claims)
        if self._timeline is not None:
            versions.update(self._timeline.versions)
        if versions:
            batch.timeline_versions = {**batch.timeline_versions, **versions}
        if not batch.is_empty():
            self.store.write(self.tenant, batch)
        for key in self._deleted_scopes:
            self.store.delete_scope(self.tenant, key)
        if self._purge:
            self.store.drop_requests(self.tenant)
            self.store.purge_deleted()
        return self._changes


class WritePath:
    """Opens :class:`Edit`\\ s: owns the lock, the predicate rules, the entity resolver, the
    embedder used for new facts, and the sinks that hear every committed change."""

    def __init__(self, store: GraphStore, embedder: Embedder, registry: PredicateRegistry, *,
                 clock: Callable[[], datetime], lock: threading.RLock | None = None,
                 sinks: Sinks | None = None, embed_turns: bool = True) -> None:
        self.store = store
        self.embedder = embedder
        self.registry = registry
        self.clock = clock
        self.embed_turns = embed_turns
        self.lock = lock or threading.RLock()
        self.sinks = sinks or Sinks()
        self.resolver = EntityResolver(store, embedder)

    @contextmanager
    def edit(self, tenant: str, *, now: datetime | None = None,
             dry_run: bool = False) -> Iterator[Edit]:
        """An edit of ``tenant``'s memory; committed, then announced, when the block ends.
        With ``dry_run`` it reads and decides as usual, and is dropped at the end: nothing
        written, nothing announced (a rehearsal, as
        :meth:`graphmem.ingest.pipeline.Ingestor.rehearse` runs)."""
        with self.lock:
            edit = Edit(self, tenant, now or self.clock())
            yield edit
            if dry_run:
                return
            changes = edit._commit()
            self.sinks.committed(tenant, edit.now, changes)

    def committed(self, step: Callable[[], T]) -> T:
        """Run ``step`` (which opens its own edit) again until its write does not conflict.

        The lock orders the edits of this process; the store orders those of
        several: an edit's batch carries the versions of the timelines it read,
        and a write that finds one changed raises TimelineConflictError having
        written nothing. The step then runs again from its reads, after a random
        pause that grows with each attempt (outside the lock) so racing writers
        spread out. A step must have no effect before its edit commits.
        """
        failures = 0
        while True:
            try:
                return step()
            except TimelineConflictError:
                failures += 1
                if failures == COMMIT_ATTEMPTS:
                    raise
            time.sleep(random.uniform(0, COMMIT_BACKOFF_SECONDS * 2 ** failures))

    def announce(self, tenant: str, changes: list[Change]) -> None:
        """Hand the sinks changes that wrote nothing (a refused request, an export). Not
        under the lock: a refused request must not wait for an ingestion to finish."""
        self.sinks.committed(tenant, self.clock(), changes)
