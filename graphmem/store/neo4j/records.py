"""Graphmem models <-> Neo4j node properties, both ways.

Kept apart from :mod:`graphmem.store.neo4j` (connection, transactions, the
store's methods) because it is a different job: every field of every model
has one place where it becomes a property and one where it comes back.
Datetimes travel as Neo4j DateTimes so Browser users can compare them with
``datetime()``; lists that Cypher never filters on (messages, evidence) travel
as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from pydantic import TypeAdapter

from graphmem.errors import StoreError
from graphmem.models import (
    Entity,
    Episode,
    Evidence,
    Fact,
    Message,
    Resolved,
    Retraction,
    as_utc,
    turn_context_texts,
)
from graphmem.store.base import TurnHit
from graphmem.store.neo4j.sketch import SKETCH_PROPERTY, sketch
from graphmem.store.text import scope_token
from graphmem.names import normalize_name

_MESSAGES = TypeAdapter(list[Message])
_EVIDENCE = TypeAdapter(list[Evidence])
_RESOLVED = TypeAdapter(list[Resolved])
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def to_datetime(value: Any) -> datetime | None:
    """A Neo4j DateTime, microseconds since 1970 UTC (``reads.epoch_micros``), ISO 8601 text
    (:func:`iso`), or None, as an aware UTC datetime."""
    if value is None:
        return None
    if isinstance(value, int):
        return _EPOCH + timedelta(microseconds=value)
    if isinstance(value, str):
        return as_utc(datetime.fromisoformat(value))
    native = value.to_native() if hasattr(value, "to_native") else value
    return as_utc(cast(datetime, native))


class Floats(list[float]):
    """A list of floats (an embedding) whose ``repr`` does not spell it out.

    The driver (neo4j 6.4) formats every RUN's parameters with ``repr`` for its
    debug log whether or not debug logging is on; for a batch's vectors that
    cost more than the statement itself (about 170 ms per 500 384-dimensional
    vectors, against 15 ms wrapped). It packs the same as a list.

    >>> Floats([0.5] * 384)
    <384 floats>
    """

    def __repr__(self) -> str:
        return f"<{len(self)} floats>"


def utc_params(value: Any) -> Any:
    """Query parameters with every datetime made aware UTC, however deeply nested.

    Neo4j compares a DateTime with a LocalDateTime as unequal types, so a naive
    datetime reaching a query would silently match nothing; this is the last
    guard before the driver. Lists of floats (embeddings) become :class:`Floats`;
    other lists of numbers or strings are passed through untouched.
    """
    if isinstance(value, datetime):
        return as_utc(value)
    if isinstance(value, dict):
        return {k: utc_params(v) for k, v in value.items()}
    if isinstance(value, list) and value:
        if isinstance(value[0], float):
            return Floats(value)
        if not isinstance(value[0], (int, str)):
            return [utc_params(v) for v in value]
    return value


def iso(value: datetime | None) -> str | None:
    """A datetime as ISO 8601 text in UTC, as a write row carries it (``times``): the
    statement makes it a DateTime on the server (``writes.set_times``), where the driver's
    own conversion would cost about 80 us a value."""
    return None if value is None else as_utc(value).isoformat()


def required_datetime(value: Any) -> datetime:
    out = to_datetime(value)
    if out is None:
        raise StoreError("a required timestamp is missing from a Neo4j node")
    return out


def turn_hit(row: Mapping[str, Any], score: float) -> TurnHit:
    return TurnHit(episode_id=row["episodeId"], message_index=int(row["index"]),
                   message_id=row["clientId"], role=row.get("role"), speaker=row["speaker"],
                   content=row["content"],
                   timestamp=to_datetime(row["timestamp"]), score=score,
                   recorded_at=to_datetime(row.get("recordedAt")))


def episode_row(ep: Episode, turn_vectors: list[list[float]] | None = None) -> dict[str, Any]:
    props = {
        "tenant": ep.tenant, "scopeKey": ep.scope_key, "source": ep.source,
        "content": ep.content, "clientId": ep.client_id,
        "pinned": ep.pinned, "sessionId": ep.session_id, "forgotten": ep.forgotten,
        "messagesJson": _MESSAGES.dump_json(ep.messages).decode(),
    }
    times = {"referenceTime": iso(ep.reference_time), "recordedAt": iso(ep.recorded_at),
             "expiresAt": iso(ep.expires_at)}
    recorded = times["recordedAt"]
    base = {"tenant": ep.tenant, "scopeKey": ep.scope_key, "episodeId": ep.id,
            "forgotten": ep.forgotten, "scopeTag": scope_token(ep.tenant, ep.scope_key)}
    if ep.messages:
        turns = [{**base, "index": i, "clientId": m.id, "role": m.role, "speaker": m.speaker,
                  "content": m.content} for i, m in enumerate(ep.messages)]
        stamps = [iso(m.timestamp or ep.reference_time) for m in ep.messages]
    elif ep.content:
        turns = [{**base, "index": 0, "clientId": None, "role": None, "speaker": None,
                  "content": ep.content}]
        stamps = [times["referenceTime"]]
    else:
        turns, stamps = [], []
    vectors = turn_vectors or []
    contexts = turn_context_texts(ep)
    given = [vectors[i] if i < len(vectors) else None for i in range(len(turns))]
    # a turn's vector, and so its sketch, is set only when given (upsert_episodes)
    messages = [{"id": f"{ep.id}:{i}",
                 "props": {**turn, "id": f"{ep.id}:{i}", "context": contexts[i],
                           **({} if given[i] is None else {SKETCH_PROPERTY: sketch(given[i])})},
                 "times": {"timestamp": stamps[i], "recordedAt": recorded},
                 "embedding": given[i]}
                for i, turn in enumerate(turns)]
    return {"id": ep.id, "props": props, "times": times, "messages": messages}


def episode_from(p: Mapping[str, Any]) -> Episode:
    return Episode(
        id=p["id"], tenant=p["tenant"], scope_key=p["scopeKey"], source=p["source"],
        messages=_MESSAGES.validate_json(p.get("messagesJson") or "[]"),
        content=p.get("content") or "", reference_time=required_datetime(p["referenceTime"]),
        recorded_at=required_datetime(p["recordedAt"]), expires_at=to_datetime(p.get("expiresAt")),
        client_id=p.get("clientId"), pinned=bool(p.get("pinned")),
        session_id=p.get("sessionId"), forgotten=bool(p.get("forgotten")),
    )


def entity_row(ent: Entity) -> dict[str, Any]:
    names = sorted({normalize_name(n) for n in [ent.name, *ent.aliases]} - {""})
    props = {
        "tenant": ent.tenant, "scopeKey": ent.scope_key,
        "scopeTag": scope_token(ent.tenant, ent.scope_key), "name": ent.name, "type": ent.type,
        "aliases": ent.aliases, "names": names, "aliasText": " ".join(ent.aliases),
        "summary": ent.summary,
        "resolutionsJson": _RESOLVED.dump_json(ent.resolutions).decode(),
    }
    return {"id": ent.id, "props": {**props, SKETCH_PROPERTY: sketch(ent.embedding)},
            "times": {"createdAt": iso(ent.created_at)}, "embedding": ent.embedding}


def entity_from(p: Mapping[str, Any]) -> Entity:
    return Entity(
        id=p["id"], tenant=p["tenant"], scope_key=p["scopeKey"], name=p["name"],
        type=p.get("type") or "concept", aliases=list(p.get("aliases") or []),
        summary=p.get("summary") or "", embedding=p.get("embedding"),
        created_at=required_datetime(p["createdAt"]),
        resolutions=_RESOLVED.validate_json(p.get("resolutionsJson") or "[]"),
    )


def fact_row(fact: Fact, seq: int) -> dict[str, Any]:
    retraction = fact.retraction
    props = {
        "tenant": fact.tenant, "scopeKey": fact.scope_key, "timelineKey": fact.timeline_key,
        "scopeTag": scope_token(fact.tenant, fact.scope_key),
        "subjectId": fact.subject_id, "subjectName": fact.subject_name,
        "predicate": fact.predicate, "objectId": fact.object_id,
        "objectName": fact.object_name, "text": fact.text, "category": fact.category.value,
        "importance": fact.importance, "confidence": fact.confidence,
        "cardinality": fact.cardinality.value,
        "retractionEpisodeId": retraction.episode_id if retraction else None,
        "retractionMessageIds": retraction.message_ids if retraction else None,
        "supersedes": fact.supersedes, "supersededBy": fact.superseded_by,
        "episodeIds": fact.episode_ids, "messageIds": fact.message_ids,
        "evidenceJson": _EVIDENCE.dump_json(fact.evidence).decode(),
        "accessCount": fact.access_count, "status": fact.status.value,
    }
    times = {"validFrom": iso(fact.valid_from), "validUntil": iso(fact.valid_until),
             "statedUntil": iso(fact.stated_until), "recordedAt": iso(fact.recorded_at),
             "expiredAt": iso(fact.expired_at),
             "retractedAt": iso(retraction.at) if retraction else None,
             "lastAccessed": iso(fact.last_accessed)}
    return {"id": fact.id, "seq": seq, "props": {**props, SKETCH_PROPERTY: sketch(fact.embedding)},
            "times": times, "embedding": fact.embedding}


def fact_from(p: Mapping[str, Any]) -> Fact:
    retraction = None
    if p.get("retractedAt") is not None:
        retraction = Retraction(at=required_datetime(p["retractedAt"]),
                                episode_id=p.get("retractionEpisodeId"),
                                message_ids=list(p.get("retractionMessageIds") or []))
    return Fact(
        id=p["id"], tenant=p["tenant"], scope_key=p["scopeKey"],
        subject_id=p["subjectId"], subject_name=p["subjectName"], predicate=p["predicate"],
        object_id=p["objectId"], object_name=p["objectName"], text=p["text"],
        category=p["category"], importance=p["importance"], confidence=p["confidence"],
        cardinality=p["cardinality"], timeline_key=p.get("timelineKey") or "",
        valid_from=required_datetime(p["validFrom"]), valid_until=to_datetime(p.get("validUntil")),
        stated_until=to_datetime(p.get("statedUntil")), recorded_at=required_datetime(p["recordedAt"]),
        expired_at=to_datetime(p.get("expiredAt")), retraction=retraction,
        supersedes=list(p.get("supersedes") or []), superseded_by=p.get("supersededBy"),
        episode_ids=list(p.get("episodeIds") or []),
        message_ids=list(p.get("messageIds") or []),
        evidence=_EVIDENCE.validate_json(p.get("evidenceJson") or "[]"),
        access_count=int(p.get("accessCount") or 0), last_accessed=to_datetime(p.get("lastAccessed")),
        status=p["status"], embedding=p.get("embedding"),
    )
