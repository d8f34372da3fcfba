"""The configured extractor is built from settings, LLM knobs included."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from graphmem.embed.cache import CachedEmbedder
from graphmem.embed.worker import WorkerEmbedder
from graphmem.extract.llm import LLMExtractor
from graphmem.extract.rules import RuleExtractor
from graphmem.factory import build_embedder, build_extractor
from graphmem.settings import Settings

NO_ENV_FILE: dict[str, Any] = {"_env_file": None}  # a developer's .env must not leak in


def test_the_llm_settings_reach_the_extractor(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in {"EXTRACTOR": "llm", "LLM_BASE_URL": "http://127.0.0.1:8082/v1",
                       "LLM_MODEL": "gemma3-270m", "LLM_RESPONSE_FORMAT": "json_object",
                       "LLM_MAX_TOKENS": "700", "LLM_CIRCUIT_SECONDS": "5",
                       "LLM_MAX_RETRIES": "0", "LLM_TIMEOUT": "12.5"}.items():
        monkeypatch.setenv(f"GRAPHMEM_{key}", value)
    extractor = build_extractor(Settings(**NO_ENV_FILE))

    assert isinstance(extractor, LLMExtractor)
    assert (extractor.base_url, extractor.model) == ("http://127.0.0.1:8082/v1", "gemma3-270m")
    assert extractor.usage().response_format == "json_object"
    assert (extractor.max_tokens, extractor.max_retries, extractor.endpoint.timeout) == (700, 0, 12.5)
    assert isinstance(extractor.fallback, RuleExtractor)


@pytest.mark.parametrize(("key", "value"), [
    ("llm_response_format", "xml"), ("llm_max_tokens", 0), ("llm_timeout", 0),
    ("llm_circuit_seconds", -1), ("llm_max_retries", -1),
])
def test_bad_llm_settings_are_refused_by_name(key: str, value: Any) -> None:
    with pytest.raises(ValidationError, match=key):
        Settings(**NO_ENV_FILE, **{key: value})


@pytest.mark.parametrize("uri", ["bolt://db:7687", "neo4j://cluster.internal:7687",
                                 "neo4j+s://abc123.databases.neo4j.io"])
def test_neo4j_uris_with_and_without_routing_are_accepted(uri: str) -> None:
    assert Settings(store="neo4j", neo4j_uri=uri).neo4j_uri == uri


@pytest.mark.parametrize("uri", ["http://db:7474", "db:7687"])
def test_a_uri_neo4j_cannot_speak_bolt_over_is_refused(uri: str) -> None:
    with pytest.raises(ValidationError, match="neo4j_uri") as refused:
        Settings(store="neo4j", neo4j_uri=uri)
    assert "use bolt://, bolt+s://" in str(refused.value)
    assert Settings(store="embedded", neo4j_uri=uri).store == "embedded"  # not its business


def test_the_neo4j_vector_copy_bound_reaches_the_store(monkeypatch: pytest.MonkeyPatch) -> None:
    from graphmem.store.factory import build_store
    from graphmem.store.neo4j import Neo4jStore

    monkeypatch.setenv("GRAPHMEM_NEO4J_VECTOR_CACHE_ROWS", "1234")
    store = build_store(Settings(**NO_ENV_FILE, store="neo4j"))
    assert isinstance(store, Neo4jStore) and store.cached_ranking is not None
    assert store.cached_ranking.cache.max_rows == 1234
    off = build_store(Settings(**NO_ENV_FILE, store="neo4j", neo4j_vector_cache_rows=0))
    assert isinstance(off, Neo4jStore) and off.cached_ranking is None
    with pytest.raises(ValidationError, match="neo4j_vector_cache_rows"):
        Settings(**NO_ENV_FILE, neo4j_vector_cache_rows=-1)


@pytest.mark.parametrize(("value", "name"), [
    (None, "all-MiniLM-L6-v2-onnx-int8"),  # float32, the default
    ("float32", "all-MiniLM-L6-v2-onnx-int8"),
    ("int8", "all-MiniLM-L6-v2-onnx-int8-compute"),
])
def test_the_embed_precision_reaches_the_embedder(monkeypatch: pytest.MonkeyPatch,
                                                  value: str | None, name: str) -> None:
    monkeypatch.delenv("GRAPHMEM_EMBED_PRECISION", raising=False)
    if value is not None:
        monkeypatch.setenv("GRAPHMEM_EMBED_PRECISION", value)
    assert build_embedder(Settings(**NO_ENV_FILE)).name == name


def test_an_unknown_embed_precision_is_refused_by_name() -> None:
    with pytest.raises(ValidationError, match="embed_precision"):
        Settings(**NO_ENV_FILE, embed_precision="float16")


@pytest.mark.parametrize(("precision", "worker", "apart"), [
    ("float32", "auto", False),  # measured slower in a child (graphmem/embed/worker.py)
    ("int8", "auto", True),
    ("int8", "off", False),
    ("float32", "on", True),
])
def test_the_embed_worker_setting_decides_where_large_calls_run(
        precision: str, worker: str, apart: bool) -> None:
    embedder = build_embedder(Settings(**NO_ENV_FILE, embed_precision=precision,
                                       embed_worker=worker))
    assert isinstance(embedder, CachedEmbedder)
    assert isinstance(embedder.inner, WorkerEmbedder) is apart
    with pytest.raises(ValidationError, match="embed_worker"):
        Settings(**NO_ENV_FILE, embed_worker="yes")
