"""What a server runs before it says it is ready, so that a first request is as quick as the next.

Loading the models is :meth:`graphmem.memory.Memory.warm_up`. The rest is the store's: a
server store (Neo4j) plans each query on its first run and keeps the plan for every process
on that server. Measured on a fresh server (docs/neo4j-search-plan.md), the one-call search
took 3-7 s to plan per shape of query, 30-50 ms to run after, and an ingestion's reads about
2 s together the first time, 0.2 s after. So a process runs them first, in
:data:`WARM_UP_TENANT` (which the REST app refuses to map an API key to, and which holds
nothing), writing nothing:

- before the server says it is ready: one ingestion rehearsed (:func:`rehearse_ingestion`,
  :meth:`graphmem.ingest.pipeline.Ingestor.rehearse`: every read and decision, no write;
  the write's batch query is run empty when the store opens), and the queries of the
  search's channels for :data:`READY_VIEWS` (:func:`prepare_ready_searches`), the views
  ``/v1/memories/search`` and ``/v1/context`` take by default (now, and as of a moment,
  with raw turns);
- :func:`prepare_other_searches`, after: every other view's (history, ``as_known_at``, no raw
  turns as the memory page asks), one query at a time, so requests keep the other core.

Each search view is planned in both forms the store sends, with the process's copy of the
vectors and without (``Neo4jStore.prepare_searches``). Not prepared: the reads a search makes
after its channels (the focus, a slot's facts, what found turns said), which an empty tenant
never reaches; each is a small query, planned in well under a second on its first run. On a
server that has the plans already (the API alone restarted) all of it takes about a second.
``graphmem serve --workers N`` runs it in each worker at once; on a server without the plans
they plan the same queries side by side, and ``/ready`` comes later for all of them.
The embedded store has nothing to plan; there the rehearsal reads a few rows of an empty tenant.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime

from graphmem.extract.base import SELF, ExtractedEntity, ExtractedFact, Extraction
from graphmem.ingest.inputs import EpisodeInput
from graphmem.memory import Memory
from graphmem.models import Message, Scope
from graphmem.search.models import SearchRequest

#: The tenant the warm-up reads: no API key maps to it, and it holds nothing.
WARM_UP_TENANT = "graphmem-warm-up"
#: Its one scope.
WARM_UP_SCOPE = Scope(user_id="warm-up")
#: Search queries planned at once before ready (planning takes one server core each).
READY_PARALLEL = 2


@dataclass(frozen=True)
class SearchView:
    """One kind of search a client can ask for: which time filters it sets, and whether it
    wants raw turns. The store's query text follows from it (some views share one text, which
    the store then runs once)."""

    as_of: bool = False
    history: bool = False
    as_known_at: bool = False
    turns: bool = True

    def request(self, now: datetime) -> SearchRequest:
        """A search of this view in the warm-up scope, asked at ``now``."""
        return SearchRequest(scope=WARM_UP_SCOPE, query="Where does Maya work these days?",
                             as_of=now if self.as_of else None,
                             as_known_at=now if self.as_known_at else None,
                             include_history=self.history, include_turns=self.turns)


#: What ``/v1/memories/search`` and ``/v1/context`` send by default: now, or as of a moment,
#: with raw turns.
READY_VIEWS = (SearchView(), SearchView(as_of=True))
#: Every other view, the likelier first: history through REST, then the memory page's
#: searches (no raw turns), then both a moment and history, then ``as_known_at`` (which
#: stands for ``as_of`` too when both are given).
OTHER_VIEWS = (
    SearchView(history=True),
    SearchView(turns=False), SearchView(as_of=True, turns=False),
    SearchView(history=True, turns=False),
    SearchView(as_of=True, history=True), SearchView(as_of=True, history=True, turns=False),
    SearchView(as_known_at=True), SearchView(as_known_at=True, history=True),
    SearchView(as_known_at=True, turns=False),
    SearchView(as_known_at=True, history=True, turns=False),
)


def rehearsal(now: datetime) -> tuple[EpisodeInput, Extraction]:
    """An episode of the warm-up scope and what an extractor finds in it: a job, so the
    rehearsal resolves two names and reads a timeline, as most ingestions do."""
    data = EpisodeInput(scope=WARM_UP_SCOPE, episode_id="warm-up", messages=[
        Message(role="user", content="I work at Acme now.", timestamp=now)])
    extraction = Extraction(
        entities=[ExtractedEntity(name="Acme", type="organization")],
        facts=[ExtractedFact(subject=SELF, predicate="WORKS_AT", object="Acme",
                             object_type="organization", text="Works at Acme.")])
    return data, extraction


def rehearse_ingestion(memory: Memory) -> None:
    """Have the store ready for an ingestion: one rehearsed, writing nothing."""
    memory.ingestor.rehearse(WARM_UP_TENANT, *rehearsal(memory.clock()))


def prepare_ready_searches(memory: Memory) -> None:
    """Have the store ready for the default searches (:data:`READY_VIEWS`), two at a time."""
    now = memory.clock()
    memory.engine.prepare(WARM_UP_TENANT, [view.request(now) for view in READY_VIEWS],
                          parallel=READY_PARALLEL)


def prepare_other_searches(memory: Memory, stop: threading.Event | None = None) -> None:
    """Have the store ready for the other views' searches, one query at a time, view by
    view until ``stop`` is set (the server shutting down)."""
    now = memory.clock()
    for view in OTHER_VIEWS:
        if stop is not None and stop.is_set():
            return
        memory.engine.prepare(WARM_UP_TENANT, [view.request(now)])
