"""The one place that assembles a :class:`~graphmem.memory.Memory` from :class:`Settings`.

Everything a Memory needs (store, extractor, embedder, redactor) and the
lifecycle's summary and profile writer are built here, once, and handed in;
nothing below reads settings or builds its own parts. The store's backend is chosen by
:func:`graphmem.store.factory.build_store`, the only place that names one.
"""

from __future__ import annotations

from datetime import timedelta

from graphmem.embed.base import Embedder
from graphmem.extract.base import Extractor
from graphmem.ingest.redact import Redactor
from graphmem.lifecycle.writer import TemplateWriter, Writer
from graphmem.memory import Memory
from graphmem.settings import Settings
from graphmem.store.factory import build_store


def build_memory(settings: Settings) -> Memory:
    """A Memory wired as ``settings`` say (not yet opened)."""
    retention = (timedelta(days=settings.episode_retention_days)
                 if settings.episode_retention_days else None)
    redactor = Redactor(disabled=settings.redact_disabled) if settings.redact else None
    return Memory(build_store(settings), build_extractor(settings), build_embedder(settings),
                  episode_retention=retention, redactor=redactor)


def build_embedder(settings: Settings) -> Embedder:
    from graphmem.embed.cache import CachedEmbedder

    if settings.embedder == "openai":
        from graphmem.embed.openai import OpenAIEmbedder

        return CachedEmbedder(OpenAIEmbedder(
            base_url=settings.embed_base_url, api_key=settings.embed_api_key.get_secret_value(),
            model=settings.embed_model, dimension=settings.embed_dimension))
    from graphmem.embed.onnx import OnnxEmbedder

    onnx = OnnxEmbedder(precision=settings.embed_precision)
    worker = settings.embed_worker
    if worker == "on" or (worker == "auto" and settings.embed_precision == "int8"):
        from graphmem.embed.worker import WorkerEmbedder

        return CachedEmbedder(WorkerEmbedder(onnx))
    return CachedEmbedder(onnx)


def build_extractor(settings: Settings) -> Extractor:
    from graphmem.extract.rules import RuleExtractor

    rules = RuleExtractor()
    if settings.extractor != "llm":
        return rules
    from graphmem.extract.llm import LLMExtractor
    from graphmem.extract.llm.queue import RetryQueue

    queue = RetryQueue(settings.llm_queue_path) if settings.llm_queue_path else None
    return LLMExtractor(
        settings.llm_base_url, settings.llm_api_key.get_secret_value(), settings.llm_model,
        timeout=settings.llm_timeout, max_concurrency=settings.llm_max_concurrency,
        max_retries=settings.llm_max_retries, response_format=settings.llm_response_format,
        max_tokens=settings.llm_max_tokens, circuit_cooldown=settings.llm_circuit_seconds,
        queue=queue, fallback=rules if settings.llm_fallback_to_rules else None,
    )


def ingestion_seconds(settings: Settings) -> float:
    """How long a caller should wait for one episode's ingestion: the store's timeout,
    plus, with the LLM extractor, the longest its requests and retries can take."""
    if settings.extractor != "llm":
        return settings.store_timeout_seconds
    from graphmem.extract.llm import LLMExtractor

    return settings.store_timeout_seconds + LLMExtractor.longest_seconds(
        settings.llm_timeout, settings.llm_max_retries)


def build_writer(settings: Settings) -> Writer:
    """The summary and profile writer: the LLM when extraction uses one, else the template."""
    if settings.extractor != "llm":
        return TemplateWriter()
    from graphmem.lifecycle.llm_writer import LLMWriter

    return LLMWriter(settings.llm_base_url, settings.llm_api_key.get_secret_value(),
                     settings.llm_model, timeout=settings.llm_timeout)
