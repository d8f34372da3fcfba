"""The Neo4j the suite runs on is the real thing, and LocalNeo4j fails loudly and clearly.

The first tests go through the official Python driver to the session's server: vector and
full-text indexes, the two features graphmem's Neo4j store depends on, plus the Browser
when the server is graphmem's own launcher. The rest cover LocalNeo4j itself.
"""

from __future__ import annotations

import math
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import neo4j
import pydantic
import pytest
from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.errors import SetupError
import graphmem
from graphmem.neo4j_local import LocalNeo4j, LocalNeo4jConfig, default_home
from graphmem.neo4j_local.system import port_free
from tests.neo4j_fixtures import Neo4jServer, free_ports

DIM = 384


def _unit(*weights: tuple[int, float]) -> list[float]:
    """A DIM-long vector with the given (axis, weight) entries, scaled to length 1."""
    vector = [0.0] * DIM
    for axis, weight in weights:
        vector[axis] = weight
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector]


DOCS: list[dict[str, Any]] = [
    {"name": "berlin", "text": "Alice moved to Berlin in 2021", "embedding": _unit((0, 1.0))},
    {"name": "graphs", "text": "Bob likes graph databases", "embedding": _unit((1, 1.0))},
    {
        "name": "memory",
        "text": "A temporal graph memory for assistants",
        "embedding": _unit((0, 1.0), (1, 1.0)),
    },
]


@pytest.fixture
def indexed_docs(clean_neo4j: neo4j.Driver) -> neo4j.Driver:
    clean_neo4j.execute_query(
        "CREATE VECTOR INDEX doc_embedding IF NOT EXISTS FOR (d:Doc) ON d.embedding "
        "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}"
    )
    clean_neo4j.execute_query(
        "CREATE FULLTEXT INDEX doc_text IF NOT EXISTS FOR (d:Doc) ON EACH [d.text]"
    )
    clean_neo4j.execute_query("CALL db.awaitIndexes(120)")
    clean_neo4j.execute_query("UNWIND $docs AS doc CREATE (d:Doc) SET d = doc", docs=DOCS)
    return clean_neo4j


@pytest.mark.neo4j
def test_indexes_come_online(indexed_docs: neo4j.Driver) -> None:
    records, _, _ = indexed_docs.execute_query(
        "SHOW INDEXES YIELD name, type, state WHERE name IN ['doc_embedding', 'doc_text'] "
        "RETURN name, type, state ORDER BY name"
    )
    assert [(r["name"], r["type"], r["state"]) for r in records] == [
        ("doc_embedding", "VECTOR", "ONLINE"),
        ("doc_text", "FULLTEXT", "ONLINE"),
    ]


@pytest.mark.neo4j
def test_vector_index_ranks_by_cosine(indexed_docs: neo4j.Driver) -> None:
    query = _unit((0, 0.9), (1, 0.1))
    records, _, _ = indexed_docs.execute_query(
        "CALL db.index.vector.queryNodes('doc_embedding', 3, $query) YIELD node, score "
        "RETURN node.name AS name, score",
        query=query,
    )
    assert [r["name"] for r in records] == ["berlin", "memory", "graphs"]
    # Neo4j reports cosine similarity rescaled to [0, 1] as (1 + cos) / 2, computed on
    # quantized vectors (on by default since 5.23), hence the loose tolerance.
    for record in records:
        doc = next(d for d in DOCS if d["name"] == record["name"])
        cosine = sum(a * b for a, b in zip(query, doc["embedding"], strict=True))
        assert record["score"] == pytest.approx((1 + cosine) / 2, abs=5e-3)


@pytest.mark.neo4j
def test_fulltext_index_finds_words(indexed_docs: neo4j.Driver) -> None:
    def search(text: str) -> set[str]:
        records, _, _ = indexed_docs.execute_query(
            "CALL db.index.fulltext.queryNodes('doc_text', $text) YIELD node, score "
            "WHERE score > 0 RETURN node.name AS name",
            text=text,
        )
        return {r["name"] for r in records}

    assert search("graph") == {"graphs", "memory"}
    assert search("berlin") == {"berlin"}  # the standard analyzer lowercases
    assert search("assist*") == {"memory"}
    assert search("paris") == set()


@pytest.mark.neo4j
def test_browser_is_served(neo4j_uri: Neo4jServer) -> None:
    if neo4j_uri.browser_url is None:
        pytest.skip("the Browser is checked only on graphmem's local launcher")
    page = httpx.get(neo4j_uri.browser_url, timeout=10)
    assert page.status_code == 200
    assert "<title>Neo4j Browser</title>" in page.text
    # The discovery document tells the Browser which Bolt address to connect to.
    discovery = httpx.get(neo4j_uri.browser_url.removesuffix("browser/"), timeout=10).json()
    assert discovery["bolt_direct"] == neo4j_uri.uri
    assert discovery["neo4j_version"].startswith("5.26.")


@pytest.fixture
def ports() -> tuple[int, int]:
    bolt_port, http_port = free_ports(2)
    return bolt_port, http_port


@pytest.fixture
def listening_socket() -> Iterator[int]:
    """A port that something else listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def _local(tmp_path: Path, ports: tuple[int, int], **options: object) -> LocalNeo4j:
    config = {"data_dir": tmp_path / "data", "bolt_port": ports[0], "http_port": ports[1], **options}
    return LocalNeo4j(LocalNeo4jConfig.model_validate(config))


@pytest.mark.parametrize("which", ["bolt_port", "http_port"])
def test_taken_port_is_a_setup_error(
    tmp_path: Path, ports: tuple[int, int], listening_socket: int, which: str
) -> None:
    local = _local(tmp_path, ports, **{which: listening_socket})
    with pytest.raises(SetupError, match=rf"port {listening_socket} is taken"):
        local.start()
    assert not local.status().running


def test_missing_java_is_a_setup_error(tmp_path: Path, ports: tuple[int, int]) -> None:
    with pytest.raises(SetupError, match=r"Java not found \(looked for '/nonexistent/java'\)"):
        _local(tmp_path, ports, java="/nonexistent/java").start()


def test_missing_maven_is_a_setup_error(tmp_path: Path) -> None:
    home = tmp_path / "neo4j-local"  # a fresh home, as after `pip install graphmem`
    with pytest.raises(SetupError, match=r"Maven not found"):
        LocalNeo4j(LocalNeo4jConfig(home=home, mvn="/nonexistent/mvn")).install()
    # The package's sources were copied there first; nothing is written inside the package.
    shipped = Path(graphmem.__file__).parent / "neo4j_local" / "java"
    for name in ("pom.xml", "Launcher.java"):
        assert (home / name).read_bytes() == (shipped / name).read_bytes()
    assert not (shipped / "lib").exists() and not (home / "lib" / ".installed").exists()


def test_default_home_is_the_users_cache_not_the_package() -> None:
    home = default_home()
    assert home.name == "neo4j-local" and "graphmem" in home.parts
    assert Path(graphmem.__file__).parent not in home.parents


def test_auth_needs_a_long_enough_password() -> None:
    with pytest.raises(pydantic.ValidationError, match="at least 8 characters"):
        LocalNeo4jConfig(auth=True, password=pydantic.SecretStr("short"))


def test_second_install_is_a_no_op() -> None:
    LocalNeo4j().install()
    # With the jars cached in the home's lib/, Maven is not even looked for: nothing downloads.
    assert LocalNeo4j(LocalNeo4jConfig(mvn="/nonexistent/mvn")).install() is False


def test_readiness_timeout_stops_the_server(tmp_path: Path, ports: tuple[int, int]) -> None:
    local = _local(tmp_path, ports, start_timeout=0.5)
    with pytest.raises(SetupError, match=r"Neo4j not ready in 0\.5 s, see log .*neo4j\.log"):
        local.start()
    assert not local.status().running
    assert not local.run_file.exists()


@pytest.mark.slow
def test_start_status_stop_with_auth(tmp_path: Path, ports: tuple[int, int]) -> None:
    local = _local(tmp_path, ports, auth=True, password=pydantic.SecretStr("graphmem-secret"))
    try:
        started = local.start()
        assert started.running and started.bolt_listening and started.auth
        with neo4j.GraphDatabase.driver(started.bolt_uri, auth=("neo4j", "graphmem-secret")) as driver:
            assert driver.execute_query("RETURN 1 AS one").records[0]["one"] == 1
        with neo4j.GraphDatabase.driver(started.bolt_uri, auth=("neo4j", "wrong-password")) as driver:
            with pytest.raises(neo4j.exceptions.AuthError):
                driver.verify_connectivity()
        # Another controller on the same data folder sees it, ports included, via the pid file.
        other = LocalNeo4j(LocalNeo4jConfig(data_dir=tmp_path / "data")).status()
        assert (other.pid, other.bolt_uri) == (started.pid, started.bolt_uri)
        assert local.start().pid == started.pid  # starting again is a no-op
    finally:
        stopped = local.stop()
    assert stopped
    assert not local.status().running
    assert local.log_file.read_text().rstrip().endswith("graphmem-launcher: stopped")
    assert local.stop() is False


def test_cli_reports_setup_errors_without_traceback(
    tmp_path: Path, ports: tuple[int, int], listening_socket: int
) -> None:
    env = {
        "GRAPHMEM_NEO4J_DATA_DIR": str(tmp_path / "data"),
        "GRAPHMEM_NEO4J_HTTP_PORT": str(ports[1]),
        "GRAPHMEM_NEO4J_PASSWORD": None,
    }
    result = CliRunner().invoke(app, ["neo4j", "start", "--bolt-port", str(listening_socket)], env=env)
    assert result.exit_code == 2
    assert f"port {listening_socket} is taken" in result.stderr
    assert "Traceback" not in result.output

    result = CliRunner().invoke(app, ["neo4j", "status"], env=env)
    assert result.exit_code == 3
    assert "not running" in result.stdout


def test_free_ports_are_distinct_and_bindable() -> None:
    ports = free_ports(3)
    assert len(set(ports)) == 3
    assert all(port_free(port) for port in ports)
