"""An in-memory LRU cache in front of any embedder.

Memory workloads embed the same strings again and again: entity names,
repeated queries, facts re-checked on every ingestion. :class:`CachedEmbedder`
remembers vectors by a sha256 of the text (so it never holds the texts
themselves) and sends only the misses to the wrapped embedder, in one call.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from graphmem.embed.base import Embedder, Vectors, clean_texts


class CacheInfo(NamedTuple):
    """Counters in the spirit of ``functools.lru_cache().cache_info()``."""

    hits: int
    misses: int
    max_entries: int
    entries: int


class CachedEmbedder:
    """Wraps ``inner`` with a bounded, thread-safe LRU cache of its vectors.

    >>> embedder = CachedEmbedder(OnnxEmbedder(), max_entries=50_000)  # doctest: +SKIP
    >>> embedder.embed(["Berlin", "Paris"]); embedder.embed(["Berlin"])  # doctest: +SKIP
    >>> embedder.cache_info()  # doctest: +SKIP
    CacheInfo(hits=1, misses=2, max_entries=50000, entries=2)

    A text repeated within one call is embedded once. The lock is not held
    while ``inner`` runs, so hits are served while a slow batch of misses is
    being embedded; two threads that miss the same text at the same moment
    may both embed it, which costs time but not correctness.
    """

    def __init__(self, inner: Embedder, *, max_entries: int = 10_000) -> None:
        if max_entries < 1:
            raise ValueError(f"max_entries must be >= 1, got {max_entries}")
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        self.max_entries = max_entries
        self._entries: OrderedDict[bytes, Vectors] = OrderedDict()
        self._lock = threading.Lock()
        self._hits = 0
        self._misses = 0

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts`` like ``inner`` would, asking ``inner`` only for uncached ones."""
        items = clean_texts(texts)
        keys = [self._key(text) for text in items]
        out = np.empty((len(items), self.dimension), dtype=np.float32)
        missing: dict[bytes, list[int]] = {}  # key -> rows wanting it, first-seen order
        with self._lock:
            for row, key in enumerate(keys):
                vector = self._entries.get(key)
                if vector is None:
                    missing.setdefault(key, []).append(row)
                else:
                    self._entries.move_to_end(key)
                    out[row] = vector
            self._hits += len(items) - sum(len(rows) for rows in missing.values())
            self._misses += sum(len(rows) for rows in missing.values())
        if not missing:
            return out

        vectors = self.inner.embed([items[rows[0]] for rows in missing.values()])
        with self._lock:
            for (key, rows), vector in zip(missing.items(), vectors):
                out[rows] = vector
                stored = vector.copy()  # a view would pin the whole batch in memory
                stored.flags.writeable = False
                self._entries[key] = stored
                self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
        return out

    def cache_info(self) -> CacheInfo:
        """Hits and misses so far (counted per text) and the cache's current size."""
        with self._lock:
            return CacheInfo(self._hits, self._misses, self.max_entries, len(self._entries))

    def clear(self) -> None:
        """Forget every vector and reset the counters."""
        with self._lock:
            self._entries.clear()
            self._hits = self._misses = 0

    def _key(self, text: str) -> bytes:
        # the name is part of the key so vectors of two models can never be confused
        return hashlib.sha256(f"{self.name}\0{text}".encode("utf-8")).digest()
