"""Cypher for entity resolution: the entities a new name may be, by name and by vector.

:func:`find_entities` looks names up exactly (normalised names and aliases, through
the keyword-analysed name index), :func:`find_entities_by_prefix` by their start; :func:`nearest_entities_scan` and
:func:`nearest_entities_index` rank the scope's entities for many vectors at once,
so that resolving a whole episode's names costs one query when the scope is small.
Kept apart from the search channels (:mod:`graphmem.store.neo4j.search_reads`),
whose vector rule they follow, because they answer another question: which
entities, whole, not which ids score best.
"""

from __future__ import annotations

from graphmem.store.neo4j import vector_scopes
from graphmem.store.neo4j.reads import (ENTITY_NAMES_INDEX, ENTITY_VECTOR_INDEX, Query,
                                        entity_projection)


def _lucene_phrase(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def lucene_exact(tenant: str, names: list[str]) -> str:
    """Exact lookup of normalised names in one tenant, for the keyword-analysed name index."""
    alternatives = " OR ".join(_lucene_phrase(n) for n in names)
    return f"+tenant:{_lucene_phrase(tenant)} +names:({alternatives})"


def find_entities(tenant: str, scope_keys: list[str], names: list[str]) -> Query:
    """Entities by normalised name or alias, through the keyword-analysed name index."""
    return (
        "CALL db.index.fulltext.queryNodes($index, $lookup) YIELD node AS n\n"
        "WHERE n.tenant = $tenant AND n.scopeKey IN $scopeKeys"
        " AND any(name IN n.names WHERE name IN $names)\n"
        f"RETURN {entity_projection('n')} AS n",
        {"index": ENTITY_NAMES_INDEX, "lookup": lucene_exact(tenant, names),
         "tenant": tenant, "scopeKeys": scope_keys, "names": names},
    )


def find_entities_by_prefix(tenant: str, scope_keys: list[str], prefixes: list[str],
                            limit: int) -> Query:
    """Entities with a normalised name or alias starting with one of ``prefixes`` (letters
    only, see :func:`graphmem.names.is_word`): Lucene prefix terms on the keyword-analysed
    name index, which keeps each name whole, so ``mel*`` finds "melanie chen"."""
    alternatives = " OR ".join(f"{p}*" for p in prefixes)
    return (
        "CALL db.index.fulltext.queryNodes($index, $lookup) YIELD node AS n\n"
        "WHERE n.tenant = $tenant AND n.scopeKey IN $scopeKeys"
        " AND any(name IN n.names WHERE any(p IN $prefixes WHERE name STARTS WITH p))\n"
        f"RETURN {entity_projection('n')} AS n LIMIT $limit",
        {"index": ENTITY_NAMES_INDEX,
         "lookup": f"+tenant:{_lucene_phrase(tenant)} +names:({alternatives})",
         "tenant": tenant, "scopeKeys": scope_keys, "prefixes": prefixes, "limit": limit},
    )


def nearest_entities_scan(tenant: str, scope_keys: list[str], vectors: list[list[float]],
                          cap: int, k: int, count_cap: int = 50_000) -> Query:
    """:func:`~graphmem.store.neo4j.search_reads.vector_scan_scope` of the entities for many
    vectors at once, hits as whole entities: one row, ``size``, ``total``, ``exact`` and
    ``found`` (for each vector in order, its ``{n: properties, score}`` best first: of the
    whole scope when ``exact``, else of the scopes the vector index does not hold, for the
    caller to merge with the index's). The scope's vectors are read once, not once per
    vector asked about: reading a vector costs more than comparing it.
    """
    scope_index = "USING INDEX n:Entity(tenant, scopeKey)"
    return (
        "CALL () {\n"
        f"  MATCH (n:Entity) {scope_index} WHERE n.tenant = $tenant AND n.scopeKey IN $scopeKeys\n"
        "  WITH n LIMIT $countCap RETURN count(n) AS size\n"
        "}\n"
        + vector_scopes.ranked_keys("Entity")
        + "CALL (ranked) {\n"
        f"  OPTIONAL MATCH (n:Entity) {scope_index} WHERE n.embedding IS NOT NULL"
        " AND n.tenant = $tenant AND n.scopeKey IN ranked\n"
        "  WITH collect(n) AS nodes, collect(n.embedding) AS held\n"
        "  UNWIND range(0, size($vectors) - 1) AS i\n"
        "  CALL (i, nodes, held) {\n"
        "    UNWIND range(0, size(held) - 1) AS j\n"
        "    WITH j, 2 * vector.similarity.cosine(held[j], $vectors[i]) - 1 AS score\n"
        "    ORDER BY score DESC LIMIT $k\n"
        "    WITH nodes[j] AS n, score\n"
        f"    RETURN collect({{n: {entity_projection('n')}, score: score}}) AS hits\n"
        "  }\n"
        "  WITH i, hits ORDER BY i\n"
        "  RETURN collect(hits) AS found\n"
        "}\n"
        "RETURN size, total, exact, found",
        {"tenant": tenant, "scopeKeys": scope_keys, "vectors": vectors, "cap": cap, "k": k,
         "countCap": max(cap, count_cap)},
    )


def nearest_entities_index(tenant: str, scope_keys: list[str], vectors: list[list[float]],
                           k: int, limit: int) -> Query:
    """:func:`~graphmem.store.neo4j.search_reads.vector_search` of the entity index for many
    vectors at once: a row per vector in order, ``seen`` and ``hits``
    (``{n: properties, score}``, at most ``limit``)."""
    return (
        "UNWIND range(0, size($vectors) - 1) AS i\n"
        "CALL (i) {\n"
        "  CALL db.index.vector.queryNodes($index, $k, $vectors[i]) YIELD node AS n, score\n"
        "  WITH count(*) AS seen, collect(CASE WHEN n.tenant = $tenant AND n.scopeKey IN"
        " $scopeKeys THEN {n: n, score: 2 * score - 1} END) AS kept\n"
        "  CALL (kept) {\n"
        "    UNWIND kept[..$limit] AS h WITH h.n AS n, h.score AS score\n"
        f"    RETURN collect({{n: {entity_projection('n')}, score: score}}) AS hits\n"
        "  }\n"
        "  RETURN seen, hits\n"
        "}\n"
        "RETURN i, seen, hits ORDER BY i",
        {"index": ENTITY_VECTOR_INDEX, "tenant": tenant, "scopeKeys": scope_keys,
         "vectors": vectors, "k": k, "limit": limit},
    )
