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

- A write that finds a scope holding ``index_from`` nodes of a kind (:data:`KINDS`; the
  writing store's ``exact_scan_limit``) marks the clock due (``dueFact``, the write's time
  in ms) and tells the store (the write query's ``due``). It does not
  label the scope itself: putting 5,000 vectors into an index took that write 4.2-5.0 s.
  The store labels the scope beside the writes (:mod:`graphmem.store.neo4j.scope_indexing`):
  it claims the mark (:func:`claim`), labels the nodes in batches (:func:`label_batch`),
  then, holding the clock's lock, labels what was written meanwhile and flags the clock
  (``indexedFact``; :func:`finish`). From then on each write labels the nodes it writes.
- Until the flag, readers rank the scope exactly, as a small one: a job that stopped half
  way leaves labelled nodes the readers also rank, never a node they miss. A mark older
  than the claim's time (its job stopped with its process) is handed out again by the next
  write to the scope.
- It is never undone: a scope that shrinks keeps its labels, and the index holds a few
  nodes a search ranks exactly anyway.
- A small scope's write does not count the scope: each clock counts the nodes of each kind
  written since it last counted (``writtenFact``), and the scope is counted (up to
  ``index_from``) only when that reaches ``index_from``.

So a reader may ask an index for the scopes whose clocks say indexed, and ranks the
others exactly itself (:func:`unindexed_keys`): they held fewer than ``index_from`` nodes
when last written, or are being labelled, so a store configured with another limit still
finds every node.
"""

from __future__ import annotations

from graphmem.store.neo4j.reads import Params, Query, write_locked

#: The labels whose vectors are indexed, each with the label its large scopes' nodes carry.
INDEXED = {"Fact": "IndexedFact", "Entity": "IndexedEntity", "Message": "IndexedMessage"}
KINDS = tuple(INDEXED)
#: Each kind's list of written ids in a row of :func:`mark`.
IDS = {"Fact": "factIds", "Entity": "entityIds", "Message": "messageIds"}


def flag(kind: str) -> str:
    """The clock property saying the scope's ``kind`` nodes are indexed."""
    return f"indexed{_checked(kind)}"


def due(kind: str) -> str:
    """The clock property holding when the scope's ``kind`` nodes were found due for the
    index, or last claimed by the job labelling them (ms since the epoch)."""
    return f"due{_checked(kind)}"


def written(kind: str) -> str:
    """The clock property counting the ``kind`` nodes written since the scope was counted."""
    return f"written{_checked(kind)}"


def _checked(kind: str) -> str:
    if kind not in INDEXED:
        raise ValueError(f"not a kind of node with a vector: {kind!r}")
    return kind


def mark(tenant: str, rows: list[Params], index_from: int, now_ms: int,
         claim_ms: int) -> Query:
    """Label what a write batch wrote into indexed scopes, mark due (at ``now_ms``) the
    scopes that reached ``index_from`` nodes of a kind, and return as one list ``due``,
    ``{scopeKey, kind, due}``, the written scopes whose nodes of a kind the store should
    label: marked due now, or their mark is older than ``claim_ms`` (the job labelling
    them stopped).

    Rows: ``{scopeKey, factIds, entityIds, messageIds}``, sorted by scope key. Runs in the
    write's transaction after :func:`graphmem.store.neo4j.scope_clocks.stamp`, which locked
    these rows' clocks in that order, so the count and the labels are the commit's own.
    """
    kinds = ", ".join(f"{{kind: '{kind}', due: c.{due(kind)}, indexed: c.{flag(kind)}}}"
                      for kind in KINDS)
    text = ("UNWIND $rows AS row\n"
            "MERGE (c:ScopeClock {tenant: $tenant, scopeKey: row.scopeKey})\n"
            "ON CREATE SET c.n = timestamp() * 1000\n"
            "WITH c, row\n")
    text += "".join(_mark_kind(kind) for kind in KINDS)
    text += (f"UNWIND [{kinds}] AS k\n"
             "WITH row, k WHERE k.due IS NOT NULL AND NOT coalesce(k.indexed, false)"
             " AND (k.due = $now OR k.due < $now - $claim)\n"
             "RETURN collect({scopeKey: row.scopeKey, kind: k.kind, due: k.due}) AS due")
    return text, {"tenant": tenant, "rows": rows, "from": max(1, index_from), "now": now_ms,
                  "claim": claim_ms}


def _scope_nodes(kind: str, key: str) -> str:
    return (f"MATCH (n:{kind}) USING INDEX n:{kind}(tenant, scopeKey)"
            f" WHERE n.tenant = $tenant AND n.scopeKey = {key}")


def _mark_kind(kind: str) -> str:
    ids, label = IDS[kind], INDEXED[kind]
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
        f"    WITH c, row WHERE NOT indexed AND c.{due(kind)} IS NULL"
        f" AND c.{written(kind)} >= $from\n"
        f"    CALL (row) {{ {_scope_nodes(kind, 'row.scopeKey')}"
        " WITH n LIMIT $from RETURN count(n) AS size }\n"
        f"    SET c.{written(kind)} = size,"
        f" c.{due(kind)} = CASE WHEN size >= $from THEN $now END\n"
        "  }\n"
        "}\n")


def claim(tenant: str, key: str, kind: str, seen_ms: int, now_ms: int) -> Query:
    """Take the job of labelling a due scope: the mark moves from ``seen_ms`` (as the
    write, or this job's last claim, left it) to ``now_ms``; no row if another job took it
    meanwhile, or it is done. The clock is locked before the mark is compared, so of two
    claims of one mark one wins; a claim retried after its commit (``now_ms`` already
    there) is still this job's."""
    return (_locked_clock() +
            f"WITH c WHERE c.{due(kind)} IN [$seen, $now]\n"
            f"SET c.{due(kind)} = $now\n"
            "RETURN c.scopeKey AS key",
            {"tenant": tenant, "key": key, "seen": seen_ms, "now": now_ms})


def label_batch(tenant: str, key: str, kind: str, batch: int) -> Query:
    """Label up to ``batch`` of the scope's ``kind`` nodes not labelled yet; ``labelled``:
    how many (fewer than ``batch``: none is left)."""
    return (f"{_scope_nodes(kind, '$key')} AND NOT n:{INDEXED[kind]}\n"
            f"WITH n LIMIT $batch SET n:{INDEXED[kind]}\n"
            "RETURN count(n) AS labelled",
            {"tenant": tenant, "key": key, "batch": batch})


def finish(tenant: str, key: str, kind: str, claimed_ms: int) -> Query:
    """Flag the scope indexed for ``kind``: under the clock's lock, which every write to the
    scope takes, label the nodes written since the last batch, then set the flag. A write
    that committed before sees its nodes labelled here; one after reads the flag and labels
    its own (:func:`mark`). Only while the job's claim (``claimed_ms``) holds: no row
    otherwise (another job took the mark over, or the scope was deleted)."""
    return (_locked_clock() +
            f"WITH c WHERE c.{due(kind)} = $claimed\n"
            f"CALL (c) {{ {_scope_nodes(kind, '$key')} AND NOT n:{INDEXED[kind]}"
            f" SET n:{INDEXED[kind]} }}\n"
            f"SET c.{flag(kind)} = true\n"
            f"REMOVE c.{due(kind)}\n"
            "RETURN c.scopeKey AS key",
            {"tenant": tenant, "key": key, "claimed": claimed_ms})


def _locked_clock() -> str:
    """The clock of ``$key`` as ``c``, its write lock taken: what is read of it next is its
    last committed state, and stays so until the transaction ends."""
    return "MATCH (c:ScopeClock {tenant: $tenant, scopeKey: $key})\n" + write_locked("c")


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
