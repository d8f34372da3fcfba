"""An in-process MCP server over the contract suite's ``store`` (both stores), the real
ONNX embedder and the real rules extractor; ``connect`` opens the SDK's client on it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from mcp import Client

from graphmem.embed.base import Embedder
from graphmem.extract.base import Extractor
from graphmem.mcp import Caller, build_server
from graphmem.memory import Memory
from graphmem.models import Scope
from graphmem.store.base import GraphStore

ALICE = Scope(user_id="alice")


@pytest.fixture(scope="session")
def extractor() -> Extractor:
    from graphmem.extract.rules import RuleExtractor

    return RuleExtractor()


@pytest.fixture
def memory(store: GraphStore, embedder: Embedder, extractor: Extractor) -> Iterator[Memory]:
    yield Memory(store, extractor, embedder)


@pytest.fixture
def client(memory: Memory, tenant: str) -> Client:
    """Not yet connected: ``async with client:`` inside the test's event loop."""
    return Client(build_server(memory, lambda _ctx: Caller(tenant, ALICE)))
