"""One search's channels in one query: :func:`channels` returns ``(query, params)``, and
:func:`channel_hits` reads its row back.

Each channel is one ``CALL () { ... }`` subquery that returns exactly one row
(a list, maybe empty), so the subqueries compose without multiplying rows and
a channel that finds nothing never empties the others. The channel texts are
the one-channel reads of :mod:`graphmem.store.neo4j.search_reads` (and the exact
name lookup of :mod:`graphmem.store.neo4j.resolution`), their parameters
renamed apart (:func:`own_params`); values only ever travel as parameters.

The vector channels keep the one-channel rule (:mod:`graphmem.store.neo4j.nearest`): a scope
smaller than ``exact_scan_limit`` is ranked exactly; a larger one asks the vector
index for candidates in proportion to its share of the index and widens, while
too few are in scope, up to ``max_candidates`` — unrolled here into conditional
passes, as the index cannot be looped over within a query. The index holds large scopes'
nodes only (:mod:`graphmem.store.neo4j.vector_scopes`), so the scopes it does not hold are
ranked exactly beside it, and the best of both kept.

The exact ranking reads every vector of the scope, most of a search's work on a large
store (2,000 facts a scope at 100k facts), and a query runs on one server thread. So it
can be shared: with ``side_share``, :func:`channels` ranks one part of each scope and
:func:`side_channels`, sent at the same time in another transaction, the other part
(:func:`graphmem.store.neo4j.search_reads.part_condition`); :func:`join_side` keeps the
best of both.

The plan, profiled, is in docs/neo4j-search-plan.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import datetime

from typing import Any, TypeVar

from neo4j import Record

from graphmem.store.base import ChannelHits, ChannelPlan, Scored
from graphmem.store.neo4j import reads, records, scope_clocks, search_reads
from graphmem.store.neo4j.reads import Params, Query
from graphmem.store.neo4j.resolution import lucene_exact

#: What a turn hit carries (``records.turn_hit`` reads it), as map projection items.
TURN_FIELDS = (".episodeId, .index, .clientId, .role, .speaker, .content,"
               f" timestamp: {reads.epoch_micros('m.timestamp')},"
               f" recordedAt: {reads.epoch_micros('m.recordedAt')}")
#: Parameters every channel shares: same name, same value.
_SHARED = frozenset({"tenant", "scopeKeys", "vector", "sketch"})
#: In a query this size the planner may scan the id index once per row for an id taken
#: from a variable (it did at 1k facts: 20 scans of 1,047 entities); the hint keeps a seek.
_SEEK_ENTITY = "USING INDEX n:Entity(id)"


@dataclass(frozen=True)
class Candidates:
    """A search's vector candidates ranked in this process (``{id, score}`` best first), how
    many vectors each ranking read, and the scopes' clocks its copy was at (``{key, since}``
    per label): the changes since are read and ranked by the search's query
    (:mod:`graphmem.store.neo4j.cached_ranking`)."""

    facts: list[dict[str, Any]]
    turns: list[dict[str, Any]]
    fact_vectors: int
    turn_vectors: int
    fact_since: list[dict[str, Any]]
    turn_since: list[dict[str, Any]]
    most_changes: int
    count_cap: int

    def enough(self, row: dict[str, Any], plan: ChannelPlan) -> bool:
        """Whether the checked candidates (``row`` of :func:`channels`) answer as a ranking of
        the whole scope would: each channel kept its limit, or was sent every vector."""
        return ((len(row["vector"]) >= plan.limit or len(self.facts) >= self.fact_vectors)
                and (not plan.turn_limit or len(row["turnsVector"]) >= plan.turn_limit
                     or len(self.turns) >= self.turn_vectors))


@dataclass(frozen=True)
class VectorRule:
    """When a vector channel ranks its scope exactly, and how it widens an index search
    (the constants of :mod:`graphmem.store.neo4j.nearest`)."""

    exact_scan_limit: int
    share_margin: float
    min_candidates: int
    max_candidates: int
    oversample: int
    #: Nodes the sketches keep for the exact ranking of a large scope (None: by the hits
    #: asked for, :func:`graphmem.store.neo4j.sketch.shortlist`; 0: no sketches).
    shortlist: int | None = None

    def passes(self) -> int:
        """Index searches at most: the first, then each widening up to ``max_candidates``.

        >>> VectorRule(5000, 1.5, 50, 4096, 4).passes()
        5
        """
        passes, k = 1, self.min_candidates
        while k < self.max_candidates:
            k, passes = min(k * self.oversample, self.max_candidates), passes + 1
        return passes


def own_params(query: Query, prefix: str) -> Query:
    """``query`` with its parameters renamed ``prefix + Name``, except the shared ones
    (tenant, scope, query vector, and the time filters' ``tf``/``tt`` parameters).

    >>> own_params(("RETURN $limit, $tenant", {"limit": 3, "tenant": "a"}), "bm")
    ('RETURN $bmLimit, $tenant', {'bmLimit': 3, 'tenant': 'a'})
    """
    text, params = query
    names = {k: k if k in _SHARED or re.match(r"t[ft][A-Z]", k) else prefix + k[0].upper() + k[1:]
             for k in params}
    text = reads.PARAMETER.sub(lambda m: "$" + names.get(m.group(1), m.group(1)), text)
    return text, {names[k]: v for k, v in params.items()}


def _merge(into: Params, params: Params) -> None:
    for key, value in params.items():
        if key in into and into[key] != value:
            raise ValueError(f"parameter {key!r} given two values")
        into[key] = value


def _indent(text: str) -> str:
    return "".join("  " + line + "\n" for line in text.splitlines())


def _collected(query: Query, prefix: str, item: str, name: str, params: Params,
               counted: str = "") -> str:
    """A subquery returning ``query``'s rows as one list ``name`` of ``item`` (``counted``:
    the outer variable holding the scope's count, if ``query`` reads it)."""
    text, own = own_params(query, prefix)
    _merge(params, own)
    return (f"CALL ({counted}) {{\n  CALL ({counted}) {{\n{_indent(_indent(text))}  }}\n"
            f"  RETURN collect({item}) AS {name}\n}}\n")


#: The variable the main query counts the fact scope into, once, for the BM25 channel's
#: document count and the vector channel's choice of an exact ranking; when the copy ranks
#: the vectors, the sum of its changes' counts of each scope (:func:`_copy_changes`).
_FACT_COUNT = "factCount"


def _fact_count(rule: VectorRule, params: Params) -> str:
    """The subquery counting the fact scope into :data:`_FACT_COUNT`, up to what both of its
    readers need."""
    text, own = own_params(search_reads.scope_count(
        "Fact", _FACT_COUNT, max(rule.exact_scan_limit, search_reads.SCOPE_COUNT_CAP)), "fc")
    _merge(params, own)
    return text


def _scan(index: str, prefix: str, tenant: str, plan: ChannelPlan, limit: int, now: datetime,
          rule: VectorRule, part: tuple[bool, float] | None, params: Params,
          counted: str = "") -> str:
    """The exact ranking of the scope (or of one part of it), renamed apart: a subquery's text
    returning ``size``, ``total``, ``exact`` and ``hits``."""
    scan, own = own_params(search_reads.vector_scan_scope(
        index, tenant, plan.scope_keys, plan.embedding, rule.exact_scan_limit, plan.time, now,
        k=limit, part=part, counted=counted or None, shortlist=rule.shortlist), prefix)
    _merge(params, own)
    return scan


def _nearest(index: str, prefix: str, name: str, tenant: str, plan: ChannelPlan, limit: int,
             now: datetime, rule: VectorRule, params: Params,
             part: tuple[bool, float] | None = None, counted: str = "") -> str:
    """The vector channel ``name``: ``{id, score}`` best first, and ``{name}Exact`` (see the
    module docstring); with ``part``, an exact ranking covers that part of the scope only;
    ``counted``: the outer variable holding the scope's count."""
    turns = index == reads.MESSAGE_VECTOR_INDEX
    time = plan.time
    scan = _scan(index, prefix, tenant, plan, limit, now, rule, part, params, counted)
    condition, time_params = search_reads.scope_condition("n", time, now, turns=turns)
    p = prefix
    _merge(params, {f"{p}Index": index, f"{p}Limit": limit, f"{p}Margin": rule.share_margin,
                    f"{p}Min": rule.min_candidates, f"{p}Max": rule.max_candidates,
                    f"{p}Grow": rule.oversample})
    _merge(params, time_params)
    text = (f"CALL ({counted}) {{\n  CALL ({counted}) {{\n{_indent(_indent(scan))}  }}\n"
            f"  WITH exact, hits, toInteger(${p}Limit * ${p}Margin / (toFloat(CASE WHEN size > 1"
            " THEN size ELSE 1 END) / CASE WHEN total > 1 THEN total ELSE 1 END)) AS wanted\n"
            f"  WITH exact, hits, NOT exact AS go, [] AS kept, 0 AS seen,\n"
            f"       CASE WHEN wanted < ${p}Min THEN ${p}Min WHEN wanted > ${p}Max THEN ${p}Max"
            " ELSE wanted END AS k\n")
    for i in range(rule.passes()):
        if i:  # widen while too few were in scope and the index had more
            text += (f"  WITH exact, hits, kept, seen, k, go AND size(kept) < ${p}Limit"
                     f" AND seen >= k AND k < ${p}Max AS go\n"
                     f"  WITH exact, hits, kept, seen, go, CASE WHEN NOT go THEN k"
                     f" WHEN k * ${p}Grow < ${p}Max THEN k * ${p}Grow ELSE ${p}Max END AS k\n")
        text += (
            "  CALL (go, k) {\n"
            "    UNWIND CASE WHEN go THEN [k] ELSE [] END AS asked\n"
            f"    CALL db.index.vector.queryNodes(${p}Index, asked, $vector)"
            " YIELD node AS n, score\n"
            f"    WITH count(*) AS found, collect(CASE WHEN {condition}"
            " THEN {id: n.id, score: 2 * score - 1} END) AS inScope\n"
            f"    RETURN found, inScope[..${p}Limit] AS passKept\n"
            "  }\n"
            "  WITH exact, hits, go, k, CASE WHEN go THEN found ELSE seen END AS seen,"
            " CASE WHEN go THEN passKept ELSE kept END AS kept\n")
    # not exact: the index held the large scopes, the scan ranked the others (vector_scopes)
    return text + (
        "  CALL (exact, hits, kept) {\n"
        "    UNWIND CASE WHEN exact THEN [] ELSE kept + hits END AS h\n"
        f"    WITH h.id AS id, max(h.score) AS score ORDER BY score DESC LIMIT ${p}Limit\n"
        "    RETURN collect({id: id, score: score}) AS merged\n"
        "  }\n"
        f"  RETURN CASE WHEN exact THEN hits ELSE merged END AS {name},"
        f" exact AS {name}Exact\n}}\n")


def _copy_changes(label: str, prefix: str, since: list[dict[str, Any]], copy: Candidates,
                  params: Params) -> str:
    """The changes of the scopes since the copy's clocks (``since``), as list
    ``{prefix}Changes`` (``scope_clocks.changes``): each scope's new nodes and its count."""
    changes, own = own_params(scope_clocks.changes(
        label, since, copy.most_changes, copy.count_cap, f"{prefix}Changes"), prefix)
    _merge(params, own)
    return changes


def _from_copy(label: str, prefix: str, name: str, plan: ChannelPlan, limit: int,
               now: datetime, candidates: list[dict[str, Any]], params: Params) -> str:
    """The vector channel ``name`` from ``candidates`` ranked in this process
    (:mod:`graphmem.store.neo4j.cached_ranking`), best first, and ``{name}Exact`` true: the
    candidates that have not changed since the copy's clocks and still pass the scope and
    time condition, with the changed nodes that pass, ranked here by their vectors. The
    changes are read before, by :func:`_copy_changes` with the same ``prefix``."""
    condition, time_params = search_reads.scope_condition(
        "n", plan.time, now, turns=label == "Message")
    _merge(params, time_params)
    _merge(params, {f"{prefix}Candidates": candidates, f"{prefix}Limit": limit})
    seek = f"MATCH (n:{label} {{id: id}}) USING INDEX n:{label}(id) WHERE {condition}"
    return (f"CALL ({prefix}Changes) {{\n"
            f"  WITH reduce(ids = [], c IN {prefix}Changes | ids + [r IN c.rows | r.id])"
            " AS changed\n"
            "  CALL (changed) {\n"
            f"    UNWIND ${prefix}Candidates AS h\n"
            "    WITH h.id AS id, h.score AS score WHERE NOT id IN changed\n"
            f"    {seek}\n"
            "    RETURN id, score\n"
            "    UNION ALL\n"
            "    UNWIND changed AS id\n"
            f"    {seek} AND n.embedding IS NOT NULL\n"
            "    RETURN id, 2 * vector.similarity.cosine(n.embedding, $vector) - 1 AS score\n"
            "  }\n"
            f"  WITH id, score ORDER BY score DESC LIMIT ${prefix}Limit\n"
            "  WITH collect({id: id, score: score}) AS hits\n"
            f"  RETURN hits AS {name}, true AS {name}Exact\n}}\n")


def _facts_of(hits: str, name: str) -> str:
    """The facts (without vectors) of the ``{id, score}`` lists ``hits``, as list ``name``."""
    return (f"CALL ({hits.replace(' + ', ', ')}) {{\n"
            f"  UNWIND {hits} AS h\n"
            "  WITH DISTINCT h.id AS id\n"
            "  MATCH (f:Fact {id: id}) USING INDEX f:Fact(id) WHERE f.tenant = $tenant\n"
            f"  RETURN collect({reads.fact_projection('f')}) AS {name}\n"
            "}\n")


def _turns_of(hits: str, name: str) -> str:
    """The turns of the ``{id, score}`` list ``hits``, with their scores, as list ``name``."""
    return (f"CALL ({hits}) {{\n"
            f"  UNWIND {hits} AS h\n"
            "  MATCH (m:Message {id: h.id}) USING INDEX m:Message(id) WHERE m.tenant = $tenant\n"
            f"  RETURN collect(m {{{TURN_FIELDS}, score: h.score}}) AS {name}\n"
            "}\n")


def _walk(plan: ChannelPlan, now: datetime, params: Params) -> tuple[str, list[str]]:
    """The walk's hops from ``seeds`` (``walk0``, ``walk1``...): ``{f, similarity}`` rows as
    ``facts_about`` orders them, each hop from the entities not reached before."""
    condition, time_params = reads.time_filter("f", plan.time, now)
    _merge(params, time_params)
    _merge(params, {"perHop": plan.walk_per_hop})
    text, names = "WITH *, seeds AS frontier0, seeds AS visited0\n", []
    for i in range(plan.walk_depth):
        if i:
            # each end once, as traverse.walk does: the asking user is the subject of most
            # of hop 1's facts, and every repeat expanded all of their facts again
            text += (f"WITH *, reduce(next = [], x IN reduce(ends = [], h IN walk{i - 1} |"
                     f" ends + [h.f.subjectId, h.f.objectId]) | CASE WHEN x IN next"
                     f" OR x IN visited{i - 1} THEN next ELSE next + x END) AS frontier{i}\n"
                     f"WITH *, visited{i - 1} + frontier{i} AS visited{i}\n")
        text += (
            f"CALL (frontier{i}) {{\n"
            + _indent(reads.hop(
                f"frontier{i}", f"f.tenant = $tenant AND f.scopeKey IN $scopeKeys AND {condition}",
                "$perHop"))
            + f"  RETURN collect({{f: {reads.fact_projection('f')},"
            f" similarity: 2 * vector.similarity.cosine(f.embedding, $vector) - 1}}) AS walk{i}\n"
            "}\n")
        names.append(f"walk{i}")
    return text, names


#: The search's parameters travel as one map (:func:`reads.as_one_map`: the names, seeds and
#: words it looks up vary in number from question to question) and it keeps its plan when
#: the counts move (:data:`reads.KEEP_PLAN`; its seeks are fixed by index hints). Planning it
#: takes 2.5-6 s on 2 cores, which a question paid whenever its lists fell in a new mix of
#: size ranges or the store had grown. A plan kept from a much smaller store is made again
#: away from the requests (:class:`graphmem.store.neo4j.plans.Replanner`).
_SEARCH_PARAMS = "q"


def channels(tenant: str, plan: ChannelPlan, now: datetime, rule: VectorRule, *,
             names_per_lookup: int, side_share: float | None = None,
             candidates: Candidates | None = None) -> Query:
    """Every channel of ``plan`` in one query, returning one row: ``exact`` and ``named``
    (entity maps), ``seeds``, ``walk0``..., ``bm25`` and ``vector`` (``{id, score}``),
    ``facts`` (theirs, without vectors), ``turns`` and ``turnsVector`` (turn maps with
    ``score``), and ``vectorExact`` and ``turnIdsExact`` (whether the vector channels
    ranked their scope exactly).

    With ``side_share``, an exact ranking covers only the part of the scope that
    :func:`side_channels` with the same share does not. With ``candidates``, the vector
    channels rank only what changed since the process's copy: they check the candidates
    ranked from it, and return the changes (``factChanges``, ``turnChanges``).
    """
    part = None if side_share is None else (False, side_share)
    params: Params = {"tenant": tenant, "scopeKeys": plan.scope_keys, "vector": plan.embedding,
                      "names": plan.names, "seedNames": plan.seed_names,
                      "seedLimit": plan.seed_limit, "namesIndex": reads.ENTITY_NAMES_INDEX,
                      "nameLookups": [lucene_exact(tenant, plan.names[i:i + names_per_lookup])
                                      for i in range(0, len(plan.names), names_per_lookup)]}
    text = (
        "CALL () {\n"
        "  UNWIND $nameLookups AS lookup\n"
        "  CALL db.index.fulltext.queryNodes($namesIndex, lookup) YIELD node AS n\n"
        "  WITH DISTINCT n WHERE n.tenant = $tenant AND n.scopeKey IN $scopeKeys"
        " AND any(name IN n.names WHERE name IN $names)\n"
        f"  RETURN collect({reads.entity_projection('n', vector=False)}) AS exact\n"
        "}\n")
    entity_words = search_reads.lucene_terms(
        plan.name_text, search_reads.TEXT_FIELD_WEIGHTS[reads.ENTITY_TEXT_INDEX])
    text += _collected(search_reads.fulltext_search(
        reads.ENTITY_TEXT_INDEX, tenant, plan.scope_keys, entity_words, plan.name_limit),
        "en", "id", "namedIds", params) if entity_words else "CALL () { RETURN [] AS namedIds }\n"
    text += ("CALL (namedIds) {\n"
             f"  UNWIND namedIds AS id MATCH (n:Entity {{id: id}}) {_SEEK_ENTITY}\n"
             "  WHERE n.tenant = $tenant\n"
             f"  RETURN collect({reads.entity_projection('n', vector=False)}) AS named\n"
             "}\n"
             "WITH *, [n IN exact WHERE any(x IN n.names WHERE x IN $seedNames) | n.id] AS chosen\n"
             "WITH *, CASE WHEN size(chosen) > 0 THEN chosen[..$seedLimit]"
             " ELSE namedIds[..$seedLimit] END AS seeds\n")
    walk, hops = _walk(plan, now, params)
    text += walk
    words = search_reads.lucene_terms(
        plan.text, search_reads.TEXT_FIELD_WEIGHTS[reads.FACT_TEXT_INDEX])
    searchable = any(plan.embedding)
    if searchable and candidates is not None:
        # the copy's changes count each scope: their sum serves BM25 as the scope's count
        text += _copy_changes("Fact", "fact", candidates.fact_since, candidates, params)
        text += ("WITH *, reduce(total = 0, c IN factChanges | total + c.count)"
                 f" AS {_FACT_COUNT}\n")
    elif words or searchable:
        text += _fact_count(rule, params)
    if words:
        text += _collected(search_reads.fulltext_search(
            reads.FACT_TEXT_INDEX, tenant, plan.scope_keys, words, plan.limit, plan.time, now,
            counted=_FACT_COUNT), "bm", "{id: id, score: score}", "bm25", params, _FACT_COUNT)
    else:
        text += "CALL () { RETURN [] AS bm25 }\n"
    if searchable and candidates is not None:
        text += _from_copy("Fact", "fact", "vector", plan, plan.limit, now, candidates.facts,
                           params)
    elif searchable:
        text += _nearest(reads.FACT_VECTOR_INDEX, "vf", "vector", tenant, plan, plan.limit, now,
                         rule, params, part, _FACT_COUNT)
    else:
        text += "CALL () { RETURN [] AS vector, false AS vectorExact }\n"
    text += _facts_of("bm25 + vector", "facts")
    if plan.turn_limit and words:
        turn_words = search_reads.lucene_terms(plan.text, search_reads.TURN_FIELD_WEIGHTS)
        text += _collected(search_reads.fulltext_turns(tenant, plan.scope_keys, turn_words,
                                                       plan.turn_limit, plan.time),
                           "ft", "{" + ", ".join(f"{c}: {c}" for c in (
                               "episodeId", "index", "clientId", "role", "speaker", "content",
                               "timestamp", "recordedAt", "score")) + "}", "turns", params)
    else:
        text += "CALL () { RETURN [] AS turns }\n"
    if plan.turn_limit and searchable:
        text += (_copy_changes("Message", "turn", candidates.turn_since, candidates, params)
                 + _from_copy("Message", "turn", "turnIds", plan, plan.turn_limit, now,
                              candidates.turns, params)
                 if candidates is not None
                 else _nearest(reads.MESSAGE_VECTOR_INDEX, "vt", "turnIds", tenant, plan,
                               plan.turn_limit, now, rule, params, part))
        text += _turns_of("turnIds", "turnsVector")
    else:
        text += "CALL () { RETURN [] AS turnsVector, false AS turnIdsExact }\n"
    returned = ["exact", "named", "seeds", *hops, "bm25", "vector", "facts", "turns",
                "turnsVector", "vectorExact", "turnIdsExact"]
    if searchable and candidates is not None:
        returned += ["factChanges", *(["turnChanges"] if plan.turn_limit else [])]
    text, params = reads.as_one_map((text + "RETURN " + ", ".join(returned), params),
                                    _SEARCH_PARAMS)
    return reads.KEEP_PLAN + text, params


def side_channels(tenant: str, plan: ChannelPlan, now: datetime, rule: VectorRule,
                  share: float) -> Query:
    """The other part of :func:`channels`' exact vector rankings (``side_share=share``), as
    one row: ``vector``, ``facts`` (theirs), ``turnsVector``, and ``vectorExact`` and
    ``turnIdsExact`` (false when the scope is too large to be ranked exactly: the index
    search, in :func:`channels`, then answers for the scopes it holds, and this part ranks
    those it does not, :mod:`graphmem.store.neo4j.vector_scopes`)."""
    params: Params = {"tenant": tenant, "scopeKeys": plan.scope_keys, "vector": plan.embedding}
    part = (True, share)
    text = ""
    for index, prefix, name, limit in (
            (reads.FACT_VECTOR_INDEX, "vf", "vector", plan.limit),
            (reads.MESSAGE_VECTOR_INDEX, "vt", "turnIds", plan.turn_limit)):
        if not limit:
            text += f"CALL () {{ RETURN [] AS {name}, false AS {name}Exact }}\n"
            continue
        scan = _scan(index, prefix, tenant, plan, limit, now, rule, part, params)
        # not exact: hits ranks the scopes the vector index does not hold (vector_scopes)
        text += (f"CALL () {{\n  CALL () {{\n{_indent(_indent(scan))}  }}\n"
                 f"  RETURN hits AS {name}, exact AS {name}Exact\n}}\n")
    text += _facts_of("vector", "facts") + _turns_of("turnIds", "turnsVector")
    text, params = reads.as_one_map(
        (text + "RETURN vector, facts, turnsVector, vectorExact, turnIdsExact", params),
        _SEARCH_PARAMS)
    return reads.KEEP_PLAN + text, params


def join_side(row: dict[str, Any], side: Record, plan: ChannelPlan) -> None:
    """Fold the side query's part of the vector rankings into the main query's row: its part
    of a small scope's exact ranking, or, beside the main query's index search of a large
    one, its part of the scopes the index does not hold (:mod:`.vector_scopes`)."""
    def score(hit: Any) -> float:
        return float(hit["score"])

    row["vector"] = best([*row["vector"], *side["vector"]], plan.limit, lambda h: h["id"], score)
    wanted = {h["id"] for h in [*row["bm25"], *row["vector"]]}
    facts = {f["id"]: f for f in [*row["facts"], *side["facts"]]}
    row["facts"] = [f for key, f in facts.items() if key in wanted]
    row["turnsVector"] = best([*row["turnsVector"], *side["turnsVector"]], plan.turn_limit,
                              lambda h: (h["episodeId"], h["index"]), score)


Hit = TypeVar("Hit")


def best(hits: list[Hit], limit: int, ident: Callable[[Hit], Hashable],
         score: Callable[[Hit], float]) -> list[Hit]:
    """The ``limit`` best ``hits``, each node (``ident``) once at its best score: what two
    rankings of one search (two parts of a scope, or the index and the exact ranking of the
    scopes it does not hold) found together."""
    kept: dict[Hashable, Hit] = {}
    for hit in hits:
        if ident(hit) not in kept or score(kept[ident(hit)]) < score(hit):
            kept[ident(hit)] = hit
    return sorted(kept.values(), key=score, reverse=True)[:limit]


def channel_hits(row: dict[str, Any], plan: ChannelPlan) -> ChannelHits:
    """The row of :func:`channels` (joined with its side, if any) as models."""
    hops = [row[f"walk{i}"] for i in range(plan.walk_depth)]
    return ChannelHits(
        entities=[records.entity_from(n) for n in row["exact"]],
        named=[records.entity_from(n) for n in row["named"]],
        seeds=[str(i) for i in row["seeds"]],
        bm25=[Scored(id=str(h["id"]), score=float(h["score"])) for h in row["bm25"]],
        vector=[Scored(id=str(h["id"]), score=float(h["score"])) for h in row["vector"]],
        walked=[[records.fact_from(h["f"]) for h in hop] for hop in hops],
        similarity={str(h["f"]["id"]): float(h["similarity"]) for hop in hops for h in hop
                    if h["similarity"] is not None},
        facts=[records.fact_from(f) for f in row["facts"]],
        turns=[records.turn_hit(t, float(t["score"])) for t in row["turns"]],
        turns_vector=[records.turn_hit(t, float(t["score"])) for t in row["turnsVector"]])
