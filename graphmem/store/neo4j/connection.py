"""How the Neo4j store talks to the server: driver, sessions, bookmarks, transactions.

Kept apart from :mod:`graphmem.store.neo4j.store` (what the store's methods ask)
because it is a different job: the store says which Cypher to run, this module
how it runs. Every query goes through :meth:`Neo4jConnection._read` or
:meth:`Neo4jConnection._write`: managed transactions, so the driver retries
transient errors (deadlocks, leader switches) for up to ``max_retry_time``
seconds, and one place that translates driver errors into graphmem's. Every
session shares one bookmark manager, so on a cluster (``neo4j://``) a read
routed to a reader waits until that reader has this process's last write.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from neo4j import Driver, GraphDatabase, ManagedTransaction, Record, Session
from neo4j.api import BookmarkManager
from neo4j.exceptions import DriverError, Neo4jError, ServiceUnavailable, SessionExpired

from graphmem.errors import StoreError, StoreUnavailableError, TimelineConflictError
from graphmem.settings import BOLT_SCHEMES
from graphmem.store.neo4j import records
from graphmem.store.neo4j.reads import Query

#: Threads that send the side queries of searches (one per search in flight).
SIDE_WORKERS = 8

#: What ``CREATE ... IF NOT EXISTS`` still raises when two processes create one index at once.
SCHEMA_RACES = frozenset({
    "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
    "Neo.ClientError.Schema.IndexAlreadyExists",
    "Neo.ClientError.Schema.ConstraintAlreadyExists",
})


class Neo4jConnection:
    """The driver of one Neo4j store and the one way its queries run; see the module docstring.

    :class:`~graphmem.store.neo4j.Neo4jStore` is one: its ``open()`` is
    :meth:`_connect` then the schema, and it adds the GraphStore methods.
    """

    def __init__(self, uri: str, user: str | None, password: str | None, *, database: str,
                 max_retry_time: float, connection_timeout: float) -> None:
        self.uri = uri
        self.user = user
        self._password = password
        self.database = database
        self.max_retry_time = max_retry_time
        self.connection_timeout = connection_timeout
        self._side_pool: ThreadPoolExecutor | None = None
        self._driver: Driver | None = None
        self._bookmarks: BookmarkManager = GraphDatabase.bookmark_manager()
        self._active = 0  # queries running now; close() waits for them, as embedded's lock does
        self._idle = threading.Condition()

    def _connect(self) -> bool:
        """Connect and verify the server answers; False if this store was connected already."""
        if self._driver is not None:
            return False
        if self.uri.split("://", 1)[0] not in BOLT_SCHEMES:
            raise StoreUnavailableError(
                f"cannot connect to Neo4j at {self.uri}: use a Bolt URI, one of "
                + ", ".join(f"{scheme}://" for scheme in BOLT_SCHEMES))
        auth = (self.user or "neo4j", self._password) if self._password is not None else None
        driver: Driver | None = None
        try:
            driver = GraphDatabase.driver(
                self.uri, auth=auth, max_transaction_retry_time=self.max_retry_time,
                connection_timeout=self.connection_timeout,
                # "no such label/property yet" is normal on a young database: no log line
                notifications_disabled_classifications=["UNRECOGNIZED"],
            )
            driver.verify_connectivity()
        except (Neo4jError, DriverError, OSError, ValueError) as err:
            if driver is not None:
                driver.close()
            raise StoreUnavailableError(
                f"cannot connect to Neo4j at {self.uri} as user {self.user!r}: {err}"
            ) from err
        self._driver = driver
        return True

    def close(self) -> None:
        """Refuse new queries, wait for running ones (on other threads), then disconnect."""
        with self._idle:
            driver, self._driver = self._driver, None
            self._idle.wait_for(lambda: self._active == 0, timeout=self.max_retry_time + 30)
            pool, self._side_pool = self._side_pool, None
        if pool is not None:
            pool.shutdown(wait=True)
        if driver is not None:
            driver.close()

    def server_version(self) -> str:
        """The Neo4j kernel version, e.g. ``5.26.30``."""
        rows = self._read(("CALL dbms.components() YIELD versions RETURN versions[0] AS v", {}))
        return str(rows[0]["v"])

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._idle:
            if self._driver is None:
                raise StoreUnavailableError("the Neo4j store is not open; call open() first")
            driver = self._driver
            self._active += 1
        try:
            with driver.session(database=self.database,
                                bookmark_manager=self._bookmarks) as session:
                yield session
        finally:
            with self._idle:
                self._active -= 1
                self._idle.notify_all()

    @contextmanager
    def _translated(self, action: str) -> Iterator[None]:
        try:
            yield
        except (ServiceUnavailable, SessionExpired) as err:
            raise StoreUnavailableError(
                f"Neo4j at {self.uri} is unavailable ({action}): {err}") from err
        except (Neo4jError, DriverError) as err:
            raise StoreError(f"Neo4j {action} failed: {err}") from err

    def _read(self, query: Query) -> list[Record]:
        text, params = query[0], records.utc_params(query[1])

        def work(tx: ManagedTransaction) -> list[Record]:
            return list(tx.run(text, params))

        with self._translated("read"), self._session() as session:
            return session.execute_read(work)

    def _write(self, statements: list[Query], *,
               guarded: bool = False) -> list[list[Record]]:
        """Run the statements in one transaction, retried as a whole on transient errors.

        ``guarded``: the first statement is a :func:`writes.in_one` whose
        ``conflicts`` name the timelines that changed since they were read; if
        there are any, the transaction is rolled back and the rest never run.
        """

        safe = [(text, records.utc_params(params)) for text, params in statements]

        def work(tx: ManagedTransaction) -> list[list[Record]]:
            done: list[list[Record]] = []
            for text, params in safe:
                done.append(list(tx.run(text, params)))
                if guarded and len(done) == 1 and done[0][0]["conflicts"]:
                    raise TimelineConflictError(sorted(done[0][0]["conflicts"]))
            return done

        with self._translated("write"), self._session() as session:
            return session.execute_write(work)

    def _run_schema(self, text: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        try:
            return [record.data() for record in self._write([(text, params)])[0]]
        except StoreError as err:
            cause = err.__cause__
            if isinstance(cause, Neo4jError) and cause.code in SCHEMA_RACES:
                return []  # another process (a worker starting beside this one) made it first
            raise

    def _side_reads(self) -> ThreadPoolExecutor:
        with self._idle:
            if self._side_pool is None:
                self._side_pool = ThreadPoolExecutor(max_workers=SIDE_WORKERS,
                                                     thread_name_prefix="graphmem-neo4j-side")
            return self._side_pool
