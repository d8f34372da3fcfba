"""A real Neo4j for the test suite, found or started once per session.

Where the server comes from, first match wins:

1. ``NEO4J_URI`` (with ``NEO4J_USER`` / ``NEO4J_PASSWORD``): a server you run yourself.
   ``clean_neo4j`` wipes it, so never point this at data you care about.
2. A reachable Docker engine: testcontainers' ``neo4j:5.26-community``.
3. graphmem's own launcher (:class:`graphmem.neo4j_local.LocalNeo4j`): free ports,
   auth off, a temporary data folder, stopped at the end of the session.

If none gives a server, the Neo4j tests fail when ``CI=true`` (a CI run must prove the
Neo4j path, never skip it silently) and are skipped elsewhere.
"""

from __future__ import annotations

import os
import socket
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NoReturn

import neo4j
import pytest

from graphmem.errors import SetupError
from graphmem.neo4j_local import LocalNeo4j, LocalNeo4jConfig
from graphmem.neo4j_local.system import free_ports
from tests.processes import unavailable

__all__ = ["Neo4jServer", "browse", "clean_neo4j", "free_ports", "neo4j_driver", "neo4j_uri",
           "reopen_from_version"]

CONTAINER_IMAGE = "neo4j:5.26-community"
CONTAINER_PASSWORD = "graphmem-test"


@dataclass(frozen=True)
class Neo4jServer:
    """How to reach the session's server. ``password`` is "" when the server has no auth
    (Neo4j then accepts any credentials), so ``auth`` can always be passed to a driver."""

    uri: str
    user: str = "neo4j"
    password: str = ""
    browser_url: str | None = None
    """Set only for the local launcher, the one setup whose Browser the tests check."""

    @property
    def auth(self) -> tuple[str, str]:
        return (self.user, self.password)


@pytest.fixture(scope="session")
def neo4j_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Neo4jServer]:
    """The session's Neo4j server (see the module docstring for where it comes from)."""
    uri = os.environ.get("NEO4J_URI")
    if uri:
        user = os.environ.get("NEO4J_USER", "neo4j")
        yield Neo4jServer(uri, user, os.environ.get("NEO4J_PASSWORD", ""))
    elif _docker_reachable():
        yield from _container_server()
    else:
        yield from _local_server(tmp_path_factory)


@pytest.fixture(scope="session")
def neo4j_driver(neo4j_uri: Neo4jServer) -> Iterator[neo4j.Driver]:
    """One driver for the session, connected to :func:`neo4j_uri`."""
    with neo4j.GraphDatabase.driver(neo4j_uri.uri, auth=neo4j_uri.auth) as driver:
        driver.verify_connectivity()
        yield driver


def browse(driver: neo4j.Driver, query: str, **params: Any) -> list[dict[str, Any]]:
    """Run ``query`` as a user in Neo4j Browser would (auto-commit, outside graphmem) and
    return its rows as dicts."""
    records, _, _ = driver.execute_query(query, params)
    return [r.data() for r in records]


def reopen_from_version(driver: neo4j.Driver, server: Neo4jServer, version: int,
                        embedding_dim: int) -> None:
    """Mark the database as one an older graphmem left at schema ``version`` and open a store
    on it, as an upgraded graphmem would (the migrations run); the current version is put
    back whatever happens, for the session's other tests."""
    from graphmem.store.neo4j import Neo4jStore, schema

    mark = "MATCH (s:GraphmemSchema {key: 'graphmem'}) SET s.version = $v"
    browse(driver, mark, v=version)
    try:
        store = Neo4jStore(server.uri, server.user, server.password,
                           embedding_dim=embedding_dim)
        store.open()
        store.close()
    finally:
        browse(driver, mark, v=schema.SCHEMA_VERSION)


@pytest.fixture
def clean_neo4j(neo4j_driver: neo4j.Driver) -> neo4j.Driver:
    """The session driver, on a database emptied for this test.

    Deletes every node and relationship and drops every index except token-lookup
    indexes and those owned by constraints; constraints stay, so schema that a store
    creates with ``IF NOT EXISTS`` remains valid. Wiping before (not after) the test
    leaves a failed test's data in place for a look in Neo4j Browser.
    """
    neo4j_driver.execute_query("MATCH (n) DETACH DELETE n")
    indexes, _, _ = neo4j_driver.execute_query(
        "SHOW INDEXES YIELD name, type, owningConstraint "
        "WHERE type <> 'LOOKUP' AND owningConstraint IS NULL RETURN name"
    )
    for record in indexes:
        quoted = record["name"].replace("`", "``")
        neo4j_driver.execute_query(f"DROP INDEX `{quoted}` IF EXISTS")
    return neo4j_driver


def _unavailable(reason: str) -> NoReturn:
    unavailable(f"no Neo4j for the neo4j tests: {reason}")


def _docker_reachable() -> bool:
    # docker-py leaks a socket (a ResourceWarning, so an error here) when it finds no
    # daemon, so probe the default socket first; DOCKER_HOST users get docker-py directly.
    if not os.environ.get("DOCKER_HOST") and not _unix_socket_answers("/var/run/docker.sock"):
        return False
    try:
        import docker

        client = docker.from_env(timeout=3)
    except Exception:  # no docker package, no daemon, no permission: all mean "no Docker"
        return False
    try:
        return bool(client.ping())
    except Exception:
        return False
    finally:
        client.close()


def _unix_socket_answers(path: str) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(1.0)
        return sock.connect_ex(path) == 0


def _container_server() -> Iterator[Neo4jServer]:
    from testcontainers.community.neo4j import Neo4jContainer

    container = Neo4jContainer(CONTAINER_IMAGE, password=CONTAINER_PASSWORD)
    # testcontainers and docker-py deprecate their own internals now and then; that is
    # their business, not a failure of graphmem's tests.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            container.start()
        except Exception as err:
            _unavailable(f"testcontainers could not start {CONTAINER_IMAGE}: {err}")
    try:
        yield Neo4jServer(container.get_connection_url(), "neo4j", CONTAINER_PASSWORD)
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            container.stop()


def _local_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Neo4jServer]:
    bolt_port, http_port = free_ports(2)
    local = LocalNeo4j(
        LocalNeo4jConfig(
            data_dir=tmp_path_factory.mktemp("neo4j"), bolt_port=bolt_port, http_port=http_port
        )
    )
    try:
        status = local.start()
    except SetupError as err:
        _unavailable(str(err))
    try:
        yield Neo4jServer(status.bolt_uri, browser_url=status.browser_url)
    finally:
        local.stop()
