"""``graphmem search`` and ``graphmem context`` with the time view, on both stores."""

from __future__ import annotations

from datetime import UTC, datetime

from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.ingest.inputs import FactInput
from graphmem.memory import Memory
from graphmem.settings import Settings
from tests.lifecycle.conftest import ALICE
from tests.lifecycle.test_cli import run, settings  # noqa: F401  (fixture)


def _seed(settings: Settings) -> None:  # noqa: F811
    with Memory.from_settings(settings) as memory:
        memory.add_facts(settings.default_tenant, [
            FactInput(scope=ALICE, subject="Alice", predicate="WORKS_AT", object=company,
                      text=f"Alice works at {company}.", valid_from=datetime(year, 1, 1, tzinfo=UTC))
            for company, year in (("Acme", 2020), ("Globex", 2023))])


def test_search_and_context_take_the_time_view(settings: Settings) -> None:  # noqa: F811
    _seed(settings)
    now = run("search", "where does Alice work?", "--scope", "user:alice")
    assert "Globex" in now and "Acme" not in now
    for spelling in ("2021-06-01", "2021-06-01 09:00", "2021-06-01T11:00:00+02:00"):
        then = run("search", "where does Alice work?", "--scope", "user:alice",
                   "--as-of", spelling)
        assert "Acme" in then and "Globex" not in then, spelling
    prompt = run("context", "where do I work?", "--scope", "user:alice", "--as-of", "2021-06-01")
    assert "Acme" in prompt and "Globex" not in prompt
    history = run("context", "where do I work?", "--scope", "user:alice", "--include-history")
    assert "Acme" in history and "Globex" in history


def test_a_bad_time_is_one_line_naming_the_option(settings: Settings) -> None:  # noqa: F811
    result = CliRunner().invoke(app, ["search", "x", "--scope", "user:alice",
                                      "--as-known-at", "9999-12-31T23:00:00-05:00"])
    assert result.exit_code == 1
    assert "--as-known-at" in result.output and "Traceback" not in result.output


def test_an_empty_query_names_the_argument_and_a_bad_scope_shows_the_forms(
        settings: Settings) -> None:  # noqa: F811
    empty = CliRunner().invoke(app, ["search", "", "--scope", "user:alice"])
    assert empty.exit_code == 1 and "QUERY:" in empty.output and "--query" not in empty.output
    bad = CliRunner().invoke(app, ["search", "x", "--scope", "alice"])
    assert bad.exit_code == 1 and "user:<id>" in bad.output, bad.output
