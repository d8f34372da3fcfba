"""The embedded store's in-memory vector index."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.store.embedded.vectors import VectorIndex


def _index() -> VectorIndex:
    index = VectorIndex(dimension=3, initial_capacity=2)
    index.upsert(["a", "b", "c"], [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [1.0, 1.0, 0.0]])
    return index


def test_scores_equal_the_dot_products_of_the_stored_rows() -> None:
    index, query = _index(), [0.6, 0.8, 0.0]
    scores = index.scores(["c", "a", "b"], query)
    assert list(scores) == ["c", "a", "b"]
    for item_id, score in scores.items():
        stored = index.vector(item_id)
        assert stored is not None
        assert score == pytest.approx(float(np.dot(stored, query)), abs=1e-6)
    assert scores["b"] == pytest.approx(0.8)  # rows are kept as unit vectors


def test_scores_leave_out_ids_without_a_row() -> None:
    index = _index()
    index.remove(["b"])
    assert set(index.scores(["a", "b", "zzz"], [1.0, 0.0, 0.0])) == {"a"}
    assert index.scores(["zzz"], [1.0, 0.0, 0.0]) == {}
    assert index.scores([], [1.0, 0.0, 0.0]) == {}
