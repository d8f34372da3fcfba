"""Open a store for a benchmark: embedded in a temp folder, or Neo4j (NEO4J_URI or local)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from graphmem.store.base import GraphStore


@contextmanager
def open_bench_store(kind: str, tmp: Path, embedding_dim: int = 384) -> Iterator[GraphStore]:
    if kind == "embedded":
        from graphmem.store.embedded import EmbeddedStore

        store: GraphStore = EmbeddedStore(tmp / "bench.db", embedding_dim=embedding_dim)
        store.open()
        try:
            yield store
        finally:
            store.close()
        return
    from graphmem.store.neo4j import Neo4jStore

    uri = os.environ.get("NEO4J_URI")
    server = None
    if uri is None:
        from graphmem.neo4j_local import LocalNeo4j, LocalNeo4jConfig

        server = LocalNeo4j(LocalNeo4jConfig(data_dir=tmp / "neo4j", bolt_port=7697,
                                             http_port=7484, auth=False))
        server.start()
        uri = "bolt://127.0.0.1:7697"
    store = Neo4jStore(uri, os.environ.get("NEO4J_USER", "neo4j"),
                       os.environ.get("NEO4J_PASSWORD", ""), embedding_dim=embedding_dim)
    store.open()
    try:
        yield store
    finally:
        store.close()
        if server is not None:
            server.stop()
