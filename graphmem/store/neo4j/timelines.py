"""Cypher for timeline versions: ``(:Timeline {tenant, key, scopeKey, version})``.

A timeline (:func:`graphmem.temporal.timeline_key`) is decided outside the store
from the facts a writer read, so two processes deciding on the same timeline at
once must not both commit. Every write locks, checks and advances the versions
of the timelines it touches (:func:`lock`) before anything else, in its own
transaction: writing a property first takes the node's write lock (the guard
:mod:`graphmem.store.neo4j.reminders` uses too), so the version read after it
is the last committed one and stays so until this transaction ends.
"""

from __future__ import annotations

from graphmem.store.neo4j.reads import Params, Query, write_locked

CONSTRAINT = ("timeline_key", "CREATE CONSTRAINT timeline_key IF NOT EXISTS"
              " FOR (n:Timeline) REQUIRE (n.tenant, n.key) IS UNIQUE")


def versions(tenant: str, keys: list[str]) -> Query:
    """Rows ``{key, version}`` of the timelines written so far (a missing one is at 0)."""
    return ("MATCH (t:Timeline) WHERE t.tenant = $tenant AND t.key IN $keys"
            " RETURN t.key AS key, t.version AS version", {"tenant": tenant, "keys": keys})


def lock(tenant: str, rows: list[Params], deleted_fact_ids: list[str]) -> Query:
    """Lock and advance timelines; returns the keys whose version was not the expected one.

    Rows: ``{key, scopeKey, expected}`` (``expected`` None: lock without a check),
    sorted by key so concurrent writers take their locks in one order. The
    timelines of the deleted facts are locked too (found here, in the transaction).
    """
    return (
        "CALL () {\n"
        "  UNWIND $rows AS row\n"
        "  RETURN row.key AS key, row.scopeKey AS scopeKey, row.expected AS expected\n"
        "  UNION\n"
        "  MATCH (f:Fact) USING INDEX f:Fact(id) WHERE f.id IN $deleted AND f.tenant = $tenant\n"
        "  RETURN f.timelineKey AS key, f.scopeKey AS scopeKey, null AS expected\n"
        "}\n"
        "WITH key, min(scopeKey) AS scopeKey, collect(expected) AS expected\n"
        "ORDER BY key\n"
        "MERGE (t:Timeline {tenant: $tenant, key: key})\n"
        "ON CREATE SET t.scopeKey = scopeKey, t.version = 0\n"
        + write_locked("t") +
        "WITH t, key, expected, t.version AS seen\n"
        "SET t.version = seen + 1\n"
        "WITH key, expected, seen WHERE any(e IN expected WHERE e <> seen)\n"
        "RETURN key",
        {"tenant": tenant, "rows": rows, "deleted": deleted_fact_ids},
    )

