"""Neo4jStore.prepare_searches runs every query a search of those views sends, in either form.

On a real Neo4j: a scope holding a job and its turns is searched in each view the warm-up
names (graphmem.warm_up), by a store ranking from its process's copy of the vectors and by
one that leaves the ranking to the server; the warm-up tenant's preparation must have run
each search query they sent (so the server had planned it), and nothing else is written.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest

from graphmem.embed.base import Embedder
from graphmem.extract.rules import RuleExtractor
from graphmem.ingest.inputs import EpisodeInput
from graphmem.memory import Memory
from graphmem.models import Message
from graphmem.store.neo4j import Neo4jStore
from graphmem.store.neo4j.reads import KEEP_PLAN, Query
from graphmem.warm_up import OTHER_VIEWS, READY_VIEWS, WARM_UP_SCOPE, SearchView

pytestmark = pytest.mark.neo4j

VIEWS = (*READY_VIEWS, *OTHER_VIEWS)


def _searches_sent(store: Neo4jStore, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The text of every search query ``store`` runs from now on (they keep their plan)."""
    sent: list[str] = []
    real = store._read

    def read(query: Query) -> list[object]:
        if query[0].startswith(KEEP_PLAN):
            sent.append(query[0])
        return list(real(query))

    monkeypatch.setattr(store, "_read", read)
    return sent


@pytest.fixture
def memory_on(embedder: Embedder) -> Iterator[Callable[[Neo4jStore], Memory]]:
    made: list[Memory] = []

    def make(store: Neo4jStore) -> Memory:
        made.append(Memory(store, RuleExtractor(), embedder))
        return made[-1]

    yield make
    for memory in made:
        memory.engine.close()


def test_the_prepared_queries_are_those_the_searches_send(
        open_store: Callable[..., Neo4jStore], memory_on: Callable[[Neo4jStore], Memory],
        tenant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    copying, serving = open_store(), open_store(vector_cache_rows=0)
    writer = memory_on(copying)
    for day, said in ((1, "I work at Acme as a baker."),
                      (20, "Started a new job at Globex yesterday, as a pastry chef.")):
        writer.add_episode(tenant, EpisodeInput(scope=WARM_UP_SCOPE, messages=[
            Message(speaker="Maya", content=said,
                    timestamp=datetime(2026, 2, day, 9, tzinfo=UTC))]))
    _copy_made(copying, tenant, writer)

    sent: dict[SearchView, set[str]] = {}
    for store in (copying, serving):
        texts = _searches_sent(store, monkeypatch)
        memory = memory_on(store)
        for view in VIEWS:
            texts.clear()
            # the scope answers every view
            assert memory.search(tenant, view.request(datetime.now(UTC))).results
            sent.setdefault(view, set()).update(texts)
    assert copying.cached_ranking is not None and copying.cached_ranking.answered >= len(VIEWS)

    empty = f"empty{uuid.uuid4().hex[:10]}"
    prepared = _searches_sent(copying, monkeypatch)
    now = datetime.now(UTC)
    memory_on(copying).engine.prepare(empty, [view.request(now) for view in VIEWS], parallel=2)
    for view, texts in sent.items():
        assert texts <= set(prepared), f"{view} sent a query that was not prepared"
    assert len(prepared) == len(set(prepared))  # each once, though views share some
    assert copying.scope_keys(empty) == []


def _copy_made(store: Neo4jStore, tenant: str, memory: Memory) -> None:
    """Search once, so the scope is copied beside, and wait for the copy."""
    memory.search(tenant, READY_VIEWS[0].request(datetime.now(UTC)))
    ranking = store.cached_ranking
    assert ranking is not None
    deadline = time.monotonic() + 60
    while ranking.cache.position(tenant, WARM_UP_SCOPE.key, "fact") is None:
        assert time.monotonic() < deadline, "the scope was never copied"
        time.sleep(0.05)
