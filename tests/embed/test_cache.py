"""CachedEmbedder: LRU behaviour with a counting fake, then with the real model."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence

import numpy as np
import pytest

from graphmem.embed.base import Vectors, normalize_rows
from graphmem.embed.cache import CacheInfo, CachedEmbedder
from graphmem.embed.onnx import OnnxEmbedder


class CountingEmbedder:
    """Deterministic 8-d vectors from a hash of the text; records every call."""

    name = "counting-test"
    dimension = 8

    def __init__(self) -> None:
        self.calls: list[list[str]] = []
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> Vectors:
        with self._lock:
            self.calls.append(list(texts))
        rows = [np.frombuffer(hashlib.sha256(t.encode()).digest(), dtype=np.uint8)[:8] for t in texts]
        return normalize_rows(np.array(rows, dtype=np.float32).reshape(len(texts), 8) + 1.0)


def test_hits_and_misses_are_counted_and_only_misses_are_embedded() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, max_entries=100)
    first = cached.embed(["a", "b"])
    second = cached.embed(["b", "c", "a"])
    assert inner.calls == [["a", "b"], ["c"]]
    assert cached.cache_info() == CacheInfo(hits=2, misses=3, max_entries=100, entries=3)
    np.testing.assert_array_equal(second, inner.embed(["b", "c", "a"]))
    np.testing.assert_array_equal(first, second[[2, 0]])


def test_all_hits_never_call_inner() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner)
    cached.embed(["x", "y"])
    inner.calls.clear()
    cached.embed(["y", "x", "y"])
    assert inner.calls == []
    assert cached.cache_info().hits == 3


def test_repeats_within_one_call_are_embedded_once() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner)
    vectors = cached.embed(["dup", "other", "dup"])
    assert inner.calls == [["dup", "other"]]
    np.testing.assert_array_equal(vectors[0], vectors[2])
    assert cached.cache_info() == CacheInfo(hits=0, misses=3, max_entries=10_000, entries=2)


def test_least_recently_used_is_evicted_first() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, max_entries=2)
    cached.embed(["a", "b"])
    cached.embed(["a"])  # a is now more recent than b
    cached.embed(["c"])  # evicts b
    inner.calls.clear()
    cached.embed(["a", "c", "b"])
    assert inner.calls == [["b"]]
    assert cached.cache_info().entries == 2


def test_returned_arrays_do_not_alias_the_cache() -> None:
    cached = CachedEmbedder(CountingEmbedder())
    original = cached.embed(["a"]).copy()
    cached.embed(["a"])[0, :] = 0.0
    np.testing.assert_array_equal(cached.embed(["a"]), original)


def test_empty_input_and_identity_pass_through() -> None:
    cached = CachedEmbedder(CountingEmbedder())
    assert cached.embed([]).shape == (0, 8)
    assert (cached.name, cached.dimension) == ("counting-test", 8)


def test_clear_forgets_vectors_and_counters() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner)
    cached.embed(["a"])
    cached.clear()
    assert cached.cache_info() == CacheInfo(0, 0, 10_000, 0)
    cached.embed(["a"])
    assert inner.calls == [["a"], ["a"]]


def test_concurrent_use_stays_consistent_and_bounded() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, max_entries=50)
    texts = [f"text {i}" for i in range(120)]
    expected = inner.embed(texts)
    failures: list[str] = []

    def work(offset: int) -> None:
        for start in range(0, 120, 7):
            rows = [(offset + start + k) % 120 for k in range(9)]
            got = cached.embed([texts[r] for r in rows])
            if not np.array_equal(got, expected[rows]):
                failures.append(f"thread {offset} rows {rows}")

    threads = [threading.Thread(target=work, args=(offset,)) for offset in range(0, 120, 15)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    info = cached.cache_info()
    assert info.entries <= 50
    assert info.hits + info.misses == len(threads) * 18 * 9


def test_max_entries_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_entries"):
        CachedEmbedder(CountingEmbedder(), max_entries=0)


def test_with_the_real_model_cached_vectors_equal_fresh_ones() -> None:
    model = OnnxEmbedder()
    cached = CachedEmbedder(model, max_entries=10)
    texts = ["I love React", "Caroline went hiking", "I love React"]
    first = cached.embed(texts)
    again = cached.embed(list(reversed(texts)))
    np.testing.assert_allclose(first, model.embed(texts), atol=1e-6)
    np.testing.assert_array_equal(again, first[::-1])
    assert cached.cache_info() == CacheInfo(hits=3, misses=3, max_entries=10, entries=2)
