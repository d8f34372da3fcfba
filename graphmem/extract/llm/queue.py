"""A durable queue of episodes whose LLM extraction failed, to extract again later.

When the LLM is down the pipeline still stores the episode, without facts;
:class:`RetryQueue` remembers which episodes those were so a worker can
re-extract them once the endpoint is back. The queue is one SQLite file.
Every operation opens its own connection and runs in one transaction, so
several threads or processes can share a file and a crash loses nothing
committed; nothing is held between calls.

An entry names an episode only; a worker should read the episode from the
store and call :meth:`RetryQueue.done` also when it is gone (deleted, or
never written because the rest of its ingestion failed).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel

from graphmem.errors import StoreError
from graphmem.models import utcnow

#: Reasons are error messages; the first lines say all there is to say.
MAX_REASON_CHARS = 2000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS llm_retry (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant TEXT NOT NULL,
    episode_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    first_failed_at TEXT NOT NULL,
    last_failed_at TEXT NOT NULL,
    UNIQUE (tenant, episode_id)
)
"""


class QueuedEpisode(BaseModel):
    """An episode waiting for re-extraction; ``attempts`` counts its failures."""

    id: int
    tenant: str
    episode_id: str
    reason: str
    attempts: int
    first_failed_at: datetime
    last_failed_at: datetime


class RetryQueue:
    """Episodes to re-extract, in the order they first failed.

    >>> queue = RetryQueue(tmp_path / "llm-retry.db")  # doctest: +SKIP
    >>> queue.enqueue("acme", "ep_1", "LLM timed out")  # doctest: +SKIP
    1
    >>> [q.episode_id for q in queue.pending()]  # doctest: +SKIP
    ['ep_1']
    >>> queue.done(1)  # doctest: +SKIP
    True

    Enqueueing an episode that is already waiting keeps one entry and
    counts another attempt. The file and its directory are created on the
    first operation.
    """

    def __init__(self, path: str | Path, *, timeout: float = 5.0,
                 clock: Callable[[], datetime] = utcnow) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self.clock = clock

    def __repr__(self) -> str:
        return f"RetryQueue(path={str(self.path)!r})"

    def enqueue(self, tenant: str, episode_id: str, reason: str) -> int:
        """Record that ``episode_id`` needs extracting again; returns the entry's id."""
        now = self.clock().isoformat()
        with self._transaction() as conn:
            row = conn.execute(
                "INSERT INTO llm_retry (tenant, episode_id, reason, attempts, first_failed_at,"
                " last_failed_at) VALUES (?, ?, ?, 1, ?, ?)"
                " ON CONFLICT (tenant, episode_id) DO UPDATE SET reason = excluded.reason,"
                " attempts = attempts + 1, last_failed_at = excluded.last_failed_at"
                " RETURNING id",
                (tenant, episode_id, reason[:MAX_REASON_CHARS], now, now),
            ).fetchone()
        return int(row[0])

    def pending(self, limit: int | None = None) -> list[QueuedEpisode]:
        """Waiting entries, oldest first."""
        with self._transaction() as conn:
            rows = conn.execute(
                "SELECT id, tenant, episode_id, reason, attempts, first_failed_at, last_failed_at"
                " FROM llm_retry ORDER BY id LIMIT ?", (-1 if limit is None else limit,),
            ).fetchall()
        keys = ("id", "tenant", "episode_id", "reason", "attempts", "first_failed_at",
                "last_failed_at")
        return [QueuedEpisode.model_validate(dict(zip(keys, row, strict=True))) for row in rows]

    def done(self, entry_id: int) -> bool:
        """Remove an entry once its episode is extracted (or gone); False if it was not there."""
        with self._transaction() as conn:
            removed = conn.execute("DELETE FROM llm_retry WHERE id = ?", (entry_id,)).rowcount
        return removed > 0

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=self.timeout)
        except (OSError, sqlite3.Error) as err:
            raise StoreError(f"cannot open the LLM retry queue at {self.path}: {err}") from err
        try:
            with conn:  # one transaction: commit on success, roll back on error
                conn.execute(_SCHEMA)
                yield conn
        except sqlite3.Error as err:
            raise StoreError(f"LLM retry queue {self.path} failed: {err}") from err
        finally:
            conn.close()
