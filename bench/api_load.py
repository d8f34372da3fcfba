"""REST API load: search (and some ingestion) against a real uvicorn process on loopback.

1. seeds ``--facts`` structured facts (``Memory.add_facts``) into an embedded store;
2. waits until the machine is quiet (Neo4j merges its index segments for about a minute
   after a load), then starts ``graphmem serve`` on a free 127.0.0.1 port in a subprocess;
3. runs ``--concurrency`` asyncio clients (httpx) for ``--duration`` seconds (or
   ``--max-requests``): ``--ingest-ratio`` of the requests are ``POST /v1/episodes``
   (one user message, run through the rules extractor), the rest
   ``POST /v1/memories/search``;
4. reports requests/s, p50/p95/p99 per kind and errors, and writes
   ``bench/results/api_load.json`` with the machine's facts.

The load runs once per ``--workers`` count against ``graphmem serve --workers N`` (one
seeding, the same client each time). With ``--store neo4j`` the facts go into a Neo4j
(NEO4J_URI, or a local server that ``bench/stores.py`` starts), and the run writes
``bench/results/api_load_neo4j.json``; on the embedded store each run gets a copy of the
seeded file, so no run starts from what another one wrote.

Target on 2 cores: 200 search req/s at p95 <= 100 ms, no errors. The clients share
the machine with the server, so the figure is a lower bound for the server.

    python bench/api_load.py --facts 10000 --duration 20 --concurrency 8 --workers 1 2
    python bench/api_load.py --store neo4j --workers 1 2 4
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import this_checkout_env, wait_until_quiet, write_result  # noqa: E402
from bench.stores import open_bench_store  # noqa: E402
from graphmem.store.base import GraphStore  # noqa: E402
from graphmem.neo4j_local.system import free_ports  # noqa: E402

FIRST = ["Ana", "Ben", "Chloe", "Dev", "Elif", "Farid", "Grace", "Hugo", "Ines", "Jon", "Kira",
         "Liam", "Mia", "Noor", "Omar", "Pia", "Quinn", "Rosa", "Sami", "Tara", "Uma", "Vik",
         "Wen", "Xena", "Yusuf", "Zoe"]
LAST = ["Silva", "Meyer", "Kowalski", "Nakamura", "Okafor", "Rossi", "Dubois", "Hansen",
        "Novak", "Lopez", "Schmidt", "Ivanova", "Haddad", "Kim", "Larsen", "Moreau"]
THINGS = {
    "LIKES": ["pizza", "sushi", "jazz", "hiking", "chess", "ramen", "opera", "surfing",
              "tango", "pottery", "climbing", "poetry", "curry", "tennis", "board games"],
    "USES": ["React", "Vue", "Django", "Rust", "Kubernetes", "Postgres", "Figma", "Excel",
             "Neovim", "Terraform", "Kafka", "Svelte", "Go", "Flutter", "Spark"],
    "VISITED": ["Lisbon", "Kyoto", "Oslo", "Cairo", "Lima", "Hanoi", "Quebec", "Tbilisi",
                "Seville", "Bergen", "Cusco", "Porto", "Krakow", "Marrakesh", "Tallinn"],
    "WORKS_AT": ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark Industries",
                 "Wayne Enterprises", "Cyberdyne", "Tyrell", "Soylent"],
    "KNOWS": [f"{f} {l}" for f in FIRST[:8] for l in LAST[:4]],
}
QUERIES = ["What does {p} like?", "Which tools does {p} use?", "Where has {p} been?",
           "Where does {p} work?", "Who likes {thing}?", "Who has visited {place}?",
           "{p} and {thing}", "Does anyone use {tool}?"]
USERS = 10


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {"search": [], "ingest": []})
    errors: dict[str, int] = field(default_factory=dict)


def seed(store: GraphStore, count: int, rng: random.Random,
         baseline: int) -> tuple[float, list[float]]:
    """Seed the store; then time ``baseline`` searches in-process (no HTTP), one at a time."""
    from graphmem.embed.cache import CachedEmbedder
    from graphmem.embed.onnx import OnnxEmbedder
    from graphmem.extract.rules import RuleExtractor
    from graphmem.ingest.inputs import FactInput
    from graphmem.memory import Memory
    from graphmem.models import Scope

    started = time.perf_counter()
    memory = Memory(store, RuleExtractor(), CachedEmbedder(OnnxEmbedder()))
    try:
        batch: list[FactInput] = []
        for i in range(count):
            predicate = rng.choice(list(THINGS))
            person = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            batch.append(FactInput(
                scope=Scope(user_id=f"user{i % USERS}"), subject=person, predicate=predicate,
                object=rng.choice(THINGS[predicate]), object_type="concept",
                importance=round(rng.random(), 2)))
            if len(batch) == 1000 or i == count - 1:
                memory.add_facts("default", batch)
                batch = []
                print(f"  seeded {i + 1}/{count} facts", flush=True)
        seconds = time.perf_counter() - started
        from graphmem.search.models import SearchRequest

        queries = [SearchRequest.model_validate(search_body(random.Random(i)))
                   for i in range(baseline + 10)]
        for request in queries[:10]:  # warm up
            memory.search("default", request)
        timings = []
        for request in queries[10:]:
            began = time.perf_counter()
            memory.search("default", request)
            timings.append(time.perf_counter() - began)
    finally:
        memory.engine.close()
    return seconds, timings



def start_server(store_args: list[str], store_env: dict[str, str], port: int,
                 log: Path) -> subprocess.Popen[bytes]:
    env = this_checkout_env({**os.environ, "GRAPHMEM_API_KEYS": "{}",
                             "GRAPHMEM_RATE_LIMIT_PER_MINUTE": "100000000", **store_env})
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from graphmem.cli import app; app()", "serve",
             *store_args, "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
            cwd=log.parent, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited:\n{log.read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/ready", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"server not ready:\n{log.read_text()}")


def search_body(rng: random.Random) -> dict[str, Any]:
    query = rng.choice(QUERIES).format(
        p=f"{rng.choice(FIRST)} {rng.choice(LAST)}", thing=rng.choice(THINGS["LIKES"]),
        place=rng.choice(THINGS["VISITED"]), tool=rng.choice(THINGS["USES"]))
    return {"scope": {"user_id": f"user{rng.randrange(USERS)}"}, "query": query, "limit": 10}


def ingest_body(rng: random.Random) -> dict[str, Any]:
    text = f"I {rng.choice(['like', 'love'])} {rng.choice(THINGS['LIKES'])}."
    return {"scope": {"user_id": f"user{rng.randrange(USERS)}"},
            "messages": [{"role": "user", "speaker": rng.choice(FIRST), "content": text}]}


async def client_loop(client: httpx.AsyncClient, stop_at: float, budget: list[int],
                      ingest_ratio: float, rng: random.Random, stats: Stats) -> None:
    while time.perf_counter() < stop_at and budget[0] > 0:
        budget[0] -= 1
        kind = "ingest" if rng.random() < ingest_ratio else "search"
        path, body = (("/v1/episodes", ingest_body(rng)) if kind == "ingest"
                      else ("/v1/memories/search", search_body(rng)))
        started = time.perf_counter()
        try:
            response = await client.post(path, json=body)
            ok = response.status_code in (200, 201)
            reason = f"{kind} {response.status_code}"
        except httpx.HTTPError as err:
            ok, reason = False, f"{kind} {type(err).__name__}"
        if ok:
            stats.latencies[kind].append(time.perf_counter() - started)
        else:
            stats.errors[reason] = stats.errors.get(reason, 0) + 1


async def health_rate(client: httpx.AsyncClient, concurrency: int, seconds: float) -> list[float]:
    """The HTTP layer's own ceiling: GET /health (no auth, no store) for a few seconds."""
    timings: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def one() -> None:
        while time.perf_counter() < stop_at:
            began = time.perf_counter()
            if (await client.get("/health")).status_code == 200:
                timings.append(time.perf_counter() - began)

    await asyncio.gather(*(one() for _ in range(concurrency)))
    return timings


async def load(url: str, args: argparse.Namespace, stats: Stats) -> float:
    limits = httpx.Limits(max_connections=args.concurrency,
                          max_keepalive_connections=args.concurrency)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30.0) as client:
        stats.latencies["health"] = await health_rate(client, args.concurrency, 3.0)
        for i in range(20):  # warm up: model, caches, connections
            await client.post("/v1/memories/search", json=search_body(random.Random(i)))
        started = time.perf_counter()
        budget = [args.max_requests]
        await asyncio.gather(*(client_loop(client, started + args.duration, budget,
                                           args.ingest_ratio, random.Random(1000 + i), stats)
                               for i in range(args.concurrency)))
        return time.perf_counter() - started


def summary(values: list[float], elapsed: float) -> dict[str, Any]:
    if not values:
        return {"requests": 0}
    ordered = sorted(values)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 1)

    return {"requests": len(values), "per_second": round(len(values) / elapsed, 1),
            "p50_ms": pct(0.50), "p95_ms": pct(0.95), "p99_ms": pct(0.99),
            "mean_ms": round(statistics.fmean(values) * 1000, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--max-requests", type=int, default=100_000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--ingest-ratio", type=float, default=0.05)
    parser.add_argument("--baseline", type=int, default=50,
                        help="in-process searches timed before the server starts")
    parser.add_argument("--store", choices=["embedded", "neo4j"], default="embedded")
    parser.add_argument("--workers", type=int, nargs="+", default=[1],
                        help="uvicorn workers, one load run per count")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="graphmem-api-load-") as tmp:
        print(f"seeding {args.facts} facts...", flush=True)
        with open_bench_store(args.store, Path(tmp)) as store:
            seed_seconds, in_process = seed(store, args.facts, random.Random(7), args.baseline)
            if args.store == "neo4j":  # the store stays open: its server serves the runs
                uri = store.uri  # type: ignore[attr-defined]
                runs = [run(["--store", "neo4j", "--workers", str(n)], {
                    "GRAPHMEM_NEO4J_URI": uri,
                    "GRAPHMEM_NEO4J_USER": os.environ.get("NEO4J_USER", "neo4j"),
                    "GRAPHMEM_NEO4J_PASSWORD": os.environ.get("NEO4J_PASSWORD", "")},
                    Path(tmp), args, n) for n in args.workers]
        if args.store == "embedded":  # closed first: the server opens the file itself
            runs = [run(["--store", "embedded", "--db-path", str(_copy_of(Path(tmp), n)),
                         "--workers", str(n)], {}, Path(tmp), args, n) for n in args.workers]
    base = {"seed_seconds": round(seed_seconds, 1),
            "search_in_process": summary(in_process, sum(in_process))}
    if args.store == "embedded":
        result = {**runs[0], **base, "runs": runs}  # the first run's figures on top
        result["config"]["store"] = "embedded"
        name = "api_load"
    else:
        result = {**base, "config": {**runs[0]["config"], "store": "neo4j",
                                     "server": "graphmem serve --workers N"},
                  "runs": runs}
        name = "api_load_neo4j"
    if not args.no_write:
        print("wrote", write_result(name, result))


def _copy_of(tmp: Path, workers: int) -> Path:
    """A copy of the seeded file (the store closed it, so it is whole) for one run."""
    copy = tmp / f"bench-{workers}.db"
    for suffix in ("", "-wal"):
        if (tmp / f"bench.db{suffix}").exists():
            shutil.copyfile(tmp / f"bench.db{suffix}", tmp / f"{copy.name}{suffix}")
    return copy


def run(store_args: list[str], store_env: dict[str, str], tmp: Path, args: argparse.Namespace,
        workers: int) -> dict[str, Any]:
    """One load run against a fresh ``graphmem serve`` with ``workers`` workers."""
    quiet_wait_s = wait_until_quiet()  # after a load Neo4j merges its indexes for a minute
    load_before = os.getloadavg()
    port = free_ports(1)[0]
    proc = start_server(store_args, store_env, port, tmp / f"server-{workers}.log")
    stats = Stats()
    try:
        elapsed = asyncio.run(load(f"http://127.0.0.1:{port}", args, stats))
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    total = (len(stats.latencies["search"]) + len(stats.latencies["ingest"])
             + sum(stats.errors.values()))
    search = summary(stats.latencies["search"], elapsed)
    result = {
        "config": {"facts": args.facts, "users": USERS, "duration_s": args.duration,
                   "concurrency": args.concurrency, "ingest_ratio": args.ingest_ratio,
                   "max_requests": args.max_requests,
                   "server": f"graphmem serve ({workers} uvicorn worker{'s' * (workers > 1)})"},
        "workers": workers,
        "quiet_wait_s": quiet_wait_s,
        "load_average_before": [round(x, 2) for x in load_before],
        "health": summary(stats.latencies["health"], 3.0),
        "elapsed_s": round(elapsed, 2),
        "total_requests_per_second": round(total / elapsed, 1),
        "search": search,
        "ingest": summary(stats.latencies["ingest"], elapsed),
        "errors": stats.errors,
        "target": {"search_per_second": 200, "search_p95_ms": 100,
                   "met": bool(search.get("per_second", 0) >= 200
                               and search.get("p95_ms", 1e9) <= 100 and not stats.errors)},
    }
    print(f"{workers} worker(s):", {k: result[k] for k in ("health", "search", "ingest")})
    print("errors", stats.errors, "target met:", result["target"]["met"], flush=True)
    return result


if __name__ == "__main__":
    main()
