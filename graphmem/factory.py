"""Build the configured extractor and embedder from settings."""

from __future__ import annotations

from graphmem.embed.base import Embedder
from graphmem.extract.base import Extractor
from graphmem.settings import Settings


def build_embedder(settings: Settings) -> Embedder:
    from graphmem.embed.cache import CachedEmbedder

    if settings.embedder == "openai":
        from graphmem.embed.openai import OpenAIEmbedder

        return CachedEmbedder(OpenAIEmbedder(
            base_url=settings.embed_base_url, api_key=settings.embed_api_key.get_secret_value(),
            model=settings.embed_model, dimension=settings.embed_dimension))
    from graphmem.embed.onnx import OnnxEmbedder

    return CachedEmbedder(OnnxEmbedder())


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
