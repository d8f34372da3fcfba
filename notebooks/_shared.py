"""The demo conversation and the plumbing the notebooks share.

Not part of the library: the notebooks import it so each of them stays a few
short cells, and ``docs/tools/browser_screenshot.py`` imports it to write the
same data into Neo4j. Reading the environment is fine here (this is an edge,
like the CLI): ``GRAPHMEM_NOTEBOOK_OUT`` redirects the pictures (the tests send
them to a temporary folder), ``NEO4J_URI`` / ``NEO4J_USER`` / ``NEO4J_PASSWORD``
point notebook 04 at a server you run.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from graphmem.ingest.inputs import EpisodeInput
from graphmem.memory import Memory
from graphmem.models import Message, Scope
from graphmem.store.base import GraphStore

REPO = Path(__file__).resolve().parent.parent
TENANT = "demo"
SCOPE = Scope(user_id="wang")
#: "Today" for every notebook, so their output does not depend on the day they run.
TODAY = datetime(2024, 9, 10, 12, 0, tzinfo=UTC)

#: Three chat sessions months apart; each is ingested with its own date as reference time.
SESSIONS: list[tuple[datetime, list[str]]] = [
    (datetime(2024, 3, 4, 9, 30, tzinfo=UTC), [
        "Hi, I'm Wang Wei. Everyone calls me Xiao Wang.",
        "I work at Acme as a frontend engineer.",
        "I prefer TypeScript and a functional style.",
        "Our Docker build needs proxy-env to reach the package mirror.",
        "We use Vue 3 for the dashboard.",
    ]),
    (datetime(2024, 6, 10, 14, 0, tzinfo=UTC), [
        "We switched from Vue 3 to React last month.",
        "I have a business trip to Tokyo next week.",
        "I live in Shanghai.",
    ]),
    (datetime(2024, 9, 2, 10, 15, tzinfo=UTC), [
        "Don't call me Xiao Wang anymore, call me Wang Zong.",
        "I quit Acme.",
    ]),
]


def episodes(scope: Scope = SCOPE) -> list[EpisodeInput]:
    """The sessions as episodes; fixed ids make a second ingestion a no-op."""
    return [
        EpisodeInput(
            scope=scope, reference_time=when, episode_id=f"demo-session-{number}",
            messages=[Message(speaker="Wang", content=text, timestamp=when) for text in texts],
        )
        for number, (when, texts) in enumerate(SESSIONS, start=1)
    ]


def build_memory(store: GraphStore) -> Memory:
    """A Memory on ``store`` with the offline extractor and embedder, its clock at TODAY."""
    from graphmem.embed.cache import CachedEmbedder
    from graphmem.embed.onnx import OnnxEmbedder
    from graphmem.extract.rules import RuleExtractor

    return Memory(store, RuleExtractor(), CachedEmbedder(OnnxEmbedder()), clock=lambda: TODAY)


def embedded_memory() -> Memory:
    """An opened Memory on a new embedded store in a temporary folder, demo data ingested."""
    from graphmem.store.embedded import EmbeddedStore

    folder = Path(tempfile.mkdtemp(prefix="graphmem-notebook-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    memory = build_memory(EmbeddedStore(folder / "memory.db", embedding_dim=384)).open()
    for episode in episodes():
        memory.add_episode(TENANT, episode)
    return memory


def output_dir() -> Path:
    """Where the pictures go: ``docs/img`` unless ``GRAPHMEM_NOTEBOOK_OUT`` says otherwise."""
    path = Path(os.environ.get("GRAPHMEM_NOTEBOOK_OUT") or REPO / "docs" / "img")
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass(frozen=True)
class Neo4jConnection:
    uri: str
    user: str
    password: str
    browser_url: str | None = None


@contextmanager
def neo4j_server() -> Iterator[Neo4jConnection]:
    """The server from ``NEO4J_URI`` if set, else a local Neo4j (see :func:`local_neo4j`)."""
    uri = os.environ.get("NEO4J_URI")
    if uri:
        yield Neo4jConnection(uri, os.environ.get("NEO4J_USER", "neo4j"),
                              os.environ.get("NEO4J_PASSWORD", ""))
        return
    with local_neo4j() as server:
        yield server


@contextmanager
def local_neo4j() -> Iterator[Neo4jConnection]:
    """A local Neo4j (auth off) on free ports with a temporary data folder, stopped after."""
    from graphmem.neo4j_local import LocalNeo4j, LocalNeo4jConfig
    from graphmem.neo4j_local.system import free_ports

    bolt_port, http_port = free_ports(2)
    data_dir = Path(tempfile.mkdtemp(prefix="graphmem-neo4j-"))
    local = LocalNeo4j(LocalNeo4jConfig(data_dir=data_dir, bolt_port=bolt_port,
                                        http_port=http_port))
    status = local.start()
    try:
        yield Neo4jConnection(status.bolt_uri, "neo4j", "", status.browser_url)
    finally:
        local.stop()
        shutil.rmtree(data_dir, ignore_errors=True)



def table(rows: list[dict[str, object]], columns: list[str] | None = None) -> str:
    """Rows as a plain-text table (pandas is not a dependency)."""
    if not rows:
        return "(no rows)"
    columns = columns or list(rows[0])
    cells = [[_cell(row.get(c)) for c in columns] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    line = "  ".join("-" * w for w in widths)
    head = "  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True))
    body = ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)) for r in cells]
    return "\n".join([head, line, *body])


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d")
    if hasattr(value, "to_native"):  # neo4j.time.DateTime
        return _cell(value.to_native())
    if isinstance(value, list):
        return " -> ".join(_cell(v) for v in value)
    return str(value)
