"""Helpers every embedder shares."""

from __future__ import annotations

import numpy as np

from graphmem.embed.base import normalize_rows, with_neighbours


def test_with_neighbours_leans_each_row_towards_the_rows_beside_it() -> None:
    rows = normalize_rows(np.eye(3, dtype=np.float32))

    pooled = with_neighbours(rows, 0.5)

    assert np.allclose(np.linalg.norm(pooled, axis=1), 1.0)
    assert pooled[0, 2] == 0.0  # two rows away: untouched
    assert pooled[0, 0] > pooled[0, 1] > 0.0  # itself first, its neighbour second
    assert np.isclose(pooled[1, 0], pooled[1, 2])
    assert np.array_equal(rows, normalize_rows(np.eye(3, dtype=np.float32)))  # input unchanged


def test_with_neighbours_of_one_row_is_that_row() -> None:
    row = normalize_rows(np.array([[3.0, 4.0]], dtype=np.float32))
    assert np.allclose(with_neighbours(row, 0.5), row)
