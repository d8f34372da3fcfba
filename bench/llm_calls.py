"""LLM calls per ingested episode: the call discipline of LLMExtractor.

Ingests N LoCoMo sessions (read from the shared data directory, never
copied) through the real pipeline (embedded store, ONNX embedder) with
``LLMExtractor`` pointed at the scripted fake server of the tests, which
answers every ``--rate-limit-every``-th request with a 429 and otherwise
with a deterministic extraction: one fact per turn (speaker MENTIONED the
turn's longest word) and a ``keep`` verdict on the first candidate it is
shown. It measures how many HTTP calls an episode costs (goal: exactly 1,
2 when a 429 forced a retry) and that the token counters add up to what the
server reported; it says nothing about extraction quality. The fake
server's token counts are characters / 4.

    python bench/llm_calls.py                    # 50 sessions, a 429 every 7th request
    python bench/llm_calls.py --episodes 20 --rate-limit-every 0 --reject-json-schema
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import openai  # noqa: E402

from bench.common import load_locomo, write_result  # noqa: E402
from graphmem.embed.onnx import OnnxEmbedder  # noqa: E402
from graphmem.extract.llm import LLMExtractor  # noqa: E402
from graphmem.ingest.formats import locomo_sessions  # noqa: E402
from graphmem.ingest.inputs import EpisodeInput  # noqa: E402
from graphmem.ingest.pipeline import Ingestor  # noqa: E402
from graphmem.models import Message, Scope  # noqa: E402
from graphmem.store.embedded import EmbeddedStore  # noqa: E402
from tests.extract.fake_openai import FakeOpenAI, Reply, Request, ok, rate_limited  # noqa: E402

_WORD = re.compile(r"[A-Za-z]{4,}")


def episodes(limit: int) -> list[EpisodeInput]:
    """The first ``limit`` sessions, conversation by conversation, one episode each."""
    out: list[EpisodeInput] = []
    for sample in load_locomo():
        scope = Scope(user_id=sample["sample_id"])
        for number, when, turns in locomo_sessions(sample):
            messages = [Message(id=t["dia_id"], speaker=t["speaker"], content=t["text"],
                                timestamp=when)
                        for t in turns if str(t.get("text", "")).strip()]
            out.append(EpisodeInput(scope=scope, messages=messages, reference_time=when,
                                    episode_id=f"{sample['sample_id']}-s{number}"))
            if len(out) == limit:
                return out
    return out


class Responder:
    """The fake model: deterministic facts, and a 429 on every n-th request."""

    def __init__(self, rate_limit_every: int) -> None:
        self.every = rate_limit_every
        self.seen = 0
        self.rate_limited = 0
        self._lock = threading.Lock()

    def __call__(self, request: Request) -> Reply:
        with self._lock:
            self.seen += 1
            if self.every and self.seen % self.every == 0:
                self.rate_limited += 1
                return rate_limited("0.01")
        doc = request.episode
        facts = []
        for message in doc.get("messages", []):
            words = _WORD.findall(message["content"])
            if not words:
                continue
            word = max(words, key=len).lower()
            facts.append({
                "subject": message["speaker"], "predicate": "MENTIONED", "object": word,
                "cardinality": "many", "category": "context", "importance": 0.3,
                "confidence": 0.6, "valid_from": None, "valid_until": None, "action": "assert",
                "message_id": message["id"], "text": f"{message['speaker']} mentioned {word}.",
            })
        existing = doc.get("existing_facts", [])
        decisions = [{"fact_id": existing[0]["id"], "decision": "keep", "by_fact_index": None}
                     ] if existing else []
        return ok({"entities": [], "facts": facts, "decisions": decisions, "language": "en"})


def run(args: argparse.Namespace) -> dict[str, Any]:
    inputs = episodes(args.episodes)
    responder = Responder(args.rate_limit_every)
    per_episode: list[int] = []
    created = warned = 0
    with FakeOpenAI(responder, reject_json_schema=args.reject_json_schema) as server, \
            tempfile.TemporaryDirectory() as tmp:
        store = EmbeddedStore(Path(tmp) / "bench.db", embedding_dim=384)
        store.open()
        extractor = LLMExtractor(server.base_url, "sk-bench-not-a-real-key", "fake-model",
                                 max_retries=args.max_retries, timeout=10.0)
        ingestor = Ingestor(store, extractor, OnnxEmbedder())
        started = time.perf_counter()
        try:
            for data in inputs:
                before = len(server.requests)
                result = ingestor.ingest(f"bench{args.episodes}", data)
                per_episode.append(len(server.requests) - before)
                created += len(result.created)
                warned += bool(result.warnings)
        finally:
            seconds = time.perf_counter() - started
            extractor.close()
            store.close()
        usage = extractor.usage()
        reported = {key: sum(u[key] for u in server.usage_sent)
                    for key in ("prompt_tokens", "completion_tokens")}
        user_chars = [len(r.body["messages"][-1]["content"]) for r in server.requests]
        system_chars = len(server.requests[0].system) if server.requests else 0

    histogram = Counter(per_episode)
    episodes_count = len(per_episode)
    return {
        "benchmark": "llm_calls",
        "note": ("fake server; measures call discipline, not LLM quality. The fake server "
                 "answers deterministically (one MENTIONED fact per turn) and counts tokens as "
                 "characters / 4."),
        "settings": {"episodes": episodes_count, "rate_limit_every": args.rate_limit_every,
                     "max_retries": args.max_retries,
                     "reject_json_schema": args.reject_json_schema,
                     "data": "LoCoMo dev sessions (/work/shared/data/locomo-dev.json), "
                             "one session per episode"},
        "calls": {
            "total": usage.calls,
            "per_episode_mean": round(usage.calls / episodes_count, 3) if episodes_count else None,
            "per_episode_max": max(per_episode, default=0),
            "histogram": {str(k): histogram[k] for k in sorted(histogram)},
            "retries": usage.retries,
            "injected_429s": responder.rate_limited,
            "failures": usage.failures,
            "response_format": usage.response_format,
        },
        "goal": {
            "exactly_one_call_without_a_retry": usage.calls - usage.retries == episodes_count
            + (1 if args.reject_json_schema else 0),
            "at_most_two_calls": max(per_episode, default=0) <= 2,
        },
        "tokens": {
            "prompt": usage.prompt_tokens,
            "completion": usage.completion_tokens,
            "matches_server_reports": (usage.prompt_tokens, usage.completion_tokens)
            == (reported["prompt_tokens"], reported["completion_tokens"]),
            "prompt_per_episode_mean": round(usage.prompt_tokens / episodes_count, 1)
            if episodes_count else None,
            "system_prompt_chars": system_chars,
            "user_message_chars_mean": round(sum(user_chars) / len(user_chars), 1)
            if user_chars else None,
        },
        "ingestion": {"facts_created": created, "episodes_with_warnings": warned,
                      "seconds": round(seconds, 2),
                      "seconds_per_episode": round(seconds / episodes_count, 3)
                      if episodes_count else None},
        "versions": {"openai": openai.__version__},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=50)
    parser.add_argument("--rate-limit-every", type=int, default=7,
                        help="answer every n-th request with a 429 (0: never)")
    parser.add_argument("--max-retries", type=int, default=2)
    parser.add_argument("--reject-json-schema", action="store_true",
                        help="the server refuses structured output (tests the JSON-mode fallback)")
    parser.add_argument("--name", default="llm_calls", help="results file name (no .json)")
    args = parser.parse_args()
    payload = run(args)
    path = write_result(args.name, payload)
    calls = payload["calls"]
    print(f"{payload['settings']['episodes']} episodes: {calls['total']} calls "
          f"({calls['per_episode_mean']} per episode, max {calls['per_episode_max']}, "
          f"histogram {calls['histogram']}), {calls['retries']} retries for "
          f"{calls['injected_429s']} injected 429s; tokens {payload['tokens']['prompt']} prompt "
          f"+ {payload['tokens']['completion']} completion -> {path}")


if __name__ == "__main__":
    main()
