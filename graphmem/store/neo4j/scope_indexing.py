"""Put a scope that grew large into the vector index beside the writes, not inside one.

A write that finds a scope at the store's ``exact_scan_limit`` marks the scope's clock due
and names it in its answer (:func:`graphmem.store.neo4j.vector_scopes.mark`).
:class:`ScopeIndexer` then labels the scope's nodes on its own thread, in transactions of
:data:`LABEL_BATCH` nodes, and flags the clock at the end
(:func:`graphmem.store.neo4j.vector_scopes.finish`). Until then readers rank the scope
exactly, so no search waits for it or misses a node; before this, the write that crossed
the limit waited 4.2-5.0 s while its 5,000 vectors went into the index.

Several processes may be told of the same scope: each job first claims the clock's mark
(:func:`graphmem.store.neo4j.vector_scopes.claim`) and renews it before each batch, so
one job labels it. A job stopped with its process leaves its mark to age; the next write
to the scope after :data:`CLAIM_SECONDS` hands it out again.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from neo4j import Record

from graphmem.store.neo4j import vector_scopes
from graphmem.store.neo4j.reads import Query

log = logging.getLogger(__name__)

#: Nodes labelled a transaction. Each batch's vectors enter the index at its commit, and
#: other writes' commits wait for it: with 1,000 a batch, one-fact writes to the scope
#: took up to 1.3 and 1.7 s while a 5,000-fact scope was labelled; with 250, at most 184
#: and 192 ms, and the whole job took 3.1 and 2.8 s instead of 3.4 and 6.9 (hash vectors,
#: local server, session 29; docs/neo4j-writes.md).
LABEL_BATCH = 250
#: How old a due mark must be before a write hands it out again (its job stopped).
CLAIM_SECONDS = 120.0


def now_ms() -> int:
    return int(time.time() * 1000)


class ScopeIndexer:
    """Labels due scopes on one thread of its own; ``write`` runs statements in one write
    transaction (the store's)."""

    def __init__(self, write: Callable[[list[Query]], list[list[Record]]], *,
                 batch: int = LABEL_BATCH) -> None:
        self._write = write
        self.batch = batch
        self._pool: ThreadPoolExecutor | None = None
        self._running: dict[tuple[str, str, str], Future[None]] = {}
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._failed = 0  # jobs ended by an error since the last wait()

    def submit(self, tenant: str, due: list[dict[str, Any]]) -> None:
        """Start a job for each ``{scopeKey, kind, due}`` of a write's answer, unless one of
        this process's jobs has it already."""
        for item in due:
            job = (tenant, str(item["scopeKey"]), str(item["kind"]))
            with self._lock:
                if job in self._running or self._closing.is_set():
                    continue  # closing: the mark stays for a later write
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(
                        max_workers=1, thread_name_prefix="graphmem-neo4j-indexing")
                future = self._pool.submit(self._label, *job, int(item["due"]))
                self._running[job] = future
            future.add_done_callback(functools.partial(self._done, job))

    def _done(self, job: tuple[str, str, str], future: Future[None]) -> None:
        error = None if future.cancelled() else future.exception()
        with self._lock:
            self._running.pop(job, None)
            self._failed += error is not None
        if error is not None:  # the mark stays: a later write hands the scope out again
            log.warning("labelling scope %s for the %s vector index failed: %s",
                        job[1], job[2], error)

    def _label(self, tenant: str, key: str, kind: str, seen: int) -> None:
        while not self._closing.is_set():
            claimed = max(now_ms(), seen + 1)
            if not self._write([vector_scopes.claim(tenant, key, kind, seen, claimed)])[0]:
                return  # another job has it, or it is done
            seen = claimed
            rows = self._write([vector_scopes.label_batch(tenant, key, kind, self.batch)])[0]
            if int(rows[0]["labelled"]) < self.batch:
                self._write([vector_scopes.finish(tenant, key, kind, seen)])
                return

    def wait(self, timeout: float = 60.0) -> bool:
        """Whether every job started so far ended within ``timeout`` seconds, and none of
        them (since the last call) by an error."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                running = list(self._running.values())
                if not running:
                    failed, self._failed = self._failed, 0
                    return not failed
            for future in running:
                try:
                    future.result(timeout=max(0.0, deadline - time.monotonic()))
                except TimeoutError:
                    return False
                except Exception:  # noqa: BLE001 - counted and logged by _done
                    pass

    def open(self) -> None:
        """Take jobs again (after :meth:`close`)."""
        self._closing.clear()

    def close(self) -> None:
        """Stop after the running job's current batch and take no new job; what is not
        labelled keeps its mark for a later write to hand out."""
        self._closing.set()
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
