"""fuse.py: reciprocal rank fusion, recency, the multiplicative re-rank, MMR."""

from __future__ import annotations

import doctest
from datetime import UTC, datetime, timedelta

from graphmem.search import fuse


def test_doctests() -> None:
    assert doctest.testmod(fuse).failed == 0


def test_rrf_sums_weighted_reciprocal_ranks_and_explains_them() -> None:
    scores, ranks = fuse.reciprocal_rank_fusion({"a": ["x", "y"], "b": ["y"]},
                                                weights={"a": 1.0, "b": 0.5}, k=60)
    assert scores["y"] == 1 / 62 + 0.5 / 61
    assert ranks["y"] == {"a": 2, "b": 1} and ranks["x"] == {"a": 1}


def test_rerank_is_a_product_with_floors() -> None:
    now = datetime(2024, 1, 1, tzinfo=UTC)
    assert fuse.recency_factor(now, now) == 1.0
    assert fuse.recency_factor(now - timedelta(days=3650), now) < 1e-9
    assert fuse.rerank_score(0.0, 1.0, 1.0) == 0.0
    assert fuse.rerank_score(0.5, 0.0, 0.0) == 0.5 * 0.8 * 0.8  # dimmed, never zeroed
    assert fuse.rerank_score(0.9, 0.0, 0.0) > fuse.rerank_score(0.45, 1.0, 1.0)
