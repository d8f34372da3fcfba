"""One OpenAI-compatible endpoint: a lazily built, shared client and a key that never leaks.

The embedder, the LLM extractor and the summary writer each talk to such an
endpoint (OpenAI, a local llama.cpp or vLLM server, a proxy). They share this
class so the client is built once per endpoint, by one thread, only when first
used (importing ``openai`` costs a quarter of a second), and so an error a
server echoes back never carries the API key into a log or an exception.

>>> endpoint = OpenAIEndpoint("http://127.0.0.1:8080/v1", "sk-secret", timeout=5.0)
>>> endpoint.scrub("401: bad key sk-secret")
'401: bad key ***'
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import openai

#: Sent when no key is set: the ``openai`` client refuses to start without one, and a local
#: server (llama.cpp, Ollama, vLLM) ignores it; a server that checks keys answers 401.
NO_KEY = "no-key"


class OpenAIEndpoint:
    def __init__(self, base_url: str, api_key: str, *, timeout: float,
                 max_retries: int = 2) -> None:
        if timeout <= 0:
            raise ValueError(f"timeout must be > 0 seconds, got {timeout}")
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {max_retries}")
        self.base_url = base_url
        self.timeout = timeout
        self.max_retries = max_retries
        self._api_key = api_key
        self._client: openai.OpenAI | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:  # never the key
        return f"OpenAIEndpoint(base_url={self.base_url!r})"

    def client(self) -> openai.OpenAI:
        """The endpoint's client, built on first use and shared by every thread after."""
        with self._lock:
            if self._client is None:
                from openai import OpenAI

                self._client = OpenAI(base_url=self.base_url, api_key=self._api_key or NO_KEY,
                                      timeout=self.timeout, max_retries=self.max_retries)
            return self._client

    def close(self) -> None:
        """Close the HTTP connection pool; the next :meth:`client` opens a new one."""
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    def scrub(self, message: str) -> str:
        """``message`` without the API key (a misbehaving server may echo the header back)."""
        return message.replace(self._api_key, "***") if self._api_key else message

    def holds_key(self, text: str) -> bool:
        return bool(self._api_key) and self._api_key in text
