"""Precision and recall of the default redaction patterns on tests/data/privacy_corpus.jsonl.

The corpus is written for graphmem: the ``dev`` lines were used while the
patterns were written, the ``holdout`` lines only afterwards, so the holdout
figures are the honest ones. Writes bench/results/redaction.json.

    python bench/redaction.py
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, write_result  # noqa: E402
from graphmem.ingest.redact import LabelledText, Redactor, score_redaction  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "privacy_corpus.jsonl"


def _summary(cases: list[LabelledText], redactor: Redactor) -> dict[str, Any]:
    score = score_redaction(redactor, cases)
    kinds = Counter(s["kind"] for c in cases for s in c.secrets)
    missed = Counter(score.missed)
    return {
        "lines": score.lines, "lines_with_secrets": sum(1 for c in cases if c.secrets),
        "secrets": score.secrets, "caught": score.caught, "findings": score.findings,
        "true_findings": score.true_findings, "precision": round(score.precision, 4),
        "recall": round(score.recall, 4),
        "recall_by_kind": {k: round((n - missed[k]) / n, 4) for k, n in sorted(kinds.items())},
        "missed": sorted(score.missed), "false_findings": sorted(score.false_findings),
    }


def main() -> None:
    cases = [LabelledText.model_validate(json.loads(line))
             for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    redactor = Redactor()
    started = time.perf_counter()
    for _ in range(20):
        for case in cases:
            redactor.redact(case.text)
    per_line_us = (time.perf_counter() - started) / (20 * len(cases)) * 1e6
    payload = {
        "corpus": str(CORPUS.relative_to(ROOT)),
        "patterns": [p.name for p in redactor.patterns],
        "all": _summary(cases, redactor),
        "dev": _summary([c for c in cases if c.split == "dev"], redactor),
        "holdout": _summary([c for c in cases if c.split == "holdout"], redactor),
        "microseconds_per_line": round(per_line_us, 1),
    }
    path = write_result("redaction", payload)
    print(json.dumps({k: payload[k] for k in ("all", "holdout")}, indent=2))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
