"""Access statistics of search results, written together off the search's hot path.

Writing on every search would take the store's write path once per query; a
recorder queues the found facts and one background flush, at most
``ACCESS_FLUSH_SECONDS`` later, writes many searches' worth. ``flush()`` writes
what waits now (tests, shutdown).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from graphmem.store.base import GraphStore

#: How long access statistics wait to be written together.
ACCESS_FLUSH_SECONDS = 0.5


class AccessRecorder:
    """Queues ``(tenant, fact ids, when)`` and writes them with ``store.record_access``."""

    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._pending: dict[str, list[str]] = {}
        self._pending_at: datetime | None = None
        self._scheduled = False
        self._now = threading.Event()  # set: what waits is written at once

    def record(self, tenant: str, fact_ids: list[str], now: datetime) -> None:
        if not fact_ids:
            return
        with self._lock:
            self._pending.setdefault(tenant, []).extend(fact_ids)
            self._pending_at = now
            if self._scheduled:
                return
            self._scheduled = True
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmem-access")
            self._pool.submit(self._write)

    def flush(self) -> None:
        """Write queued access statistics now."""
        with self._lock:
            pool = self._pool
            if self._scheduled:
                self._now.set()
        if pool is not None:
            pool.submit(lambda: None).result()

    def close(self) -> None:
        self._now.set()
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def _write(self) -> None:
        self._now.wait(ACCESS_FLUSH_SECONDS)
        with self._lock:
            self._now.clear()
            pending, self._pending = self._pending, {}
            at = self._pending_at
            self._scheduled = False
        for tenant, ids in pending.items():
            if at is not None:
                self.store.record_access(tenant, ids, at)
