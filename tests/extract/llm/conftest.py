"""The scripted OpenAI-compatible server and LLM extractors pointed at it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from graphmem.extract.llm import LLMExtractor
from tests.extract.fake_openai import FakeOpenAI
from tests.extract.llm.helpers import KEY, Make


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def make(server: FakeOpenAI) -> Iterator[Make]:
    created: list[LLMExtractor] = []

    def make(**settings: Any) -> LLMExtractor:
        defaults: dict[str, Any] = {"timeout": 5.0, "max_retries": 2, "backoff": 0.001}
        extractor = LLMExtractor(server.base_url, KEY, "fake-model", **(defaults | settings))
        created.append(extractor)
        return extractor

    yield make
    for extractor in created:
        extractor.close()
