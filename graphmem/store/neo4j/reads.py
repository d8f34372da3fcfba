"""Cypher for the Neo4j store's plain reads, and what every Cypher module shares.

Plain reads: episodes, entities and facts by id, scope or time, and the counts
of ``stats``. Shared: the ``Query`` type, the index names, the checks of what
may be written into a query's text (:func:`relationship_type`,
:func:`checked_alias`), the time filter and the batch opening
:func:`each_by_id`. The writes are in :mod:`graphmem.store.neo4j.writes`, the
reads of the search channels in :mod:`graphmem.store.neo4j.search_reads`, those
of entity resolution in :mod:`graphmem.store.neo4j.resolution`.

Every value travels as a parameter. The only text ever interpolated into a
query is a relationship type made from a predicate, and only after it passed
:data:`graphmem.predicates.PREDICATE_PATTERN` (see :func:`relationship_type`);
node aliases used by :func:`time_filter` are checked the same way. Rows are
plain dicts of Neo4j property values, built from the models by
:mod:`graphmem.store.neo4j`, so these functions never touch a model.

The graph reads naturally in Neo4j Browser::

    (:Episode)-[:HAS_MESSAGE]->(:Message)
    (:Episode)-[:ASSERTS|RETRACTS]->(:Fact)-[:SUBJECT|OBJECT]->(:Entity)
    (:Episode)-[:MENTIONS]->(:Entity)
    (:Fact)-[:SUPERSEDES]->(:Fact)
    (:Entity)-[:WORKS_AT {factId, validFrom, validUntil, status, text, category}]->(:Entity)
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from graphmem.errors import ValidationError
from graphmem.models import FactStatus
from graphmem.predicates import PREDICATE_PATTERN
from graphmem.temporal import TimeFilter

Params = dict[str, Any]
Query = tuple[str, Params]

#: Names of the indexes the queries use; created by :mod:`graphmem.store.neo4j.schema`.
FACT_TEXT_INDEX = "fact_text"
ENTITY_TEXT_INDEX = "entity_text"
ENTITY_NAMES_INDEX = "entity_names"
MESSAGE_TEXT_INDEX = "message_text"
FACT_VECTOR_INDEX = "fact_embedding"
ENTITY_VECTOR_INDEX = "entity_embedding"
MESSAGE_VECTOR_INDEX = "message_embedding"

_ALIAS = re.compile(r"^[a-z][A-Za-z0-9_]{0,31}$")


# -- identifiers ---------------------------------------------------------------
def relationship_type(predicate: str) -> str:
    """The relationship type for a predicate; refuses anything but UPPER_SNAKE_CASE.

    >>> relationship_type("WORKS_AT")
    'WORKS_AT'
    """
    # fullmatch: "$" alone would also accept a trailing newline
    if not PREDICATE_PATTERN.fullmatch(predicate):
        raise ValidationError(
            f"predicate {predicate!r} cannot become a relationship type: use UPPER_SNAKE_CASE, "
            "a letter then letters, digits or underscores, at most 64 characters"
        )
    return predicate


def checked_alias(name: str) -> str:
    """``name`` if it is safe to write into a query as a Cypher variable; else ValueError."""
    if not _ALIAS.fullmatch(name):
        raise ValueError(f"not a safe Cypher variable name: {name!r}")
    return name


# -- plans ---------------------------------------------------------------------
#: The prefix of a long query whose seeks are fixed by index hints: Neo4j
#: plans a query again when the counts it was planned on have moved enough, which a growing
#: store does often, and planning a long query takes 0.5-6 s here; an older plan of such a
#: query is as good as a new one.
KEEP_PLAN = "CYPHER replan=skip\n"
#: A ``$parameter`` in a query's text.
PARAMETER = re.compile(r"\$([A-Za-z_]\w*)")


def as_one_map(query: Query, name: str) -> Query:
    """``query`` with its parameters read from one map parameter, ``name``.

    Neo4j keys a cached plan by the query's text and its parameters' types, and a top-level
    list's type carries its size range (1, up to 10, up to 100, ...): a long query with a
    few lists of varying length was planned again for each new mix of sizes (0.5-6 s each).
    Inside a map, the lists do not enter the key, and one plan serves every size.

    >>> as_one_map(("UNWIND $rows AS r RETURN r, $tenant", {"rows": [1], "tenant": "a"}), "q")
    ('UNWIND $q.rows AS r RETURN r, $q.tenant', {'q': {'rows': [1], 'tenant': 'a'}})
    """
    text, params = query
    return PARAMETER.sub(rf"${name}.\1", text), {name: dict(params)}


# -- time ----------------------------------------------------------------------
def write_locked(alias: str) -> str:
    """Cypher taking node ``alias``'s write lock, held until the transaction ends: a read
    takes no lock under read-committed, writing a property does, and removing it at once
    leaves the node as it was. What is read of the node after this is its last committed
    state, and stays so until the transaction ends."""
    return f"SET {alias}.locking = true\nREMOVE {alias}.locking\n"


def time_filter(alias: str, time: TimeFilter, now: datetime, prefix: str = "tf", *,
                statuses: bool = True) -> Query:
    """A WHERE condition on fact ``alias`` equal to :meth:`TimeFilter.matches`.

    With ``as_known_at``, an end learned after that instant (``expiredAt`` null
    or later) does not count, so the fact still holds. ``statuses=False`` gives
    :meth:`TimeFilter.matches_time`, for listings that choose statuses themselves.
    """
    f, p = checked_alias(alias), checked_alias(prefix)
    params: Params = {f"{p}At": time.at(now)}
    conditions = []
    if statuses:
        hidden = [FactStatus.ARCHIVED.value, FactStatus.RETRACTION.value]
        if not time.include_forgotten:
            hidden.append(FactStatus.FORGOTTEN.value)
        params[f"{p}Hidden"] = hidden
        conditions.append(f"NOT {f}.status IN ${p}Hidden")
    if time.as_known_at is not None:
        params[f"{p}Known"] = time.as_known_at
        conditions.append(f"{f}.recordedAt <= ${p}Known")
    conditions.append(f"{f}.validFrom <= ${p}At")
    if not time.include_history:
        still_open = f"{f}.validUntil IS NULL OR ${p}At < {f}.validUntil"
        if time.as_known_at is not None:
            still_open += f" OR {f}.expiredAt IS NULL OR {f}.expiredAt > ${p}Known"
        conditions.append(f"({still_open})")
    return " AND ".join(conditions), params


# -- shared shapes --------------------------------------------------------------
def each_by_id(label: str, alias: str, key: str = "id") -> str:
    """The opening lines of a batch query: one row per ``$ids`` value, matched in ``$tenant``.

    The shape every batch read and write by id shares; ``key`` matches on another
    property (a reminder's ``todoId``, a fact's ``timelineKey``), which every label's
    schema indexes. ``label`` and ``key`` are graphmem's own constants (never user
    input); ``alias`` is checked like every interpolated identifier. The index is named
    (a hint) so that a plan made while the store was empty, when a label scan looked as
    cheap, still seeks once the store has grown (the batch write keeps its plan).

    >>> print(each_by_id("Reminder", "r", key="todoId") + "DETACH DELETE r")
    UNWIND $ids AS id
    MATCH (r:Reminder {todoId: id}) USING INDEX r:Reminder(todoId) WHERE r.tenant = $tenant
    DETACH DELETE r
    """
    n = checked_alias(alias)
    return (f"UNWIND $ids AS id\nMATCH ({n}:{label} {{{key}: id}}) USING INDEX {n}:{label}({key})"
            f" WHERE {n}.tenant = $tenant\n")


def epoch_micros(expr: str) -> str:
    """A DateTime expression as microseconds since 1970 UTC, null staying null, for the
    projections a search reads by the hundred: the driver turns each DateTime into a Python
    one at about 40 us (half the client's time of a search at 100k facts), an integer costs
    nothing, and ``records.to_datetime`` reads it back to the microsecond. Built on
    ``epochMillis``, which rounds down: ``epochSeconds`` rounds towards zero, so before 1970
    it is a second late whenever there is a fraction of one.

    >>> epoch_micros("f.validFrom")
    'f.validFrom.epochMillis * 1000 + f.validFrom.nanosecond / 1000 % 1000'
    """
    return f"{expr}.epochMillis * 1000 + {expr}.nanosecond / 1000 % 1000"


# -- reads: episodes -----------------------------------------------------------
def get_episode(tenant: str, episode_id: str) -> Query:
    return (
        "MATCH (e:Episode {id: $id}) WHERE e.tenant = $tenant\n"
        f"RETURN {episode_projection('e')} AS e",
        {"tenant": tenant, "id": episode_id},
    )


def find_episode(tenant: str, scope_key: str, client_id: str) -> Query:
    return (
        "MATCH (e:Episode {clientId: $clientId})\n"
        "WHERE e.tenant = $tenant AND e.scopeKey = $scopeKey\n"
        f"RETURN {episode_projection('e')} AS e LIMIT 1",
        {"tenant": tenant, "scopeKey": scope_key, "clientId": client_id},
    )


def episodes_by_client_id(tenant: str, client_id: str) -> Query:
    return (
        "MATCH (e:Episode {clientId: $clientId}) WHERE e.tenant = $tenant\n"
        f"RETURN {episode_projection('e')} AS e ORDER BY e.scopeKey",
        {"tenant": tenant, "clientId": client_id},
    )


def list_episodes(tenant: str, scope_keys: list[str], limit: int,
                  before: datetime | None) -> Query:
    before_clause = " AND e.referenceTime < $before" if before is not None else ""
    return (
        "MATCH (e:Episode) WHERE e.tenant = $tenant AND e.scopeKey IN $scopeKeys"
        f"{before_clause}\n"
        f"RETURN {episode_projection('e')} AS e\n"
        "ORDER BY e.referenceTime DESC, e.recordedAt DESC LIMIT $limit",
        {"tenant": tenant, "scopeKeys": scope_keys, "limit": limit, "before": before},
    )


def ids_in_scope(label: str, tenant: str, scope_key: str) -> Query:
    """The ids of one label's nodes (a constant of graphmem's, never user input) in a scope.

    >>> ids_in_scope("Entity", "acme", "user:maya")[0].splitlines()[0]
    'MATCH (n:Entity) WHERE n.tenant = $tenant AND n.scopeKey = $scopeKey'
    """
    if label not in ("Episode", "Entity"):
        raise ValueError(f"no scope listing for {label!r}")
    return (f"MATCH (n:{label}) WHERE n.tenant = $tenant AND n.scopeKey = $scopeKey\n"
            "RETURN n.id AS id ORDER BY id", {"tenant": tenant, "scopeKey": scope_key})


def scope_keys(tenant: str) -> Query:
    """The scope keys a tenant has data in.

    >>> scope_keys("acme")[1]
    {'tenant': 'acme'}
    """
    return (
        "MATCH (n) WHERE (n:Episode OR n:Fact) AND n.tenant = $tenant\n"
        "RETURN DISTINCT n.scopeKey AS key ORDER BY key",
        {"tenant": tenant},
    )


def expired_episode_ids(tenant: str, now: datetime) -> Query:
    return (
        "MATCH (e:Episode) WHERE e.expiresAt <= $now AND e.tenant = $tenant"
        " AND e.pinned = false\n"
        "RETURN e.id AS id",
        {"tenant": tenant, "now": now},
    )


# -- reads: entities -----------------------------------------------------------
def get_entities(tenant: str, ids: list[str]) -> Query:
    return (
        each_by_id("Entity", "n")
        + f"RETURN {entity_projection('n')} AS n",
        {"tenant": tenant, "ids": ids},
    )


# -- reads: facts --------------------------------------------------------------
#: The properties ``records.fact_from`` reads, and ``seq`` to order by: a fact without its
#: vector. Named one by one rather than ``f {.*, embedding: null}``, which reads the vector
#: (3 KB) before dropping it.
FACT_PROPERTIES = (
    "id", "seq", "tenant", "scopeKey", "timelineKey", "subjectId", "subjectName", "predicate",
    "objectId", "objectName", "text", "category", "importance", "confidence", "cardinality",
    "validFrom", "validUntil", "statedUntil", "recordedAt", "expiredAt", "retractedAt",
    "retractionEpisodeId", "retractionMessageIds", "supersedes", "supersededBy", "episodeIds",
    "messageIds", "evidenceJson", "accessCount", "lastAccessed", "status")


#: The properties of each kind of node that hold a DateTime. Reads project them as
#: :func:`epoch_micros` and writes send them as text (``records.iso``,
#: ``writes.set_times``): the driver converts a DateTime at about 80 us each way, so a
#: timeline of 301 facts took 130-182 ms to read and a batch of 500 facts about 150 ms to
#: send (docs/neo4j-writes.md, "Times across the driver").
FACT_TIMES = ("validFrom", "validUntil", "statedUntil", "recordedAt", "expiredAt",
              "retractedAt", "lastAccessed")
ENTITY_TIMES = ("createdAt",)
EPISODE_TIMES = ("referenceTime", "recordedAt", "expiresAt")
MESSAGE_TIMES = ("timestamp", "recordedAt")

#: The properties ``records.episode_from`` reads.
EPISODE_PROPERTIES = ("id", "tenant", "scopeKey", "source", "content", "referenceTime",
                      "recordedAt", "expiresAt", "clientId", "pinned", "sessionId", "forgotten",
                      "messagesJson")

#: The properties ``records.entity_from`` reads, and the normalised ``names`` a search
#: matches on (not the sketch, nor the vector, which :func:`entity_projection` adds when
#: asked).
ENTITY_PROPERTIES = ("id", "tenant", "scopeKey", "name", "type", "aliases", "names",
                     "summary", "createdAt", "resolutionsJson")


def projection(alias: str, properties: tuple[str, ...], times: tuple[str, ...],
               vector: bool = False) -> str:
    """A map projection of node ``alias``: ``properties``, those in ``times`` as
    :func:`epoch_micros`, and its vector when ``vector`` (never its sketch).

    >>> projection("n", ("id", "at"), ("at",), vector=True)
    'n {.id, at: n.at.epochMillis * 1000 + n.at.nanosecond / 1000 % 1000, .embedding}'
    """
    n = checked_alias(alias)
    return f"{n} {{" + ", ".join(
        [f"{p}: {epoch_micros(f'{n}.{p}')}" if p in times else "." + p for p in properties]
        + ([".embedding"] if vector else [])) + "}"


def fact_projection(alias: str, vector: bool = False) -> str:
    """A fact as ``records.fact_from`` reads it (:func:`projection`).

    >>> fact_projection("f")[:30]
    'f {.id, .seq, .tenant, .scopeK'
    """
    return projection(alias, FACT_PROPERTIES, FACT_TIMES, vector)


def episode_projection(alias: str) -> str:
    """An episode as ``records.episode_from`` reads it (:func:`projection`)."""
    return projection(alias, EPISODE_PROPERTIES, EPISODE_TIMES)


def entity_projection(alias: str, vector: bool = True) -> str:
    """An entity as ``records.entity_from`` reads it (:func:`projection`)."""
    return projection(alias, ENTITY_PROPERTIES, ENTITY_TIMES, vector)


def get_facts(tenant: str, ids: list[str], embeddings: bool = True) -> Query:
    return (
        each_by_id("Fact", "f")
        + f"RETURN {fact_projection('f', embeddings)} AS f",
        {"tenant": tenant, "ids": ids},
    )


def facts_in_timelines(tenant: str, timeline_keys: list[str]) -> Query:
    return (
        each_by_id("Fact", "f", key="timelineKey")
        + f"RETURN {fact_projection('f', vector=True)} AS f ORDER BY f.seq",
        {"tenant": tenant, "ids": timeline_keys},
    )


def facts_of_episode(tenant: str, episode_id: str) -> Query:
    """Facts the episode asserted or retracted."""
    return (
        "MATCH (:Episode {id: $episodeId})-[:ASSERTS|RETRACTS]->(f:Fact) WHERE f.tenant = $tenant\n"
        "WITH DISTINCT f\n"
        f"RETURN {fact_projection('f', vector=True)} AS f ORDER BY f.seq",
        {"tenant": tenant, "episodeId": episode_id},
    )


def facts_of_episodes(tenant: str, episode_ids: list[str]) -> Query:
    """Facts (without vectors) that any of the episodes asserted or retracted."""
    return (
        each_by_id("Episode", "e")
        + "MATCH (e)-[:ASSERTS|RETRACTS]->(f:Fact) WHERE f.tenant = $tenant\n"
        "WITH DISTINCT f\n"
        f"RETURN {fact_projection('f')} AS f ORDER BY f.seq",
        {"tenant": tenant, "ids": episode_ids},
    )


def list_facts(tenant: str, scope_keys: list[str], time: TimeFilter, now: datetime, *,
               categories: list[str] | None = None, statuses: list[str] | None = None,
               predicates: list[str] | None = None, entity_id: str | None = None,
               text_contains: str | None = None, limit: int = 50, offset: int = 0) -> Query:
    """Facts for browsing, newest ``validFrom`` first (ties: latest written first).

    ``statuses``, when given, are exactly the statuses listed (archived ones
    too, if asked for); the time filter still applies.
    """
    condition, params = time_filter("f", time, now, statuses=not statuses)
    where = ["f.tenant = $tenant", "f.scopeKey IN $scopeKeys", condition]
    params.update({"tenant": tenant, "scopeKeys": scope_keys, "limit": limit, "offset": offset})
    if categories:
        where.append("f.category IN $categories")
        params["categories"] = categories
    if statuses:
        where.append("f.status IN $statuses")
        params["statuses"] = statuses
    if predicates:
        where.append("f.predicate IN $predicates")
        params["predicates"] = predicates
    if entity_id:
        where.append("(f.subjectId = $entityId OR f.objectId = $entityId)")
        params["entityId"] = entity_id
    if text_contains:
        where.append("toLower(f.text) CONTAINS $needle")
        params["needle"] = text_contains.lower()
    return (
        "MATCH (f:Fact)\n"
        "WHERE " + "\n  AND ".join(where) + "\n"
        "WITH f ORDER BY f.validFrom DESC, f.seq DESC SKIP $offset LIMIT $limit\n"
        f"RETURN {fact_projection('f', vector=True)} AS f",
        params,
    )


def facts_about(tenant: str, scope_keys: list[str], entity_ids: list[str], time: TimeFilter,
                now: datetime, limit: int, embeddings: bool = True) -> Query:
    """One hop: facts whose SUBJECT or OBJECT is one of the entities, most important first."""
    condition, params = time_filter("f", time, now)
    params.update({"tenant": tenant, "scopeKeys": scope_keys, "ids": entity_ids,
                   "limit": limit})
    return (
        hop("$ids", f"f.tenant = $tenant AND f.scopeKey IN $scopeKeys AND {condition}",
            "$limit")
        # projected last: the projection carries the embedding (the order again, on the map)
        + f"RETURN {fact_projection('f', embeddings)} AS f"
        " ORDER BY f.importance DESC, f.validFrom DESC, f.seq ASC",
        params,
    )


#: A walk's order of facts: the more important first, then the later valid, then the
#: earlier written (``negSeq`` is ``-seq``, so that every key runs the same way and the
#: walk indexes, ``schema.RANGE_INDEXES``, hand the facts over in this order).
WALK_ORDER = "f.importance DESC, f.validFrom DESC, f.negSeq DESC"


def hop(ids: str, condition: str, limit: str) -> str:
    """One hop of a walk, giving rows ``f``: the ``limit`` first facts in :data:`WALK_ORDER`
    touching the entities of id list ``ids`` (a parameter or variable) and passing
    ``condition``. The search's hops and :func:`facts_about` are this.

    Each end (subject, object) of each entity is read from its walk index in that order,
    so a busy entity (the asking user, the subject of thousands of facts) costs only the
    facts read until ``limit`` pass, where sorting all of them first was most of a search's
    server time. The index gives the order only when its leading key is in the ``ORDER BY``
    too.
    """
    ends = [(f"    MATCH (f:Fact) USING INDEX f:Fact({end}, importance, validFrom, negSeq)\n"
             f"    WHERE f.{end} = id AND f.importance IS NOT NULL"
             " AND f.validFrom IS NOT NULL AND f.negSeq IS NOT NULL\n"
             f"      AND {condition}\n"
             f"    WITH f ORDER BY f.{end} DESC, {WALK_ORDER} LIMIT {limit}\n"
             "    RETURN f\n") for end in ("subjectId", "objectId")]
    return (f"UNWIND {ids} AS id\n"
            "MATCH (n:Entity {id: id}) USING INDEX n:Entity(id)\n"
            "CALL (id) {\n" + "    UNION\n".join(ends) + "}\n"
            f"WITH DISTINCT f ORDER BY {WALK_ORDER} LIMIT {limit}\n")


# -- housekeeping --------------------------------------------------------------
def count_episodes_entities(tenant: str, scope_keys: list[str]) -> Query:
    return (
        "CALL () {\n"
        "  MATCH (e:Episode) WHERE e.tenant = $tenant AND e.scopeKey IN $scopeKeys\n"
        "  RETURN count(e) AS episodes\n"
        "}\n"
        "CALL () {\n"
        "  MATCH (n:Entity) WHERE n.tenant = $tenant AND n.scopeKey IN $scopeKeys\n"
        "  RETURN count(n) AS entities\n"
        "}\n"
        "RETURN episodes, entities",
        {"tenant": tenant, "scopeKeys": scope_keys},
    )


def fact_counts(tenant: str, scope_keys: list[str], now: datetime) -> Query:
    """Facts in scope by (status, category), with how many of them hold now."""
    current, params = time_filter("f", TimeFilter(), now)
    params.update({"tenant": tenant, "scopeKeys": scope_keys})
    return (
        "MATCH (f:Fact) WHERE f.tenant = $tenant AND f.scopeKey IN $scopeKeys\n"
        "RETURN f.status AS status, f.category AS category, count(f) AS count,\n"
        f"  sum(CASE WHEN {current} THEN 1 ELSE 0 END) AS current",
        params,
    )
