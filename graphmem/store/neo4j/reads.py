"""Cypher for the Neo4j store's reads, and what its writes share: ``(query, params)`` functions.

The writes are in :mod:`graphmem.store.neo4j.writes`.

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
from graphmem.models import TURN_CONTEXT_WEIGHT, FactStatus
from graphmem.predicates import PREDICATE_PATTERN
from graphmem.store.text import STOPWORDS
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
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_WORDISH = re.compile(r"\w", re.UNICODE)
_EDGE_NONWORD = re.compile(r"^\W+|\W+$", re.UNICODE)


# -- identifiers and Lucene ----------------------------------------------------
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


def _alias(name: str) -> str:
    if not _ALIAS.fullmatch(name):
        raise ValueError(f"not a safe Cypher variable name: {name!r}")
    return name


def escape_lucene(text: str) -> str:
    """Backslash-escape every character Lucene's query parser treats as syntax."""
    return _LUCENE_SPECIAL.sub(r"\\\1", text)


def lucene_any_terms(text: str, max_terms: int = 32) -> str | None:
    """Free text as a Lucene OR-query of escaped, lower-cased terms; None if nothing to search.

    Lower-casing keeps a user's ``AND``/``OR``/``NOT`` from becoming operators;
    escaping keeps ``-``, ``"``, ``:``, ``*``... literal. Terms with no letter
    or digit are dropped, as the analyzer would drop them anyway; so are
    stopwords (the embedded store's list) unless nothing else is left.

    >>> lucene_any_terms('Where does "Alice" work? -Acme')
    'where OR does OR \\\\"alice\\\\" OR work\\\\? OR \\\\-acme'
    """
    words = [t for t in dict.fromkeys(w.lower() for w in text.split()) if _WORDISH.search(t)]
    terms = [w for w in words if _EDGE_NONWORD.sub("", w) not in STOPWORDS] or words
    if not terms:
        return None
    return " OR ".join(escape_lucene(t) for t in terms[:max_terms])


def lucene_weighted_fields(query: str, weights: dict[str, float]) -> str:
    """``query`` asked of each field, each field's score scaled by its weight.

    >>> lucene_weighted_fields("sunrise OR paint", {"content": 1.0, "context": 0.5})
    'content:(sunrise OR paint)^1.0 OR context:(sunrise OR paint)^0.5'
    """
    return " OR ".join(f"{field}:({query})^{weight}" for field, weight in weights.items())


def _lucene_phrase(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def lucene_exact(tenant: str, names: list[str]) -> str:
    """Exact lookup of normalised names in one tenant, for the keyword-analysed name index."""
    alternatives = " OR ".join(_lucene_phrase(n) for n in names)
    return f"+tenant:{_lucene_phrase(tenant)} +names:({alternatives})"


# -- time ----------------------------------------------------------------------
def time_filter(alias: str, time: TimeFilter, now: datetime, prefix: str = "tf", *,
                statuses: bool = True) -> Query:
    """A WHERE condition on fact ``alias`` equal to :meth:`TimeFilter.matches`.

    With ``as_known_at``, an end learned after that instant (``expiredAt`` null
    or later) does not count, so the fact still holds. ``statuses=False`` gives
    :meth:`TimeFilter.matches_time`, for listings that choose statuses themselves.
    """
    f, p = _alias(alias), _alias(prefix)
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

    ``label`` and ``key`` are graphmem's own constants (never user input);
    ``alias`` is checked like every interpolated identifier.
    """
    n = _alias(alias)
    return f"UNWIND $ids AS id\nMATCH ({n}:{label} {{{key}: id}}) WHERE {n}.tenant = $tenant\n"


def epoch_micros(expr: str) -> str:
    """A DateTime expression as microseconds since 1970 UTC, null staying null, for the
    projections a search reads by the hundred: the driver turns each DateTime into a Python
    one at about 40 us (half the client's time of a search at 100k facts), an integer costs
    nothing, and ``records.to_datetime`` reads it back to the microsecond.

    >>> epoch_micros("f.validFrom")
    'f.validFrom.epochSeconds * 1000000 + f.validFrom.nanosecond / 1000'
    """
    return f"{expr}.epochSeconds * 1000000 + {expr}.nanosecond / 1000"


# -- reads: episodes -----------------------------------------------------------
def get_episode(tenant: str, episode_id: str) -> Query:
    return (
        "MATCH (e:Episode {id: $id}) WHERE e.tenant = $tenant RETURN properties(e) AS e",
        {"tenant": tenant, "id": episode_id},
    )


def find_episode(tenant: str, scope_key: str, client_id: str) -> Query:
    return (
        "MATCH (e:Episode {clientId: $clientId})\n"
        "WHERE e.tenant = $tenant AND e.scopeKey = $scopeKey\n"
        "RETURN properties(e) AS e LIMIT 1",
        {"tenant": tenant, "scopeKey": scope_key, "clientId": client_id},
    )


def episodes_by_client_id(tenant: str, client_id: str) -> Query:
    return (
        "MATCH (e:Episode {clientId: $clientId}) WHERE e.tenant = $tenant\n"
        "RETURN properties(e) AS e ORDER BY e.scopeKey",
        {"tenant": tenant, "clientId": client_id},
    )


def list_episodes(tenant: str, scope_keys: list[str], limit: int,
                  before: datetime | None) -> Query:
    before_clause = " AND e.referenceTime < $before" if before is not None else ""
    return (
        "MATCH (e:Episode) WHERE e.tenant = $tenant AND e.scopeKey IN $scopeKeys"
        f"{before_clause}\n"
        "RETURN properties(e) AS e\n"
        "ORDER BY e.referenceTime DESC, e.recordedAt DESC LIMIT $limit",
        {"tenant": tenant, "scopeKeys": scope_keys, "limit": limit, "before": before},
    )


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
        + "RETURN properties(n) AS n",
        {"tenant": tenant, "ids": ids},
    )


def find_entities(tenant: str, scope_keys: list[str], names: list[str]) -> Query:
    """Entities by normalised name or alias, through the keyword-analysed name index."""
    return (
        "CALL db.index.fulltext.queryNodes($index, $lookup) YIELD node AS n\n"
        "WHERE n.tenant = $tenant AND n.scopeKey IN $scopeKeys"
        " AND any(name IN n.names WHERE name IN $names)\n"
        "RETURN properties(n) AS n",
        {"index": ENTITY_NAMES_INDEX, "lookup": lucene_exact(tenant, names),
         "tenant": tenant, "scopeKeys": scope_keys, "names": names},
    )


_VECTOR_LABELS = {FACT_VECTOR_INDEX: "Fact", ENTITY_VECTOR_INDEX: "Entity",
                  MESSAGE_VECTOR_INDEX: "Message"}


def turn_time_filter(alias: str, time: TimeFilter, prefix: str = "tt") -> Query:
    """A WHERE condition on Message ``alias`` equal to :meth:`TimeFilter.sees_statement`.

    Messages written by graphmem before 0.2 carry no ``recordedAt``; their timestamp stands in.
    """
    m, p = _alias(alias), _alias(prefix)
    conditions, params = ["true"], {}
    at = time.as_of or time.as_known_at
    if at is not None:
        params[f"{p}At"] = at
        conditions.append(f"({m}.timestamp IS NULL OR {m}.timestamp <= ${p}At)")
    if time.as_known_at is not None:
        params[f"{p}Known"] = time.as_known_at
        conditions.append(f"coalesce({m}.recordedAt, {m}.timestamp) <= ${p}Known")
    return " AND ".join(conditions), params


def scope_condition(alias: str, time: TimeFilter | None,
                     now: datetime | None, *, turns: bool = False) -> tuple[str, Params]:
    n = _alias(alias)
    condition = f"{n}.tenant = $tenant AND {n}.scopeKey IN $scopeKeys"
    if time is None or now is None:
        return condition, {}
    extra, params = turn_time_filter(n, time) if turns else time_filter(n, time, now)
    return f"{condition} AND {extra}", params


def vector_search(index: str, tenant: str, scope_keys: list[str], embedding: list[float],
                  k: int, time: TimeFilter | None = None, now: datetime | None = None,
                  limit: int | None = None) -> Query:
    """The in-scope (and in-time) nodes among a vector index's ``k`` nearest, best first.

    Neo4j 5.26 cannot filter inside the index, so the caller widens ``k``
    while too few candidates are kept. One row: ``seen`` (how many the index
    gave) and ``hits``, at most ``limit`` ``{id, score}``; cosine scores come
    back from the index as ``(1 + cos) / 2`` and are converted to the cosine.
    """
    condition, params = scope_condition("n", time, now, turns=index == MESSAGE_VECTOR_INDEX)
    params.update({"index": index, "k": k, "vector": embedding, "tenant": tenant,
                   "scopeKeys": scope_keys, "limit": k if limit is None else limit})
    return (
        "CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node AS n, score\n"
        f"WITH count(*) AS seen, collect(CASE WHEN {condition}"
        " THEN {id: n.id, score: 2 * score - 1} END) AS kept\n"
        "RETURN seen, kept[..$limit] AS hits",
        params,
    )


#: A node's place in [0, 1), from its internal id: the fractional part of id times the golden
#: ratio, which spreads any arithmetic progression of ids evenly (a scope's nodes often come
#: every 50th or 100th id, so ``id % 2`` could put all of them on one side). Read from
#: ``elementId`` (``id()`` is deprecated); costs no store read.
_PART_KEY = "(toInteger(last(split(elementId(n), ':'))) * 0.6180339887498949) % 1.0"


def part_condition(part: bool) -> str:
    """The nodes of one part of a scope: ``True``, those whose :data:`_PART_KEY` is below
    ``$share``; ``False``, all the others (any id the key cannot read included), so the two
    parts always cover the scope exactly once."""
    below = f"{_PART_KEY} < $share"
    return below if part else f"NOT coalesce({below}, false)"


def vector_scan_scope(index: str, tenant: str, scope_keys: list[str], embedding: list[float],
                      cap: int, time: TimeFilter | None = None, now: datetime | None = None,
                      k: int = 50, count_cap: int = 50_000, *,
                      part: tuple[bool, float] | None = None) -> Query:
    """Exact cosine ranking of a scope holding fewer than ``cap`` nodes: its ``k`` best.

    Small scopes are ranked exactly: cheaper than an index search over every
    tenant, and no recall loss. The scope is counted through its range index,
    never by a scan of the label, and only the ``k`` best leave the server.
    Returns one row: ``size`` (the scope's node count, counted up to ``count_cap``),
    ``total`` (the label's count, from the count store), ``exact`` (false if the
    scope was too large, and then no ``hits``) and ``hits``, ``{id, score}``
    best first.

    ``part=(side, share)`` ranks only one part of the scope (:func:`part_condition`), so
    that two transactions can rank the two parts on two server threads; the best ``k``
    of the scope are the best ``k`` of the two parts' ``k`` best.
    """
    label = _VECTOR_LABELS.get(index)
    if label is None:
        raise ValueError(f"not a graphmem vector index: {index!r}")
    condition, params = scope_condition("n", time, now, turns=index == MESSAGE_VECTOR_INDEX)
    if part is not None:
        condition += " AND " + part_condition(part[0])
        params["share"] = part[1]
    # The scope's range index, never the validFrom one a time filter might tempt the planner to.
    scope_index = f"USING INDEX n:{label}(tenant, scopeKey)"
    params.update({"cap": cap, "vector": embedding, "tenant": tenant, "scopeKeys": scope_keys,
                   "k": k, "countCap": max(cap, count_cap)})
    return (
        "CALL () {\n"
        f"  MATCH (n:{label}) {scope_index} WHERE n.tenant = $tenant AND n.scopeKey IN $scopeKeys\n"
        "  WITH n LIMIT $countCap RETURN count(n) AS size\n"
        "}\n"
        f"CALL () {{ MATCH (n:{label}) RETURN count(n) AS total }}\n"
        "CALL (size) {\n"
        "  WITH size WHERE size < $cap\n"
        f"  MATCH (n:{label}) {scope_index} WHERE n.embedding IS NOT NULL AND {condition}\n"
        "  WITH n.id AS id, 2 * vector.similarity.cosine(n.embedding, $vector) - 1 AS score\n"
        "  ORDER BY score DESC LIMIT $k\n"
        "  RETURN collect({id: id, score: score}) AS hits\n"
        "}\n"
        "RETURN size, total, size < $cap AS exact, hits",
        params,
    )


def nearest_entities_scan(tenant: str, scope_keys: list[str], vectors: list[list[float]],
                          cap: int, k: int, count_cap: int = 50_000) -> Query:
    """:func:`vector_scan_scope` of the entities for many vectors at once, hits as whole
    entities: one row, ``size``, ``total``, ``exact`` and ``found`` (for each vector in
    order, its ``{n: properties, score}`` best first; empty lists when not ``exact``).
    """
    scope_index = "USING INDEX n:Entity(tenant, scopeKey)"
    return (
        "CALL () {\n"
        f"  MATCH (n:Entity) {scope_index} WHERE n.tenant = $tenant AND n.scopeKey IN $scopeKeys\n"
        "  WITH n LIMIT $countCap RETURN count(n) AS size\n"
        "}\n"
        "CALL () { MATCH (n:Entity) RETURN count(n) AS total }\n"
        "CALL (size) {\n"
        "  WITH size WHERE size < $cap\n"
        "  UNWIND range(0, size($vectors) - 1) AS i\n"
        "  CALL (i) {\n"
        f"    MATCH (n:Entity) {scope_index} WHERE n.embedding IS NOT NULL"
        " AND n.tenant = $tenant AND n.scopeKey IN $scopeKeys\n"
        "    WITH n, 2 * vector.similarity.cosine(n.embedding, $vectors[i]) - 1 AS score\n"
        "    ORDER BY score DESC LIMIT $k\n"
        "    RETURN collect({n: properties(n), score: score}) AS hits\n"
        "  }\n"
        "  WITH i, hits ORDER BY i\n"
        "  RETURN collect(hits) AS found\n"
        "}\n"
        "RETURN size, total, size < $cap AS exact, found",
        {"tenant": tenant, "scopeKeys": scope_keys, "vectors": vectors, "cap": cap, "k": k,
         "countCap": max(cap, count_cap)},
    )


def nearest_entities_index(tenant: str, scope_keys: list[str], vectors: list[list[float]],
                           k: int, limit: int) -> Query:
    """:func:`vector_search` of the entity index for many vectors at once: a row per vector
    in order, ``seen`` and ``hits`` (``{n: properties, score}``, at most ``limit``)."""
    return (
        "UNWIND range(0, size($vectors) - 1) AS i\n"
        "CALL (i) {\n"
        "  CALL db.index.vector.queryNodes($index, $k, $vectors[i]) YIELD node AS n, score\n"
        "  WITH count(*) AS seen, collect(CASE WHEN n.tenant = $tenant AND n.scopeKey IN"
        " $scopeKeys THEN {n: n, score: 2 * score - 1} END) AS kept\n"
        "  RETURN seen, [h IN kept[..$limit] | {n: properties(h.n), score: h.score}] AS hits\n"
        "}\n"
        "RETURN i, seen, hits ORDER BY i",
        {"index": ENTITY_VECTOR_INDEX, "tenant": tenant, "scopeKeys": scope_keys,
         "vectors": vectors, "k": k, "limit": limit},
    )


def fulltext_search(index: str, tenant: str, scope_keys: list[str], lucene: str, limit: int,
                    time: TimeFilter | None = None, now: datetime | None = None) -> Query:
    """Best Lucene (BM25) matches in scope (and time), best first."""
    condition, params = scope_condition("n", time, now)
    params.update({"index": index, "lucene": lucene, "tenant": tenant, "scopeKeys": scope_keys,
                   "limit": limit})
    return (
        # queryNodes yields best first: the first $limit rows in scope are the best ones,
        # and the rest of the index is never read.
        "CALL db.index.fulltext.queryNodes($index, $lucene) YIELD node AS n, score\n"
        f"WITH n, score WHERE {condition}\n"
        "WITH n, score LIMIT $limit\n"
        "RETURN n.id AS id, score ORDER BY score DESC",
        params,
    )


#: What a turn read returns (``records.turn_hit`` reads it).
TURN_PROJECTION = ("m.episodeId AS episodeId, m.index AS index, m.clientId AS clientId,"
                   " m.speaker AS speaker, m.content AS content,"
                   f" {epoch_micros('m.timestamp')} AS timestamp,"
                   f" {epoch_micros('m.recordedAt')} AS recordedAt")

#: Lucene field weights for turns: a turn's own words, its speaker, its neighbours' words.
TURN_FIELD_WEIGHTS = {"content": 1.0, "speaker": 1.0, "context": TURN_CONTEXT_WEIGHT}


def fulltext_turns(tenant: str, scope_keys: list[str], lucene: str, limit: int,
                   time: TimeFilter | None = None) -> Query:
    """Turns by their own words, their speaker, and (counting less) their neighbours' words;
    with ``time``, only those it sees (:func:`turn_time_filter`)."""
    lucene = lucene_weighted_fields(lucene, TURN_FIELD_WEIGHTS)
    condition, params = turn_time_filter("m", time) if time is not None else ("true", {})
    params.update({"index": MESSAGE_TEXT_INDEX, "lucene": lucene, "tenant": tenant,
                   "scopeKeys": scope_keys, "limit": limit})
    return (
        "CALL db.index.fulltext.queryNodes($index, $lucene) YIELD node AS m, score\n"
        f"WITH m, score WHERE m.tenant = $tenant AND m.scopeKey IN $scopeKeys AND {condition}\n"
        "WITH m, score LIMIT $limit\n"  # best first, as in fulltext_search
        f"RETURN {TURN_PROJECTION}, score\n"
        "ORDER BY score DESC",
        params,
    )


def get_turns(tenant: str, message_ids: list[str]) -> Query:
    """Turns by their Message id (``episodeId:index``), in the order asked."""
    return (
        each_by_id("Message", "m")
        + f"RETURN m.id AS id, {TURN_PROJECTION}",
        {"tenant": tenant, "ids": message_ids},
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


#: Those of them that hold a DateTime: projected as :func:`epoch_micros`.
FACT_TIMES = frozenset({"validFrom", "validUntil", "statedUntil", "recordedAt", "expiredAt",
                        "retractedAt", "lastAccessed"})


def fact_projection(alias: str) -> str:
    """A map projection of fact ``alias`` without its vector, times as :func:`epoch_micros`.

    >>> fact_projection("f")[:30]
    'f {.id, .seq, .tenant, .scopeK'
    """
    f = _alias(alias)
    return f"{f} {{" + ", ".join(f"{p}: {epoch_micros(f'{f}.{p}')}" if p in FACT_TIMES
                                 else "." + p for p in FACT_PROPERTIES) + "}"


def get_facts(tenant: str, ids: list[str], embeddings: bool = True) -> Query:
    projection = "properties(f)" if embeddings else fact_projection("f")
    return (
        each_by_id("Fact", "f")
        + f"RETURN {projection} AS f",
        {"tenant": tenant, "ids": ids},
    )


def facts_in_timelines(tenant: str, timeline_keys: list[str]) -> Query:
    return (
        "UNWIND $keys AS key\n"
        "MATCH (f:Fact {timelineKey: key}) WHERE f.tenant = $tenant\n"
        "RETURN properties(f) AS f ORDER BY f.seq",
        {"tenant": tenant, "keys": timeline_keys},
    )


def facts_of_episode(tenant: str, episode_id: str) -> Query:
    """Facts the episode asserted or retracted."""
    return (
        "MATCH (:Episode {id: $episodeId})-[:ASSERTS|RETRACTS]->(f:Fact) WHERE f.tenant = $tenant\n"
        "WITH DISTINCT f\n"
        "RETURN properties(f) AS f ORDER BY f.seq",
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
        "RETURN properties(f) AS f",
        params,
    )


def facts_about(tenant: str, scope_keys: list[str], entity_ids: list[str], time: TimeFilter,
                now: datetime, limit: int) -> Query:
    """One hop: facts whose SUBJECT or OBJECT is one of the entities, most important first."""
    condition, params = time_filter("f", time, now)
    params.update({"tenant": tenant, "scopeKeys": scope_keys, "ids": entity_ids,
                   "limit": limit})
    return (
        "MATCH (n:Entity)<-[:SUBJECT|OBJECT]-(f:Fact) WHERE n.id IN $ids\n"
        # Order first, on three properties, then filter only until $limit pass: a busy
        # entity (the user's own) has thousands of facts, and the filter reads six.
        "WITH DISTINCT f ORDER BY f.importance DESC, f.validFrom DESC, f.seq ASC\n"
        f"WITH f WHERE f.tenant = $tenant AND f.scopeKey IN $scopeKeys AND {condition}\n"
        "WITH f LIMIT $limit\n"
        # projected last: properties(f) carries the embedding
        "RETURN properties(f) AS f ORDER BY f.importance DESC, f.validFrom DESC, f.seq ASC",
        params,
    )


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
