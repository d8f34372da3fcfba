"""`graphmem neo4j start` options reach the launcher's configuration."""

from __future__ import annotations

import pytest

from graphmem.cli.neo4j import _config


def test_page_cache_heap_and_jit_options_reach_the_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAPHMEM_NEO4J_PASSWORD", raising=False)
    config = _config(page_cache_mb=2048, heap="2g", quick_start=False)
    assert (config.page_cache_mb, config.heap, config.quick_start) == (2048, "2g", False)
    assert _config().page_cache_mb == 512


def test_a_page_cache_below_the_minimum_is_refused() -> None:
    from typer.testing import CliRunner

    from graphmem.cli import app

    result = CliRunner().invoke(app, ["neo4j", "start", "--page-cache-mb", "8"])
    assert result.exit_code != 0
    assert "page-cache-mb" in result.output
