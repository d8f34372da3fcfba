"""Unit vectors from a hash of the text: no model, so no model cost and no meaning.

For benchmarks and tests that measure the store or the write path, where the
embedding model is beside the point: equal texts get equal vectors, different
texts nearly orthogonal ones, and nothing is loaded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from graphmem.embed.base import Vectors


class HashEmbedder:
    name = "hash"

    def __init__(self, dimension: int = 384) -> None:
        self.dimension = dimension

    def embed(self, texts: Sequence[str]) -> Vectors:
        rows = [np.random.default_rng(int.from_bytes(hashlib.sha256(t.encode()).digest()[:8]))
                .standard_normal(self.dimension) for t in texts]
        matrix = np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dimension)
        unit: Vectors = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
        return unit
