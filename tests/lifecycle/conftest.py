"""Fixtures for the lifecycle tests: a memory over the parametrized store, and a clock.

The store, embedder and tenant fixtures come from :mod:`tests.store_fixtures`
(both stores; Neo4j tests run when a server is reachable). Time is a
:class:`Clock` the tests move forward, never a sleep.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from graphmem.embed.base import Embedder
from graphmem.extract.rules import RuleExtractor
from graphmem.memory import Memory
from graphmem.models import Scope
from graphmem.store.base import GraphStore
from tests.store_fixtures import embedder, store, tenant  # noqa: F401  (fixtures)

ALICE = Scope(user_id="alice")
START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


class Clock:
    """A clock the test moves: ``clock.advance(days=30)``."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture(scope="session")
def rules() -> RuleExtractor:
    extractor = RuleExtractor()
    extractor.load()
    return extractor


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def memory(store: GraphStore, rules: RuleExtractor, embedder: Embedder,  # noqa: F811
           clock: Clock) -> Iterator[Memory]:
    mem = Memory(store, rules, embedder, clock=clock)
    yield mem
    mem.engine.close()  # the store itself is closed by its fixture
