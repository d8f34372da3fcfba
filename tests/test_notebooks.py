"""The notebooks run top to bottom, offline, against real stores.

01-03 use the embedded store (a temporary file); 04 writes to the session's Neo4j
(``neo4j_uri``), which it finds through ``NEO4J_URI``. Pictures go to a temporary
folder (``GRAPHMEM_NOTEBOOK_OUT``), so a test run never rewrites ``docs/img``. The
notebooks in git carry no outputs; these tests also keep it that way.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import nbclient
import nbformat
import pytest

from tests.neo4j_fixtures import Neo4jServer

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CYPHER_DOC = NOTEBOOKS.parent / "docs" / "cypher.md"
#: Each notebook should take well under a minute; the timeout leaves room for a busy CI box.
CELL_TIMEOUT = 180
BUDGET_SECONDS = 120


def execute(name: str, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a notebook in a fresh kernel; return its text outputs, joined."""
    for key, value in env.items():
        monkeypatch.setenv(key, value)  # the kernel inherits the test process's environment
    book = nbformat.read(NOTEBOOKS / name, as_version=4)
    started = time.monotonic()
    client = nbclient.NotebookClient(book, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()
    elapsed = time.monotonic() - started
    assert elapsed < BUDGET_SECONDS, f"{name} took {elapsed:.0f} s"
    outputs = [o for cell in book.cells if cell.cell_type == "code" for o in cell.outputs]
    errors = [o.get("text", "") for o in outputs if o.get("name") == "stderr"]
    assert not errors, f"{name} wrote to stderr: {errors}"
    return "\n".join(_text(o) for o in outputs)


def _text(output: Any) -> str:
    if output.get("output_type") == "stream":
        return str(output.get("text", ""))
    return str(output.get("data", {}).get("text/plain", ""))


def test_quickstart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = execute("01-quickstart.ipynb", {"GRAPHMEM_NOTEBOOK_OUT": str(tmp_path)}, monkeypatch)
    now, before, history = text.split("Vue or React?")[1:4]
    assert "React" in now and "Wang uses Vue 3." not in now
    assert "Wang uses Vue 3." in before and "React" not in before
    assert "Wang uses Vue 3." in history and "(superseded)" in history
    assert "Tokyo" in text and "retracted:  Wang works at Acme." in text
    assert "## What you remember about this user" in text


def test_graph(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    execute("02-graph.ipynb", {"GRAPHMEM_NOTEBOOK_OUT": str(tmp_path)}, monkeypatch)
    assert (tmp_path / "graph.png").stat().st_size > 20_000
    page = (tmp_path / "graph.html").read_text()
    assert "vis.Network" in page and not re.search(r"(src|href)=\"https?://", page)


def test_timeline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = execute("03-timeline.ipynb", {"GRAPHMEM_NOTEBOOK_OUT": str(tmp_path)}, monkeypatch)
    assert (tmp_path / "timeline.png").stat().st_size > 20_000
    assert "superseded" in text and "retracted at 2024-09-02" in text


@pytest.mark.neo4j
def test_cypher(neo4j_uri: Neo4jServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {"NEO4J_URI": neo4j_uri.uri, "NEO4J_USER": neo4j_uri.user,
           "NEO4J_PASSWORD": neo4j_uri.password, "GRAPHMEM_NOTEBOOK_OUT": str(tmp_path)}
    text = execute("04-cypher.ipynb", env, monkeypatch)
    assert re.search(r"USES_FRAMEWORK\s+React", text)  # current relations
    assert "Vue 3 (2024-03-04) -> React (2024-05-01)" in text  # supersedes chain
    assert "Wang has a business trip to Tokyo" in text  # valid on 2024-06-20
    assert re.search(r"RETRACTS\s+Fact\s+Wang works at Acme\.", text)
    assert re.search(r"Wang\s+person\s+\d+", text)  # the busiest entity


def test_docs_queries_are_the_notebook_queries() -> None:
    """docs/cypher.md shows what notebook 04 runs, so CI checks the documented Cypher."""
    notebook = "".join(c.source for c in nbformat.read(NOTEBOOKS / "04-cypher.ipynb", 4).cells)
    documented = re.findall(r"```cypher\n(.*?)```", CYPHER_DOC.read_text(), re.DOTALL)
    run_by_notebook = [q for q in documented if q.strip() in notebook]
    assert len(run_by_notebook) >= 5, "docs/cypher.md lost the queries notebook 04 runs"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_notebooks_are_saved_without_outputs(path: Path) -> None:
    book = nbformat.read(path, as_version=4)
    nbformat.validate(book)
    for cell in book.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, path.name

