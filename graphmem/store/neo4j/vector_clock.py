"""Cypher for the scope clocks that keep :mod:`graphmem.store.neo4j.vector_mirror` in step.

A ``(:VectorClock {tag})`` per scope (``tag``: the scope's token, as the facts'
``scopeTag``) counts the write transactions that wrote facts there; each such fact
carries the value its transaction set (``vclock``). :func:`tick` is a write batch's
last statement, so a clock's lock is the last one a transaction takes (taken in tag
order) and held only until its commit. Every value travels as a parameter.
"""

from __future__ import annotations

from datetime import datetime

from graphmem.temporal import TimeFilter

from graphmem.store.neo4j.reads import Params, Query
from graphmem.store.neo4j.search_reads import scope_condition

CONSTRAINT = ("vector_clock_tag", "CREATE CONSTRAINT vector_clock_tag IF NOT EXISTS"
              " FOR (c:VectorClock) REQUIRE c.tag IS UNIQUE")
#: A scope's facts by stamp: what a clock read seeks.
INDEX = ("fact_vclock", "CREATE INDEX fact_vclock IF NOT EXISTS"
         " FOR (n:Fact) ON (n.scopeTag, n.vclock)")


def tick(tenant: str, clocks: list[Params]) -> Query:
    """Advance each scope's clock and stamp its facts; ``clocks``: ``{tag, ids}`` sorted by tag.

    The clock is locked before its value is read (``SET c.locking``), so two writers never
    read the same value.
    """
    return (
        "UNWIND $clocks AS clock\n"
        "MERGE (c:VectorClock {tag: clock.tag})\n"
        "SET c.locking = true\n"
        "WITH c, clock, coalesce(c.version, 0) + 1 AS version\n"
        "SET c.version = version\n"
        "REMOVE c.locking\n"
        "WITH clock, version\n"
        "UNWIND clock.ids AS id\n"
        "MATCH (f:Fact {id: id}) WHERE f.tenant = $tenant\n"
        "SET f.vclock = version",
        {"tenant": tenant, "clocks": clocks},
    )


def load(tenant: str, scope_key: str, tag: str) -> Query:
    """A whole scope's fact vectors with the clock value they are complete up to: one row,
    ``version`` and ``rows`` (``[id, vclock, embedding]``); facts stamped after the clock was
    read are left for the next clock read."""
    return (
        "OPTIONAL MATCH (c:VectorClock {tag: $tag})\n"
        "WITH coalesce(c.version, 0) AS version\n"
        "CALL (version) {\n"
        "  MATCH (n:Fact) USING INDEX n:Fact(tenant, scopeKey)\n"
        "  WHERE n.tenant = $tenant AND n.scopeKey = $scopeKey AND n.embedding IS NOT NULL"
        " AND coalesce(n.vclock, 0) <= version\n"
        "  RETURN collect([n.id, coalesce(n.vclock, 0), n.embedding]) AS rows\n"
        "}\n"
        "RETURN version, rows",
        {"tenant": tenant, "scopeKey": scope_key, "tag": tag},
    )


def vectors(tenant: str, ids: list[str]) -> Query:
    """``[id, vclock, embedding]`` of facts the mirror missed (see ``VectorMirror.advance``)."""
    return ("UNWIND $ids AS id MATCH (n:Fact {id: id}) WHERE n.tenant = $tenant\n"
            "RETURN n.id AS id, coalesce(n.vclock, 0) AS vclock, n.embedding AS embedding",
            {"tenant": tenant, "ids": ids})


def mirrored_channel(tenant: str, scope_keys: list[str], embedding: list[float],
                     tags: list[str], have: list[int], candidates: list[Params], limit: int,
                     time: TimeFilter | None, now: datetime | None) -> Query:
    """The fact vector channel from a mirror's ``candidates`` (``{id, score}``, its best):
    one row, ``vector`` (``{id, score}`` best first, in scope and time), ``vectorClocks``
    (the clocks' values now, one per tag), ``vectorDelta`` (facts stamped from ``have`` on,
    each tag's up to its clock: ``{id, vclock, fresh, hasVector, embedding, score}``, the
    embedding only when newer than ``have``) and ``vectorVerified`` (how many candidates are
    still in scope and time).

    A fact written since ``have`` is scored from the store's vector, not the copy's; the
    facts of ``have`` itself are only listed (the copy holds them, unless one was applied
    after the copy read it: the caller fetches those).
    """
    condition, params = scope_condition("n", time, now)
    params.update({"tenant": tenant, "scopeKeys": scope_keys, "vector": embedding,
                   "tags": tags, "have": have,
                   "candidates": candidates, "limit": limit})
    return (
        "CALL () {\n"
        "  UNWIND $tags AS tag\n"
        "  OPTIONAL MATCH (c:VectorClock {tag: tag})\n"
        "  RETURN collect(coalesce(c.version, 0)) AS clocks\n"
        "}\n"
        "CALL (clocks) {\n"
        "  UNWIND range(0, size($tags) - 1) AS i\n"
        "  MATCH (n:Fact) USING INDEX n:Fact(scopeTag, vclock)\n"
        "  WHERE n.scopeTag = $tags[i] AND n.vclock >= $have[i] AND n.vclock <= clocks[i]\n"
        "  WITH n, $tags[i] AS tag, n.vclock > $have[i] AS fresh\n"
        "  RETURN collect({id: n.id, tag: tag, vclock: n.vclock, fresh: fresh,"
        " hasVector: n.embedding IS NOT NULL,"
        " embedding: CASE WHEN fresh THEN n.embedding END,"
        f" score: CASE WHEN fresh AND n.embedding IS NOT NULL AND {condition}"
        " THEN 2 * vector.similarity.cosine(n.embedding, $vector) - 1 END}) AS delta\n"
        "}\n"
        "CALL (delta) {\n"
        "  WITH [d IN delta WHERE d.fresh | d.id] AS rewritten\n"
        "  UNWIND $candidates AS c\n"
        "  MATCH (n:Fact {id: c.id}) USING INDEX n:Fact(id)\n"
        f"  WHERE NOT c.id IN rewritten AND n.embedding IS NOT NULL AND {condition}\n"
        "  RETURN collect({id: c.id, score: c.score}) AS kept\n"
        "}\n"
        "CALL (kept, delta) {\n"
        "  UNWIND kept + [d IN delta WHERE d.score IS NOT NULL | {id: d.id, score: d.score}]"
        " AS h\n"
        "  WITH h ORDER BY h.score DESC LIMIT $limit\n"
        "  RETURN collect(h) AS vector\n"
        "}\n"
        "RETURN vector, true AS vectorExact, clocks AS vectorClocks, delta AS vectorDelta,"
        " size(kept) AS vectorVerified",
        params,
    )
