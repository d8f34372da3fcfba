"""A search's channel reads, as the store's one-channel methods answer them.

:meth:`GraphStore.search_channels` asks a store for every channel of a search at
once; :func:`channels_by_parts` is what that call means, written with the
one-channel methods. The embedded store answers with it (its reads are
in-process, so there is nothing to save by composing them), the Neo4j store
with one Cypher query (:mod:`graphmem.store.neo4j.search`), and the contract
tests check that both give what this gives.
"""

from __future__ import annotations

from graphmem.models import Entity
from graphmem.store.base import ChannelHits, ChannelPlan, GraphStore
from graphmem.search.traverse import Similarities, choose_seeds, similarities, walk


def channels_by_parts(store: GraphStore, tenant: str, plan: ChannelPlan,
                      similarity: Similarities | None = None) -> ChannelHits:
    """Every channel of ``plan``, one store read after another.

    ``similarity`` scores the walked facts against the query where the store can without
    handing out their vectors (the embedded store reads its matrix in place); without it the
    walk reads the vectors with the facts. Either gives the same scores.
    """
    keys, time = plan.scope_keys, plan.time
    exact = store.find_entities(tenant, keys, plan.names)
    found = store.fulltext_entities(tenant, keys, plan.name_text, plan.name_limit)
    named = store.get_entities(tenant, [s.id for s in found]) if found else []
    seeds = choose_seeds(exact, set(plan.seed_names), lambda: [e.id for e in named],
                         plan.seed_limit)
    hops = (walk(store, tenant, keys, seeds, time=time, depth=plan.walk_depth,
                 per_hop=plan.walk_per_hop, embeddings=similarity is None) if seeds else [])
    bm25 = store.fulltext_facts(tenant, keys, plan.text, time, plan.limit)
    vector = store.vector_facts(tenant, keys, plan.embedding, time, plan.limit)
    ids = list(dict.fromkeys(s.id for s in bm25 + vector))
    hits = ChannelHits(
        entities=[_without_vector(e) for e in exact], named=[_without_vector(e) for e in named],
        seeds=seeds, bm25=bm25, vector=vector,
        walked=hops,
        similarity=(similarity or similarities)([f for hop in hops for f in hop],
                                                 plan.embedding),
        facts=store.get_facts(tenant, ids, embeddings=False))
    if plan.turn_limit:
        hits.turns = store.fulltext_turns(tenant, keys, plan.text, plan.turn_limit, time)
        hits.turns_vector = store.vector_turns(tenant, keys, plan.embedding, plan.turn_limit,
                                               time)
    return hits


def _without_vector(entity: Entity) -> Entity:
    return entity.model_copy(update={"embedding": None})
