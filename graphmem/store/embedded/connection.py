"""The embedded store's file and its in-memory mirror: opening, the schema's version and
migrations, transactions, and catching up with other processes' writes.

:class:`~graphmem.store.embedded.EmbeddedStore` is one: it adds the GraphStore methods, as
:class:`~graphmem.store.neo4j.connection.Neo4jConnection` is the Neo4j store's base. Every
read and write takes :attr:`EmbeddedConnection._lock`, which notices another process's
commit and reloads what it changed (:mod:`.freshness`, :mod:`.changes`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from graphmem.errors import SchemaError, StoreError, StoreUnavailableError
from graphmem.store.embedded import changes, sql, writes
from graphmem.store.embedded.freshness import FreshLock
from graphmem.store.embedded.index import EmbeddedIndex


class EmbeddedConnection:
    """The SQLite file of one embedded store and the mirror of it in memory."""

    def __init__(self, path: str | Path, embedding_dim: int) -> None:
        self.path = Path(path)
        self.embedding_dim = embedding_dim
        self._conn: sqlite3.Connection | None = None
        self._index = EmbeddedIndex(embedding_dim)
        # Every read and write takes this lock; it rebuilds the mirror when another
        # process wrote the file since (see freshness.py).
        self._lock = FreshLock(lambda: self._conn, self._catch_up)
        self._mirror_seq = 0  # the newest row of the change log the mirror holds

    # -- lifecycle ------------------------------------------------------------
    def open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            for pragma in sql.OPEN_PRAGMAS:
                conn.execute(pragma)
            conn.executescript(sql.SCHEMA)
        except (sqlite3.Error, OSError) as err:
            raise StoreUnavailableError(f"cannot open the embedded store at {self.path}: {err}") from err
        self._conn = conn
        self._check_version()
        self._load_memory_indexes()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _check_version(self) -> None:
        row = self._db.execute(sql.SELECT_SCHEMA_VERSION).fetchone()
        if row is None:
            self._db.execute(sql.INSERT_SCHEMA_VERSION, (str(sql.SCHEMA_VERSION),))
            self._db.execute(sql.INSERT_EMBEDDING_DIM, (str(self.embedding_dim),))
            return
        if int(row[0]) > sql.SCHEMA_VERSION:
            raise SchemaError(
                f"{self.path} has schema version {row[0]}, newer than this graphmem "
                f"({sql.SCHEMA_VERSION}); upgrade graphmem"
            )
        if int(row[0]) < sql.SCHEMA_VERSION:
            self._migrate(int(row[0]))
        dim = self._db.execute(sql.SELECT_EMBEDDING_DIM).fetchone()
        if dim is not None and int(dim[0]) != self.embedding_dim:
            raise SchemaError(
                f"{self.path} holds {dim[0]}-dimensional embeddings but the configured embedder "
                f"makes {self.embedding_dim}; use another file or the same embedder"
            )

    def _migrate(self, version: int) -> None:
        """Bring an older file up to :data:`sql.SCHEMA_VERSION`, in one transaction."""
        with self._transaction() as db:
            if version < 2:
                writes.rebuild_full_text(db)
            if version < 3:
                writes.rebuild_entity_text(db)
            db.execute(sql.UPDATE_SCHEMA_VERSION, (str(sql.SCHEMA_VERSION),))

    def _load_memory_indexes(self) -> None:
        version = self._lock.file_version()  # before reading: a commit during the load shows
        seq = changes.last(self._db)  # likewise: rows after it are replayed
        index = EmbeddedIndex(self.embedding_dim)
        index.load(self._db)
        self._index = index
        self._mirror_seq = seq
        self._lock.mark_loaded(version)

    def _catch_up(self) -> None:
        """Another process committed: reload what its writes changed (the change log), or
        the whole mirror when the log no longer reaches back to the mirror's last row."""
        version = self._lock.file_version()
        found = changes.since(self._db, self._mirror_seq)
        if found is None:
            self._load_memory_indexes()
            return
        changed, seq = found
        if changed:
            self._index.refresh(self._db, changed)
        self._mirror_seq = seq
        self._lock.mark_loaded(version)

    def _replay_others(self, db: sqlite3.Connection) -> None:
        """Inside a write transaction (the write lock held, so no other row lands before the
        commit): replay the rows other processes logged since the mirror's last one, so what
        the transaction reads from the mirror (access statistics) is the file's. A batch
        decided earlier is guarded by its timelines' versions (docs/scale-out.md)."""
        if changes.last(db) != self._mirror_seq:
            self._catch_up()

    @property
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreUnavailableError("the embedded store is not open; call open() first")
        return self._conn

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            db = self._db
            db.execute(sql.BEGIN)
            try:
                yield db
            except BaseException:
                db.execute(sql.ROLLBACK)
                raise
            db.execute(sql.COMMIT)

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """A transaction whose SQLite errors become :class:`StoreError`."""
        try:
            with self._transaction() as db:
                yield db
        except sqlite3.Error as err:
            raise StoreError(f"embedded store write failed, nothing was written: {err}") from err

    # -- reads ----------------------------------------------------------------
    def _query(self, statement: str, params: Iterable[object] = ()) -> list[tuple[object, ...]]:
        with self._lock:
            try:
                return self._db.execute(statement, tuple(params)).fetchall()
            except sqlite3.Error as err:
                raise StoreError(f"embedded store read failed: {err}") from err
