"""The one fixture that parametrizes the contract suite over both stores.

Each test gets a fresh tenant id, so tests on the shared Neo4j server never
see each other's data (tenant isolation is itself part of the contract).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphmem.embed.base import Embedder
from graphmem.store.base import GraphStore

STORES = ["embedded", pytest.param("neo4j", marks=pytest.mark.neo4j)]


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real default embedder (ONNX MiniLM), loaded once per session."""
    from graphmem.embed.cache import CachedEmbedder
    from graphmem.embed.onnx import OnnxEmbedder

    return CachedEmbedder(OnnxEmbedder())


def open_store(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> GraphStore:
    if kind == "embedded":
        from graphmem.store.embedded import EmbeddedStore

        store: GraphStore = EmbeddedStore(tmp_path / "memory.db", embedding_dim=384)
    else:
        from graphmem.store.neo4j import Neo4jStore

        server: Any = request.getfixturevalue("neo4j_uri")
        store = Neo4jStore(server.uri, server.user, server.password, embedding_dim=384)
    store.open()
    return store


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GraphStore]:
    opened = open_store(request.param, tmp_path, request)
    yield opened
    opened.close()


@pytest.fixture
def tenant() -> str:
    return f"t{uuid.uuid4().hex[:12]}"
