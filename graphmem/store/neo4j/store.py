"""The Neo4j store: the same contract as the embedded store, on a Neo4j 5.26+ server.

This module holds the GraphStore methods: which Cypher each one runs and how its
rows become models. How a query runs (driver, sessions, transactions, retries,
errors) is :mod:`graphmem.store.neo4j.connection`; the Cypher itself is data in
:mod:`.reads`, :mod:`.writes`, :mod:`.search_reads`, :mod:`.resolution` and
:mod:`.search` (one search in one query).

The graph is meant to be explored in Neo4j Browser (see :mod:`graphmem.store.neo4j.reads`
for its shape): each fact is a ``(:Fact)`` node, for provenance and search, and
also a relationship named after its predicate between its two entities, so
``MATCH (p:Entity {name: 'Alice'})-[r:WORKS_AT]->(o) WHERE r.validUntil IS NULL
RETURN p, r, o`` answers "where does Alice work". Both are written in one
transaction and never disagree.

Example::

    store = Neo4jStore("bolt://127.0.0.1:7687", "neo4j", "secret", embedding_dim=384)
    store.open()        # connects, checks the schema, waits for indexes
    ...
    store.close()
"""

from __future__ import annotations

import uuid
import time as clock
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from graphmem.models import Entity, Episode, Fact, FactStatus, utcnow
from graphmem.names import is_word
from graphmem.store.neo4j import reads, reminders, requests, resolution, schema, search
from graphmem.store.neo4j import plans, records, scope_clocks, search_reads, timelines, writes
from graphmem.store.neo4j import nearest, scope_indexing, vector_scopes
from graphmem.store.neo4j.nearest import EXACT_SCAN_LIMIT
from graphmem.store.neo4j.cached_ranking import CachedRanking
from graphmem.store.neo4j.connection import Neo4jConnection
from graphmem.store.neo4j.vector_cache import VectorCache
from graphmem.store.base import ChannelHits, ChannelPlan, FactQuery, Reminder, Scored
from graphmem.store.base import ScoredEntity
from graphmem.store.base import ScopeIds, StoredResponse, StoreStats
from graphmem.store.base import TurnHit, WriteBatch
from graphmem.temporal import TimeFilter, timeline_scope

#: Lucene refuses queries of more than 1024 clauses; name lookups go in chunks.
NAMES_PER_LOOKUP = 256
#: The share of a scope's vectors a search ranks in a second transaction beside its one query
#: (``search.side_channels``), so that two server threads share the work. At 100k facts
#: (2,000 a scope) ranking the whole scope by its sketches takes about 12 ms of server time
#: and the rest of the query about 25, so the side takes all of the ranking (and the main
#: query reads no vector of the scope): 1.0 against 0.85, 300 searches each, interleaved,
#: p50 37.6 / 35.1 against 42.9 / 42.3 ms, p95 49.7 / 45.1 against 56.8 / 56.0 (0.7: p95
#: 62.7-67.9; None, one query on one thread: p95 71.2-75.0). Before sketches 0.85 was best
#: of 0.75, 0.85 and 0.9. None: one query, one thread.
SIDE_SHARE = 1.0
#: Vectors a process keeps copies of to rank scopes itself (:mod:`.vector_cache`): 200k
#: vectors of 384 floats take about 300 MB. 0: the server ranks every search.
VECTOR_CACHE_ROWS = 200_000
#: Changed nodes of a scope a search reads at most (more: the copy is made again, beside).
MOST_CHANGES = 500


class Neo4jStore(Neo4jConnection):
    """GraphStore on Neo4j; see the module docstring."""

    parallel_reads = True  # each read is its own session on the server

    def __init__(self, uri: str, user: str | None = "neo4j", password: str | None = None,
                 embedding_dim: int = 384, *, database: str = "neo4j",
                 max_retry_time: float = 15.0, connection_timeout: float = 10.0,
                 index_wait_seconds: int = 300,
                 exact_scan_limit: int = EXACT_SCAN_LIMIT,
                 side_share: float | None = SIDE_SHARE,
                 sketch_shortlist: int | None = None,
                 replan_check_seconds: float = 30.0,
                 vector_cache_rows: int = VECTOR_CACHE_ROWS,
                 most_changes: int = MOST_CHANGES) -> None:
        super().__init__(uri, user, password, database=database,
                         max_retry_time=max_retry_time, connection_timeout=connection_timeout)
        self.embedding_dim = embedding_dim
        self.index_wait_seconds = index_wait_seconds
        self.exact_scan_limit = exact_scan_limit
        self.side_share = side_share
        # nodes a large scope's sketches keep for exact ranking (None: by the hits asked
        # for; 0: rank by the whole vectors alone); see sketch.py
        self.sketch_shortlist = sketch_shortlist
        # scopes' vectors ranked in this process, kept current by scope clocks
        self.cached_ranking = CachedRanking(
            VectorCache(embedding_dim, vector_cache_rows), self._read,
            lambda work: self._side_reads().submit(work), most_changes=most_changes,
            exact_scan_limit=exact_scan_limit) if vector_cache_rows > 0 else None
        # a scope that grew large is put into the vector index beside the writes
        self.indexing = scope_indexing.ScopeIndexer(self._write)
        # the search's kept plans are made again as the store grows (see plans.py)
        self.replanner = plans.Replanner(
            lambda: int(self._read(plans.COUNT_FACTS)[0]["n"]), self._read,
            check_every=replan_check_seconds)

    # -- lifecycle ------------------------------------------------------------
    def open(self) -> None:
        """Connect, verify the server answers, and bring the schema up to date (idempotent)."""
        if not self._connect():
            return
        self.indexing.open()
        try:
            schema.ensure_schema(self._run_schema, self.embedding_dim,
                                 index_from=self.exact_scan_limit,
                                 await_seconds=self.index_wait_seconds)
            # the batch write's one query is run now, empty (it writes nothing), so the first
            # write a user waits on finds it planned and compiled: about 3 s on a fresh server,
            # 10 ms once the server has it. Planning it alone (EXPLAIN) left 0.6 s to the first
            # write, the runtime's compiled form (docs/neo4j-writes.md).
            self._write([self._batch_query("", WriteBatch())])
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self.indexing.close()
        super().close()

    # -- writes ---------------------------------------------------------------
    def write(self, tenant: str, batch: WriteBatch) -> None:
        if batch.is_empty():
            return
        batch.refuse_foreign(tenant, self.embedding_dim)
        statements = [self._batch_query(tenant, batch)]
        typed = [{"id": f.id, "type": f.predicate} for f in batch.facts
                 if f.status is not FactStatus.RETRACTION]
        if typed:
            # apart, and planned as usual: see writes.link_fact_relationships
            statements.append(writes.link_fact_relationships(tenant, typed))
        done = self._write(statements, guarded=True)
        self.indexing.submit(tenant, done[0][0]["due"])

    def _batch_query(self, tenant: str, batch: WriteBatch) -> reads.Query:
        """The batch's one query: its text is the same for every batch (see
        :func:`writes.in_one`), so the server plans it once. Its last part
        (:func:`vector_scopes.mark`) answers the scopes to put into the vector index
        (:mod:`.scope_indexing`) as ``due``."""
        now = scope_indexing.now_ms()
        episodes = [records.episode_row(e, batch.turn_vectors.get(e.id)) for e in batch.episodes]
        written = scope_clocks.stamped(batch, episodes)
        return writes.in_one(
            self._batch_statements(tenant, batch, episodes, written),
            guard=self._timeline_lock(tenant, batch),
            result=(vector_scopes.mark(tenant, written, self.exact_scan_limit, now,
                                       int(scope_indexing.CLAIM_SECONDS * 1000)), "due"))

    @staticmethod
    def _timeline_lock(tenant: str, batch: WriteBatch) -> reads.Query:
        rows: dict[str, dict[str, Any]] = {
            key: {"key": key, "scopeKey": timeline_scope(key), "expected": version}
            for key, version in batch.timeline_versions.items()}
        for fact in batch.facts:
            rows.setdefault(fact.timeline_key, {"key": fact.timeline_key,
                                                "scopeKey": fact.scope_key, "expected": None})
        return timelines.lock(tenant, [rows[k] for k in sorted(rows)], batch.delete_fact_ids)

    def _batch_statements(self, tenant: str, batch: WriteBatch, episodes: list[dict[str, Any]],
                          written: list[dict[str, Any]]) -> list[reads.Query]:
        """Every kind of record's statement, in order, those with nothing to write as well: one
        query text for every batch, so Neo4j plans it once (see :func:`writes.in_one`).
        ``episodes``: the batch's episode rows; ``written``: its rows for the scope clocks
        (:func:`scope_clocks.stamped`)."""
        seq = clock.time_ns()
        return [
            writes.delete_facts(tenant, batch.delete_fact_ids),
            reminders.delete_of_facts(tenant, batch.delete_fact_ids),
            writes.delete_episodes(tenant, batch.delete_episode_ids),
            writes.delete_entities(tenant, batch.delete_entity_ids),
            writes.upsert_episodes(episodes),
            writes.upsert_entities([records.entity_row(e) for e in batch.entities]),
            writes.upsert_fact_nodes(
                [records.fact_row(f, seq + i) for i, f in enumerate(batch.facts)]),
            writes.link_facts(tenant, [f.id for f in batch.facts]),
            reminders.schedule(tenant, [
                {"todoId": r.todo_id, "scopeKey": r.scope_key, "remindAt": r.remind_at,
                 "sentAt": r.sent_at} for r in batch.reminders]),
            writes.upsert_mentions(tenant, [{"episodeId": m.episode_id, "entityId": m.entity_id}
                                            for m in batch.mentions]),
            scope_clocks.stamp(tenant, written),
        ]

    # -- reads: episodes ------------------------------------------------------
    def get_episode(self, tenant: str, episode_id: str) -> Episode | None:
        rows = self._read(reads.get_episode(tenant, episode_id))
        return records.episode_from(rows[0]["e"]) if rows else None

    def find_episode(self, tenant: str, scope_key: str, client_id: str) -> Episode | None:
        rows = self._read(reads.find_episode(tenant, scope_key, client_id))
        return records.episode_from(rows[0]["e"]) if rows else None

    def episodes_by_client_id(self, tenant: str, client_id: str) -> list[Episode]:
        rows = self._read(reads.episodes_by_client_id(tenant, client_id))
        return [records.episode_from(r["e"]) for r in rows]

    def list_episodes(self, tenant: str, scope_keys: list[str], *, limit: int = 50,
                      before: datetime | None = None) -> list[Episode]:
        if not scope_keys:
            return []
        rows = self._read(reads.list_episodes(tenant, scope_keys, limit, before))
        return [records.episode_from(r["e"]) for r in rows]

    def scope_keys(self, tenant: str) -> list[str]:
        return [str(r["key"]) for r in self._read(reads.scope_keys(tenant))]

    def expired_episode_ids(self, tenant: str, now: datetime) -> list[str]:
        return [str(r["id"]) for r in self._read(reads.expired_episode_ids(tenant, now))]

    # -- reads: entities ------------------------------------------------------
    def get_entities(self, tenant: str, ids: list[str]) -> list[Entity]:
        if not ids:
            return []
        rows = self._read(reads.get_entities(tenant, records.unique(ids)))
        return [records.entity_from(r["n"]) for r in rows]

    def find_entities(self, tenant: str, scope_keys: list[str], names: list[str]) -> list[Entity]:
        wanted = records.unique([n for n in names if n])
        if not wanted or not scope_keys:
            return []
        found: dict[str, Entity] = {}
        for start in range(0, len(wanted), NAMES_PER_LOOKUP):
            chunk = wanted[start:start + NAMES_PER_LOOKUP]
            for row in self._read(resolution.find_entities(tenant, scope_keys, chunk)):
                entity = records.entity_from(row["n"])
                found[entity.id] = entity
        return list(found.values())

    def find_entities_by_prefix(self, tenant: str, scope_keys: list[str], prefixes: list[str],
                                limit: int) -> list[Entity]:
        wanted = [p for p in records.unique(prefixes) if is_word(p)]
        if not wanted or not scope_keys:
            return []
        rows = self._read(resolution.find_entities_by_prefix(tenant, scope_keys, wanted, limit))
        return [records.entity_from(r["n"]) for r in rows]

    def vector_entities(self, tenant: str, scope_keys: list[str], embedding: list[float],
                        limit: int) -> list[Scored]:
        return self._nearest(reads.ENTITY_VECTOR_INDEX, tenant, scope_keys, embedding, limit)

    def nearest_entities(self, tenant: str, scope_keys: list[str],
                         embeddings: list[list[float]], limit: int) -> list[list[ScoredEntity]]:
        return nearest.nearest_entities(self._read, self._vector_rule(), tenant, scope_keys,
                                        embeddings, limit)

    def fulltext_entities(self, tenant: str, scope_keys: list[str], text: str,
                          limit: int) -> list[Scored]:
        terms = search_reads.lucene_terms(
            text, search_reads.TEXT_FIELD_WEIGHTS[reads.ENTITY_TEXT_INDEX])
        if not terms or not scope_keys or limit <= 0:
            return []
        rows = self._read(search_reads.fulltext_search(reads.ENTITY_TEXT_INDEX, tenant,
                                                        scope_keys, terms, limit))
        return [Scored(id=str(r["id"]), score=float(r["score"])) for r in rows]

    # -- reads: facts ---------------------------------------------------------
    def get_facts(self, tenant: str, ids: list[str], *, embeddings: bool = True) -> list[Fact]:
        if not ids:
            return []
        by_id = {f.id: f for f in self._facts(reads.get_facts(tenant, records.unique(ids),
                                                               embeddings))}
        return [by_id[i] for i in ids if i in by_id]

    def facts_in_timelines(self, tenant: str, timeline_keys: list[str]) -> list[Fact]:
        if not timeline_keys:
            return []
        return self._facts(reads.facts_in_timelines(tenant, records.unique(timeline_keys)))

    def timeline_versions(self, tenant: str, timeline_keys: list[str]) -> dict[str, int]:
        if not timeline_keys:
            return {}
        keys = records.unique(timeline_keys)
        found = {str(r["key"]): int(r["version"]) for r in self._read(timelines.versions(tenant, keys))}
        return {key: found.get(key, 0) for key in keys}

    def facts_of_episode(self, tenant: str, episode_id: str) -> list[Fact]:
        return self._facts(reads.facts_of_episode(tenant, episode_id))

    def list_facts(self, tenant: str, query: FactQuery) -> list[Fact]:
        if not query.scope_keys:
            return []
        return self._facts(reads.list_facts(
            tenant, query.scope_keys, query.time, utcnow(),
            categories=[c.value for c in query.categories] if query.categories else None,
            statuses=[s.value for s in query.statuses] if query.statuses else None,
            predicates=query.predicates or None, entity_id=query.entity_id,
            text_contains=query.text_contains, limit=query.limit, offset=query.offset,
        ))

    def facts_about(self, tenant: str, scope_keys: list[str], entity_ids: list[str],
                    time: TimeFilter, limit: int, *, embeddings: bool = True) -> list[Fact]:
        if not entity_ids or not scope_keys or limit <= 0:
            return []
        return self._facts(reads.facts_about(tenant, scope_keys, records.unique(entity_ids), time,
                                              utcnow(), limit, embeddings))

    def record_access(self, tenant: str, fact_ids: list[str], at: datetime) -> None:
        if fact_ids:
            self._write([writes.record_access(tenant, list(fact_ids), at)])

    def _facts(self, query: reads.Query) -> list[Fact]:
        return [records.fact_from(r["f"]) for r in self._read(query)]

    # -- search channels ------------------------------------------------------
    def fulltext_facts(self, tenant: str, scope_keys: list[str], text: str, time: TimeFilter,
                       limit: int) -> list[Scored]:
        terms = search_reads.lucene_terms(
            text, search_reads.TEXT_FIELD_WEIGHTS[reads.FACT_TEXT_INDEX])
        if not terms or not scope_keys or limit <= 0:
            return []
        rows = self._read(search_reads.fulltext_search(reads.FACT_TEXT_INDEX, tenant,
                                                        scope_keys, terms, limit, time, utcnow()))
        return [Scored(id=str(r["id"]), score=float(r["score"])) for r in rows]

    def vector_facts(self, tenant: str, scope_keys: list[str], embedding: list[float],
                     time: TimeFilter, limit: int) -> list[Scored]:
        return self._nearest(reads.FACT_VECTOR_INDEX, tenant, scope_keys, embedding, limit,
                             time)

    def _nearest(self, index: str, tenant: str, scope_keys: list[str], embedding: list[float],
                 limit: int, time: TimeFilter | None = None) -> list[Scored]:
        return nearest.nearest(self._read, self._vector_rule(), index, tenant, scope_keys,
                               embedding, limit, time)

    def _vector_rule(self) -> search.VectorRule:
        """The vector rule at this store's settings, which tests may change after opening."""
        return nearest.rule(self.exact_scan_limit, self.sketch_shortlist)

    def fulltext_turns(self, tenant: str, scope_keys: list[str], text: str,
                       limit: int, time: TimeFilter | None = None) -> list[TurnHit]:
        terms = search_reads.lucene_terms(text, search_reads.TURN_FIELD_WEIGHTS)
        if not terms or not scope_keys or limit <= 0:
            return []
        return [records.turn_hit(r, float(r["score"])) for r in self._read(
            search_reads.fulltext_turns(tenant, scope_keys, terms, limit, time))]

    def vector_turns(self, tenant: str, scope_keys: list[str], embedding: list[float],
                     limit: int, time: TimeFilter | None = None) -> list[TurnHit]:
        hits = self._nearest(reads.MESSAGE_VECTOR_INDEX, tenant, scope_keys, embedding, limit,
                             time)
        if not hits:
            return []
        turns = {r["id"]: r
                 for r in self._read(search_reads.get_turns(tenant, [h.id for h in hits]))}
        return [records.turn_hit(turns[h.id], h.score) for h in hits if h.id in turns]

    def facts_of_episodes(self, tenant: str, episode_ids: list[str]) -> list[Fact]:
        if not episode_ids:
            return []
        return self._facts(reads.facts_of_episodes(tenant, episode_ids))

    def search_channels(self, tenant: str, plan: ChannelPlan) -> ChannelHits:
        """Every channel in one query (:func:`graphmem.store.neo4j.search.channels`). Its
        vectors are ranked in this process when the scopes have copies here
        (:mod:`.cached_ranking`); otherwise, with ``side_share``, a second query at the same
        time ranks part of the scope's vectors (:func:`.search.side_channels`), on another
        server thread."""
        if not plan.scope_keys:
            return ChannelHits()
        now = utcnow()
        ranking = self.cached_ranking if any(plan.embedding) else None
        cached = ranking.candidates(tenant, plan) if ranking is not None else None
        if ranking is not None and cached is not None:
            query = self._copied_search(tenant, plan, now, cached)
            row = dict(self._read(query)[0])
            if ranking.absorb(tenant, row, plan, cached):
                self._searched([query])
                return search.channel_hits(row, plan)
        query, side_query = self._server_search(tenant, plan, now)
        side = self._side_reads().submit(self._read, side_query) if side_query else None
        row = dict(self._read(query)[0])
        if side is not None:
            search.join_side(row, side.result()[0], plan)
        self._searched([query, *([side_query] if side_query else [])])
        return search.channel_hits(row, plan)

    def prepare_searches(self, tenant: str, plans: list[ChannelPlan], *,
                         parallel: int = 1) -> None:
        """Run once every query :meth:`search_channels` may send for ``plans``: the one that
        checks the process's vector copy and the ones that rank on the server. Neo4j plans a
        query on its first run, 3-7 s for the search's (docs/neo4j-search-plan.md), and
        keeps the plan for every process on that server; an ``EXPLAIN`` alone left a second.
        ``tenant`` should hold nothing, so that each run reads next to nothing.
        ``parallel``: queries planned at once (planning takes one server core each)."""
        now = utcnow()
        queries: dict[str, reads.Query] = {}
        for plan in plans:
            if not plan.scope_keys:
                continue
            shapes = list(self._server_search(tenant, plan, now))
            if self.cached_ranking is not None and any(plan.embedding):
                shapes.append(self._copied_search(
                    tenant, plan, now, self.cached_ranking.placeholder(plan)))
            for query in shapes:
                if query is not None:
                    queries.setdefault(query[0], query)
        with ThreadPoolExecutor(max_workers=max(parallel, 1),
                                thread_name_prefix="graphmem-prepare") as pool:
            list(pool.map(self._read, queries.values()))

    def _copied_search(self, tenant: str, plan: ChannelPlan, now: datetime,
                       cached: search.Candidates) -> reads.Query:
        """The search's one query when the process's copy ranked its vector candidates."""
        return search.channels(tenant, plan, now, self._vector_rule(),
                               names_per_lookup=NAMES_PER_LOOKUP, candidates=cached)

    def _server_search(self, tenant: str, plan: ChannelPlan,
                       now: datetime) -> tuple[reads.Query, reads.Query | None]:
        """The search's query when the server ranks the vectors, and with ``side_share`` the
        query sent beside it that ranks the other part of the scopes."""
        rule = self._vector_rule()
        share = self.side_share if any(plan.embedding) else None
        side = search.side_channels(tenant, plan, now, rule, share) if share else None
        return search.channels(tenant, plan, now, rule, names_per_lookup=NAMES_PER_LOOKUP,
                               side_share=share or None), side

    def _searched(self, queries: list[reads.Query]) -> None:
        """Tell the replanner which queries a search ran; it may plan them again beside."""
        if self.replanner.searched(queries):
            self._side_reads().submit(self.replanner.replan_if_grown).add_done_callback(
                plans.log_failure)

    # -- housekeeping ---------------------------------------------------------
    def stats(self, tenant: str, scope_keys: list[str], now: datetime) -> StoreStats:
        counts = self._read(reads.count_episodes_entities(tenant, scope_keys))[0]
        stats = StoreStats(episodes=int(counts["episodes"]), entities=int(counts["entities"]))
        for row in self._read(reads.fact_counts(tenant, scope_keys, now)):
            status, category, count = str(row["status"]), str(row["category"]), int(row["count"])
            stats.facts_by_status[status] = stats.facts_by_status.get(status, 0) + count
            if status == "active":
                stats.facts_by_category[category] = stats.facts_by_category.get(category, 0) + count
            stats.current_facts += int(row["current"])
        return stats

    # -- reminders ------------------------------------------------------------
    def due_reminders(self, until: datetime, limit: int) -> list[Reminder]:
        rows = self._read(reminders.due(until, limit))
        return [Reminder(tenant=r["tenant"], scope_key=r["scopeKey"], todo_id=r["todoId"],
                         remind_at=records.required_datetime(r["remindAt"])) for r in rows]

    def claim_reminder(self, tenant: str, todo_id: str, at: datetime) -> bool:
        rows = self._write([reminders.claim(tenant, todo_id, at)])[0]
        return bool(rows and rows[0]["won"])

    def ids_in_scope(self, tenant: str, scope_key: str) -> ScopeIds:
        return ScopeIds(**{kind: [str(r["id"]) for r in self._read(
            reads.ids_in_scope(label, tenant, scope_key))]
            for kind, label in (("episodes", "Episode"), ("entities", "Entity"))})

    def delete_scope(self, tenant: str, scope_key: str) -> int:
        results = self._write([*writes.delete_scope(tenant, scope_key),
                               reminders.delete_of_scope(tenant, scope_key)])
        return sum(int(rows[0]["deleted"]) for rows in results if rows)

    def purge_deleted(self) -> None:
        """Nothing to do from a client: deleted nodes stay in the transaction log files until
        they rotate out (``db.tx_log.rotation.retention_policy``; see docs/neo4j-local.md)."""

    # -- idempotent requests --------------------------------------------------
    def claim_request(self, tenant: str, request: StoredResponse, *, stale_before: datetime,
                      expire_before: datetime) -> StoredResponse | None:
        [*_, [row]] = self._write([
            requests.expire_requests(tenant, expire_before),
            requests.release_stale(tenant, request.key, stale_before),
            requests.claim_request(tenant, request, uuid.uuid4().hex)])
        return None if row["claimed"] else StoredResponse.model_validate_json(row["doc"])

    def finish_request(self, tenant: str, request: StoredResponse) -> None:
        self._write([requests.finish_request(tenant, request)])

    def drop_requests(self, tenant: str, keys: list[str] | None = None) -> None:
        self._write([requests.drop_requests(tenant, keys)])

