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

import math
import re
from datetime import datetime

from graphmem.models import TURN_CONTEXT_WEIGHT
from graphmem.store.neo4j import sketch, vector_scopes
from graphmem.store.neo4j.reads import (
    ENTITY_TEXT_INDEX,
    ENTITY_VECTOR_INDEX,
    FACT_TEXT_INDEX,
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
from graphmem.store.text import (BM25_B, BM25_K1, COMMON_MIN_DOCUMENTS, COMMON_SHARE,
                                 TERM_DOCS_CAP, query_terms, scope_token)
from graphmem.temporal import TimeFilter

_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')


# -- Lucene ----------------------------------------------------------------------
def escape_lucene(text: str) -> str:
    """Backslash-escape every character Lucene's query parser treats as syntax."""
    return _LUCENE_SPECIAL.sub(r"\\\1", text)


# -- scope and time ----------------------------------------------------------------
#: A scope's nodes are counted up to this many (a range-index read; beyond it, a scope is
#: large and the exact count changes nothing).
SCOPE_COUNT_CAP = 50_000
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


def recallable_turn(alias: str) -> str:
    """Message ``alias`` is not of an episode its user cleared (``Episode.forgotten``)."""
    return f"NOT coalesce({checked_alias(alias)}.forgotten, false)"


def scope_condition(alias: str, time: TimeFilter | None,
                    now: datetime | None, *, turns: bool = False,
                    keys: str = "$scopeKeys") -> tuple[str, Params]:
    """Node ``alias`` is in the tenant's scopes ``keys`` (a parameter or a variable) and, with
    a ``time``, in its time."""
    n = checked_alias(alias)
    parameter = keys.startswith("$")
    name = checked_alias(keys[1:] if parameter else keys)
    condition = f"{n}.tenant = $tenant AND {n}.scopeKey IN {'$' * parameter}{name}"
    if turns:
        condition += f" AND {recallable_turn(n)}"
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


def scope_count(label: str, name: str, cap: int) -> Query:
    """A subquery counting the scope's ``label`` nodes through its range index (never a scan
    of the label), up to ``cap`` (its parameter ``countCap``), as ``name``."""
    return ("CALL () {\n"
            f"  MATCH (n:{label}) USING INDEX n:{label}(tenant, scopeKey)"
            " WHERE n.tenant = $tenant AND n.scopeKey IN $scopeKeys\n"
            f"  WITH n LIMIT $countCap RETURN count(n) AS {name}\n"
            "}\n", {"countCap": cap})


def vector_scan_scope(index: str, tenant: str, scope_keys: list[str], embedding: list[float],
                      cap: int, time: TimeFilter | None = None, now: datetime | None = None,
                      k: int = 50, count_cap: int = SCOPE_COUNT_CAP, *,
                      part: tuple[bool, float] | None = None,
                      counted: str | None = None, shortlist: int | None = None) -> Query:
    """Cosine ranking within a scope holding fewer than ``cap`` nodes: its ``k`` best.

    Such scopes are ranked within themselves: cheaper than an index search over every
    tenant, and no tenant's nodes crowd out another's. The scope is counted through its
    range index, never by a scan of the label, and only the ``k`` best leave the server.
    Returns one row: ``size`` (the scope's node count, counted up to ``count_cap``),
    ``total`` (how many nodes the label's vector index holds, from the count store),
    ``exact`` (false if the scope was too large and the index holds part of it) and
    ``hits``, ``{id, score}`` best first,
    scored by the whole vectors: of the whole scope when ``exact``, else of the scopes the
    vector index does not hold (:mod:`graphmem.store.neo4j.vector_scopes`), which the caller
    merges with the index's.

    A scope of more than twice ``shortlist`` nodes (default :func:`sketch.shortlist` of
    ``k``; 0: never) is ranked in two steps: by the nodes' sketches, then the best
    ``shortlist`` of them by their whole vectors (see :mod:`graphmem.store.neo4j.sketch`;
    a node without a sketch is ranked by its whole vector in both). Smaller scopes, and
    queries whose vector has no sketch, are ranked by the whole vectors alone.

    ``part=(side, share)`` ranks only one part of the scope (:func:`part_condition`), so
    that two transactions can rank the two parts on two server threads; the best ``k``
    of the scope are the best ``k`` of the two parts' ``k`` best. A part that is the whole
    scope (share 1) is ranked without a condition; an empty one reads nothing.

    ``counted`` names a variable the caller has already counted the scope into (up to
    ``max(cap, count_cap)``), so that a query ranking the scope twice counts it once.
    """
    label = _VECTOR_LABELS.get(index)
    if label is None:
        raise ValueError(f"not a graphmem vector index: {index!r}")
    # ranked here: the whole scope when it is small, else the scopes the index does not hold
    condition, params = scope_condition("n", time, now, turns=index == MESSAGE_VECTOR_INDEX,
                                        keys="ranked")
    fraction = 1.0 if part is None else part[1] if part[0] else 1.0 - part[1]
    if 0.0 < fraction < 1.0 and part is not None:
        condition += " AND " + part_condition(part[0])
        params["share"] = part[1]
    # The scope's range index, never the validFrom one a time filter might tempt the planner to.
    scope_index = f"USING INDEX n:{label}(tenant, scopeKey)"
    short = sketch.shortlist(k) if shortlist is None else shortlist
    query_sketch = sketch.sketch(embedding) if short else None
    params.update({"cap": cap, "vector": embedding, "tenant": tenant, "scopeKeys": scope_keys,
                   "k": k, "sketch": query_sketch,
                   # past this scope size the sketches rank first; never without a sketch
                   "sketchFrom": 2 * short if query_sketch is not None else cap,
                   # a part's nodes are a fair draw of the scope's (part_condition), so it
                   # keeps its share of the shortlist (1e-9: 400 * (1 - 0.85) is 60.00...01)
                   "shortlist": max(1, math.ceil(short * fraction - 1e-9))})
    counting, count_params = ((f"WITH {counted} AS size\n", {}) if counted
                              else scope_count(label, "size", max(cap, count_cap)))
    params.update(count_params)
    counting += vector_scopes.ranked_keys(label)
    if fraction <= 0.0:
        return counting + "RETURN size, total, exact, [] AS hits", params
    whole = "vector.similarity.cosine(n.embedding, $vector)"
    return (
        counting
        + "CALL (size, ranked) {\n"
        "  WITH size, ranked WHERE size(ranked) > 0\n"
        "  CALL (size, ranked) {\n"
        "    WITH size, ranked WHERE size <= $sketchFrom\n"
        f"    MATCH (n:{label}) {scope_index} WHERE n.embedding IS NOT NULL AND {condition}\n"
        f"    RETURN n.id AS id, 2 * {whole} - 1 AS score\n"
        "    UNION ALL\n"
        "    WITH size, ranked WHERE size > $sketchFrom\n"
        f"    MATCH (n:{label}) {scope_index} WHERE {condition}\n"
        # CASE, not coalesce: coalesce would read the whole vector of every node
        f"    WITH n, CASE WHEN n.{sketch.SKETCH_PROPERTY} IS NULL THEN {whole}"
        f" ELSE vector.similarity.cosine(n.{sketch.SKETCH_PROPERTY}, $sketch) END AS rough\n"
        "    WHERE rough IS NOT NULL\n"
        "    WITH n, rough ORDER BY rough DESC LIMIT $shortlist\n"
        f"    RETURN n.id AS id, 2 * {whole} - 1 AS score\n"
        "  }\n"
        "  WITH id, score ORDER BY score DESC LIMIT $k\n"
        "  RETURN collect({id: id, score: score}) AS hits\n"
        "}\n"
        "RETURN size, total, exact, hits",
        params,
    )


# -- full text, ranked with the scope's own statistics ------------------------------
#: A turn's fields by weight: its own words and speaker count fully, its neighbours' less.
TURN_FIELD_WEIGHTS = {"content": 1.0, "speaker": 1.0, "context": TURN_CONTEXT_WEIGHT}
#: The fields each full-text index's queries search, by weight: named, so that a query word
#: is only ever looked for in text (the indexes also hold each node's scope token).
TEXT_FIELD_WEIGHTS: dict[str, dict[str, float]] = {
    FACT_TEXT_INDEX: {"text": 1.0},
    ENTITY_TEXT_INDEX: {"name": 1.0, "aliasText": 1.0, "summary": 1.0},
    MESSAGE_TEXT_INDEX: TURN_FIELD_WEIGHTS,
}
#: Each full-text index's label, and how long its node ``{n}`` is (all its indexed text, as
#: the embedded store's FTS5 entries), for BM25's length normalisation.
_LENGTHS = {
    FACT_TEXT_INDEX: ("Fact", "size({n}.text)"),
    ENTITY_TEXT_INDEX: ("Entity", "size(coalesce({n}.name, '') + ' ' + coalesce({n}.aliasText, '')"
                                  " + ' ' + coalesce({n}.summary, ''))"),
    MESSAGE_TEXT_INDEX: ("Message",
                         "size(coalesce({n}.content, '')) + size(coalesce({n}.context, ''))"),
}


def lucene_terms(text: str, fields: dict[str, float] | None = None) -> list[list[Params]]:
    """Each query term (:func:`graphmem.store.text.query_terms`) as the Lucene queries that
    find it, one per field weight: ``[{lucene, weight}]``; empty if nothing to search.

    >>> lucene_terms("Where does Maya work?", {"content": 1.0, "context": 0.5})[0][1]
    {'lucene': 'context:(maya)', 'weight': 0.5}
    """
    by_weight: dict[float, list[str]] = {}
    for field, weight in (fields or {}).items():
        by_weight.setdefault(weight, []).append(field)
    terms = [escape_lucene(t) for t in query_terms(text)]
    if not by_weight:
        return [[{"lucene": t, "weight": 1.0}] for t in terms]
    return [[{"lucene": " OR ".join(f"{f}:({t})" for f in names), "weight": weight}
             for weight, names in by_weight.items()] for t in terms]


#: The order nodes were written in (the number of their element id): what breaks a tie in
#: ranking, as the embedded store's row numbers do; random ids would reorder ties each run.
_WRITTEN = "toInteger(last(split(elementId(n), ':')))"


def scoped_lucene(lucene: str, tenant: str, scope_keys: list[str]) -> str:
    """``lucene`` within the given scopes: their tokens required (``scopeTag``, indexed with
    every searchable node; :func:`graphmem.store.text.scope_token`), so that Lucene itself
    keeps to the scopes and never yields, nor ranks, another tenant's or user's nodes.

    >>> scoped_lucene("text:(tea)", "t", ["user:u1"])
    '+scopeTag:(s5c26d0151334f1414c74) +(text:(tea))'
    """
    tokens = " OR ".join(scope_token(tenant, key) for key in scope_keys)
    return f"+scopeTag:({tokens}) +({lucene})"


def _scope_bm25(index: str, terms: list[list[Params]], tenant: str, scope_keys: list[str],
                condition: str, params: Params, counted: str | None = None) -> Query:
    """The scope's nodes matching ``terms`` as rows ``n, score``, best first, where
    ``condition`` holds: :func:`graphmem.store.text.scope_bm25` in Cypher.

    Lucene only finds each term's nodes in the scope (:func:`scoped_lucene`; up to
    :func:`graphmem.store.text.term_docs_limit` of them, its best first); the scope's node
    count, the terms' frequencies and the mean length are the scope's own, so no other
    tenant's or user's data moves the ranking. ``counted``: a variable the caller has counted the scope into
    (up to at least ``SCOPE_COUNT_CAP``), instead of counting it here.
    """
    if index not in _LENGTHS:
        raise ValueError(f"not a graphmem full-text index: {index!r}")
    label, length = _LENGTHS[index]
    terms = [[{**field, "lucene": scoped_lucene(str(field["lucene"]), tenant, scope_keys)}
              for field in term] for term in terms]
    params.update({"index": index, "terms": terms, "tenant": tenant, "scopeKeys": scope_keys,
                   "cap": TERM_DOCS_CAP, "countCap": SCOPE_COUNT_CAP, "k1": BM25_K1, "b": BM25_B,
                   "commonShare": COMMON_SHARE, "commonMin": COMMON_MIN_DOCUMENTS})
    counting = (f"WITH CASE WHEN {counted} > $countCap THEN $countCap ELSE {counted} END"
                " AS documents\n" if counted
                else scope_count(label, "documents", SCOPE_COUNT_CAP)[0])
    return (
        counting
        # store.text.term_docs_limit: enough to tell a term too common to count
        + "WITH documents, CASE WHEN documents >= $commonMin"
        " AND toInteger(floor($commonShare * documents)) + 1 < $cap"
        " THEN toInteger(floor($commonShare * documents)) + 1 ELSE $cap END AS termLimit\n"
        "UNWIND $terms AS term\n"
        "CALL (term, termLimit) {\n"
        "  UNWIND term AS field\n"
        "  CALL (field, termLimit) {\n"
        "    CALL db.index.fulltext.queryNodes($index, field.lucene, {limit: termLimit})"
        " YIELD node AS n\n"
        "    WITH n WHERE n.tenant = $tenant AND n.scopeKey IN $scopeKeys\n"
        "    RETURN n\n"
        "  }\n"
        "  WITH n, sum(field.weight) AS tf\n"
        "  RETURN collect({n: n, tf: tf}) AS docs\n"
        "}\n"
        "WITH docs, size(docs) AS found,"
        " CASE WHEN documents > size(docs) THEN documents ELSE size(docs) END AS total\n"
        "WHERE found > 0 AND NOT (total >= $commonMin AND found > $commonShare * total)\n"
        "WITH docs, log(1.0 + (total - found + 0.5) / (found + 0.5)) AS idf\n"
        "UNWIND docs AS d\n"
        f"WITH collect({{n: d.n, tf: d.tf, idf: idf, len: {length.format(n='d.n')}}})"
        " AS postings\n"
        "CALL (postings) {\n"
        "  UNWIND postings AS p WITH DISTINCT p.n AS n, p.len AS len\n"
        "  RETURN coalesce(avg(toFloat(len)), 1.0) AS mean\n"
        "}\n"
        "UNWIND postings AS p\n"
        "WITH p, CASE WHEN mean > 0 THEN mean ELSE 1.0 END AS mean\n"
        "WITH p.n AS n, sum(p.idf * p.tf * ($k1 + 1)"
        " / (p.tf + $k1 * (1 - $b + $b * p.len / mean))) AS score\n"
        f"WITH n, score WHERE {condition}\n"
        f"ORDER BY score DESC, {_WRITTEN}\n",
        params,
    )


def fulltext_search(index: str, tenant: str, scope_keys: list[str], terms: list[list[Params]],
                    limit: int, time: TimeFilter | None = None,
                    now: datetime | None = None, counted: str | None = None) -> Query:
    """The scope's best full-text matches (in time), best first: rows ``id, score``
    (``counted``: see :func:`_scope_bm25`)."""
    condition, params = scope_condition("n", time, now)
    params["limit"] = limit
    text, params = _scope_bm25(index, terms, tenant, scope_keys, condition, params, counted)
    return text + "RETURN n.id AS id, score LIMIT $limit", params


#: What a turn read returns (``records.turn_hit`` reads it).
TURN_PROJECTION = ("m.episodeId AS episodeId, m.index AS index, m.clientId AS clientId,"
                   " m.role AS role, m.speaker AS speaker, m.content AS content,"
                   f" {epoch_micros('m.timestamp')} AS timestamp,"
                   f" {epoch_micros('m.recordedAt')} AS recordedAt")


def fulltext_turns(tenant: str, scope_keys: list[str], terms: list[list[Params]], limit: int,
                   time: TimeFilter | None = None) -> Query:
    """Turns by their own words, their speaker, and (counting less) their neighbours' words
    (``terms`` from :func:`lucene_terms` with :data:`TURN_FIELD_WEIGHTS`); with ``time``,
    only those it sees (:func:`turn_time_filter`)."""
    condition, params = turn_time_filter("n", time) if time is not None else ("true", {})
    condition = f"{recallable_turn('n')} AND {condition}"
    params["limit"] = limit
    text, params = _scope_bm25(MESSAGE_TEXT_INDEX, terms, tenant, scope_keys, condition, params)
    return text + f"WITH n AS m, score LIMIT $limit\nRETURN {TURN_PROJECTION}, score", params


def get_turns(tenant: str, message_ids: list[str]) -> Query:
    """Turns by their Message id (``episodeId:index``), in the order asked."""
    return (
        each_by_id("Message", "m")
        + f"RETURN m.id AS id, {TURN_PROJECTION}",
        {"tenant": tenant, "ids": message_ids},
    )
