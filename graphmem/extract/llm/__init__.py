"""The LLM extractor: one call per episode to an OpenAI-compatible endpoint.

:mod:`.extractor` drives the call; :mod:`.prompt` writes the request and reads
the answer, :mod:`.format` negotiates how JSON is asked for, :mod:`.budget`
sizes the answer, :mod:`.circuit` stops calling a failing endpoint for a while
and :mod:`.queue` keeps episodes to retry.
"""

from graphmem.extract.llm.extractor import LLMExtractor

__all__ = ["LLMExtractor"]
