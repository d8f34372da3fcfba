"""The embedded store: SQLite (WAL) on disk as the durable source, indexes in memory.

Quick start needs no server: one file holds everything. Each
:meth:`EmbeddedStore.write` is one SQLite transaction, so a killed process
loses no committed batch and leaves no half-written fact. On open, the
in-memory parts are rebuilt from the file (:mod:`graphmem.store.embedded.index`):
parsed facts and entities, a networkx graph of entities and fact edges for
traversal, and per-scope vector indexes. BM25 is SQLite's FTS5 (real BM25
ranking, kept transactionally in step with the rows).

A lock serialises access, so one store can be shared by the threads of a web
server. Another process may write the same file (a command-line run beside a
server, or another API worker): the lock notices, and the mirror reloads what that
process's writes changed (:mod:`.freshness`, :mod:`.changes`); the file, its schema and
that catching up are :mod:`.connection`'s. Raw turns become search hits in :mod:`.turns`.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from functools import lru_cache, partial
from datetime import datetime
from pathlib import Path

from graphmem.errors import StoreError
from graphmem.models import (
    Entity,
    Episode,
    Fact,
    FactStatus,
    as_utc,
    utcnow,
)
from graphmem.search.channels import channels_by_parts
from graphmem.store.embedded import changes, fulltext, sql, turns, writes
from graphmem.store.base import FactQuery, Reminder, Scored, ScoredEntity, StoredResponse
from graphmem.store.base import ScopeIds, StoreStats
from graphmem.store.base import ChannelHits, ChannelPlan, TurnHit, WriteBatch
from graphmem.names import is_word
from graphmem.store.embedded.connection import EmbeddedConnection
from graphmem.temporal import TimeFilter

#: How many more candidates than asked for a channel fetches before filtering by scope and time.
OVERSAMPLE = 4
#: Episode documents the turn channels keep parsed. Parsing an episode (its validators run
#: on every message) was half of a LoCoMo search, which reads about 27 episodes' turns; a
#: conversation holds 19-32 episodes, so this keeps a few busy users' worth.
PARSED_EPISODES = 512


class EmbeddedStore(EmbeddedConnection):
    """networkx + SQLite store; see the module docstring."""

    parallel_reads = False  # reads share one connection and lock

    def __init__(self, path: str | Path, embedding_dim: int) -> None:
        super().__init__(path, embedding_dim)
        # Keyed by the document itself, so a changed episode is parsed again: nothing to
        # invalidate, whichever process changed it. Only the turn channels read it, and they
        # never change what they are given.
        self._parsed_episode = lru_cache(maxsize=PARSED_EPISODES)(Episode.model_validate_json)

    # -- writes ---------------------------------------------------------------
    def write(self, tenant: str, batch: WriteBatch) -> None:
        if batch.is_empty():
            return
        batch.refuse_foreign(tenant, self.embedding_dim)
        vectors = writes.vector_rows(batch.entities), writes.vector_rows(batch.facts)
        try:
            with self._lock:
                with self._transaction() as db:
                    self._replay_others(db)
                    seq = changes.record(db, changes.Changed.of_batch(batch), self._mirror_seq)
                    writes.lock_timelines(db, tenant, batch)
                    writes.delete_facts(db, tenant, batch.delete_fact_ids)
                    writes.delete_episodes(db, tenant, batch.delete_episode_ids)
                    writes.delete_entities(db, tenant, batch.delete_entity_ids)
                    writes.write_episodes(db, batch.episodes, batch.turn_vectors)
                    writes.write_entities(db, batch.entities, vectors[0])
                    writes.write_facts(db, batch.facts, vectors[1])
                    writes.write_reminders(db, batch.reminders)
                    db.executemany(
                        sql.INSERT_MENTION,
                        [(m.episode_id, m.entity_id) for m in batch.mentions],
                    )
                self._index.apply(batch, {**vectors[0], **vectors[1]})
                self._mirror_seq = seq
        except sqlite3.Error as err:
            raise StoreError(f"embedded store write failed, nothing was written: {err}") from err

    # -- reads: episodes ------------------------------------------------------
    def _episode_doc(self, tenant: str, episode_id: str) -> str | None:
        rows = self._query(sql.EPISODE_DOC, (episode_id, tenant))
        return str(rows[0][0]) if rows else None

    def get_episode(self, tenant: str, episode_id: str) -> Episode | None:
        doc = self._episode_doc(tenant, episode_id)
        return Episode.model_validate_json(doc) if doc is not None else None

    def _turns_episode(self, tenant: str, episode_id: str) -> Episode | None:
        """:meth:`get_episode` for the turn channels: a shared, already parsed copy."""
        doc = self._episode_doc(tenant, episode_id)
        return self._parsed_episode(doc) if doc is not None else None

    def find_episode(self, tenant: str, scope_key: str, client_id: str) -> Episode | None:
        rows = self._query(sql.EPISODE_DOC_BY_CLIENT_ID, (tenant, scope_key, client_id))
        return Episode.model_validate_json(str(rows[0][0])) if rows else None

    def episodes_by_client_id(self, tenant: str, client_id: str) -> list[Episode]:
        rows = self._query(sql.EPISODE_DOCS_BY_CLIENT_ID, (tenant, client_id))
        return [Episode.model_validate_json(str(r[0])) for r in rows]

    def list_episodes(self, tenant: str, scope_keys: list[str], *, limit: int = 50,
                      before: datetime | None = None) -> list[Episode]:
        params: list[object] = [tenant, *scope_keys]
        if before is not None:
            params.append(as_utc(before).isoformat())  # stored as UTC text
        rows = self._query(sql.list_episode_docs(len(scope_keys), before=before is not None),
                           [*params, limit])
        return [Episode.model_validate_json(str(r[0])) for r in rows]

    def scope_keys(self, tenant: str) -> list[str]:
        rows = self._query(sql.SCOPE_KEYS, (tenant, tenant))
        return [str(r[0]) for r in rows]

    def expired_episode_ids(self, tenant: str, now: datetime) -> list[str]:
        rows = self._query(sql.EXPIRED_EPISODE_IDS, (tenant, as_utc(now).isoformat()))
        return [str(r[0]) for r in rows]

    # -- reads: entities ------------------------------------------------------
    def get_entities(self, tenant: str, ids: list[str]) -> list[Entity]:
        with self._lock:
            found = [e for i in dict.fromkeys(ids) if (e := self._index.entity(tenant, i))]
            return [self._index.entity_with_embedding(e) for e in found]

    def find_entities(self, tenant: str, scope_keys: list[str], names: list[str]) -> list[Entity]:
        if not names or not scope_keys:
            return []
        rows = self._query(sql.entity_ids_named(len(names), len(scope_keys)),
                           [tenant, *names, *scope_keys])
        return self.get_entities(tenant, [str(r[0]) for r in rows])

    def find_entities_by_prefix(self, tenant: str, scope_keys: list[str], prefixes: list[str],
                                limit: int) -> list[Entity]:
        wanted = [p for p in dict.fromkeys(prefixes) if is_word(p)]
        if not wanted or not scope_keys:
            return []
        rows = self._query(sql.entity_ids_prefixed(len(wanted), len(scope_keys)),
                           [tenant, *scope_keys, *(f"{p}*" for p in wanted), limit])
        return self.get_entities(tenant, [str(r[0]) for r in rows])

    def vector_entities(self, tenant: str, scope_keys: list[str], embedding: list[float],
                        limit: int) -> list[Scored]:
        with self._lock:
            hits = self._index.nearest_entities(tenant, scope_keys, embedding, limit)
        return [Scored(id=i, score=s) for i, s in hits]

    def nearest_entities(self, tenant: str, scope_keys: list[str],
                         embeddings: list[list[float]], limit: int) -> list[list[ScoredEntity]]:
        with self._lock:
            found = []
            for vector in embeddings:
                hits = dict(self._index.nearest_entities(tenant, scope_keys, vector, limit))
                found.append([ScoredEntity(entity=self._index.entity_with_embedding(e),
                                           score=hits[e.id])
                              for i in hits if (e := self._index.entity(tenant, i))])
            return found

    def fulltext_entities(self, tenant: str, scope_keys: list[str], text: str,
                          limit: int) -> list[Scored]:
        with self._lock:  # one view of the tables for the whole ranking
            ranked = fulltext.ranked_rows(self._query, fulltext.ENTITIES, tenant, scope_keys, text)
            found = fulltext.ids_of(self._query, "entities", tenant, ranked[:limit])
        return [Scored(id=i, score=s) for i, s in found]

    # -- reads: facts ---------------------------------------------------------
    def _facts(self, statement: str, params: list[object]) -> list[Fact]:
        """The facts whose ids ``statement`` selects, in its order, from the parsed mirror."""
        rows = self._query(statement, params)
        with self._lock:
            return [f for (fid,) in rows if (f := self._index.facts.get(str(fid)))]

    def _embedded(self, facts: list[Fact]) -> list[Fact]:
        with self._lock:
            return [self._index.with_embedding(f) for f in facts]

    def get_facts(self, tenant: str, ids: list[str], *, embeddings: bool = True) -> list[Fact]:
        with self._lock:
            found = [f for i in dict.fromkeys(ids) if (f := self._index.fact(tenant, i))]
            return [self._index.with_embedding(f) for f in found] if embeddings else found

    def facts_in_timelines(self, tenant: str, timeline_keys: list[str]) -> list[Fact]:
        if not timeline_keys:
            return []
        return self._embedded(self._facts(sql.fact_ids_in_timelines(len(timeline_keys)),
                                          [tenant, *timeline_keys]))

    def timeline_versions(self, tenant: str, timeline_keys: list[str]) -> dict[str, int]:
        with self._lock:
            try:
                return writes.timeline_versions(self._db, tenant, list(dict.fromkeys(timeline_keys)))
            except sqlite3.Error as err:
                raise StoreError(f"embedded store read failed: {err}") from err

    def facts_of_episode(self, tenant: str, episode_id: str) -> list[Fact]:
        return self._embedded(self._facts(sql.FACT_IDS_OF_EPISODE, [tenant, episode_id]))

    def list_facts(self, tenant: str, query: FactQuery) -> list[Fact]:
        categories, statuses = query.categories or [], query.statuses or []
        predicates = query.predicates or []
        statement = sql.list_fact_ids(len(query.scope_keys), categories=len(categories),
                                      entity=bool(query.entity_id), statuses=len(statuses),
                                      predicates=len(predicates))
        params: list[object] = [tenant, *query.scope_keys, *(c.value for c in categories)]
        if query.entity_id:
            params += [query.entity_id, query.entity_id]
        params += [*(s.value for s in statuses), *predicates]
        now = utcnow()
        needle = query.text_contains.casefold() if query.text_contains else None
        keep = query.time.matches_time if query.statuses else query.time.matches
        facts = [
            f for f in self._facts(statement, params)
            if keep(f, now) and (needle is None or needle in f.text.casefold())
        ]
        return self._embedded(facts[query.offset: query.offset + query.limit])

    def facts_about(self, tenant: str, scope_keys: list[str], entity_ids: list[str],
                    time: TimeFilter, limit: int, *, embeddings: bool = True) -> list[Fact]:
        now = utcnow()
        best: list[Fact] = []
        with self._lock:
            for fact in self._index.facts_by_importance(entity_ids):
                if len(best) >= limit:
                    break
                if (fact.tenant == tenant and fact.scope_key in scope_keys
                        and time.matches(fact, now)):
                    best.append(fact)
        return self._embedded(best) if embeddings else best

    def record_access(self, tenant: str, fact_ids: list[str], at: datetime) -> None:
        # Read the current record and write it back under the store lock, touching
        # only the access fields, so a concurrent forget or merge is never undone.
        with self._lock:
            with self._transaction() as db:
                self._replay_others(db)
                counts = Counter(fact_ids)
                updated = [f.model_copy(update={"access_count": f.access_count + n,
                                                "last_accessed": at})
                           for i, n in counts.items() if (f := self._index.fact(tenant, i))]
                db.executemany(sql.UPDATE_FACT_DOC,
                               [(f.model_dump_json(exclude={"embedding"}), f.id, tenant)
                                for f in updated])
                seq = changes.record(db, changes.Changed(facts={f.id for f in updated}),
                                     self._mirror_seq)
            for fact in updated:
                self._index.replace_fact(fact)
            self._mirror_seq = seq

    # -- search channels ------------------------------------------------------
    def _filter_scored(self, tenant: str, scope_keys: list[str], ranked: list[tuple[str, float]],
                       time: TimeFilter, limit: int) -> list[Scored]:
        now = utcnow()
        out: list[Scored] = []
        with self._lock:
            for i, s in ranked:
                if len(out) == limit:
                    break
                f = self._index.fact(tenant, i)
                if f is not None and f.scope_key in scope_keys and time.matches(f, now):
                    out.append(Scored(id=i, score=s))
        return out

    def fulltext_facts(self, tenant: str, scope_keys: list[str], text: str, time: TimeFilter,
                       limit: int) -> list[Scored]:
        with self._lock:  # one view of the tables for the whole ranking
            ranked = fulltext.ranked_rows(self._query, fulltext.FACTS, tenant, scope_keys, text)
            depth = limit * OVERSAMPLE
            while True:
                found = fulltext.ids_of(self._query, "facts", tenant, ranked[:depth])
                kept = self._filter_scored(tenant, scope_keys, found, time, limit)
                if len(kept) >= limit or depth >= len(ranked):
                    return kept
                depth *= 4

    def vector_facts(self, tenant: str, scope_keys: list[str], embedding: list[float],
                     time: TimeFilter, limit: int) -> list[Scored]:
        # Exact search per scope; widen until enough candidates pass the time filter.
        depth = limit * OVERSAMPLE
        while True:
            with self._lock:
                ranked = self._index.nearest_facts(tenant, scope_keys, embedding, depth)
            kept = self._filter_scored(tenant, scope_keys, ranked, time, limit)
            if len(kept) >= limit or len(ranked) < depth:
                return kept
            depth *= 4

    def fulltext_turns(self, tenant: str, scope_keys: list[str], text: str,
                       limit: int, time: TimeFilter | None = None) -> list[TurnHit]:
        with self._lock:  # one view of the tables for the whole ranking
            ranked = fulltext.ranked_rows(self._query, fulltext.TURNS, tenant, scope_keys, text)

            def top(depth: int) -> turns.Ranked:
                return fulltext.turn_keys_of(self._query, tenant, ranked[:depth])

            return turns.visible_turns(top, partial(self._turns_episode, tenant), limit, time)

    def vector_turns(self, tenant: str, scope_keys: list[str], embedding: list[float],
                     limit: int, time: TimeFilter | None = None) -> list[TurnHit]:
        def ranked(depth: int) -> turns.Ranked:
            with self._lock:
                found = self._index.nearest_turns(tenant, scope_keys, embedding, depth)
            return [(*turns.split_turn_key(key), score) for key, score in found]

        return turns.visible_turns(ranked, partial(self._turns_episode, tenant), limit, time)

    def facts_of_episodes(self, tenant: str, episode_ids: list[str]) -> list[Fact]:
        if not episode_ids:
            return []
        return self._facts(sql.fact_ids_of_episodes(len(episode_ids)), [tenant, *episode_ids])

    def search_channels(self, tenant: str, plan: ChannelPlan) -> ChannelHits:
        with self._lock.checked():  # the file is asked once, not at each of a dozen lockings
            # in-process reads: nothing to compose
            return channels_by_parts(self, tenant, plan, self._walked_similarities)

    def prepare_searches(self, tenant: str, plans: list[ChannelPlan], *,
                         parallel: int = 1) -> None:
        """Nothing to prepare: SQLite plans a statement in microseconds, and the vectors and
        the full-text index are in memory from the start."""

    def _walked_similarities(self, facts: list[Fact], query: list[float]) -> dict[str, float]:
        with self._lock:
            return self._index.fact_similarities(facts, query)

    # -- housekeeping ---------------------------------------------------------
    def stats(self, tenant: str, scope_keys: list[str], now: datetime) -> StoreStats:
        n = len(scope_keys)
        params = [tenant, *scope_keys]
        stats = StoreStats(
            episodes=int(str(self._query(sql.count_episodes(n), params)[0][0])),
            entities=int(str(self._query(sql.count_entities(n), params)[0][0])),
        )
        for status, count in self._query(sql.count_facts_by_status(n), params):
            stats.facts_by_status[str(status)] = int(str(count))
        for category, count in self._query(sql.count_facts_by_category(n),
                                           [*params, FactStatus.ACTIVE.value]):
            stats.facts_by_category[str(category)] = int(str(count))
        current = TimeFilter()
        facts = self._facts(sql.fact_ids_in_scopes(n), list(params))
        stats.current_facts = sum(1 for f in facts if current.matches(f, now))
        return stats

    # -- reminders ------------------------------------------------------------
    def due_reminders(self, until: datetime, limit: int) -> list[Reminder]:
        rows = self._query(sql.DUE_REMINDERS, (writes.stamp(until), limit))
        return [Reminder(tenant=str(t), scope_key=str(k), todo_id=str(i),
                         remind_at=datetime.fromisoformat(str(at))) for t, k, i, at in rows]

    def claim_reminder(self, tenant: str, todo_id: str, at: datetime) -> bool:
        try:
            with self._transaction() as db:  # BEGIN IMMEDIATE: one writer, across processes too
                return db.execute(
                    sql.CLAIM_REMINDER, (writes.stamp(at), todo_id, tenant)).rowcount == 1
        except sqlite3.Error as err:
            raise StoreError(f"embedded store write failed, nothing was written: {err}") from err

    def ids_in_scope(self, tenant: str, scope_key: str) -> ScopeIds:
        return ScopeIds(**{kind: sorted(str(r[0]) for r in self._query(
            sql.IDS_IN_SCOPE[kind], (tenant, scope_key))) for kind in ("episodes", "entities")})

    def delete_scope(self, tenant: str, scope_key: str) -> int:
        ids = {
            kind: [str(r[0]) for r in self._query(statement, (tenant, scope_key))]
            for kind, statement in sql.IDS_IN_SCOPE.items()
        }
        reminders = [str(r[0]) for r in self._query(sql.REMINDER_IDS_IN_SCOPE, (tenant, scope_key))]
        self.write(tenant, WriteBatch(delete_fact_ids=sorted({*ids["facts"], *reminders}),
                                      delete_episode_ids=ids["episodes"],
                                      delete_entity_ids=ids["entities"]))
        with self._writing() as db:
            db.execute(sql.DELETE_TIMELINES_IN_SCOPE, (tenant, scope_key))
        return sum(len(v) for v in ids.values())

    def purge_deleted(self) -> None:
        try:
            with self._lock:
                for optimize in sql.OPTIMIZE_FTS:
                    self._db.execute(optimize)
                self._db.execute(sql.WAL_CHECKPOINT)
        except sqlite3.Error as err:
            raise StoreError(f"embedded store purge failed: {err}") from err

    # -- idempotent requests --------------------------------------------------
    def claim_request(self, tenant: str, request: StoredResponse, *, stale_before: datetime,
                      expire_before: datetime) -> StoredResponse | None:
        with self._writing() as db:
            return writes.claim_request(db, tenant, request, stale_before, expire_before)

    def finish_request(self, tenant: str, request: StoredResponse) -> None:
        with self._writing() as db:
            writes.put_request(db, tenant, request)

    def drop_requests(self, tenant: str, keys: list[str] | None = None) -> None:
        with self._writing() as db:
            writes.drop_requests(db, tenant, keys)
