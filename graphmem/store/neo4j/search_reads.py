"""Cypher for the search channels one at a time, as ``(query, params)`` functions.

Full text (BM25 through Lucene), vector nearest neighbours (an exact scan of a small
scope, or the vector index, widened by the caller), and the turns they find. The
store's one-channel methods run them as they are; :mod:`graphmem.store.neo4j.search`
composes the same texts into one query per search. Kept apart from
:mod:`graphmem.store.neo4j.reads` (plain reads by id and scope) because they share a
vocabulary of their own: Lucene escaping, scope and turn-time conditions, the parts
of a scope two transactions rank.

The same rules as every Cypher module here: values travel as parameters; a variable
name written into the text is checked (:func:`~graphmem.store.neo4j.reads.checked_alias`).
"""

from __future__ import annotations

import re
from datetime import datetime

from graphmem.models import TURN_CONTEXT_WEIGHT
from graphmem.store.neo4j.reads import (
    ENTITY_VECTOR_INDEX,
    FACT_VECTOR_INDEX,
    MESSAGE_TEXT_INDEX,
    MESSAGE_VECTOR_INDEX,
    Params,
    Query,
    checked_alias,
    each_by_id,
    epoch_micros,
    time_filter,
)
from graphmem.store.text import STOPWORDS
from graphmem.temporal import TimeFilter

_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
_WORDISH = re.compile(r"\w", re.UNICODE)
_EDGE_NONWORD = re.compile(r"^\W+|\W+$", re.UNICODE)


# -- Lucene ----------------------------------------------------------------------
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
    '\\\\"alice\\\\" OR work\\\\? OR \\\\-acme'
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


# -- scope and time ----------------------------------------------------------------
_VECTOR_LABELS = {FACT_VECTOR_INDEX: "Fact", ENTITY_VECTOR_INDEX: "Entity",
                  MESSAGE_VECTOR_INDEX: "Message"}


def turn_time_filter(alias: str, time: TimeFilter, prefix: str = "tt") -> Query:
    """A WHERE condition on Message ``alias`` equal to :meth:`TimeFilter.sees_statement`.

    Messages written by graphmem before 0.2 carry no ``recordedAt``; their timestamp stands in.
    """
    m, p = checked_alias(alias), checked_alias(prefix)
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
    n = checked_alias(alias)
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
