"""``graphmem ingest``: bulk ingestion from the command line, end to end."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.memory import Memory
from graphmem.settings import Settings
from graphmem.store.base import FactQuery
from graphmem.temporal import TimeFilter
from tests.ingest.test_formats import SAMPLE


def test_ingest_locomo_file_twice_is_idempotent(tmp_path: Path) -> None:
    source = tmp_path / "locomo.json"
    source.write_text(json.dumps([SAMPLE]))
    env = {"GRAPHMEM_DB_PATH": str(tmp_path / "m.db"), "GRAPHMEM_DEFAULT_TENANT": "t1"}
    runner = CliRunner()

    first = runner.invoke(app, ["ingest", str(source), "--format", "locomo"], env=env)
    second = runner.invoke(app, ["ingest", str(source), "--format", "locomo"], env=env)

    assert first.exit_code == 0, first.output
    assert "2 episodes (3 turns)" in first.output
    assert "2 episodes already stored" in " ".join(second.output.split())
    settings = Settings(db_path=tmp_path / "m.db")
    with Memory.from_settings(settings) as memory:
        facts = memory.list_facts("t1", FactQuery(scope_keys=["user:conv-1"],
                                                  time=TimeFilter(include_history=True)))
    assert {(f.subject_name, f.predicate, f.object_name) for f in facts} >= {
        ("Caroline", "LIVES_IN", "Boston")}


def test_ingest_reports_a_bad_file_without_a_traceback(tmp_path: Path) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text('{"scope": {"user_id": "a"}}\n')
    result = CliRunner().invoke(app, ["ingest", str(source)],
                                env={"GRAPHMEM_DB_PATH": str(tmp_path / "m.db")})
    assert result.exit_code == 1
    assert "bad.jsonl:1: not a valid episode" in result.output
    assert "Traceback" not in result.output
