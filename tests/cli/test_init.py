"""The ``graphmem`` command group: what every sub-command shares."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from graphmem.cli import app


def test_a_misspelt_variable_is_named_before_the_command_runs(tmp_path: Path) -> None:
    source = tmp_path / "one.jsonl"
    source.write_text('{"scope": {"user_id": "a"}, "text": "I live in Oslo."}\n')
    result = CliRunner().invoke(app, ["ingest", str(source)], env={
        "GRAPHMEM_DB_PATH": str(tmp_path / "m.db"), "GRAPHMEM_DATA_DIR": str(tmp_path)})
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "warning: GRAPHMEM_DATA_DIR is not a graphmem setting and is ignored; did you mean " \
        "GRAPHMEM_DB_PATH?" in said
    assert "1 episodes" in said or "1 episode" in said
