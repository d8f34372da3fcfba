"""Cypher for reminders: ``(:Reminder {todoId, tenant, scopeKey, remindAt, sentAt})``.

A reminder is its own node, not a property of the todo's Fact node, because
facts are upserted whole and a claim must survive that. :func:`claim` is the
documented Neo4j guard against lost updates: writing a property first takes
the node's write lock, so the test of ``sentAt`` that follows sees every
committed claim and exactly one of several racing transactions wins.
"""

from __future__ import annotations

from datetime import datetime

from graphmem.store.neo4j.reads import Params, Query, each_by_id

CONSTRAINT = ("reminder_todo", "CREATE CONSTRAINT reminder_todo IF NOT EXISTS"
              " FOR (n:Reminder) REQUIRE n.todoId IS UNIQUE")
DUE_INDEX = ("reminder_due", "CREATE INDEX reminder_due IF NOT EXISTS FOR (n:Reminder) ON (n.remindAt)")


def schedule(tenant: str, rows: list[Params]) -> Query:
    """Create the reminders that do not exist yet; an existing one (sent or not) is kept."""
    return (
        "UNWIND $rows AS row\n"
        "MERGE (r:Reminder {todoId: row.todoId})\n"
        "ON CREATE SET r.tenant = $tenant, r.scopeKey = row.scopeKey, r.remindAt = row.remindAt,"
        " r.sentAt = row.sentAt",
        {"tenant": tenant, "rows": rows},
    )


def delete_of_facts(tenant: str, ids: list[str]) -> Query:
    return (
        each_by_id("Reminder", "r", key="todoId")
        + "DETACH DELETE r",
        {"tenant": tenant, "ids": ids},
    )


def delete_of_scope(tenant: str, scope_key: str) -> Query:
    return (
        "MATCH (r:Reminder) WHERE r.tenant = $tenant AND r.scopeKey = $scopeKey\n"
        "DETACH DELETE r\n"
        "RETURN 0 AS deleted",
        {"tenant": tenant, "scopeKey": scope_key},
    )


def due(until: datetime, limit: int) -> Query:
    return (
        "MATCH (r:Reminder) WHERE r.remindAt <= $until AND r.sentAt IS NULL\n"
        "RETURN r.tenant AS tenant, r.scopeKey AS scopeKey, r.todoId AS todoId,"
        " r.remindAt AS remindAt\n"
        "ORDER BY r.remindAt LIMIT $limit",
        {"until": until, "limit": limit},
    )


def claim(tenant: str, todo_id: str, at: datetime) -> Query:
    """Set ``sentAt`` if unset; returns one row ``won`` (absent when there is no such reminder)."""
    return (
        "MATCH (r:Reminder {todoId: $todoId}) WHERE r.tenant = $tenant\n"
        "SET r.claiming = true\n"
        "WITH r, r.sentAt IS NULL AS won\n"
        "SET r.sentAt = CASE WHEN won THEN $at ELSE r.sentAt END\n"
        "REMOVE r.claiming\n"
        "RETURN won",
        {"tenant": tenant, "todoId": todo_id, "at": at},
    )
