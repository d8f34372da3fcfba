"""Open a store for a benchmark: embedded in a temp folder, or Neo4j (NEO4J_URI or local)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.neo4j_local.system import free_ports
from graphmem.store.base import GraphStore

if TYPE_CHECKING:
    from graphmem.neo4j_local import LocalNeo4j

#: Neo4j's page cache for benchmarks: the 100k-fact store with its vectors is about 1 GB.
BENCH_PAGE_CACHE_MB = 2048



@contextmanager
def neo4j_uri(tmp: Path) -> Iterator[str]:
    """``NEO4J_URI`` if set, else a local Neo4j started for the benchmark (and stopped after)."""
    uri = os.environ.get("NEO4J_URI")
    if uri is not None:
        yield uri
        return
    with local_neo4j(tmp) as (server, uri):
        yield uri


@contextmanager
def local_neo4j(tmp: Path) -> Iterator[tuple[LocalNeo4j, str]]:
    """A local Neo4j with its data in ``tmp``, started for the benchmark and stopped after;
    yielded with its URI, so a benchmark may restart it."""
    from graphmem.neo4j_local import LocalNeo4j, LocalNeo4jConfig

    bolt, http = free_ports(2)
    # Configured as a server would be for this load, not for a quick test start: full
    # JIT (C2) and a page cache that holds the whole store.
    server = LocalNeo4j(LocalNeo4jConfig(data_dir=tmp / "neo4j", bolt_port=bolt,
                                         http_port=http, auth=False, heap="2g",
                                         page_cache_mb=BENCH_PAGE_CACHE_MB, quick_start=False))
    server.start()
    try:
        yield server, f"bolt://127.0.0.1:{bolt}"
    finally:
        server.stop()


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

    with neo4j_uri(tmp) as uri:
        store = Neo4jStore(uri, os.environ.get("NEO4J_USER", "neo4j"),
                           os.environ.get("NEO4J_PASSWORD", ""), embedding_dim=embedding_dim)
        store.open()
        try:
            yield store
        finally:
            store.close()
