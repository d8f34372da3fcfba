"""Structured facts written per second, through graphmem's ingest path and into the store alone.

Three figures for each store (embedded in a temp folder; Neo4j from NEO4J_URI or a
local server that ``bench/stores.py`` starts):

* ``ingest``: ``Ingestor.add_facts`` with batches of ``--batch`` FactInput and the
  real ONNX embedder, i.e. entity resolution, timeline rules, embedding of new
  entity names and fact texts, and one store transaction per batch;
* ``ingest_no_model``: the same with a hash embedder, so what is left is the
  pipeline and the store;
* ``store_write``: ``store.write`` of WriteBatches of pre-built facts (and their new
  entities) whose embeddings were computed beforehand: the store alone;
* ``episode``: single-message episodes through ``Ingestor.ingest`` (an extractor that
  finds one fact in each, the hash embedder): latency per episode, and the store's
  work per episode: its calls, and on Neo4j its transactions and statements (each
  statement one round trip to the server, besides each transaction's commit).

Goals: 5,000 facts/s embedded and 2,000 facts/s Neo4j. The machine's load average
is recorded before and after, because on a shared machine it moves the figures.

    python bench/write_throughput.py                        # both stores
    python bench/write_throughput.py --stores neo4j --store-facts 20000
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine  # noqa: E402
from bench.stores import open_bench_store  # noqa: E402
from graphmem.embed.base import Embedder  # noqa: E402
from graphmem.embed.hashed import HashEmbedder  # noqa: E402
from graphmem.extract.base import ExtractedFact, Extraction  # noqa: E402
from graphmem.ingest.inputs import EpisodeInput  # noqa: E402
from graphmem.ingest.inputs import FactInput  # noqa: E402
from graphmem.ingest.pipeline import Ingestor  # noqa: E402
from graphmem.models import Category, Entity, Episode, Fact, Message, Scope  # noqa: E402
from graphmem.predicates import PredicateRegistry  # noqa: E402
from graphmem.store.base import GraphStore, WriteBatch  # noqa: E402
from graphmem.temporal import timeline_key  # noqa: E402

OUT = Path(__file__).resolve().parent / "results" / "write_throughput.json"
GOALS = {"embedded": 5000, "neo4j": 2000}
DIM = 384
START = datetime(2020, 1, 1, tzinfo=UTC)
PREDICATES = ["LIKES", "USES", "KNOWS", "HAS_VISITED", "OWNS", "SKILLED_IN", "HOBBY", "PLANS",
              "HAS_FRIEND", "PREFERS", "WORKS_AT", "LIVES_IN", "JOB_TITLE", "DRIVES"]
ADJECTIVES = ["red", "quiet", "northern", "modern", "tiny", "golden", "wild", "urban", "old",
              "bright", "silent", "rapid", "hidden", "gentle", "royal", "frozen"]
NOUNS = ["harbor", "garden", "engine", "library", "studio", "market", "valley", "bridge",
         "forest", "tower", "canal", "theatre", "bakery", "island", "museum", "station",
         "orchard", "lantern", "compass", "meadow", "summit", "archive", "workshop", "violin"]




class NoExtractor:
    """add_facts never extracts; Ingestor still wants an extractor."""

    name = "none"
    uses_candidates = False

    def extract(self, *_: Any) -> Any:
        raise AssertionError("the write benchmark does not extract")


class OneJobExtractor:
    """Finds one fact in each episode, "I work at <the message's text>"."""

    name = "one-job"
    uses_candidates = False

    def extract(self, episode: Episode, *_: Any) -> Extraction:
        company = episode.messages[0].content
        return Extraction(facts=[ExtractedFact(subject="Alice", predicate="WORKS_AT",
                                               object=company, object_type="organization",
                                               text=f"Alice works at {company}.")])


class StoreCalls:
    """Counts a store's method calls and, on Neo4j, its transactions and statements."""

    def __init__(self, store: GraphStore) -> None:
        self.calls = 0
        self.transactions = 0
        self.statements = 0
        for name in [n for n in dir(store) if not n.startswith("_")]:
            method = getattr(store, name)
            if callable(method) and name not in {"open", "close"}:
                setattr(store, name, self._counted(method))
        if hasattr(store, "_session"):
            opened = store._session

            def session() -> Any:
                manager = opened()
                return _CountingSession(manager, self)

            store._session = session  # type: ignore[attr-defined]

    def _counted(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kw: Any) -> Any:
            self.calls += 1
            return method(*args, **kw)
        return counted


class _CountingSession:
    def __init__(self, manager: Any, calls: StoreCalls) -> None:
        self.manager, self.counter = manager, calls

    def __enter__(self) -> Any:
        session = self.manager.__enter__()
        counter = self.counter

        def wrap(run_in: Callable[..., Any]) -> Callable[..., Any]:
            def execute(work: Callable[..., Any], *args: Any, **kw: Any) -> Any:
                counter.transactions += 1

                def counted_work(tx: Any) -> Any:
                    run = tx.run

                    def counted_run(*a: Any, **k: Any) -> Any:
                        counter.statements += 1
                        return run(*a, **k)
                    tx.run = counted_run
                    return work(tx, *args, **kw)
                return run_in(counted_work)
            return execute

        session.execute_read = wrap(session.execute_read)
        session.execute_write = wrap(session.execute_write)
        return session

    def __exit__(self, *exc: Any) -> Any:
        return self.manager.__exit__(*exc)


def measure_episodes(store: GraphStore, count: int) -> dict[str, Any]:
    """Single-message episodes, one at a time, each naming a new employer of one person."""
    tenant = f"bench{uuid.uuid4().hex[:8]}"
    ingestor = Ingestor(store, OneJobExtractor(), HashEmbedder())  # type: ignore[arg-type]
    scope = Scope(user_id="alice")

    def episode(i: int) -> EpisodeInput:
        return EpisodeInput(scope=scope, messages=[Message(
            role="user", speaker="Alice", content=f"{ADJECTIVES[i % 16].title()} {NOUNS[i % 24].title()} {i}",
            timestamp=START + timedelta(days=i))])

    ingestor.ingest(tenant, episode(-1))  # Alice exists, as in a conversation under way
    counter = StoreCalls(store)
    result = timed([episode(i) for i in range(count)], lambda e: ingestor.ingest(tenant, e))
    per = {"store_calls": counter.calls, "transactions": counter.transactions,
           "statements": counter.statements}
    return {"episodes": count, "episodes_per_s": round(count / result["seconds"], 1),
            "latency_p50_ms": result["batch_p50_ms"], "latency_max_ms": result["batch_max_ms"],
            **{f"{k}_per_episode": round(v / count, 2) for k, v in per.items()}}


def fact_inputs(count: int, seed: int, users: int = 50) -> list[FactInput]:
    """Reproducible, varied structured facts: 50 users, 14 predicates, ~3,000 objects."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        user = f"user{rng.randrange(users)}"
        predicate = rng.choice(PREDICATES)
        obj = f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} {rng.randrange(8)}"
        out.append(FactInput(
            scope=Scope(user_id=user), subject=user.capitalize(), predicate=predicate,
            object=obj.title(), text=f"{user.capitalize()} {predicate.lower().replace('_', ' ')}"
            f" {obj} (note {i})", category=rng.choice(list(Category)),
            valid_from=START + timedelta(hours=rng.randrange(40_000)),
        ))
    return out


def prebuilt_batches(tenant: str, inputs: list[FactInput], batch: int,
                     embedder: Embedder) -> list[WriteBatch]:
    """WriteBatches with the facts' new entities, every embedding computed up front."""
    registry = PredicateRegistry()
    entities: dict[tuple[str, str], Entity] = {}
    batches = []
    for start in range(0, len(inputs), batch):
        chunk = inputs[start:start + batch]
        new: list[Entity] = []
        facts: list[Fact] = []
        for item in chunk:
            ends = []
            for name, kind in ((item.subject, item.subject_type), (item.object, item.object_type)):
                key = (item.scope.key, name.lower())
                if key not in entities:
                    entities[key] = Entity(tenant=tenant, scope_key=item.scope.key, name=name,
                                           type=kind)
                    new.append(entities[key])
                ends.append(entities[key])
            subject, obj = ends
            spec = registry.spec(item.predicate)
            facts.append(Fact(
                tenant=tenant, scope_key=item.scope.key, subject_id=subject.id,
                subject_name=subject.name, predicate=item.predicate, object_id=obj.id,
                object_name=obj.name, text=item.text or "", category=item.category,
                cardinality=spec.cardinality, valid_from=item.valid_from or START,
                timeline_key=timeline_key(item.scope.key, subject.id, spec.family,
                                          spec.cardinality, obj.id)))
        entity_vectors = embedder.embed([e.name for e in new])
        fact_vectors = embedder.embed([f.text for f in facts])
        batches.append(WriteBatch(
            entities=[e.model_copy(update={"embedding": entity_vectors[i].tolist()})
                      for i, e in enumerate(new)],
            facts=[f.model_copy(update={"embedding": fact_vectors[i].tolist()})
                   for i, f in enumerate(facts)]))
    return batches


def timed(batches: Sequence[Any], write: Callable[[Any], None]) -> dict[str, Any]:
    latencies = []
    started = time.perf_counter()
    for item in batches:
        t0 = time.perf_counter()
        write(item)
        latencies.append(time.perf_counter() - t0)
    return {"seconds": round(time.perf_counter() - started, 3),
            "batch_p50_ms": round(statistics.median(latencies) * 1000, 1),
            "batch_max_ms": round(max(latencies) * 1000, 1)}


def measure_store_write(store: GraphStore, count: int, batch: int, seed: int) -> dict[str, Any]:
    tenant = f"bench{uuid.uuid4().hex[:8]}"
    batches = prebuilt_batches(tenant, fact_inputs(count, seed), batch, HashEmbedder())
    result = timed(batches, lambda b: store.write(tenant, b))
    entities = sum(len(b.entities) for b in batches)
    return {"facts": count, "entities": entities, "batch": batch,
            "facts_per_s": round(count / result["seconds"]), **result}


def measure_ingest(store: GraphStore, embedder: Embedder, count: int, batch: int,
                   seed: int) -> dict[str, Any]:
    tenant = f"bench{uuid.uuid4().hex[:8]}"
    ingestor = Ingestor(store, NoExtractor(), embedder)  # type: ignore[arg-type]
    inputs = fact_inputs(count, seed)
    chunks = [inputs[i:i + batch] for i in range(0, len(inputs), batch)]
    result = timed(chunks, lambda chunk: ingestor.add_facts(tenant, chunk))
    return {"facts": count, "batch": batch, "embedder": embedder.name,
            "facts_per_s": round(count / result["seconds"]), **result}


def neo4j_details(store: GraphStore) -> dict[str, Any]:
    import neo4j

    version = getattr(store, "server_version", lambda: "unknown")()
    return {"neo4j_server": version, "neo4j_driver": neo4j.__version__,
            "neo4j_rust_ext": importlib.util.find_spec("neo4j._rust") is not None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", default="embedded,neo4j")
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--store-facts", type=int, default=20_000)
    parser.add_argument("--ingest-facts", type=int, default=5_000)
    parser.add_argument("--measures", default="store_write,ingest_no_model,ingest,episode")
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--warmup-facts", type=int, default=3_000,
                        help="written (untimed, own tenant) first: a fresh JVM runs cold")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()

    from graphmem.embed.onnx import OnnxEmbedder

    model = OnnxEmbedder()
    model.embed(["warm up"])
    load_before = os.getloadavg()
    results: dict[str, Any] = {}
    details: dict[str, Any] = {}
    for kind in args.stores.split(","):
        with tempfile.TemporaryDirectory() as tmp, open_bench_store(kind, Path(tmp)) as store:
            if kind == "neo4j":
                details.update(neo4j_details(store))
            if args.warmup_facts:
                measure_store_write(store, args.warmup_facts, args.batch, args.seed + 99)
            measures: dict[str, Callable[[], dict[str, Any]]] = {
                "store_write": lambda: measure_store_write(store, args.store_facts, args.batch,
                                                           args.seed),
                "ingest_no_model": lambda: measure_ingest(store, HashEmbedder(),
                                                          args.ingest_facts, args.batch,
                                                          args.seed + 1),
                "ingest": lambda: measure_ingest(store, model, args.ingest_facts, args.batch,
                                                 args.seed + 2),
                "episode": lambda: measure_episodes(store, args.episodes),
            }
            runs = {name: measures[name]() for name in args.measures.split(",")}
            for run in runs.values():
                if "facts_per_s" in run:
                    run["meets_goal"] = run["facts_per_s"] >= GOALS[kind]
            results[kind] = {"goal_facts_per_s": GOALS[kind], **runs}
            print(kind, json.dumps(runs, indent=1), flush=True)
    payload = {
        "benchmark": "write_throughput",
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "notes": ("store_write embeddings are hash vectors computed before timing; ingest uses "
                  "the ONNX MiniLM embedder; ingest_no_model a hash embedder. One writer thread. "
                  f"{args.warmup_facts} facts written untimed first (warm JVM and caches)."),
        "results": results,
        "machine": {**machine(), **details},
        "load_average_1_5_15": {"before": load_before, "after": os.getloadavg()},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(payload, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
