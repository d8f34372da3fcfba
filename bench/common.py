"""Shared helpers for the benchmarks: machine facts, JSON results, the LoCoMo file."""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
#: Read it where it lies: the licence (CC BY-NC 4.0) forbids copying it into this repository.
LOCOMO = ROOT.parent / "shared" / "data" / "locomo-dev.json"


def this_checkout_env(env: dict[str, str]) -> dict[str, str]:
    """``env`` for a server process that must run this checkout's code: the environment's
    ``graphmem`` is an editable install of one checkout, so a server started from another
    (a worktree of an older commit, for a baseline) would run that one's code instead."""
    path = [str(ROOT), *filter(None, [env.get("PYTHONPATH")])]
    return {**env, "PYTHONPATH": os.pathsep.join(path)}


def machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gb": mem_gb,
            "python": platform.python_version(), "os": platform.platform(), "commit": commit,
            "date": datetime.now(UTC).isoformat(timespec="seconds")}


def write_result(name: str, payload: dict[str, Any], path: Path | None = None) -> Path:
    """Write ``payload`` with the machine to ``bench/results/NAME.json``, or to ``path``
    (a run that is not to replace the committed figures, such as one half of an A/B)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = path or RESULTS / f"{name}.json"
    path.write_text(json.dumps({"machine": machine(), **payload}, indent=2, default=str) + "\n")
    return path


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0.0


_DIA = re.compile(r"D(\d+):(\d+)")


def normalize_evidence(ids: list[str]) -> set[str]:
    """Fix malformed ids ("D8:6; D9:17", "D30:05"): pull out D<n>:<n>, strip leading zeros."""
    found: set[str] = set()
    for raw in ids:
        for session, turn in _DIA.findall(str(raw)):
            found.add(f"D{int(session)}:{int(turn)}")
    return found


def load_locomo() -> list[dict[str, Any]]:
    if not LOCOMO.exists():
        raise SystemExit(f"LoCoMo data not found at {LOCOMO}")
    data: list[dict[str, Any]] = json.loads(LOCOMO.read_text())
    return data


def questions(sample: dict[str, Any]) -> list[dict[str, Any]]:
    """Questions of categories 1-4 with valid evidence (5, adversarial, is skipped)."""
    out = []
    for qa in sample["qa"]:
        evidence = normalize_evidence(qa.get("evidence", []))
        if qa.get("category") in (1, 2, 3, 4) and evidence:
            out.append({**qa, "evidence_ids": evidence})
    return out


#: A machine under this share of its CPUs in each of QUIET_SAMPLES samples of QUIET_SAMPLE_S
#: seconds in a row is quiet. One sample is not enough: a Neo4j server starts merging the
#: index segments a load wrote 5-10 s after it, and then keeps both cores busy for about a
#: minute (sampled after 100k facts: 8, 43, 100, 100, 100, 100, 100, 77, 51, 51, 51, 44, 0, 1%).
QUIET_BELOW = 0.15
QUIET_SAMPLE_S = 5.0
QUIET_SAMPLES = 3


def wait_until_quiet(max_s: float = 600.0) -> float:
    """Wait until this machine's CPUs have been quiet for :data:`QUIET_SAMPLES` samples in a
    row, or ``max_s`` has passed; returns the seconds waited, for the record."""
    import psutil

    start, streak = time.perf_counter(), 0
    while streak < QUIET_SAMPLES and time.perf_counter() - start < max_s:
        quiet = psutil.cpu_percent(interval=QUIET_SAMPLE_S) < 100 * QUIET_BELOW
        streak = streak + 1 if quiet else 0
    return round(time.perf_counter() - start, 1)
