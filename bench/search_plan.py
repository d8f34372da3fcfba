"""PROFILE of the one-call search query on Neo4j: db hits and rows by operator.

Writes the search-latency bench's synthetic facts (``--facts`` of them, real
MiniLM vectors) to a local Neo4j, builds the channel query a search would send
(:func:`graphmem.search.plan.channel_plan`) for a few questions, and the side
query that ranks part of the scope's vectors beside it, runs each once to warm
up, then with ``PROFILE``, and prints the operators that cost the most db hits.
docs/neo4j-search-plan.md keeps a run's summary.

    python bench/search_plan.py --facts 10000
    NEO4J_URI=bolt://... python bench/search_plan.py --facts 100000 --written

``--written``: the server at ``NEO4J_URI`` already holds the facts (a run of
bench/search_latency.py against it wrote them), so nothing is written.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.search_latency import embed_all, make_facts  # noqa: E402
from bench.stores import open_bench_store  # noqa: E402
from graphmem.embed.cache import CachedEmbedder  # noqa: E402
from graphmem.embed.onnx import OnnxEmbedder  # noqa: E402
from graphmem.models import Scope, utcnow  # noqa: E402
from graphmem.search.engine import CHANNEL_DEPTH  # noqa: E402
from graphmem.search.plan import channel_plan  # noqa: E402
from graphmem.search.models import SearchRequest  # noqa: E402
from graphmem.store.base import WriteBatch  # noqa: E402
from graphmem.store.neo4j import Neo4jStore  # noqa: E402
from graphmem.store.neo4j import reads, records  # noqa: E402
from graphmem.store.neo4j import search as cypher  # noqa: E402
from graphmem.store.neo4j.nearest import (MAX_CANDIDATES, MIN_CANDIDATES,  # noqa: E402
                                          OVERSAMPLE, SHARE_MARGIN)
from graphmem.store.neo4j.store import NAMES_PER_LOOKUP, SIDE_SHARE  # noqa: E402
from graphmem.temporal import TimeFilter  # noqa: E402

QUESTIONS = ["what does user7 think about coffee?", "Which hiking trip did user3 plan?",
             "Rust"]


def operators(plan: Any) -> list[dict[str, Any]]:
    """Every operator of a profiled plan, flattened."""
    out = [{"operator": plan["operatorType"].split("@")[0], "db_hits": plan.get("dbHits", 0),
            "rows": plan.get("rows", 0),
            "detail": str(plan.get("args", {}).get("Details", ""))[:90]}]
    for child in plan.get("children", []):
        out += operators(child)
    return out


def profile(store: Neo4jStore, tenant: str, request: SearchRequest,
            embedder: CachedEmbedder, exact_scan_limit: int, side: bool) -> dict[str, Any]:
    """The main query (``side=False``) or the side query of one search, profiled."""
    text = request.query
    vector = [float(x) for x in embedder.embed([text])[0]]
    plan = channel_plan(request, text, vector, TimeFilter(), CHANNEL_DEPTH)
    rule = cypher.VectorRule(exact_scan_limit, SHARE_MARGIN, MIN_CANDIDATES, MAX_CANDIDATES,
                             OVERSAMPLE)
    now = utcnow()
    query, params = (cypher.side_channels(tenant, plan, now, rule, SIDE_SHARE) if side else
                     cypher.channels(tenant, plan, now, rule, names_per_lookup=NAMES_PER_LOOKUP,
                                     side_share=SIDE_SHARE))
    params = records.utc_params(params)
    with store._session() as session:  # a benchmark's look inside: the store has no PROFILE
        session.run(query, params).consume()
        # query options come before PROFILE: CYPHER replan=skip PROFILE ...
        summary = session.run(query.replace(reads.KEEP_PLAN, reads.KEEP_PLAN + "PROFILE ", 1),
                              params).consume()
    ops = operators(summary.profile)
    return {"question": request.query, "exact_scan_limit": exact_scan_limit,
            "db_hits": sum(o["db_hits"] for o in ops),
            "ms": summary.result_available_after + summary.result_consumed_after,
            "top": sorted(ops, key=lambda o: o["db_hits"], reverse=True)[:8],
            "query_lines": query.count("\n") + 1}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--facts", type=int, default=10000)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()))
    parser.add_argument("--written", action="store_true",
                        help="the server at NEO4J_URI already holds the facts")
    args = parser.parse_args()
    facts, entities = make_facts(args.facts)
    embedder = CachedEmbedder(OnnxEmbedder(), max_entries=1000)
    fact_vectors = embed_all(embedder, [f.text for f in facts],
                             args.cache / f"gm-bench-facts-{len(facts)}.npy")
    entity_vectors = embed_all(embedder, [e.name for e in entities],
                               args.cache / f"gm-bench-entities-{len(entities)}.npy")
    rows = {e.id: i for i, e in enumerate(entities)}
    with tempfile.TemporaryDirectory() as tmp, open_bench_store("neo4j", Path(tmp)) as store:
        if not isinstance(store, Neo4jStore):
            raise SystemExit("needs the Neo4j store")
        for start in range(0, 0 if args.written else len(facts), 2000):
            chunk = facts[start:start + 2000]
            needed = {f.subject_id for f in chunk} | {f.object_id for f in chunk}
            store.write("bench", WriteBatch(
                entities=[entities[rows[e]].model_copy(update={
                    "embedding": entity_vectors[rows[e]].tolist()}) for e in needed],
                facts=[f.model_copy(update={"embedding": fact_vectors[start + j].tolist()})
                       for j, f in enumerate(chunk)]))
        for question in QUESTIONS:
            user = question.split("user")[1].split()[0] if "user" in question else "1"
            request = SearchRequest(scope=Scope(user_id=f"u{user}"), query=question, limit=10)
            # as configured (small scopes ranked exactly), then forced through the index
            for limit, side in ((store.exact_scan_limit, False), (store.exact_scan_limit, True),
                                (1, False)):
                found = profile(store, "bench", request, embedder, limit, side)
                print(f"\n{found['question']!r} {'side' if side else 'main'} query,"
                      f" exact_scan_limit={limit}: "
                      f"{found['db_hits']} db hits, {found['ms']} ms, "
                      f"{found['query_lines']} lines of Cypher")
                for op in found["top"]:
                    print(f"  {op['db_hits']:>8} hits {op['rows']:>6} rows  {op['operator']:<28}"
                          f" {op['detail']}")


if __name__ == "__main__":
    main()
