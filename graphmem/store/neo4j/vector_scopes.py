"""The vector indexes hold the nodes of large scopes only.

A scope smaller than the store's ``exact_scan_limit`` is ranked exactly within itself
(:func:`graphmem.store.neo4j.search_reads.vector_scan_scope`); no search of it asks a vector
index. Yet every commit that writes a vector into an index pays for it: a single-message
episode's commit took 42-44 ms with the three vector indexes and 20.8 ms without, and
structured writes and ingestion without a model ran 38% and 75% faster (measured on a
local server, docs/neo4j-writes.md). So each vector index covers a label that only the
nodes of large scopes carry (:data:`INDEXED`: ``Fact`` nodes of a large scope are also
``IndexedFact``), and small scopes' writes skip the indexes.

The rules, kept on each scope's clock (:mod:`graphmem.store.neo4j.scope_clocks`), which
every write batch already locks:

- A scope becomes indexed for a kind of node (:data:`KINDS`) when a write finds it holding
  ``index_from`` nodes of that kind (the writing store's ``exact_scan_limit``): the clock
  records it (``indexedFact``) and every such node of the scope gets the label in that
  write's transaction. Later writes label the nodes they write.
- It is never undone: a scope that shrinks keeps its labels, and the index holds a few
  nodes a search ranks exactly anyway.
- A small scope's write does not count the scope: each clock counts the nodes of each kind
  written since it last counted (``writtenFact``), and the scope is counted (up to
  ``index_from``) only when that reaches ``index_from``.

So a reader may ask an index for the scopes whose clocks say indexed, and ranks the
others exactly itself (:func:`unindexed_keys`): they held fewer than ``index_from`` nodes
when last written, so a store configured with another limit still finds every node.
"""

from __future__ import annotations

from graphmem.store.neo4j.reads import Params, Query

#: The labels whose vectors are indexed, each with the label its large scopes' nodes carry.
INDEXED = {"Fact": "IndexedFact", "Entity": "IndexedEntity", "Message": "IndexedMessage"}
KINDS = tuple(INDEXED)
#: Each kind's list of written ids in a row of :func:`mark`.
IDS = {"Fact": "factIds", "Entity": "entityIds", "Message": "messageIds"}


def flag(kind: str) -> str:
    """The clock property saying the scope's ``kind`` nodes are indexed."""
    return f"indexed{_checked(kind)}"


def written(kind: str) -> str:
    """The clock property counting the ``kind`` nodes written since the scope was counted."""
    return f"written{_checked(kind)}"


def _checked(kind: str) -> str:
    if kind not in INDEXED:
        raise ValueError(f"not a kind of node with a vector: {kind!r}")
    return kind


def mark(tenant: str, rows: list[Params], index_from: int) -> Query:
    """Label what a write batch wrote into indexed scopes, and index the scopes that reached
    ``index_from`` nodes of a kind.

    Rows: ``{scopeKey, factIds, entityIds, messageIds}``, sorted by scope key. Runs in the
    write's transaction after :func:`graphmem.store.neo4j.scope_clocks.stamp`, which locked
    these rows' clocks in that order, so the count and the labels are the commit's own.
    """
    text = ("UNWIND $rows AS row\n"
            "MERGE (c:ScopeClock {tenant: $tenant, scopeKey: row.scopeKey})\n"
            "ON CREATE SET c.n = timestamp() * 1000\n"
            "WITH c, row\n")
    text += "".join(_mark_kind(kind) for kind in KINDS)
    return text.rstrip("\n"), {"tenant": tenant, "rows": rows, "from": max(1, index_from)}


def _mark_kind(kind: str) -> str:
    ids, label = IDS[kind], INDEXED[kind]
    scope_nodes = (f"MATCH (n:{kind}) USING INDEX n:{kind}(tenant, scopeKey)"
                   " WHERE n.tenant = $tenant AND n.scopeKey = row.scopeKey")
    return (
        "CALL (c, row) {\n"
        f"  WITH c, row WHERE size(row.{ids}) > 0\n"
        f"  SET c.{written(kind)} = coalesce(c.{written(kind)}, 0) + size(row.{ids})\n"
        f"  WITH c, row, coalesce(c.{flag(kind)}, false) AS indexed\n"
        "  CALL (row, indexed) {\n"
        "    WITH row WHERE indexed\n"
        f"    UNWIND row.{ids} AS id\n"
        f"    MATCH (n:{kind} {{id: id}}) USING INDEX n:{kind}(id)"
        " WHERE n.tenant = $tenant AND n.scopeKey = row.scopeKey\n"
        f"    SET n:{label}\n"
        "  }\n"
        "  CALL (c, row, indexed) {\n"
        f"    WITH c, row WHERE NOT indexed AND c.{written(kind)} >= $from\n"
        f"    CALL (row) {{ {scope_nodes} WITH n LIMIT $from RETURN count(n) AS size }}\n"
        f"    SET c.{written(kind)} = size, c.{flag(kind)} = size >= $from\n"
        "    WITH row WHERE size >= $from\n"
        f"    CALL (row) {{ {scope_nodes} SET n:{label} }}\n"
        "  }\n"
        "}\n")


def unindexed_keys(kind: str, name: str, keys: str = "$scopeKeys") -> str:
    """A subquery returning, as list ``name``, those of ``keys`` (scope keys, of ``$tenant``)
    whose ``kind`` nodes the vector index does not hold: a reader ranks these itself."""
    return ("CALL () {\n"
            f"  UNWIND {keys} AS key\n"
            "  OPTIONAL MATCH (c:ScopeClock {tenant: $tenant, scopeKey: key})\n"
            f"  WITH key WHERE NOT coalesce(c.{flag(kind)}, false)\n"
            f"  RETURN collect(key) AS {name}\n"
            "}\n")



def ranked_keys(kind: str) -> str:
    """After ``size`` (the count of the ``kind`` nodes in ``$scopeKeys``, against ``$cap``,
    the reader's ``exact_scan_limit``): ``total``, how many nodes the kind's index holds;
    ``exact``, whether the scopes are ranked here alone (small, or none of them indexed:
    the index could only cost passes); and ``ranked``, the scope keys ranked here, all of
    them when ``exact``, else those the index does not hold (:func:`unindexed_keys`)."""
    return (f"CALL () {{ MATCH (n:{INDEXED[_checked(kind)]}) RETURN count(n) AS total }}\n"
            + unindexed_keys(kind, "unindexed")
            + "WITH *, size < $cap OR size(unindexed) = size($scopeKeys) AS exact\n"
            + "WITH *, CASE WHEN exact THEN $scopeKeys ELSE unindexed END AS ranked\n")
