"""Keep the embedded store's in-memory mirror in step with writes of other processes.

The mirror (parsed facts, graph, vectors) is built from the SQLite file when the
store opens and then follows this process's own writes. Another process may
write the same file: a ``graphmem ingest`` or ``forget`` run from the command
line beside a running server, or another API worker. SQLite tells a connection
when that happened: ``PRAGMA data_version`` changes when any *other* connection
commits. :class:`FreshLock` is the store's lock; each time a thread takes it
(not on re-entry) it asks, and when the file moved it has the store catch up:
reload the records the other process's writes changed (:mod:`.changes`), or the
whole mirror when the change log no longer reaches back that far. A store call
that takes the lock many times (a search's channels: a dozen) asks once, at its
start (:meth:`FreshLock.checked`): each asking is a statement on the write
connection, which lets go of the GIL and hands it to another thread. The question
costs a few microseconds; catching up costs a read of the changed rows.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType

DATA_VERSION = "PRAGMA data_version"


class FreshLock:
    """A re-entrant lock that has the mirror catch up when another connection committed.

    ``connection`` returns the store's open connection, or ``None`` while it is
    closed; ``catch_up`` brings the mirror up to the file and calls :meth:`mark_loaded`.
    Both run under the lock.
    """

    def __init__(self, connection: Callable[[], sqlite3.Connection | None],
                 catch_up: Callable[[], None]) -> None:
        self._lock = threading.RLock()
        self._connection = connection
        self._catch_up_mirror = catch_up
        self._depth = 0  # only changed while holding the lock
        self._seen: tuple[int, int] | None = None  # (id of the connection, its data_version)
        self._checked = threading.local()  # .active: inside checked() on this thread

    def __enter__(self) -> FreshLock:
        self._lock.acquire()
        self._depth += 1
        if self._depth == 1 and not getattr(self._checked, "active", False):
            try:
                self._catch_up()
            except BaseException:
                self._depth -= 1
                self._lock.release()
                raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._depth -= 1
        self._lock.release()

    @contextmanager
    def checked(self) -> Iterator[None]:
        """Catch up with the file now, then take the lock without asking until the block ends.

        The block sees other processes' writes as of its start, as one store call should;
        the lock itself is still taken and released around each use inside it.
        """
        with self:
            pass
        before = getattr(self._checked, "active", False)
        self._checked.active = True
        try:
            yield
        finally:
            self._checked.active = before

    def file_version(self) -> tuple[int, int] | None:
        """The file's version as the store's connection sees it (``None`` while closed)."""
        conn = self._connection()
        if conn is None:
            return None
        return id(conn), int(conn.execute(DATA_VERSION).fetchone()[0])

    def mark_loaded(self, version: tuple[int, int] | None) -> None:
        """The mirror was built from the file as of ``version`` (read before building)."""
        with self._lock:
            self._seen = version

    def _catch_up(self) -> None:
        now = self.file_version()
        if now is None or self._seen is None or now == self._seen:
            return
        self._catch_up_mirror()  # sets _seen through mark_loaded
