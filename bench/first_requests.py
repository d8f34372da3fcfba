"""The first requests after a server starts, against the same requests once it is warm.

A load balancer sends a process traffic once its ``/ready`` answers 200. What then waits
is what this measures, through REST as a client sends it (naive timestamps), per store:

- ``graphmem serve`` on a new, empty database (a Neo4j started for the run): seconds until
  ``/ready``, then each request once, in the order a new user sends them (an episode, a
  second one, searches now / as of a date / with history, the context, the memory page's
  search without turns), then the same requests five times more each (the warm figure,
  the baseline in the same run);
- the API alone restarted on that database (the Neo4j server has the plans);
- Neo4j restarted, its data kept (its query plans, held in memory, gone), then the API:
  what a deployment meets after a database restart or failover.

The embedded store runs the first two (its process starts cold the same way). Neo4j is
started as ``bench/stores.py`` starts it for every benchmark (``NEO4J_URI`` is not used:
the run restarts the server).
Results go to ``bench/results/first_requests.json`` (``--out``).

    python bench/first_requests.py [--stores embedded neo4j]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import RESULTS, machine, this_checkout_env  # noqa: E402
from bench.stores import local_neo4j  # noqa: E402
from graphmem.neo4j_local.system import free_ports  # noqa: E402

#: Warm repetitions of each request after the first.
WARM_RUNS = 5


def requests(user: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(name, path, body): what a new user's client sends first, in order. The second
    episode changes the job the first stated, so the searches have a history to read."""
    scope = {"user_id": user}
    return [
        ("episode", "/v1/episodes", {"scope": scope, "messages": [
            {"role": "user", "speaker": "Maya", "timestamp": "2026-11-01T09:00:00",
             "content": "I work at Acme as a baker."}]}),
        ("episode (a change)", "/v1/episodes", {"scope": scope, "messages": [
            {"role": "user", "speaker": "Maya", "timestamp": "2026-11-20T09:00:00",
             "content": "Started a new job at Globex yesterday, as a pastry chef."}]}),
        ("search now", "/v1/memories/search", {"scope": scope,
                                               "query": "Where does Maya work?"}),
        ("search as_of", "/v1/memories/search", {"scope": scope,
                                                 "query": "Where does Maya work?",
                                                 "as_of": "2026-11-10T00:00:00"}),
        ("search with history", "/v1/memories/search", {
            "scope": scope, "query": "Where has Maya worked?", "include_history": True}),
        ("context", "/v1/context", {"scope": scope, "message": "any baking tips for my job?",
                                    "token_budget": 500}),
        ("search without turns", "/v1/memories/search", {
            "scope": scope, "query": "job", "include_turns": False}),
    ]


@contextlib.contextmanager
def serve(store: str, db: Path, neo4j: str | None, log: Path) -> Iterator[tuple[str, float]]:
    """``graphmem serve`` for ``store``; yields its URL and the seconds until ``/ready``."""
    env = {**os.environ, "GRAPHMEM_STORE": store, "GRAPHMEM_DB_PATH": str(db)}
    if neo4j is not None:
        env["GRAPHMEM_NEO4J_URI"] = neo4j
    port = free_ports(1)[0]
    url = f"http://127.0.0.1:{port}"
    started = time.monotonic()
    with open(log, "a") as out:
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "graphmem"), "serve", "--port", str(port),
             "--log-level", "warning"], env=this_checkout_env(env), stdout=out,
            stderr=subprocess.STDOUT, cwd=ROOT)
        try:
            while not _ready(url):
                if server.poll() is not None:
                    raise SystemExit(f"graphmem serve exited with {server.returncode}; see {log}")
                if time.monotonic() - started > 300:
                    raise SystemExit(f"graphmem serve not ready after 300 s; see {log}")
                time.sleep(0.1)
            yield url, time.monotonic() - started
        finally:
            server.terminate()
            server.wait(timeout=60)


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/ready", timeout=5) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _post(url: str, path: str, body: dict[str, Any]) -> float:
    """Seconds for one request; anything but 2xx stops the run."""
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        response.read()
    return time.perf_counter() - started


def one_start(url: str, ready_s: float, user: str) -> dict[str, Any]:
    """Each request once right after ready, then :data:`WARM_RUNS` times more."""
    asked = requests(user)
    first = {name: _post(url, path, body) for name, path, body in asked}
    warm = {name: statistics.median(_post(url, path, body) for _ in range(WARM_RUNS))
            for name, path, body in asked if not path.endswith("episodes")}
    # a warm episode: new messages each time (the same ones would be a duplicate)
    warm["episode"] = statistics.median(_post(url, "/v1/episodes", {"scope": {
        "user_id": user}, "messages": [
        {"role": "user", "speaker": "Maya", "timestamp": f"2026-11-2{i}T09:00:00",
         "content": f"I baked {i + 2} cakes today."}]}) for i in range(WARM_RUNS))
    return {"ready_s": round(ready_s, 2),
            "first_ms": {k: round(v * 1000, 1) for k, v in first.items()},
            "warm_median_ms": {k: round(v * 1000, 1) for k, v in warm.items()}}


def run_store(store: str) -> dict[str, Any]:
    """The starts in turn on one database, a new user each time (see the module docstring)."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        log, db = Path(tmp) / "serve.log", Path(tmp) / "bench.db"
        server, uri = stack.enter_context(local_neo4j(Path(tmp))) if store == "neo4j" \
            else (None, None)
        starts = ["new database", "api restarted"] + (["neo4j restarted"] if server else [])
        results = {}
        for i, start in enumerate(starts):
            if start == "neo4j restarted" and server is not None:
                server.stop()  # its data kept; its query cache, in memory, gone
                server.start()
            with serve(store, db, uri, log) as (url, ready_s):
                results[start] = one_start(url, ready_s, f"maya{i}")
            print(store, start, json.dumps(results[start]), flush=True)
        return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stores", nargs="+", choices=["embedded", "neo4j"],
                        default=["embedded", "neo4j"])
    parser.add_argument("--out", type=Path, default=RESULTS / "first_requests.json",
                        help="where the results go (a baseline run from an older checkout "
                        "writes beside them)")
    args = parser.parse_args()
    out = {"machine": machine(), "commit": _commit(),
           "stores": {store: run_store(store) for store in args.stores}}
    args.out.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {args.out}")


def _commit() -> str:
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                          capture_output=True, check=True).stdout.strip()


if __name__ == "__main__":
    main()
