"""Entity resolution's batch read: the candidates of many names in one call agree with
the one-name reads (``vector_entities`` then ``get_entities``), on both stores."""

from __future__ import annotations

import pytest

from graphmem.embed.base import Embedder
from graphmem.models import Entity, Scope
from graphmem.store.base import GraphStore, ScoredEntity, WriteBatch
from tests.ingest.helpers import ALICE

NAMES = ["Acme Corp", "ACME Inc", "Lisbon", "Lisboa", "Berlin", "Alicia", "Samuel", "Padel",
         "SR-2023-052", "Golden Harbor 3"]
BOB = Scope(user_id="bob")


def _entities(tenant: str, scope: Scope, names: list[str], embedder: Embedder) -> list[Entity]:
    vectors = embedder.embed(names)
    return [Entity(tenant=tenant, scope_key=scope.key, name=name, type="organization",
                   embedding=[float(x) for x in vectors[i]]) for i, name in enumerate(names)]


def _one_by_one(store: GraphStore, tenant: str, keys: list[str], vector: list[float],
                limit: int) -> list[ScoredEntity]:
    hits = {h.id: h.score for h in store.vector_entities(tenant, keys, vector, limit)}
    return [ScoredEntity(entity=e, score=hits[e.id])
            for e in store.get_entities(tenant, list(hits))]


@pytest.mark.parametrize("exact", [True, False], ids=["scan", "index"])
def test_nearest_entities_agree_with_the_one_name_reads(store: GraphStore, embedder: Embedder,
                                                        tenant: str, exact: bool) -> None:
    if not exact and hasattr(store, "exact_scan_limit"):
        store.exact_scan_limit = 1  # a "large" scope: the Neo4j vector index and its widening
    store.write(tenant, WriteBatch(entities=_entities(tenant, ALICE, NAMES, embedder)))
    store.write(tenant, WriteBatch(entities=_entities(tenant, BOB, ["Acme Corporation"],
                                                      embedder)))
    other = tenant + "x"
    store.write(other, WriteBatch(entities=_entities(other, ALICE, ["Acme"], embedder)))
    queries = [[float(x) for x in v] for v in embedder.embed(["Acme", "Lisbon", "Sam", "padel"])]
    queries.append([0.0] * len(queries[0]))  # a zero vector finds nothing

    for limit in (1, 5):
        batched = store.nearest_entities(tenant, ALICE.visible_keys, queries, limit)
        expected = [_one_by_one(store, tenant, ALICE.visible_keys, q, limit) for q in queries]
        assert batched == expected
        assert all(len(hits) == limit for hits in batched[:-1]) and batched[-1] == []
    assert batched[0][0].entity.embedding is not None  # whole entities, vectors included
    assert {h.entity.scope_key for hits in batched for h in hits} == {ALICE.key}
    assert store.nearest_entities(tenant, [], queries, 5) == [[] for _ in queries]
    assert store.nearest_entities(tenant, ALICE.visible_keys, [], 5) == []
