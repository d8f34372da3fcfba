"""Cypher for the Neo4j store's writes: upserts, links and deletes, as ``(query, params)``.

The same rules as :mod:`graphmem.store.neo4j.reads` (which holds the reads and the
shared helpers): every value is a parameter, relationship types included (each
checked by :func:`graphmem.store.neo4j.reads.relationship_type` all the same).
:meth:`graphmem.store.neo4j.Neo4jStore.write` runs these as one query (:func:`in_one`)
in one transaction.
"""

from __future__ import annotations

from datetime import datetime

from graphmem.models import FactStatus
from graphmem.store.neo4j.sketch import SKETCH_PROPERTY
from graphmem.store.neo4j.reads import (ENTITY_TIMES, EPISODE_TIMES, FACT_TIMES, MESSAGE_TIMES,
                                        KEEP_PLAN, Params, Query, as_one_map, checked_alias,
                                        each_by_id,
                                        relationship_type)


def in_one(statements: list[Query], guard: Query | None = None,
           result: tuple[Query, str] | None = None) -> Query:
    """Several write statements as one query (one round trip), run in order.

    Planning this query takes about 2 s, so it is planned once per server: each statement
    becomes a unit subquery whose parameters travel as one map (``$s0.id``,
    :func:`reads.as_one_map`), as a top-level list's size range would enter the plan cache's
    key; the store sends every statement, those with nothing to write as well, so the text
    never changes; and the plan is kept when the counts move (:data:`reads.KEEP_PLAN`), as
    they do while the store grows from empty. Kept from an empty store, a plan is only sound
    where its seeks are fixed: every lookup by id names its index, and the one statement a
    hint cannot fix runs apart (:func:`link_fact_relationships`). With a ``guard``
    (:func:`graphmem.store.neo4j.timelines.lock`), it runs first and the statements only
    when it returned no row; the query returns the guard's rows as one list, ``conflicts``.
    With a ``result``, a query that aggregates into one row of the one column named beside
    it (:func:`graphmem.store.neo4j.vector_scopes.mark` and ``due``), it runs last (after a
    guard, only when the statements ran) and the query returns that column too.

    >>> text, params = in_one([("MERGE (n:X {id: $id})", {"id": 1})])
    >>> print(text)
    CYPHER replan=skip
    CALL () {
    MERGE (n:X {id: $s0.id})
    }
    RETURN [] AS conflicts
    >>> params
    {'s0': {'id': 1}}
    """
    params: Params = {}
    parts = []
    for i, statement in enumerate(statements):
        text, own = as_one_map(statement, f"s{i}")
        parts.append("CALL () {\n" + text + "\n}")
        params.update(own)
    tail, returned = "", ""
    if result is not None:
        last, column = result
        text, own = as_one_map(last, "result")
        params.update(own)
        # after a guard, only when it found no conflict, as the statements: its aggregation
        # then answers one row of nothing, and the query still returns the conflicts
        opening = ("CALL () {\n" if guard is None
                   else "CALL (conflicts) {\nWITH conflicts WHERE size(conflicts) = 0\n")
        tail, returned = "\n" + opening + text + "\n}", ", " + checked_alias(column)
    if guard is None:
        return KEEP_PLAN + "\n".join(parts) + tail + "\nRETURN [] AS conflicts" + returned, params
    text, own = as_one_map(guard, "guard")
    params.update(own)
    head = "CALL () {\n" + text + "\n}\n"
    if not parts:
        return (KEEP_PLAN + head + "WITH collect(key) AS conflicts" + tail
                + "\nRETURN conflicts" + returned, params)
    return (KEEP_PLAN + head + "WITH collect(key) AS conflicts\n"
            "CALL (conflicts) {\nWITH * WHERE size(conflicts) = 0\n" + "\n".join(parts)
            + "\n}" + tail + "\nRETURN conflicts" + returned, params)


def set_times(alias: str, keys: tuple[str, ...], source: str) -> str:
    """``SET`` items that store each time of ``source`` (a row's ``times``, ISO 8601 text,
    ``records.iso``) as a DateTime; a null removes the property, as ``+=`` does with a null.

    >>> set_times("n", ("createdAt",), "row.times")
    'n.createdAt = datetime(row.times.createdAt)'
    """
    return ", ".join(f"{alias}.{key} = datetime({source}.{key})" for key in keys)


def delete_facts(tenant: str, ids: list[str]) -> Query:
    """Remove facts with their typed relationship between the two entities."""
    return (
        each_by_id("Fact", "f")
        + "CALL (f) {\n"
        "  MATCH (s:Entity {id: f.subjectId})-[r]->(:Entity {id: f.objectId})\n"
        "  USING INDEX s:Entity(id)\n"
        "  WHERE r.factId = f.id\n"
        "  DELETE r\n"
        "}\n"
        "DETACH DELETE f",
        {"tenant": tenant, "ids": ids},
    )


def delete_episodes(tenant: str, ids: list[str]) -> Query:
    return (
        each_by_id("Episode", "e")
        + "CALL (e) { MATCH (e)-[:HAS_MESSAGE]->(m:Message) DETACH DELETE m }\n"
        "DETACH DELETE e",
        {"tenant": tenant, "ids": ids},
    )


def delete_entities(tenant: str, ids: list[str]) -> Query:
    """Entities go with every edge, typed fact relationships included; Fact nodes stay."""
    return (
        each_by_id("Entity", "n")
        + "DETACH DELETE n",
        {"tenant": tenant, "ids": ids},
    )


def upsert_episodes(rows: list[Params]) -> Query:
    """Rows: ``{id, props, times, messages: [{id, props, times, embedding}]}``: a Message per
    turn (``times``: :func:`set_times`).

    Turns the episode no longer has are removed; a turn's embedding is set when
    given and otherwise left as it is.
    """
    return (
        "UNWIND $rows AS row\n"
        "MERGE (e:Episode {id: row.id})\n"
        f"SET e += row.props, {set_times('e', EPISODE_TIMES, 'row.times')}\n"
        "WITH e, row\n"
        "CALL (e, row) {\n"
        "  MATCH (e)-[:HAS_MESSAGE]->(old:Message) WHERE old.index >= size(row.messages)\n"
        "  DETACH DELETE old\n"
        "}\n"
        "CALL (e, row) {\n"
        "  UNWIND row.messages AS msg\n"
        "  MERGE (m:Message {id: msg.id})\n"
        f"  SET m += msg.props, {set_times('m', MESSAGE_TIMES, 'msg.times')}\n"
        "  MERGE (e)-[:HAS_MESSAGE]->(m)\n"
        "  WITH m, msg WHERE msg.embedding IS NOT NULL\n"
        "  CALL db.create.setNodeVectorProperty(m, 'embedding', msg.embedding)\n"
        "}",
        {"rows": rows},
    )


def upsert_entities(rows: list[Params]) -> Query:
    """Rows: ``{id, props, times, embedding}``; embeddings are stored as float32 vectors."""
    return (
        "UNWIND $rows AS row\n"
        "MERGE (n:Entity {id: row.id})\n"
        f"SET n += row.props, {set_times('n', ENTITY_TIMES, 'row.times')}\n"
        "WITH n, row\n"
        "CALL (n, row) { WITH * WHERE row.embedding IS NULL REMOVE n.embedding,"
        f" n.{SKETCH_PROPERTY} }}\n"
        "CALL (n, row) {\n"
        "  WITH * WHERE row.embedding IS NOT NULL\n"
        "  CALL db.create.setNodeVectorProperty(n, 'embedding', row.embedding)\n"
        "}",
        {"rows": rows},
    )


def upsert_fact_nodes(rows: list[Params]) -> Query:
    """Rows: ``{id, seq, props, times, embedding}``.

    A fact whose subject, object or predicate changed, or that is a retraction
    marker, loses its old typed relationship here; :func:`link_facts` and
    :func:`link_fact_relationships` then draw the current ones, in the same
    transaction.
    """
    return (
        "UNWIND $rows AS row\n"
        "MERGE (f:Fact {id: row.id})\n"
        "ON CREATE SET f.seq = row.seq, f.negSeq = -row.seq\n"
        "WITH f, row, f.subjectId AS oldSubject, f.predicate AS oldPredicate,"
        " f.objectId AS oldObject\n"
        f"SET f += row.props, {set_times('f', FACT_TIMES, 'row.times')}\n"
        "WITH f, row, oldSubject, oldPredicate, oldObject\n"
        "CALL (f, oldSubject, oldPredicate, oldObject) {\n"
        "  WITH * WHERE oldSubject IS NOT NULL AND (oldSubject <> f.subjectId"
        " OR oldPredicate <> f.predicate OR oldObject <> f.objectId OR f.status = $marker)\n"
        "  MATCH (s:Entity {id: oldSubject})-[r]->(:Entity {id: oldObject})\n"
        "  USING INDEX s:Entity(id)\n"
        "  WHERE r.factId = f.id\n"
        "  DELETE r\n"
        "}\n"
        "CALL (f, row) { WITH * WHERE row.embedding IS NULL REMOVE f.embedding,"
        f" f.{SKETCH_PROPERTY} }}\n"
        "CALL (f, row) {\n"
        "  WITH * WHERE row.embedding IS NOT NULL\n"
        "  CALL db.create.setNodeVectorProperty(f, 'embedding', row.embedding)\n"
        "}",
        {"rows": rows, "marker": FactStatus.RETRACTION.value},
    )


def link_facts(tenant: str, ids: list[str]) -> Query:
    """Draw SUBJECT, OBJECT, SUPERSEDES, ASSERTS and RETRACTS from the facts' properties.

    Edges the properties no longer name are removed first. An end that does
    not exist gets no edge: ingestion writes entities and episodes in the same
    batch as their facts, or before them.
    """
    return (
        each_by_id("Fact", "f")
        + "CALL (f) {\n"
        "  MATCH (f)-[r:SUBJECT|OBJECT|SUPERSEDES]->(n)\n"
        "  WHERE (type(r) = 'SUBJECT' AND n.id <> f.subjectId)"
        " OR (type(r) = 'OBJECT' AND n.id <> f.objectId)"
        " OR (type(r) = 'SUPERSEDES' AND NOT n.id IN f.supersedes)\n"
        "  DELETE r\n"
        "}\n"
        "CALL (f) {\n"
        "  MATCH (f)<-[r:ASSERTS|RETRACTS]-(ep)\n"
        "  WHERE (type(r) = 'ASSERTS' AND NOT ep.id IN f.episodeIds)"
        " OR (type(r) = 'RETRACTS' AND ep.id <> coalesce(f.retractionEpisodeId, ''))\n"
        "  DELETE r\n"
        "}\n"
        "CALL (f) {\n"
        "  MATCH (s:Entity {id: f.subjectId}) USING INDEX s:Entity(id)"
        " WHERE s.tenant = f.tenant\n"
        "  MERGE (f)-[:SUBJECT]->(s)\n"
        "}\n"
        "CALL (f) {\n"
        "  MATCH (o:Entity {id: f.objectId}) USING INDEX o:Entity(id)"
        " WHERE o.tenant = f.tenant\n"
        "  MERGE (f)-[:OBJECT]->(o)\n"
        "}\n"
        "CALL (f) {\n"
        "  UNWIND f.supersedes AS oldId\n"
        "  MATCH (old:Fact {id: oldId}) USING INDEX old:Fact(id) WHERE old.tenant = f.tenant\n"
        "  MERGE (f)-[:SUPERSEDES]->(old)\n"
        "}\n"
        "CALL (f) {\n"
        "  UNWIND f.episodeIds AS episodeId\n"
        "  MATCH (ep:Episode {id: episodeId}) USING INDEX ep:Episode(id)"
        " WHERE ep.tenant = f.tenant\n"
        "  MERGE (ep)-[:ASSERTS]->(f)\n"
        "}\n"
        "CALL (f) {\n"
        "  MATCH (ep:Episode {id: f.retractionEpisodeId}) USING INDEX ep:Episode(id)"
        " WHERE ep.tenant = f.tenant\n"
        "  MERGE (ep)-[:RETRACTS]->(f)\n"
        "}",
        {"tenant": tenant, "ids": ids},
    )


def link_fact_relationships(tenant: str, rows: list[Params]) -> Query:
    """Draw each fact as ``(subject)-[:PREDICATE]->(object)``; rows ``{id, type}``.

    The type is a parameter (a dynamic type, Neo4j 5.26), checked by
    :func:`graphmem.store.neo4j.reads.relationship_type` all the same, so one
    statement of unchanging text serves every predicate. It runs after the batch's
    one query (:func:`in_one`), in the same transaction, and is planned as usual: planned
    on an empty store, its MERGE reads every relationship of the database for each row
    instead of those between the two entities, and no hint can name that expansion (kept
    in the batch's query, a 100k-fact load stalled at 66,000). Its properties are copied
    from the Fact node in the same transaction, so node and relationship always agree.
    Retraction markers ("stopped liking X") never become a relationship: it
    would read as the opposite.
    """
    for row in rows:
        relationship_type(row["type"])
    return (
        "UNWIND $rows AS row\n"
        "MATCH (s:Entity)<-[:SUBJECT]-(f:Fact {id: row.id})-[:OBJECT]->(o:Entity)\n"
        "USING INDEX f:Fact(id)\n"
        "WHERE f.tenant = $tenant AND f.status <> $marker\n"
        "MERGE (s)-[r:$(row.type) {factId: f.id}]->(o)\n"
        "SET r.validFrom = f.validFrom, r.validUntil = f.validUntil, r.status = f.status,"
        " r.text = f.text, r.category = f.category",
        {"tenant": tenant, "rows": rows, "marker": FactStatus.RETRACTION.value},
    )


def upsert_mentions(tenant: str, rows: list[Params]) -> Query:
    """Rows: ``{episodeId, entityId}``."""
    return (
        "UNWIND $rows AS row\n"
        "MATCH (ep:Episode {id: row.episodeId}) USING INDEX ep:Episode(id)"
        " WHERE ep.tenant = $tenant\n"
        "MATCH (n:Entity {id: row.entityId}) USING INDEX n:Entity(id) WHERE n.tenant = $tenant\n"
        "MERGE (ep)-[:MENTIONS]->(n)",
        {"tenant": tenant, "rows": rows},
    )


def record_access(tenant: str, ids: list[str], at: datetime) -> Query:
    return (
        each_by_id("Fact", "f")
        + "SET f.accessCount = coalesce(f.accessCount, 0) + 1, f.lastAccessed = $at",
        {"tenant": tenant, "ids": ids, "at": at},
    )


def delete_scope(tenant: str, scope_key: str) -> list[Query]:
    """Statements removing one scope; each returns ``deleted`` (Messages, and the Timelines
    and ScopeClock that :mod:`.timelines` and :mod:`.scope_clocks` keep, are not counted)."""
    params = {"tenant": tenant, "scopeKey": scope_key}
    return [
        (
            "MATCH (f:Fact) WHERE f.tenant = $tenant AND f.scopeKey = $scopeKey\n"
            "CALL (f) {\n"
            "  MATCH (:Entity {id: f.subjectId})-[r]->(:Entity {id: f.objectId})\n"
            "  WHERE r.factId = f.id\n"
            "  DELETE r\n"
            "}\n"
            "DETACH DELETE f\n"
            "RETURN count(f) AS deleted",
            params,
        ),
        *(_delete_labelled(label, counted, params) for label, counted in
          (("Message", False), ("Episode", True), ("Entity", True), ("Timeline", False),
           ("ScopeClock", False))),
    ]


def _delete_labelled(label: str, counted: bool, params: Params) -> Query:
    """Every node of one of graphmem's labels (a constant, never user input) in the scope."""
    count = "count(n)" if counted else "0"
    return (f"MATCH (n:{label}) WHERE n.tenant = $tenant AND n.scopeKey = $scopeKey\n"
            f"DETACH DELETE n\nRETURN {count} AS deleted", params)
