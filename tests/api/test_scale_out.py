"""Several server processes on one store: ``graphmem serve --workers N``, and two
``graphmem serve`` processes on one Neo4j, or on one SQLite file, racing to rewrite one
timeline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

from tests.api.conftest import KEY_A, TENANT_A, sha
from tests.api.test_server import Server, serving
from tests.neo4j_fixtures import free_ports

pytestmark = pytest.mark.slow
COMPANIES = ["Acme Robotics", "Globex", "Initech", "Umbrella Labs", "Hooli", "Stark Industries",
             "Wayne Enterprises", "Tyrell Corporation"]
#: People raced on in turn (eight writers each).
RACES = 6
#: Connections opened together to reach every worker, and how many such batches at most.
SPREAD, SPREAD_BATCHES = 12, 4


def _neo4j_env(neo4j_uri: Any) -> dict[str, str]:
    return {"GRAPHMEM_NEO4J_URI": neo4j_uri.uri, "GRAPHMEM_NEO4J_USER": neo4j_uri.user,
            "GRAPHMEM_NEO4J_PASSWORD": neo4j_uri.password,
            "GRAPHMEM_API_KEYS": f'{{"{sha(KEY_A)}": "{TENANT_A}"}}'}


def _embedded_env() -> dict[str, str]:
    return {"GRAPHMEM_API_KEYS": f'{{"{sha(KEY_A)}": "{TENANT_A}"}}'}


def test_several_workers_serve_one_embedded_file(tmp_path: Path) -> None:
    """Two workers, each with its own mirror of the file: whichever takes a request, it
    answers from every write, the other worker's included (a search records its facts'
    access, which is a write too). After each write both workers are seen to answer: the
    searches go over connections that each of them holds."""
    args = ["--store", "embedded", "--db-path", str(tmp_path / "m.db"), "--workers", "2"]
    query = {"scope": {"user_id": "maya"}, "query": "Where does Maya work?"}
    with serving(tmp_path, _embedded_env(), args) as up:
        with up.client(KEY_A) as client:
            for month, company in enumerate(COMPANIES[:4], start=1):
                made = client.post("/v1/episodes",
                                   json=_episode("maya", f"I work at {company}", month))
                assert made.status_code == 201, made.text
                answers = set()
                with ExitStack() as stack:
                    for local_port, fresh in _connections_on_two_workers(up, stack).items():
                        searched = fresh.post("/v1/memories/search", json=query)
                        # not a new connection, which another worker could have taken
                        assert _local_port(searched) == local_port
                        answers.add(tuple(r["object"] for r in searched.json()["results"]
                                          if r["predicate"] == "WORKS_AT"
                                          and r["valid_until"] is None))
                assert answers == {(company,)}, (company, answers)
        jobs = _jobs(up, "maya")
    assert len(jobs) == 4
    assert [j["object"] for j in jobs if j["valid_until"] is None] == [COMPANIES[3]]


def _connections_on_two_workers(server: Server, stack: ExitStack) -> dict[int, httpx.Client]:
    """Keep-alive clients, by their connection's local port, whose connections are held by
    at least two server processes. A connection is served by the worker that accepted it,
    so a request on each of them is answered by each of those workers. Every worker listens
    on the port itself and the kernel picks one for each new connection (by a hash of its
    addresses), so a batch can land on one worker by chance: a few more batches are opened
    then, before failing."""
    port = int(server.url.rsplit(":", 1)[1])
    clients: dict[int, httpx.Client] = {}
    for _ in range(SPREAD_BATCHES):
        for _ in range(SPREAD):
            client = stack.enter_context(server.client(KEY_A))
            clients[_local_port(client.get("/health"))] = client
        holders = _holders(port)
        pids = {holders.get(local_port) for local_port in clients}
        if len(pids - {None}) >= 2:
            return clients
    pytest.fail(f"{len(clients)} connections to {server.url}, all held by one process: "
                f"{pids} (None: no process holds an established end)")


def _local_port(response: httpx.Response) -> int:
    """The client's port of the connection that carried ``response``."""
    return int(response.extensions["network_stream"].get_extra_info("client_addr")[1])


def _holders(port: int) -> dict[int, int | None]:
    """The process holding the server's end of each established connection to ``port``,
    by the client's port."""
    return {c.raddr.port: c.pid for c in psutil.net_connections(kind="tcp")
            if c.laddr.port == port and c.raddr and c.status == psutil.CONN_ESTABLISHED}


def _episode(user: str, content: str, month: int) -> dict[str, Any]:
    # a naive timestamp, as many clients send: read as UTC
    return {"scope": {"user_id": user}, "messages": [
        {"role": "user", "speaker": "Alice", "content": content,
         "timestamp": f"2024-{month:02d}-01T10:00:00"}]}


def _jobs(server: Server, user: str) -> list[dict[str, Any]]:
    with server.client(KEY_A) as client:
        listed = client.get("/v1/memories", params={"user_id": user, "include_history": "true",
                                                    "limit": 500})
    assert listed.status_code == 200, listed.text
    return [m for m in listed.json()["memories"] if m["predicate"] == "WORKS_AT"]


@pytest.mark.neo4j
def test_several_workers_serve_one_neo4j(tmp_path: Path, neo4j_uri: Any) -> None:
    user = f"worker-{uuid.uuid4().hex[:8]}"
    with serving(tmp_path, _neo4j_env(neo4j_uri), ["--store", "neo4j", "--workers", "2"]) as up:
        with up.client(KEY_A) as client:
            for month, company in enumerate(COMPANIES[:4], start=1):
                made = client.post("/v1/episodes",
                                   json=_episode(user, f"I work at {company}", month))
                assert made.status_code == 201, made.text
        jobs = _jobs(up, user)
    assert len(jobs) == 4
    assert [j["object"] for j in jobs if j["valid_until"] is None] == [COMPANIES[3]]


@pytest.mark.neo4j
def test_two_processes_racing_on_one_timeline_leave_one_current_value(
        tmp_path: Path, neo4j_uri: Any) -> None:
    """Eight concurrent writers, each saying a person works somewhere else (their months
    out of order), through two server processes, for a few people in turn: every statement
    is kept, exactly one is current, and each SUPERSEDES edge points back in time. The
    first person exists before the race; the others are new to every writer, so the
    processes also race to create them (and must end with one entity each)."""
    _race(tmp_path, _neo4j_env(neo4j_uri), ["--store", "neo4j"])


def test_two_processes_racing_on_one_embedded_file_leave_one_current_value(
        tmp_path: Path) -> None:
    """The same race on one SQLite file: two processes, each with its own mirror."""
    _race(tmp_path, _embedded_env(),
          ["--store", "embedded", "--db-path", str(tmp_path / "m.db")])


def _race(tmp_path: Path, env: dict[str, str], args: list[str]) -> None:
    users = [f"racer-{uuid.uuid4().hex[:8]}" for _ in range(RACES)]
    months = {company: 1 + (i * 5) % 8 for i, company in enumerate(COMPANIES)}
    with ExitStack() as stack:
        servers = [stack.enter_context(serving(tmp_path, env, args)) for _ in range(2)]
        for user in users[:1]:
            with servers[0].client(KEY_A) as client:
                made = client.post("/v1/episodes", json=_episode(user, "I live in Lisbon", 1))
                assert made.status_code == 201, made.text

        def write(user: str, i: int) -> int:
            company = COMPANIES[i]
            with servers[i % 2].client(KEY_A) as client:
                return client.post("/v1/episodes", json=_episode(
                    user, f"I work at {company}", months[company])).status_code

        # one person at a time: the two processes' last commits for a person then overlap
        # most often, and a race that a later write does not repair is the one that counts
        with ThreadPoolExecutor(len(COMPANIES)) as pool:
            for user in users:
                codes = list(pool.map(write, [user] * len(COMPANIES), range(len(COMPANIES))))
                assert codes == [201] * len(COMPANIES)
        for user in users:
            for server in servers:  # each process's mirror ends the same
                _check_one_current_job(_jobs(server, user), months)


def _check_one_current_job(jobs: list[dict[str, Any]], months: dict[str, int]) -> None:
    assert sorted(j["object"] for j in jobs) == sorted(COMPANIES), jobs
    assert len({j["subject_id"] for j in jobs}) == 1
    current = [j["object"] for j in jobs if j["valid_until"] is None]
    assert current == [max(COMPANIES, key=months.__getitem__)], jobs
    by_id = {j["id"]: j for j in jobs}
    for job in jobs:
        if job["superseded_by"]:
            newer = by_id[job["superseded_by"]]
            assert newer["valid_from"] >= job["valid_from"], (job, newer)
            assert newer["supersedes"] == [job["id"]]
            assert job["valid_until"] == newer["valid_from"]


def test_a_server_on_the_embedded_store_sees_what_the_cli_writes_beside_it(tmp_path: Path) -> None:
    """``graphmem ingest`` and ``graphmem forget`` in their own processes, on the file a
    running server holds: the server's next search answers from what they wrote."""
    db = tmp_path / "m.db"
    env = {"GRAPHMEM_API_KEYS": f'{{"{sha(KEY_A)}": "{TENANT_A}"}}'}
    cli_env = {**os.environ, "GRAPHMEM_DB_PATH": str(db), "GRAPHMEM_STORE": "embedded",
               "GRAPHMEM_DEFAULT_TENANT": TENANT_A}
    source = tmp_path / "episodes.jsonl"
    source.write_text("\n".join(json.dumps(_episode("maya", said, month)) for said, month in
                                [("I work at Globex.", 2), ("I work at Initech now.", 9)]))
    query = {"scope": {"user_id": "maya"}, "query": "Where does Maya work?"}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([sys.executable, "-c", "from graphmem.cli import app; app()", *args],
                              capture_output=True, text=True, timeout=300, cwd=tmp_path,
                              env=cli_env)
        assert done.returncode == 0, done
        return done

    with serving(tmp_path, env, ["--store", "embedded", "--db-path", str(db)]) as up:
        with up.client(KEY_A) as client:
            assert client.post("/v1/memories/search", json=query).json()["results"] == []
            cli("ingest", str(source))
            found = client.post("/v1/memories/search", json=query).json()["results"]
            assert [r["object"] for r in found if r["predicate"] == "WORKS_AT"] == ["Initech"]
            cli("forget", "--scope", "user:maya", "--fact", found[0]["id"])
            after = client.post("/v1/memories/search", json=query).json()["results"]
            assert found[0]["id"] not in [r["id"] for r in after]
