"""Embeddings from any OpenAI-compatible ``/v1/embeddings`` endpoint.

OpenAI itself, or a local server that speaks the same protocol (vLLM,
llama.cpp, Ollama, LM Studio, text-embeddings-inference). Requests go
through the official ``openai`` client, which brings retries with backoff;
every failure leaves this module as an :class:`~graphmem.errors.EmbeddingError`.
Vectors are re-normalised here because not every server returns unit vectors.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from graphmem.embed.base import Vectors, clean_texts, normalize_rows
from graphmem.endpoint import OpenAIEndpoint
from graphmem.errors import EmbeddingError

OPENAI_BASE_URL = "https://api.openai.com/v1"


class OpenAIEmbedder:
    """Embeds through ``POST {base_url}/embeddings`` with the official client.

    >>> embedder = OpenAIEmbedder(model="text-embedding-3-small", dimension=1536,
    ...                           api_key=settings.openai_api_key)  # doctest: +SKIP
    >>> embedder.embed(["I moved to Berlin"]).shape  # doctest: +SKIP
    (1, 1536)

    ``dimension`` must be what the model returns (it is checked on every
    response), unless ``send_dimensions`` asks the server to shorten its
    vectors to it, which the text-embedding-3 models support and many
    compatible servers reject. Texts are sent ``batch_size`` per request.
    The client is created on first use; ``base_url`` and ``api_key`` are
    always passed to it explicitly, so ``OPENAI_BASE_URL``/``OPENAI_API_KEY``
    in the environment have no effect (the client still reads its other
    ``OPENAI_*`` variables, such as the organisation). The key never appears
    in ``repr()`` or in this module's error messages.
    """

    def __init__(
        self,
        *,
        model: str,
        dimension: int,
        api_key: str,
        base_url: str = OPENAI_BASE_URL,
        batch_size: int = 256,
        timeout: float = 30.0,
        max_retries: int = 2,
        send_dimensions: bool = False,
    ) -> None:
        if dimension < 1:
            raise ValueError(f"dimension must be >= 1, got {dimension}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        self.name = f"openai/{model}/{dimension}"
        self.dimension = dimension
        self.model = model
        self.base_url = base_url
        self.batch_size = batch_size
        self.send_dimensions = send_dimensions
        self.endpoint = OpenAIEndpoint(base_url, api_key, timeout=timeout,
                                        max_retries=max_retries)

    def __repr__(self) -> str:
        return f"OpenAIEmbedder(model={self.model!r}, dimension={self.dimension}, base_url={self.base_url!r})"

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts`` in order: float32, shape ``(len(texts), dimension)``, unit rows.

        Many servers, OpenAI's included, reject an empty string.
        """
        items = clean_texts(texts)
        out = np.empty((len(items), self.dimension), dtype=np.float32)
        for start in range(0, len(items), self.batch_size):
            batch = items[start : start + self.batch_size]
            out[start : start + len(batch)] = self._request(batch)
        return out

    def close(self) -> None:
        """Close the HTTP connection pool; the next :meth:`embed` opens a new one."""
        self.endpoint.close()

    def _request(self, batch: list[str]) -> Vectors:
        import openai

        try:
            response = self.endpoint.client().embeddings.create(
                model=self.model,
                input=batch,
                encoding_format="float",  # not the client's base64 default: not every server speaks it
                dimensions=self.dimension if self.send_dimensions else openai.omit,
            )
        except openai.OpenAIError as err:
            raise EmbeddingError(self.endpoint.scrub(f"embedding request to {self.base_url} failed: {err}")) from err

        data = getattr(response, "data", None)
        if not isinstance(data, list) or len(data) != len(batch):
            got = len(data) if isinstance(data, list) else "no"
            raise EmbeddingError(f"{self.base_url} returned {got} embeddings for {len(batch)} texts")
        try:
            rows = sorted(data, key=lambda item: int(item.index))  # the API does not promise order
            matrix = np.asarray([item.embedding for item in rows], dtype=np.float32)
        except (AttributeError, TypeError, ValueError) as err:
            raise EmbeddingError(f"{self.base_url} returned a malformed embedding response: {err}") from err
        if matrix.shape != (len(batch), self.dimension):
            raise EmbeddingError(
                f"{self.base_url} returned vectors of shape {matrix.shape[1:]} for model {self.model!r}, "
                f"expected ({self.dimension},)"
            )
        if not np.isfinite(matrix).all():
            raise EmbeddingError(f"{self.base_url} returned non-finite values for model {self.model!r}")
        return normalize_rows(matrix)
