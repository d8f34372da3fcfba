"""embed/hashed.py: model-free vectors for benchmarks and store tests."""

from __future__ import annotations

import numpy as np

from graphmem.embed.hashed import HashEmbedder


def test_equal_texts_equal_vectors_others_nearly_orthogonal_all_unit() -> None:
    vectors = HashEmbedder(dimension=64).embed(["Alice", "Bob", "Alice"])
    assert vectors.shape == (3, 64) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    assert np.array_equal(vectors[0], vectors[2])
    assert abs(float(vectors[0] @ vectors[1])) < 0.5
    assert HashEmbedder().embed([]).shape == (0, 384)
