"""Fixtures of the Neo4j store's own tests: stores opened on the session's database."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from graphmem.store.neo4j import Neo4jStore

#: The dimension of the session database's vector indexes.
DIM = 384


@pytest.fixture
def tenant() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


@pytest.fixture
def open_store(neo4j_uri: Any) -> Iterator[Callable[..., Neo4jStore]]:
    """Opens stores on the session's database, each with its own options (two or more stand
    for API processes sharing it), and closes them after the test."""
    opened: list[Neo4jStore] = []

    def make(**options: Any) -> Neo4jStore:
        store = Neo4jStore(neo4j_uri.uri, neo4j_uri.user, neo4j_uri.password,
                           embedding_dim=DIM, **options)
        store.open()
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()
