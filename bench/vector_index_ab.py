"""Neo4j vector index settings, A/B in one run: store writes/s and the index's recall@10.

One local Neo4j; each trial empties the database, recreates the three vector indexes
with one setting (``CONFIGS``), writes ``--facts`` facts (and their new entities) with
real MiniLM embeddings in batches of ``--batch`` through ``Neo4jStore.write``, then
asks ``db.index.vector.queryNodes('fact_embedding', k, q)`` for each query vector and
compares its ten best with the exact cosine ranking of the stored vectors (numpy):
recall@10 with k=10, and with k=50 (the least a search asks for, ``MIN_CANDIDATES``).
Each trial indexes every Fact, Entity and Message node, as the store's indexes did
before they held large scopes' nodes only (graphmem/store/neo4j/vector_scopes.py), so
the settings compare on as many vectors as the bench writes. Settings are run in turn, ``--rounds`` times over, the order rotated each round, so a
shared machine's load falls on all of them alike.

Facts are bench/search_latency.py's (its cached embeddings are reused when present).

    python bench/vector_index_ab.py --configs base quantized m8 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import write_result  # noqa: E402
from bench.search_latency import TOPICS, USERS, embed_all, make_facts  # noqa: E402
from bench.stores import open_bench_store  # noqa: E402
from graphmem.embed.cache import CachedEmbedder  # noqa: E402
from graphmem.embed.onnx import OnnxEmbedder  # noqa: E402
from graphmem.store.base import WriteBatch  # noqa: E402
from graphmem.store.neo4j import reads  # noqa: E402

INDEXES = {reads.FACT_VECTOR_INDEX: "Fact", reads.ENTITY_VECTOR_INDEX: "Entity",
           reads.MESSAGE_VECTOR_INDEX: "Message"}
#: Each setting: the index config given to every vector index it keeps, and which it keeps.
CONFIGS: dict[str, dict[str, Any]] = {
    "base": {"config": {"vector.quantization.enabled": False}},
    "quantized": {"config": {"vector.quantization.enabled": True}},
    "efc50": {"config": {"vector.quantization.enabled": False, "vector.hnsw.ef_construction": 50}},
    "efc32": {"config": {"vector.quantization.enabled": False, "vector.hnsw.ef_construction": 32}},
    "m8": {"config": {"vector.quantization.enabled": False, "vector.hnsw.m": 8}},
    "m8_efc50": {"config": {"vector.quantization.enabled": False, "vector.hnsw.m": 8,
                            "vector.hnsw.ef_construction": 50}},
    "quantized_m8_efc50": {"config": {"vector.quantization.enabled": True, "vector.hnsw.m": 8,
                                      "vector.hnsw.ef_construction": 50}},
    "facts_only": {"config": {"vector.quantization.enabled": False},
                   "keep": [reads.FACT_VECTOR_INDEX]},
    "none": {"config": {}, "keep": []},
}


def reset(session: Any, config: dict[str, Any], keep: list[str], dim: int) -> None:
    """Empty the database and recreate the vector indexes with ``config``."""
    session.run("MATCH (n) WHERE NOT n:GraphmemSchema CALL (n) { DETACH DELETE n }"
                " IN TRANSACTIONS OF 5000 ROWS").consume()
    for name, label in INDEXES.items():
        session.run(f"DROP INDEX {name} IF EXISTS").consume()
        if name in keep:
            session.run(f"CREATE VECTOR INDEX {name} FOR (n:{label}) ON n.embedding"
                        " OPTIONS $options", options={"indexConfig": {
                            "vector.dimensions": dim, "vector.similarity_function": "cosine",
                            **config}}).consume()
    session.run("CALL db.awaitIndexes(300)").consume()


def batches(facts: list[Any], entities: list[Any], fact_vectors: np.ndarray,
            entity_vectors: np.ndarray, size: int) -> list[WriteBatch]:
    rows = {e.id: i for i, e in enumerate(entities)}
    seen: set[str] = set()
    out = []
    for start in range(0, len(facts), size):
        chunk = facts[start:start + size]
        new = [e for f in chunk for e in (f.subject_id, f.object_id) if e not in seen]
        new = list(dict.fromkeys(new))
        seen.update(new)
        out.append(WriteBatch(
            entities=[entities[rows[e]].model_copy(update={
                "embedding": entity_vectors[rows[e]].tolist()}) for e in new],
            facts=[f.model_copy(update={"embedding": fact_vectors[start + j].tolist()})
                   for j, f in enumerate(chunk)]))
    return out


def recall(session: Any, ids: list[str], stored: np.ndarray, queries: np.ndarray,
           k: int) -> tuple[float, float]:
    """Mean recall@10 of the fact index asked for ``k``, and its median latency in ms."""
    unit = stored / np.linalg.norm(stored, axis=1, keepdims=True)
    exact = np.argsort(-(unit @ (queries / np.linalg.norm(queries, axis=1, keepdims=True)).T),
                       axis=0)[:10].T
    found, times = [], []
    for q, best in zip(queries, exact, strict=True):
        t0 = time.perf_counter()
        got = [r["id"] for r in session.run(
            "CALL db.index.vector.queryNodes($index, $k, $q) YIELD node, score"
            " RETURN node.id AS id ORDER BY score DESC LIMIT 10",
            index=reads.FACT_VECTOR_INDEX, k=k, q=q.tolist())]
        times.append(1000 * (time.perf_counter() - t0))
        found.append(len(set(got) & {ids[i] for i in best}) / 10)
    return float(np.mean(found)), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", nargs="+", default=["base", "quantized", "m8_efc50"],
                        choices=sorted(CONFIGS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--facts", type=int, default=20_000)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()

    cached = 100_000 if (args.cache / "gm-bench-facts-100000.npy").exists() else args.facts
    facts, entities = make_facts(cached)
    embedder = CachedEmbedder(OnnxEmbedder(), max_entries=1000)
    fact_vectors = embed_all(embedder, [f.text for f in facts],
                             args.cache / f"gm-bench-facts-{len(facts)}.npy")
    entity_vectors = embed_all(embedder, [e.name for e in entities],
                               args.cache / f"gm-bench-entities-{len(entities)}.npy")
    check = embedder.embed([facts[5].text, entities[-1].name])
    if not (np.allclose(check[0], fact_vectors[5], atol=1e-4)
            and np.allclose(check[1], entity_vectors[-1], atol=1e-4)):
        raise SystemExit("cached embeddings do not match the embedder; delete them")
    n = args.facts
    # Queries: held-out facts' vectors, and questions as search_latency.py asks them.
    rng = random.Random(3)
    questions = [f"what does user{rng.randrange(USERS)} think about {rng.choice(TOPICS)}?"
                 for _ in range(args.queries // 2)]
    held_out = fact_vectors[n:n + args.queries - len(questions)] if cached > n else \
        embedder.embed([f"user{i % USERS} enjoys {TOPICS[i % len(TOPICS)]}"
                        for i in range(args.queries - len(questions))])
    queries = np.vstack([embedder.embed(questions), held_out])
    ids = [f.id for f in facts[:n]]
    work = batches(facts[:n], entities, fact_vectors, entity_vectors, args.batch)

    rows: list[dict[str, Any]] = []
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp, open_bench_store("neo4j", Path(tmp)) as store:
        driver = store._driver  # type: ignore[attr-defined]
        with driver.session() as session:
            order = ["base", *args.configs]  # the first trial warms the JVM, untimed
            for r in range(args.rounds + 1):
                for name in (order[:1] if r == 0 else
                             args.configs[r % len(args.configs):]
                             + args.configs[:r % len(args.configs)]):
                    spec = CONFIGS[name]
                    reset(session, spec["config"], spec.get("keep", list(INDEXES)),
                          store.embedding_dim)
                    latencies = []
                    t0 = time.perf_counter()
                    for batch in work:
                        b0 = time.perf_counter()
                        store.write("bench", batch)
                        latencies.append(1000 * (time.perf_counter() - b0))
                    seconds = time.perf_counter() - t0
                    row: dict[str, Any] = {
                        "round": r, "config": name, "facts_per_s": round(n / seconds),
                        "batch_p50_ms": round(statistics.median(latencies), 1)}
                    if r and reads.FACT_VECTOR_INDEX in spec.get("keep", list(INDEXES)):
                        session.run("CALL db.awaitIndexes(300)").consume()
                        for k in (10, 50):
                            got, ms = recall(session, ids, fact_vectors[:n], queries, k)
                            row[f"recall10_k{k}"] = round(got, 4)
                            row[f"query_k{k}_p50_ms"] = round(ms, 2)
                    print(json.dumps(row), flush=True)
                    if r:
                        rows.append(row)
    summary = {}
    for name in args.configs:
        mine = [x for x in rows if x["config"] == name]
        summary[name] = {key: round(statistics.median(x[key] for x in mine), 4)
                         for key in mine[0] if key not in {"round", "config"}}
        summary[name]["facts_per_s_each_round"] = [x["facts_per_s"] for x in mine]
    print(json.dumps(summary, indent=1))
    write_result("vector_index_ab", {
        "facts": n, "batch": args.batch, "queries": len(queries), "rounds": args.rounds,
        "configs": {name: CONFIGS[name] for name in args.configs}, "summary": summary,
        "rows": rows,
        "load_average_1_5_15": {"before": load_before, "after": os.getloadavg()}})


if __name__ == "__main__":
    main()
