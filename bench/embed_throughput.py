"""Sentences per second of the local ONNX embedder, by precision, batch size and threads.

Embeds LoCoMo dialogue turns (real chat sentences, read from the shared data
directory and never copied into the repository) with ``OnnxEmbedder``, and writes the
figures with the machine they were measured on to ``bench/results/embed_throughput.json``.
Each setting runs ``--repeats`` times; the best run is the headline because on a shared
machine the other runs mostly measure the neighbours (the load average before and after
is recorded so the reader can judge). The int8 model's vectors are compared with the
float32 model's on the same turns (cosine per turn, and how many of each turn's ten
nearest turns the two agree on).

    python bench/embed_throughput.py                       # 1000 turns, the default settings
    python bench/embed_throughput.py --settings float32:16:2,int8:1:1 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine as common_machine  # noqa: E402
from graphmem.embed.onnx import OnnxEmbedder, Precision  # noqa: E402
from graphmem.embed.tokens import TokenCounter  # noqa: E402

DEFAULT_DATA = Path("/work/shared/data/locomo-dev.json")
DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "embed_throughput.json"


def load_turns(path: Path, count: int, seed: int) -> list[str]:
    """``count`` dialogue turns sampled (reproducibly) across every conversation."""
    samples = json.loads(path.read_text(encoding="utf-8"))
    turns = [
        turn["text"]
        for sample in samples
        for key, session in sample["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
        if turn.get("text")
    ]
    if count > len(turns):
        raise SystemExit(f"{path} has only {len(turns)} turns, asked for {count}")
    return random.Random(seed).sample(turns, count)


def machine() -> dict[str, Any]:
    import numpy
    import onnxruntime
    import tokenizers

    return {**common_machine(), "onnxruntime": onnxruntime.__version__,
            "tokenizers": tokenizers.__version__, "numpy": numpy.__version__}


def measure(texts: list[str], precision: Precision, batch_size: int, threads: int,
            spin_wait: bool, repeats: int) -> dict[str, Any]:
    embedder = OnnxEmbedder(precision=precision, batch_size=batch_size,
                            intra_op_threads=threads, spin_wait=spin_wait)
    embedder.load()
    embedder.embed(texts[:64])  # warm-up: first runs allocate and tune kernels
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        embedder.embed(texts)
        seconds.append(time.perf_counter() - start)
    median = statistics.median(seconds)
    return {
        "precision": precision,
        "model": embedder.name,
        "batch_size": batch_size,
        "intra_op_threads": threads,
        "seconds_median": round(median, 4),
        "seconds_all": [round(s, 4) for s in seconds],
        "sentences_per_second_best": round(len(texts) / min(seconds), 1),
        "sentences_per_second_median": round(len(texts) / median, 1),
    }


def agreement(texts: list[str]) -> dict[str, float]:
    """How close the int8 model's vectors are to the float32 model's on the same texts."""
    import numpy as np

    int8 = OnnxEmbedder(precision="int8").embed(texts)
    float32 = OnnxEmbedder(precision="float32").embed(texts)
    cosines = (int8 * float32).sum(axis=1)
    near_int8 = np.argsort(-(int8 @ int8.T), axis=1)[:, 1:11]
    near_float32 = np.argsort(-(float32 @ float32.T), axis=1)[:, 1:11]
    overlap = [len(set(a) & set(b)) / 10 for a, b in zip(near_int8, near_float32, strict=True)]
    return {"cosine_mean": round(float(cosines.mean()), 4),
            "cosine_min": round(float(cosines.min()), 4),
            "top10_neighbours_shared": round(float(np.mean(overlap)), 3)}


def setting(text: str) -> tuple[Precision, int, int]:
    """``precision:batch:threads``, e.g. ``int8:1:1``."""
    precision, batch, threads = text.split(":")
    if precision not in ("int8", "float32"):
        raise SystemExit(f"--settings: {precision!r} is not int8 or float32")
    return ("int8" if precision == "int8" else "float32"), int(batch), int(threads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sentences", type=int, default=1000)
    parser.add_argument("--settings", default="int8:1:1,int8:1:2,float32:8:1,float32:8:2",
                        help="precision:batch size:intra-op threads, comma-separated")
    parser.add_argument("--spin-wait", action="store_true", help="let onnxruntime threads busy-wait")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()

    texts = load_turns(args.data, args.sentences, args.seed)
    counter = TokenCounter(multiplier=1.0)
    lengths = sorted(counter.count(t) + 2 for t in texts)  # + [CLS] and [SEP], as the model sees them
    load_before = os.getloadavg()
    results = []
    for precision, batch_size, threads in (setting(t) for t in args.settings.split(",")):
        result = measure(texts, precision, batch_size, threads, args.spin_wait, args.repeats)
        print(
            f"{precision:>7} batch {batch_size:>3} threads {threads}: "
            f"{result['sentences_per_second_best']:>7.1f} sentences/s best, "
            f"{result['sentences_per_second_median']:>7.1f} median",
            flush=True,
        )
        results.append(result)

    report = {
        "benchmark": "embed_throughput",
        "measured_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "data": f"{args.data.name}: {len(texts)} dialogue turns sampled with seed {args.seed}",
        "tokens_per_sentence": {
            "mean": round(statistics.mean(lengths), 1),
            "median": statistics.median(lengths),
            "p95": lengths[int(0.95 * (len(lengths) - 1))],
            "max": lengths[-1],
        },
        "spin_wait": args.spin_wait,
        "repeats": args.repeats,
        "machine": machine(),
        "load_average_1_5_15": {"before": load_before, "after": os.getloadavg()},
        "results": results,
        "int8_against_float32": agreement(texts),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
