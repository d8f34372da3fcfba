"""The embedded store's writes: plain functions over an open SQLite transaction.

The caller (:meth:`graphmem.store.embedded.EmbeddedStore.write`) owns the
transaction; these functions only issue statements (their text is in
:mod:`graphmem.store.embedded.sql`), so a failure anywhere rolls the whole
batch back. Full-text rows are written through
:func:`graphmem.store.text.analyze` so CJK text is searchable too.
"""

from __future__ import annotations

import sqlite3
import struct
from datetime import UTC, datetime

import numpy as np
import numpy.typing as npt

from graphmem.errors import TimelineConflictError
from graphmem.models import Entity, Episode, Fact, episode_turns, turn_context_texts
from graphmem.store import text as text_analysis
from graphmem.store.embedded import sql
from graphmem.store.base import Reminder, StoredResponse, WriteBatch
from graphmem.temporal import timeline_scope
from graphmem.names import normalize_name


Rows = dict[str, npt.NDArray[np.float32]]


def _blob(vector: list[float] | None) -> bytes | None:
    return None if vector is None else np.asarray(vector, dtype=np.float32).tobytes()


def vector_rows(records: list[Entity] | list[Fact]) -> Rows:
    """The records' vectors as float32 rows, made once for the file and the mirror both: a
    batch's 500 vectors of 384 Python floats each took more of a write's time to convert
    twice than any statement. Of one dimension (:meth:`WriteBatch.refuse_foreign`)."""
    # the last record of an id is the one written (write_entities, write_facts)
    given = {r.id: r.embedding for r in {r.id: r for r in records}.values()
             if r.embedding is not None}
    if not given:
        return {}
    matrix = _float32_matrix(list(given.values()))
    return {record_id: matrix[i] for i, record_id in enumerate(given)}


def _float32_matrix(vectors: list[list[float]]) -> npt.NDArray[np.float32]:
    """Lists of Python floats of one length as float32 rows. ``struct`` packs them about
    three times faster than ``numpy.asarray`` walks them (the same C cast to float, so the
    same bits); a value too large for a float32 goes the slow way, to infinity as numpy
    takes it."""
    pack = struct.Struct(f"={len(vectors[0])}f").pack
    try:
        packed = b"".join(pack(*vector) for vector in vectors)
    except OverflowError:
        return np.asarray(vectors, dtype=np.float32)
    return np.frombuffer(packed, dtype=np.float32).reshape(len(vectors), -1)


def _row_blob(rows: Rows, record_id: str) -> bytes | None:
    row = rows.get(record_id)
    return None if row is None else row.tobytes()


def lock_timelines(db: sqlite3.Connection, tenant: str, batch: WriteBatch) -> None:
    """Check and advance the versions of the timelines the batch touches (see GraphStore.write).

    The caller's ``BEGIN IMMEDIATE`` holds the database's write lock, across
    processes, so the versions read here cannot change before the commit.
    """
    scopes = {key: timeline_scope(key) for key in batch.timeline_versions}
    scopes.update({f.timeline_key: f.scope_key for f in batch.facts})
    for start in range(0, len(batch.delete_fact_ids), 500):
        chunk = batch.delete_fact_ids[start:start + 500]
        scopes.update({str(k): str(s) for k, s in db.execute(
            sql.timeline_scopes_of_facts(len(chunk)), (tenant, *chunk))})
    if not scopes:
        return
    keys = sorted(scopes)
    stored = timeline_versions(db, tenant, keys)
    stale = [k for k, v in batch.timeline_versions.items() if stored[k] != v]
    if stale:
        raise TimelineConflictError(sorted(stale))
    db.executemany(sql.ADVANCE_TIMELINE, [(tenant, k, scopes[k]) for k in keys])


def timeline_versions(db: sqlite3.Connection, tenant: str, keys: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for start in range(0, len(keys), 500):
        chunk = keys[start:start + 500]
        found.update({str(k): int(v) for k, v in db.execute(
            sql.timeline_versions(len(chunk)), (tenant, *chunk))})
    return {k: found.get(k, 0) for k in keys}


def write_episodes(db: sqlite3.Connection, episodes: list[Episode],
                   turn_vectors: dict[str, list[list[float]]]) -> None:
    """Upsert episodes; a rewritten episode's turns are re-indexed (its text may have changed,
    as when an erasure scrubs a name), turns it no longer has go, and a turn's embedding is
    replaced when given and otherwise kept."""
    for ep in episodes:
        db.execute(sql.UPSERT_EPISODE, (
            ep.id, ep.tenant, ep.scope_key, ep.client_id, ep.reference_time.isoformat(),
            ep.expires_at.isoformat() if ep.expires_at else None, int(ep.pinned),
            ep.model_dump_json(),
        ))
        existing = {int(idx): int(rowid) for idx, rowid in db.execute(
            sql.TURN_ROWIDS_BY_IDX, (ep.id,))}
        count = len(episode_turns(ep))
        db.executemany(sql.DELETE_TURN_FTS, [(r,) for r in existing.values()])
        db.executemany(sql.DELETE_TURN, [(r,) for idx, r in existing.items() if idx >= count])
        vectors = turn_vectors.get(ep.id, [])
        rowids: dict[int, int | None] = {}
        for idx in range(count):
            blob = _blob(vectors[idx]) if idx < len(vectors) else None
            if idx not in existing:
                rowids[idx] = db.execute(sql.INSERT_TURN, (ep.id, idx, ep.tenant, ep.scope_key,
                                                           blob)).lastrowid
                continue
            rowids[idx] = existing[idx]
            if blob is not None:
                db.execute(sql.UPDATE_TURN_EMBEDDING, (blob, existing[idx]))
        _index_turns(db, ep, rowids)


def _index_turns(db: sqlite3.Connection, ep: Episode, rowids: dict[int, int | None]) -> None:
    """Full-text rows of an episode's turns (turn index -> its ``turns`` rowid)."""
    texts, contexts = episode_turns(ep), turn_context_texts(ep)
    token = text_analysis.scope_token(ep.tenant, ep.scope_key)
    for idx, rowid in rowids.items():
        if idx < len(texts):
            db.execute(sql.INSERT_TURN_FTS, (rowid, text_analysis.analyze(texts[idx]),
                                             text_analysis.analyze(contexts[idx]), token))


def _index_fact(db: sqlite3.Connection, rowid: int, fact: Fact) -> None:
    db.execute(sql.INSERT_FACT_FTS, (rowid, text_analysis.analyze(fact.text),
                                     text_analysis.scope_token(fact.tenant, fact.scope_key)))


def rebuild_full_text(db: sqlite3.Connection) -> None:
    """Rebuild the facts' and turns' full-text tables (schema 1 -> 2: context and scope)."""
    db.execute(sql.DROP_TURNS_FTS)
    db.execute(sql.CREATE_TURNS_FTS)
    for ep_id, doc in db.execute(sql.EPISODE_IDS_DOCS).fetchall():
        rows = db.execute(sql.TURN_ROWIDS_BY_IDX, (ep_id,)).fetchall()
        _index_turns(db, Episode.model_validate_json(doc), dict(rows))
    db.execute(sql.DROP_FACTS_FTS)
    db.execute(sql.CREATE_FACTS_FTS)
    for rowid, doc in db.execute(sql.FACT_ROWIDS_DOCS).fetchall():
        _index_fact(db, rowid, Fact.model_validate_json(doc))


def write_entities(db: sqlite3.Connection, entities: list[Entity], vectors: Rows) -> None:
    """Upsert entities with their names and full-text rows, one statement per kind of row;
    ``vectors``: their vectors (:func:`vector_rows`). Only a stored entity has rows to
    replace (an entity's deletion takes them all with it), so a batch of new ones deletes
    nothing."""
    entities = list({e.id: e for e in entities}.values())
    stored = _rowids(db, "entities", [e.id for e in entities])
    db.executemany(sql.UPSERT_ENTITY, [
        (e.id, e.tenant, e.scope_key, e.model_dump_json(exclude={"embedding"}),
         _row_blob(vectors, e.id)) for e in entities])
    rows = {**stored, **_rowids(db, "entities", [e.id for e in entities if e.id not in stored])}
    db.executemany(sql.DELETE_ENTITY_NAMES, [(i,) for i in stored])
    db.executemany(sql.INSERT_ENTITY_NAME, [
        (e.id, e.tenant, e.scope_key, n) for e in entities
        for n in {normalize_name(n) for n in [e.name, *e.aliases]} - {""}])
    db.executemany(sql.DELETE_ENTITY_FTS, [(rows[i],) for i in stored])
    db.executemany(sql.INSERT_ENTITY_FTS, [_entity_text(rows[e.id], e) for e in entities])


def _entity_text(rowid: int, entity: Entity) -> tuple[int, str, str]:
    """An entity's full-text entry: its names and summary, and its scope token."""
    return (rowid, text_analysis.analyze(" ".join([entity.name, *entity.aliases, entity.summary])),
            text_analysis.scope_token(entity.tenant, entity.scope_key))


def rebuild_entity_text(db: sqlite3.Connection) -> None:
    """Rebuild the entities' full-text table (schema 2 -> 3: a scope token in each entry)."""
    db.execute(sql.DROP_ENTITIES_FTS)
    db.execute(sql.CREATE_ENTITIES_FTS)
    db.executemany(sql.INSERT_ENTITY_FTS, [
        _entity_text(rowid, Entity.model_validate_json(doc))
        for rowid, doc in db.execute(sql.ENTITY_ROWIDS_DOCS).fetchall()])


def write_facts(db: sqlite3.Connection, facts: list[Fact], vectors: Rows) -> None:
    """Upsert facts with their full-text rows and sources, one statement per kind of row;
    ``vectors``: their vectors (:func:`vector_rows`). Only a stored fact has rows to replace,
    as in :func:`write_entities`."""
    facts = list({f.id: f for f in facts}.values())
    stored = _rowids(db, "facts", [f.id for f in facts])
    db.executemany(sql.UPSERT_FACT, [
        (f.id, f.tenant, f.scope_key, f.timeline_key, f.subject_id, f.object_id, f.predicate,
         f.valid_from.isoformat(), f.status.value, f.category.value,
         f.model_dump_json(exclude={"embedding"}), _row_blob(vectors, f.id)) for f in facts])
    rows = {**stored, **_rowids(db, "facts", [f.id for f in facts if f.id not in stored])}
    db.executemany(sql.DELETE_FACT_FTS, [(rows[i],) for i in stored])
    db.executemany(sql.INSERT_FACT_FTS, [
        (rows[f.id], text_analysis.analyze(f.text),
         text_analysis.scope_token(f.tenant, f.scope_key)) for f in facts])
    db.executemany(sql.DELETE_FACT_SOURCES, [(i,) for i in stored])
    db.executemany(sql.INSERT_FACT_SOURCE, [(f.id, e) for f in facts for e in _sources(f)])


def _sources(fact: Fact) -> list[str]:
    """The episodes a fact's row in ``fact_episodes`` names: its evidence and its retraction."""
    if fact.retraction and fact.retraction.episode_id:
        return [*fact.episode_ids, fact.retraction.episode_id]
    return fact.episode_ids


def _rowids(db: sqlite3.Connection, table: str, ids: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        found.update({str(i): int(r) for i, r in db.execute(sql.rowids(table, len(chunk)), chunk)})
    return found


def stamp(at: datetime) -> str:
    """A reminder time as sortable text (always UTC, always with microseconds)."""
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def write_reminders(db: sqlite3.Connection, reminders: list[Reminder]) -> None:
    db.executemany(
        sql.INSERT_REMINDER,
        [(r.todo_id, r.tenant, r.scope_key, stamp(r.remind_at),
          stamp(r.sent_at) if r.sent_at else None) for r in reminders])


def delete_facts(db: sqlite3.Connection, tenant: str, ids: list[str]) -> None:
    db.executemany(sql.DELETE_REMINDER, [(i, tenant) for i in ids])
    for fid in ids:
        row = db.execute(sql.FACT_ROWID, (fid, tenant)).fetchone()
        if row is None:
            continue
        db.execute(sql.DELETE_FACT_FTS, (row[0],))
        db.execute(sql.DELETE_FACT, (row[0],))
        db.execute(sql.DELETE_FACT_SOURCES, (fid,))


def delete_episodes(db: sqlite3.Connection, tenant: str, ids: list[str]) -> None:
    for eid in ids:
        if not db.execute(sql.DELETE_EPISODE, (eid, tenant)).fetchall():
            continue
        turn_rows = [r[0] for r in db.execute(sql.TURN_ROWIDS, (eid,))]
        db.executemany(sql.DELETE_TURN_FTS, [(r,) for r in turn_rows])
        db.execute(sql.DELETE_TURNS_OF_EPISODE, (eid,))
        db.execute(sql.DELETE_MENTIONS_OF_EPISODE, (eid,))
        db.execute(sql.DELETE_SOURCES_OF_EPISODE, (eid,))


def delete_entities(db: sqlite3.Connection, tenant: str, ids: list[str]) -> None:
    for eid in ids:
        row = db.execute(sql.ENTITY_ROWID, (eid, tenant)).fetchone()
        if row is None:
            continue
        db.execute(sql.DELETE_ENTITY_FTS, (row[0],))
        db.execute(sql.DELETE_ENTITY, (row[0],))
        db.execute(sql.DELETE_ENTITY_NAMES, (eid,))
        db.execute(sql.DELETE_MENTIONS_OF_ENTITY, (eid,))


# -- stored answers of idempotent requests ------------------------------------------
def claim_request(db: sqlite3.Connection, tenant: str, request: StoredResponse,
                  stale_before: datetime, expire_before: datetime) -> StoredResponse | None:
    """See :meth:`graphmem.store.base.GraphStore.claim_request` (run in one transaction)."""
    db.execute(sql.DELETE_EXPIRED_REQUESTS, (tenant, expire_before.isoformat()))
    row = db.execute(sql.REQUEST_DOC, (tenant, request.key)).fetchone()
    held = StoredResponse.model_validate_json(str(row[0])) if row else None
    if held is not None and (held.status is not None or held.created_at >= stale_before):
        return held
    put_request(db, tenant, request)
    return None


def put_request(db: sqlite3.Connection, tenant: str, request: StoredResponse) -> None:
    db.execute(sql.PUT_REQUEST,
               (tenant, request.key, request.created_at.isoformat(), request.model_dump_json()))


def drop_requests(db: sqlite3.Connection, tenant: str, keys: list[str] | None) -> None:
    if keys is None:
        db.execute(sql.DELETE_REQUESTS, (tenant,))
    else:
        db.executemany(sql.DELETE_REQUEST, [(tenant, k) for k in keys])
