"""Precision and recall of RuleExtractor on the labelled set, and its speed on LoCoMo.

Usage::

    python bench/extraction_quality.py [--gold tests/data/extraction_gold.jsonl]
                                       [--locomo /work/shared/data/locomo-dev.json]
                                       [--show-errors tune|test|all]

The labelled set has a ``split``: ``tune`` sentences were used to develop the
rules, ``test`` sentences were not. ``batch`` 1 (70% tune, 30% test) was
written before any rule. ``batch`` 2 was written blind once the rules existed,
measured once as a fresh test, then used for tuning (so it is ``tune`` now);
``batch`` 3 went the same way. ``batch`` 4 (all ``test``) was written blind at
the end and never tuned on. ``batch`` 5 (200 sentences of change, negation,
transition and state) was written in one go before the change rules were
tuned: a quarter is ``test`` and was never looked at while tuning.

A row may list ``negated`` statements ("I no longer play tennis" names
PLAYS_SPORT tennis): a predicted *assert* with the same subject and object, of
any predicate but ``DISLIKES``, counts as a negated statement asserted, which
must never happen. A gold fact may carry ``valid_from`` (a date): when the fact
is matched, its predicted start must fall in the same month (the same day when
the gold date is not the first of a month).

A predicted fact matches a gold fact when, after lower-casing and removing
articles and punctuation, the subjects are equal, the predicates are equal or
of the same timeline family (``LIKES``/``LOVES``/``PREFERS``; ``USES`` with
``USES_FRAMEWORK``) — but a dislike never matches a like — the actions are
equal, and the objects are equal. For free-text objects (``TODO``, ``GOAL``,
``PLANS``, ``LESSON``, ``LEARNING``) one object's content words must contain
the other's, since "call mom" and "call mom tomorrow" state the same task.
The ``lenient`` figures apply that containment to every predicate ("apartment"
vs "small apartment"). Matching is one-to-one per sentence.

Writes ``bench/results/extraction_quality.json`` with the figures and machine info.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import machine as common_machine  # noqa: E402
from graphmem.extract.rules import RuleExtractor  # noqa: E402
from graphmem.models import Episode, Message  # noqa: E402
from graphmem.predicates import PredicateRegistry  # noqa: E402

FREE_TEXT = frozenset({"TODO", "GOAL", "PLANS", "LESSON", "LEARNING"})
STOPWORDS = frozenset("a an the my our to of in on at for with and or is be".split())
_ARTICLES = re.compile(r"\b(?:a|an|the)\b")
_PUNCT = re.compile(r"[^\w\s+#.'-]|(?<!\w)[.'-]|[.'-](?!\w)")
_REGISTRY = PredicateRegistry()
_EXTRA_FAMILY = {"USES_FRAMEWORK": "USES"}

Triple = tuple[str, str, str, str]
#: A predicted fact and its start date (ISO, or None).
Prediction = tuple[Triple, str | None]


def normalize(text: str) -> str:
    text = _PUNCT.sub(" ", text.lower())
    return " ".join(_ARTICLES.sub(" ", text).split())


def family(predicate: str) -> str:
    if predicate in _EXTRA_FAMILY:
        return _EXTRA_FAMILY[predicate]
    if predicate == "DISLIKES":
        return "DISLIKES"
    return _REGISTRY.spec(predicate).family


def _content(text: str) -> set[str]:
    return {w for w in normalize(text).split() if w not in STOPWORDS}


def objects_match(gold: str, predicted: str, predicate: str, lenient: bool) -> bool:
    if normalize(gold) == normalize(predicted):
        return True
    if predicate in FREE_TEXT or lenient:
        a, b = _content(gold), _content(predicted)
        return bool(a and b) and (a <= b or b <= a)
    return False


def matches(gold: Triple, predicted: Triple, lenient: bool) -> bool:
    gs, gp, go, ga = gold
    ps, pp, po, pa = predicted
    return (normalize(gs) == normalize(ps) and ga == pa
            and (gp == pp or family(gp) == family(pp))
            and objects_match(go, po, gp, lenient))


def negated_asserted(row: dict[str, Any], predicted: list[Triple]) -> list[Triple]:
    """Predicted assertions of a statement the sentence negates."""
    out = []
    for n in row.get("negated", ()):
        out += [p for p in predicted if p[3] == "assert" and p[1] != "DISLIKES"
                and normalize(p[0]) == normalize(n["subject"])
                and normalize(p[2]) == normalize(n["object"])]
    return out


def date_right(gold: str, predicted: str | None) -> bool:
    if predicted is None:
        return False
    return predicted[:7] == gold[:7] and (gold.endswith("-01") or predicted[:10] == gold[:10])


def score(rows: list[dict[str, Any]], predictions: list[list[Prediction]], lenient: bool
          ) -> dict[str, Any]:
    tp = fp = fn = negated = dated = dated_right = 0
    errors: list[dict[str, Any]] = []
    for row, predicted_dated in zip(rows, predictions, strict=True):
        predicted = [p[0] for p in predicted_dated]
        starts = dict(enumerate(p[1] for p in predicted_dated))
        unmatched = list(range(len(predicted)))
        missed = []
        wrong_dates = []
        for f in row["facts"]:
            g = (f["subject"], f["predicate"], f["object"], f["action"])
            hit = next((i for i in unmatched if matches(g, predicted[i], lenient)), None)
            if hit is None:
                missed.append(g)
                continue
            unmatched.remove(hit)
            tp += 1
            if f.get("valid_from"):
                dated += 1
                if date_right(f["valid_from"], starts[hit]):
                    dated_right += 1
                else:
                    wrong_dates.append((g, f["valid_from"], starts[hit]))
        spurious = [predicted[i] for i in unmatched]
        bad = negated_asserted(row, predicted)
        negated += len(bad)
        fp += len(spurious)
        fn += len(missed)
        if missed or spurious or bad or wrong_dates:
            errors.append({"text": row["text"], "missed": missed, "spurious": spurious,
                           "negated_asserted": bad, "wrong_dates": wrong_dates,
                           "split": row.get("split", "tune")})
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 3), "recall": round(recall, 3), "f1": round(f1, 3),
            "tp": tp, "fp": fp, "fn": fn, "sentences": len(rows),
            "negated_asserted": negated, "dated_facts": dated, "dates_right": dated_right,
            "errors": errors}


def predict(extractor: RuleExtractor, rows: list[dict[str, Any]]) -> list[list[Prediction]]:
    out = []
    for i, row in enumerate(rows):
        reference = datetime.fromisoformat(row["reference_time"])
        episode = Episode(tenant="bench", scope_key="user:bench", reference_time=reference,
                          messages=[Message(id=f"m{i}", speaker=row.get("speaker"),
                                            content=row["text"])])
        extraction = extractor.extract(episode, [])
        out.append([((f.subject, f.predicate, f.object, f.action),
                     f.valid_from.date().isoformat() if f.valid_from else None)
                    for f in extraction.facts])
    return out


def locomo_speed(extractor: RuleExtractor, path: Path) -> dict[str, Any]:
    """Messages per second over every LoCoMo session, one episode per session."""
    samples = json.loads(path.read_text())
    episodes = []
    for sample in samples:
        conv = sample["conversation"]
        for key, turns in conv.items():
            if not key.startswith("session_") or not isinstance(turns, list):
                continue
            episodes.append(Episode(
                tenant="bench", scope_key="user:bench", reference_time=datetime(2023, 5, 8, tzinfo=UTC),
                messages=[Message(id=t["dia_id"], speaker=t["speaker"], content=t["text"])
                          for t in turns if t.get("text", "").strip()]))
    extractor.load()
    turns = sum(len(e.messages) for e in episodes)
    start, cpu = time.perf_counter(), time.process_time()
    facts = sum(len(extractor.extract(e, []).facts) for e in episodes)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"episodes": len(episodes), "messages": turns, "wall_seconds": round(elapsed, 2),
            "cpu_seconds": round(cpu, 2), "messages_per_second": round(turns / elapsed, 1),
            "messages_per_cpu_second": round(turns / cpu, 1),
            "load_average": [round(x, 2) for x in os.getloadavg()], "facts": facts,
            "facts_per_message": round(facts / turns, 3)}


def machine() -> dict[str, Any]:
    import spacy

    return {**common_machine(), "spacy": spacy.__version__}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gold", type=Path, default=ROOT / "tests/data/extraction_gold.jsonl")
    parser.add_argument("--locomo", type=Path, default=Path("/work/shared/data/locomo-dev.json"))
    parser.add_argument("--show-errors", default=None,
                        choices=("tune", "test", "test_batch1", "batch2", "batch3", "test_batch4",
                                 "tune_batch5", "test_batch5", "all"))
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/extraction_quality.json")
    args = parser.parse_args()

    rows = [json.loads(line) for line in args.gold.read_text().splitlines() if line.strip()]
    extractor = RuleExtractor()
    predictions = predict(extractor, rows)
    results: dict[str, Any] = {"gold": str(args.gold.relative_to(ROOT)) if args.gold.is_relative_to(
        ROOT) else str(args.gold), "model": extractor.model, "machine": machine(),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds")}
    subsets = {
        "tune": lambda r: r.get("split", "tune") == "tune",
        "test": lambda r: r.get("split") == "test",
        "test_batch1": lambda r: r.get("split") == "test" and r.get("batch", 1) == 1,
        "batch2": lambda r: r.get("batch", 1) == 2,
        "batch3": lambda r: r.get("batch", 1) == 3,
        "test_batch4": lambda r: r.get("batch", 1) == 4,
        "tune_batch5": lambda r: r.get("batch", 1) == 5 and r.get("split") == "tune",
        "test_batch5": lambda r: r.get("batch", 1) == 5 and r.get("split") == "test",
        "all": lambda r: True,
    }
    for split, wanted in subsets.items():
        chosen = [i for i, r in enumerate(rows) if wanted(r)]
        sub_rows = [rows[i] for i in chosen]
        sub_pred = [predictions[i] for i in chosen]
        strict = score(sub_rows, sub_pred, lenient=False)
        lenient = score(sub_rows, sub_pred, lenient=True)
        errors = strict.pop("errors")
        lenient.pop("errors")
        results[split] = {"strict": strict, "lenient": lenient}
        print(f"{split:11} strict  P={strict['precision']:.3f} R={strict['recall']:.3f} "
              f"F1={strict['f1']:.3f}  (tp={strict['tp']} fp={strict['fp']} fn={strict['fn']}, "
              f"{strict['sentences']} sentences; {strict['negated_asserted']} negated asserted, "
              f"dates {strict['dates_right']}/{strict['dated_facts']})")
        print(f"{'':11} lenient P={lenient['precision']:.3f} R={lenient['recall']:.3f} "
              f"F1={lenient['f1']:.3f}")
        if args.show_errors == split:
            for e in errors:
                print(f"  - {e['text']}")
                for m in e["missed"]:
                    print(f"      missed   {m}")
                for s in e["spurious"]:
                    print(f"      spurious {s}")
                for s in e["negated_asserted"]:
                    print(f"      NEGATED ASSERTED {s}")
                for s in e["wrong_dates"]:
                    print(f"      date     {s}")
    if args.locomo.exists():
        speed = locomo_speed(extractor, args.locomo)
        results["locomo_speed"] = speed
        print(f"LoCoMo: {speed['messages']} messages in {speed['wall_seconds']} s wall, "
              f"{speed['cpu_seconds']} s CPU = {speed['messages_per_second']} messages/s "
              f"({speed['messages_per_cpu_second']} per CPU-second; load average "
              f"{speed['load_average'][0]}), {speed['facts']} facts = "
              f"{speed['facts_per_message']} per turn")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
