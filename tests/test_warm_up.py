"""graphmem.warm_up: a rehearsed ingestion reads what an ingestion reads and writes nothing; the
searches prepared are the views the module names. On both stores."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any, cast

import pytest

from graphmem.edit.changes import Change
from graphmem.embed.base import Embedder
from graphmem.extract.base import CandidateFact, Extraction
from graphmem.memory import Memory
from graphmem.models import Episode
from graphmem.search.models import SearchRequest
from graphmem.store.base import ChannelPlan, FactQuery, GraphStore
from graphmem.warm_up import (OTHER_VIEWS, READY_VIEWS, WARM_UP_SCOPE, WARM_UP_TENANT,
                              prepare_other_searches, prepare_ready_searches, rehearsal,
                              rehearse_ingestion)


class Found:
    """An extractor that finds what it was given, whatever the episode says (and, if it
    ``uses_candidates``, is shown the stored facts an LLM's would be)."""

    def __init__(self, extraction: Extraction, uses_candidates: bool = False) -> None:
        self.extraction = extraction
        self.uses_candidates = uses_candidates

    def extract(self, episode: Episode, candidates: list[CandidateFact]) -> Extraction:
        return self.extraction


class Recorded:
    """The store, with the name of every method called on it kept in order."""

    def __init__(self, store: GraphStore) -> None:
        self._store = store
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if not callable(found):
            return found

        def called(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            return found(*args, **kwargs)
        return called


class Heard:
    def __init__(self) -> None:
        self.changes: list[Change] = []

    def committed(self, tenant: str, at: datetime, changes: list[Change]) -> None:
        self.changes += changes


@pytest.fixture
def recorded(store: GraphStore) -> Recorded:
    return Recorded(store)


@pytest.fixture
def heard() -> Heard:
    return Heard()


@pytest.fixture
def memory_of(recorded: Recorded, embedder: Embedder,
              heard: Heard) -> Iterator[Callable[..., Memory]]:
    made: list[Memory] = []

    def make(extraction: Extraction, uses_candidates: bool = False) -> Memory:
        memory = Memory(cast(GraphStore, recorded), Found(extraction, uses_candidates),
                        embedder, sinks=[heard])
        made.append(memory)
        return memory

    yield make
    for memory in made:
        memory.engine.close()


@pytest.mark.parametrize("uses_candidates", [False, True], ids=["rules", "llm-like"])
def test_a_rehearsal_reads_what_the_ingestion_reads_and_writes_nothing(
        memory_of: Callable[..., Memory], recorded: Recorded, store: GraphStore,
        heard: Heard, uses_candidates: bool) -> None:
    data, extraction = rehearsal(datetime.fromisoformat("2026-03-01T09:00:00+00:00"))
    memory = memory_of(extraction, uses_candidates)
    stored, rehearsed = (f"warm{uuid.uuid4().hex[:10]}" for _ in range(2))

    memory.add_episode(stored, data)
    ingested = list(recorded.calls)
    assert "write" in ingested and heard.changes  # the real one stores the job...
    [job] = store.list_facts(stored, FactQuery(scope_keys=[WARM_UP_SCOPE.key]))
    assert (job.predicate, job.object_name) == ("WORKS_AT", "Acme")

    assert ("fulltext_facts" in ingested) == uses_candidates  # the candidates an LLM is shown
    recorded.calls.clear()
    heard.changes.clear()
    memory.ingestor.rehearse(rehearsed, data, extraction)
    assert recorded.calls == [name for name in ingested if name != "write"]
    assert heard.changes == []
    assert store.scope_keys(rehearsed) == []
    assert store.find_episode(rehearsed, WARM_UP_SCOPE.key, "warm-up") is None


def test_preparing_the_store_leaves_the_warm_up_tenant_empty(
        memory_of: Callable[..., Memory], store: GraphStore, heard: Heard,
        monkeypatch: pytest.MonkeyPatch) -> None:
    memory = memory_of(Extraction())
    prepared: list[tuple[str, list[ChannelPlan], int]] = []
    monkeypatch.setattr(store, "prepare_searches",
                        lambda tenant, plans, parallel=1: prepared.append((tenant, plans,
                                                                           parallel)))
    rehearse_ingestion(memory)
    prepare_ready_searches(memory)
    assert store.scope_keys(WARM_UP_TENANT) == []
    assert heard.changes == []
    [(tenant, plans, parallel)] = prepared
    assert tenant == WARM_UP_TENANT and parallel == 2
    # now and as of a moment, with raw turns: what /v1/search and /v1/context send by default
    assert [(p.time.as_of is not None, p.time.include_history, p.turn_limit > 0)
            for p in plans] == [(False, False, True), (True, False, True)]


def test_the_other_views_are_prepared_one_by_one_until_stopped(
        memory_of: Callable[..., Memory], monkeypatch: pytest.MonkeyPatch) -> None:
    memory = memory_of(Extraction())
    asked: list[list[SearchRequest]] = []
    stop = threading.Event()

    def prepare(tenant: str, requests: list[SearchRequest], *, parallel: int = 1) -> None:
        asked.append(requests)
        if len(asked) == 3 and stop_after_three:
            stop.set()

    monkeypatch.setattr(memory.engine, "prepare", prepare)
    stop_after_three = False
    prepare_other_searches(memory, stop)
    assert len(asked) == len(OTHER_VIEWS) and all(len(r) == 1 for r in asked)
    seen = {(r.as_of is not None, r.include_history, r.as_known_at is not None,
             r.include_turns) for [r] in asked}
    assert len(seen) == len(OTHER_VIEWS)
    assert not seen & {(v.as_of, v.history, v.as_known_at, v.turns) for v in READY_VIEWS}
    asked.clear()
    stop_after_three = True
    prepare_other_searches(memory, stop)
    assert len(asked) == 3


def test_every_view_a_client_can_ask_for_is_prepared() -> None:
    # as_known_at stands for as_of when both are given (the store's filters read it first)
    asked = {(as_of and not known, history, known, turns)
             for as_of in (False, True) for history in (False, True)
             for known in (False, True) for turns in (False, True)}
    views = [(v.as_of, v.history, v.as_known_at, v.turns) for v in (*READY_VIEWS, *OTHER_VIEWS)]
    assert set(views) == asked and len(views) == len(asked)
