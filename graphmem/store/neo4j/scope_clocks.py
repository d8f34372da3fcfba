"""Cypher for scope clocks: ``(:ScopeClock {tenant, scopeKey, n})``, and the vectors read by them.

A search process keeps a copy of each scope's fact and turn vectors
(:mod:`graphmem.store.neo4j.vector_cache`), so that it ranks them itself instead of asking
the server to read 2,000 vector properties a search. The copy must never miss a change
another process made. So every write that sets facts or turns of a scope advances that
scope's clock and stamps them with it (:func:`stamp`), and a search reads what changed
since the clock its copy is at (:func:`changes`, a subquery of the search's one query,
which ranks the changed nodes itself).

Stamps follow commit order: a writer takes the clock's write lock (writing a property
first, as :mod:`graphmem.store.neo4j.timelines` does) before it reads the clock, and holds
it until it commits, so a writer that read ``n`` committed before the next one read it. A
reader reads the clock before the changed nodes and, the next time, asks once more for the
nodes stamped with a clock it saw first, so that a commit caught half applied is read
whole. Deletions leave no stamp: a reader counts the scope's nodes after reading the
changes, and copies the scope again when its copy holds more. A deleted scope's clock is
deleted with it; a new one starts from the time in microseconds, past any value the old
one reached.
"""

from __future__ import annotations

from typing import Any

from graphmem.store.base import WriteBatch
from graphmem.store.neo4j.reads import Params, Query, write_locked

CONSTRAINT = ("scope_clock_key", "CREATE CONSTRAINT scope_clock_key IF NOT EXISTS"
              " FOR (n:ScopeClock) REQUIRE (n.tenant, n.scopeKey) IS UNIQUE")
#: The node property holding the clock value a node was last written at.
STAMP = "vecSeq"
#: The labels whose vectors the searches rank, each with the range index a delta seeks.
STAMPED_LABELS = ("Fact", "Message")
INDEXES = {
    f"{label.lower()}_scope_clock": f"CREATE INDEX {label.lower()}_scope_clock IF NOT EXISTS"
    f" FOR (n:{label}) ON (n.tenant, n.scopeKey, n.{STAMP})"
    for label in STAMPED_LABELS
}


def stamp(tenant: str, rows: list[Params]) -> Query:
    """Advance each scope's clock and stamp its written facts and turns with the new value.

    Rows: ``{scopeKey, factIds, entityIds, messageIds}`` (:func:`stamped`), sorted by
    scope key so that concurrent writers lock the clocks in one order. Runs inside the
    write's transaction, after the nodes are written (near a batch's end), so the clocks
    are held briefly.
    """
    return (
        "UNWIND $rows AS row\n"
        "MERGE (c:ScopeClock {tenant: $tenant, scopeKey: row.scopeKey})\n"
        # from the time in microseconds: a scope deleted and written again never sees its
        # clock go back (a thousand writes a millisecond would be needed to overtake it)
        "ON CREATE SET c.n = timestamp() * 1000\n"
        + write_locked("c") +
        "WITH c, row, c.n + 1 AS n\n"
        "SET c.n = n\n"
        "WITH row, n\n"
        "CALL (row, n) {\n"
        "  UNWIND row.factIds AS id\n"
        "  MATCH (f:Fact {id: id}) USING INDEX f:Fact(id) WHERE f.tenant = $tenant\n"
        f"  SET f.{STAMP} = n\n"
        "}\n"
        "CALL (row, n) {\n"
        "  UNWIND row.messageIds AS id\n"
        "  MATCH (m:Message {id: id}) USING INDEX m:Message(id) WHERE m.tenant = $tenant\n"
        f"  SET m.{STAMP} = n\n"
        "}",
        {"tenant": tenant, "rows": rows},
    )


def stamped(batch: WriteBatch, episodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of :func:`stamp` (and of :func:`graphmem.store.neo4j.vector_scopes.mark`,
    which counts on these clocks being locked): per scope, the facts, entities and turns the
    batch writes (a turn's vector may change whenever its episode is written)."""
    scopes: dict[str, dict[str, Any]] = {}

    def scope(key: str) -> dict[str, Any]:
        return scopes.setdefault(key, {"scopeKey": key, "factIds": [], "entityIds": [],
                                       "messageIds": []})

    for fact in batch.facts:
        scope(fact.scope_key)["factIds"].append(fact.id)
    for entity in batch.entities:
        scope(entity.scope_key)["entityIds"].append(entity.id)
    for episode, row in zip(batch.episodes, episodes, strict=True):
        if row["messages"]:
            scope(episode.scope_key)["messageIds"].extend(m["id"] for m in row["messages"])
    return [scopes[key] for key in sorted(scopes)]


def _rows(label: str, condition: str, most: str, name: str) -> str:
    """A subquery collecting ``{id, vector, stamp}`` of the scope's ``label`` nodes that
    meet ``condition``, newest first, at most ``most`` of them, as ``name``."""
    index = (f"{label}(tenant, scopeKey, {STAMP})" if STAMP in condition
             else f"{label}(tenant, scopeKey)")
    return (
        "CALL (s) {\n"
        f"  MATCH (n:{label}) USING INDEX n:{index}\n"
        f"  WHERE n.tenant = $tenant AND n.scopeKey = s.key AND {condition}\n"
        f"  WITH n ORDER BY n.{STAMP} DESC LIMIT {most}\n"
        f"  RETURN collect({{id: n.id, vector: n.embedding, stamp: coalesce(n.{STAMP}, 0)}})"
        f" AS {name}\n"
        "}\n")


def _count(label: str, name: str) -> str:
    return (
        "CALL (s) {\n"
        f"  MATCH (n:{label}) USING INDEX n:{label}(tenant, scopeKey)\n"
        "  WHERE n.tenant = $tenant AND n.scopeKey = s.key\n"
        f"  WITH n LIMIT $countCap RETURN count(n) AS {name}\n"
        "}\n")


def _clock() -> str:
    # read first: a node stamped after this read is asked for again next time
    return ("UNWIND $scopes AS s\n"
            "OPTIONAL MATCH (c:ScopeClock {tenant: $tenant, scopeKey: s.key})\n"
            "WITH s, coalesce(c.n, 0) AS clock\n")


def changes(label: str, scopes: list[Params], most: int, count_cap: int,
            name: str) -> Query:
    """A subquery returning, as list ``name``, per scope (``{key, since}``): its ``clock``,
    the ``rows`` (``{id, vector, stamp}``) stamped at ``since`` or later, newest first, at
    most ``most`` (a full list of nodes all newer than the reader's clock may have left
    some out), and its ``label`` count (up to ``count_cap``), read in that order."""
    # counted after the rows: a node committed in between is counted but not read, and
    # comes with the next changes (its stamp is past the clock read); a copy holding more
    # nodes than the count holds a deleted one
    return ("CALL () {\n" + _clock() + _rows(label, f"n.{STAMP} >= s.since", "$most", "rows")
            + _count(label, "count")
            + f"RETURN collect({{key: s.key, clock: clock, count: count, rows: rows}}) AS {name}\n"
            "}\n", {"scopes": scopes, "most": most, "countCap": count_cap})


def whole_scope(tenant: str, key: str, count_cap: int) -> Query:
    """One scope's ``clock``, counts (``factCount``, ``messageCount``) and every fact and
    turn row (``factRows``, ``messageRows``: ``{id, vector, stamp}``); no row if the scope
    has ``count_cap`` nodes of a label or more."""
    text = _clock()
    for label in STAMPED_LABELS:
        text += _count(label, f"{label.lower()}Count")
    text += "WITH * WHERE factCount < $countCap AND messageCount < $countCap\n"
    for label in STAMPED_LABELS:
        text += _rows(label, "true", "$countCap", f"{label.lower()}Rows")
    return (text + "RETURN s.key AS key, clock, factCount, messageCount, factRows, messageRows",
            {"tenant": tenant, "scopes": [{"key": key, "since": 0}], "countCap": count_cap})
