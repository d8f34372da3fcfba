"""LoCoMo evidence recall (frac@k) and offline ingestion throughput, with baselines.

For each of the five LoCoMo dev conversations, every session is ingested as
one episode (its date as the reference time, each turn's ``dia_id`` as the
message id). For every question of categories 1-4, frac@k is the share of
the question's evidence turns found among the provenance message ids of the
top k results; also at a 2,000-token context budget. Baselines run in the
same harness on the same turns: BM25 over raw turns (bm25s), MiniLM dense
over raw turns, and the two fused by RRF.

    python bench/locomo_recall.py --store embedded
    python bench/locomo_recall.py --store neo4j      # NEO4J_URI, or starts the local server
    python bench/locomo_recall.py --embed-precision int8 --out PATH   # the int8 embedder
    python bench/locomo_recall.py --embed-precision int8 --embed-worker off  # int8 in-process

The embedder is the one ``graphmem serve`` builds from the same settings
(``graphmem.factory.build_embedder``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.common import load_locomo, questions, write_result  # noqa: E402
from bench.stores import open_bench_store  # noqa: E402
from graphmem.embed.base import Embedder  # noqa: E402
from graphmem.factory import build_embedder  # noqa: E402
from graphmem.extract.rules import RuleExtractor  # noqa: E402
from graphmem.ingest.formats import locomo_episodes, locomo_sessions, locomo_turn_text  # noqa: E402
from graphmem.memory import Memory  # noqa: E402
from graphmem.models import Scope  # noqa: E402
from graphmem.search.context import ContextRequest  # noqa: E402
from graphmem.search.fuse import reciprocal_rank_fusion  # noqa: E402
from graphmem.search.models import SearchRequest  # noqa: E402
from graphmem.settings import Settings  # noqa: E402

KS = (5, 10, 25)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def frac(found: list[str], evidence: set[str]) -> float:
    return len(evidence & set(found)) / len(evidence)


def ranked_sources(hits: list[list[str]], k: int) -> list[str]:
    return [s for sources in hits[:k] for s in sources]


class Scores:
    def __init__(self) -> None:
        self.values: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))

    def add(self, system: str, category: int, value: float) -> None:
        self.values[system][category].append(value)
        self.values[system][0].append(value)

    def table(self) -> dict[str, dict[str, float]]:
        return {system: {("all" if c == 0 else CATEGORIES[c]): round(100 * float(np.mean(v)), 1)
                         for c, v in sorted(by_cat.items())}
                for system, by_cat in self.values.items()}


def ingest(memory: Memory, tenant: str, sample: dict[str, Any]) -> tuple[int, float]:
    """Session by session, as a conversation would arrive; returns (turns, seconds)."""
    episodes = locomo_episodes(sample)
    start = time.perf_counter()
    for episode in episodes:
        memory.add_episode(tenant, episode)
    return sum(len(e.messages) for e in episodes), time.perf_counter() - start


def within_budget(ids: list[str], texts: dict[str, str], count: Any, budget: int = 2000) -> list[str]:
    """The ranked turns that fit a token budget, as a context would hold them."""
    kept, used = [], 0
    for item in ids:
        cost = count(f"- {texts[item]}\n")
        if used + cost > budget:
            continue
        kept.append(item)
        used += cost
    return kept


def baselines(sample: dict[str, Any], embedder: Embedder, scores: Scores,
              count: Any) -> None:
    import bm25s

    ids, texts = [], []
    for _, _, session in locomo_sessions(sample):
        for t in session:
            ids.append(t["dia_id"])
            texts.append(f"{t['speaker']}: {locomo_turn_text(t)}")
    by_id = dict(zip(ids, texts, strict=True))
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, stopwords="en", show_progress=False),
                    show_progress=False)
    matrix = embedder.embed(texts)
    for qa in questions(sample):
        k = 200  # deep enough to fill a 2,000-token context
        docs, _ = retriever.retrieve(bm25s.tokenize([qa["question"]], stopwords="en",
                                                    show_progress=False),
                                     k=min(k, len(ids)), show_progress=False)
        bm25_ids = [ids[i] for i in docs[0]]
        sims = matrix @ embedder.embed([qa["question"]])[0]
        dense_ids = [ids[i] for i in np.argsort(-sims)[:k]]
        fused, _ = reciprocal_rank_fusion({"bm25": bm25_ids, "dense": dense_ids})
        fused_ids = sorted(fused, key=lambda i: -fused[i])
        for name, ranked in (("bm25_turns", bm25_ids), ("dense_turns", dense_ids),
                             ("bm25_dense_rrf", fused_ids)):
            for kk in KS:
                scores.add(f"{name}@{kk}", qa["category"], frac(ranked[:kk], qa["evidence_ids"]))
            scores.add(f"{name}@ctx2000", qa["category"],
                       frac(within_budget(ranked, by_id, count), qa["evidence_ids"]))


def run(store_kind: str, limit_conversations: int | None,
        embedder: Embedder) -> dict[str, Any]:
    data = load_locomo()[:limit_conversations]
    scores = Scores()
    total_turns, total_seconds = 0, 0.0
    with tempfile.TemporaryDirectory() as tmp, open_bench_store(store_kind, Path(tmp)) as store:
        memory = Memory(store, RuleExtractor(), embedder)
        tenant = f"locomo{int(time.time())}"
        for sample in data:
            turns, seconds = ingest(memory, tenant, sample)
            total_turns += turns
            total_seconds += seconds
            print(f"{sample['sample_id']}: {turns} turns in {seconds:.1f} s", flush=True)
        search_times = []
        for sample in data:
            scope = Scope(user_id=sample["sample_id"])
            for qa in questions(sample):
                for k in KS:  # each k as a user would ask for it: limit=k
                    t0 = time.perf_counter()
                    hits = memory.search(tenant, SearchRequest(scope=scope, query=qa["question"],
                                                               limit=k)).results
                    search_times.append(time.perf_counter() - t0)
                    scores.add(f"graphmem@{k}", qa["category"],
                               frac(ranked_sources([h.sources for h in hits], k),
                                    qa["evidence_ids"]))
                ctx = memory.context(tenant, ContextRequest(scope=scope, message=qa["question"],
                                                            token_budget=2000))
                scores.add("graphmem@ctx2000", qa["category"],
                           frac([s for h in ctx.items for s in h.sources], qa["evidence_ids"]))
            baselines(sample, embedder, scores, memory.tokens.count)
        memory.engine.close()
    return {
        "store": store_kind,
        "conversations": len(data),
        "questions": len(scores.values["graphmem@10"][0]),
        "frac_at_k": scores.table(),
        "ingest": {"turns": total_turns, "seconds": round(total_seconds, 2),
                   "turns_per_second": round(total_turns / total_seconds, 1)},
        "search_ms": {"p50": round(1000 * float(np.percentile(search_times, 50)), 1),
                      "p95": round(1000 * float(np.percentile(search_times, 95)), 1)},
        "extractor": "rules (spaCy en_core_web_sm 3.8.0)",
        "embedder": embedder.name,
        "anchors": {"bm25_turns@10": 61.0, "dense_turns@10": 51.1, "bm25_dense_rrf@10": 61.1},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--store", choices=["embedded", "neo4j"], default="embedded")
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--embed-precision", choices=["float32", "int8"], default="float32")
    parser.add_argument("--embed-worker", choices=["auto", "on", "off"], default="auto",
                        help="large embedding calls in a child process (GRAPHMEM_EMBED_WORKER)")
    parser.add_argument("--out", type=Path, default=None,
                        help="write here instead of bench/results (for an A/B run)")
    args = parser.parse_args()
    no_env_file: dict[str, Any] = {"_env_file": None}
    settings = Settings(**no_env_file, embed_precision=args.embed_precision,
                        embed_worker=args.embed_worker)
    result = run(args.store, args.conversations, build_embedder(settings))
    result["embed_worker"] = args.embed_worker
    table = result["frac_at_k"]
    cols = ["all", *CATEGORIES.values()]
    print(f"\n{'system':22}" + "".join(f"{c:>13}" for c in cols))
    for system in sorted(table):
        print(f"{system:22}" + "".join(f"{table[system].get(c, float('nan')):>13.1f}" for c in cols))
    print(f"\ningest: {result['ingest']}  search: {result['search_ms']}")
    path = write_result(f"locomo_recall_{args.store}", result, args.out)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
