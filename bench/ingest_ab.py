"""LoCoMo ingest throughput of embedder settings, alternated in one run on one store.

Each round ingests the first ``--conversations`` LoCoMo dev conversations (session by
session, as ``locomo_recall.py`` does) once per setting, in rotated order, each into its own
tenant of one store, with the embedder ``graphmem serve`` builds from those settings
(``graphmem.factory.build_embedder``). Rotating and repeating is what makes settings
comparable on a machine whose speed drifts from hour to hour; the JSON keeps every run.

    python bench/ingest_ab.py --store embedded
    python bench/ingest_ab.py --store neo4j --rounds 3     # NEO4J_URI, or starts the local server

A setting is ``precision:worker`` (``GRAPHMEM_EMBED_PRECISION``, ``GRAPHMEM_EMBED_WORKER``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import load_locomo, write_result  # noqa: E402
from bench.locomo_recall import ingest  # noqa: E402
from bench.stores import open_bench_store  # noqa: E402
from graphmem.embed.base import Embedder  # noqa: E402
from graphmem.extract.rules import RuleExtractor  # noqa: E402
from graphmem.factory import build_embedder  # noqa: E402
from graphmem.memory import Memory  # noqa: E402
from graphmem.settings import Settings  # noqa: E402

DEFAULT_SETTINGS = ["float32:auto", "int8:off", "int8:auto"]


def embedder_of(setting: str) -> Embedder:
    precision, worker = setting.split(":")
    # validated as the settings are (a bad value names its field); no environment read
    return build_embedder(Settings.model_validate({"embed_precision": precision,
                                                   "embed_worker": worker}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=["embedded", "neo4j"], default="embedded")
    parser.add_argument("--settings", nargs="+", default=DEFAULT_SETTINGS)
    parser.add_argument("--conversations", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    samples = load_locomo()[:args.conversations]
    extractor = RuleExtractor()
    extractor.load()
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, open_bench_store(args.store, Path(tmp)) as store:
        warm = Memory(store, extractor, embedder_of(args.settings[0]))
        ingest(warm, f"warm{uuid.uuid4().hex[:6]}", load_locomo()[-1])  # a fresh JVM runs cold
        for round_ in range(args.rounds):
            shift = round_ % len(args.settings)
            for setting in args.settings[shift:] + args.settings[:shift]:
                # a new embedder each run: its cache would otherwise hold the turns' vectors
                # from the round before, and the run would embed nothing
                embedder = embedder_of(setting)
                embedder.embed([f"warm up {i}" for i in range(16)])  # loaded, a child started
                memory = Memory(store, extractor, embedder)
                turns = seconds = 0.0
                for sample in samples:
                    n, s = ingest(memory, f"ab{uuid.uuid4().hex[:8]}", sample)
                    turns, seconds = turns + n, seconds + s
                memory.engine.close()
                close = getattr(getattr(embedder, "inner", None), "close", None)
                if close is not None:
                    close()  # the worker's child process
                runs.append({"round": round_, "setting": setting, "turns": int(turns),
                             "seconds": round(seconds, 2),
                             "turns_per_second": round(turns / seconds, 1)})
                print(runs[-1], flush=True)
    summary = {s: {"turns_per_second": [r["turns_per_second"] for r in runs
                                         if r["setting"] == s],
                   "median": statistics.median(r["turns_per_second"] for r in runs
                                               if r["setting"] == s)}
               for s in args.settings}
    print({s: v["median"] for s, v in summary.items()})
    path = write_result(f"ingest_ab_{args.store}", {
        "store": args.store, "conversations": len(samples), "rounds": args.rounds,
        "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "settings": "precision:worker (GRAPHMEM_EMBED_PRECISION, GRAPHMEM_EMBED_WORKER)",
        "summary": summary, "runs": runs}, args.out)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
