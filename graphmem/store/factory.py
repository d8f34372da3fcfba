"""Build the configured store. The only place that picks a backend by name."""

from __future__ import annotations

from graphmem.settings import Settings
from graphmem.store.base import GraphStore


def build_store(settings: Settings) -> GraphStore:
    if settings.store == "neo4j":
        from graphmem.store.neo4j import Neo4jStore

        return Neo4jStore(settings.neo4j_uri, settings.neo4j_user,
                          settings.neo4j_password.get_secret_value(),
                          embedding_dim=settings.embed_dimension,
                          database=settings.neo4j_database,
                          vector_cache_rows=settings.neo4j_vector_cache_rows)
    from graphmem.store.embedded import EmbeddedStore

    return EmbeddedStore(settings.db_path, embedding_dim=settings.embed_dimension)
