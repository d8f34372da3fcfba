"""An in-memory vector index for the embedded store.

Exact cosine search over a contiguous float32 matrix: rows are unit vectors,
so one matrix-vector product scores every row; ``argpartition`` picks the top
k. At 100k x 384 that is about 150 MB and a few milliseconds on two cores, and
it is exact, so there is no recall loss to tune away. Deleted rows are
tombstoned and the matrix is compacted when a quarter of it is dead.
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float32]


class VectorIndex:
    def __init__(self, dimension: int, initial_capacity: int = 1024) -> None:
        self.dimension = dimension
        self._matrix: Matrix = np.zeros((initial_capacity, dimension), dtype=np.float32)
        self._ids: list[str | None] = []
        self._row_of: dict[str, int] = {}
        self._dead = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._row_of)

    def upsert(self, ids: list[str], vectors: list[list[float]] | Matrix) -> None:
        """Add or replace rows, all in one block (the last vector wins for a repeated id)."""
        if not ids:
            return
        block = np.asarray(vectors, dtype=np.float32).reshape(len(ids), self.dimension)
        norms = np.linalg.norm(block, axis=1, keepdims=True)
        block = (block / np.where(norms == 0, 1.0, norms)).astype(np.float32)
        last = {item_id: k for k, item_id in enumerate(ids)}
        with self._lock:
            fresh = [i for i in last if i not in self._row_of]
            self._grow(len(self._ids) + len(fresh))
            for item_id in fresh:
                self._row_of[item_id] = len(self._ids)
                self._ids.append(item_id)
            self._matrix[[self._row_of[i] for i in last]] = block[list(last.values())]

    def remove(self, ids: list[str]) -> None:
        with self._lock:
            for item_id in ids:
                row = self._row_of.pop(item_id, None)
                if row is not None:
                    self._ids[row] = None
                    self._matrix[row] = 0.0
                    self._dead += 1
            if self._dead > 1024 and self._dead * 4 > len(self._ids):
                self._compact()

    def vector(self, item_id: str) -> list[float] | None:
        with self._lock:
            row = self._row_of.get(item_id)
            return None if row is None else self._matrix[row].tolist()

    def scores(self, ids: list[str], query: list[float]) -> dict[str, float]:
        """Each of ``ids``' dot product with ``query`` (none for an id without a row): the
        rows are read in place, where :meth:`vector` would copy each into a list."""
        with self._lock:
            held = [i for i in ids if i in self._row_of]
            if not held:
                return {}
            rows = self._matrix[[self._row_of[i] for i in held]]
        products = rows @ np.asarray(query, dtype=np.float32)
        return {i: float(s) for i, s in zip(held, products)}

    def search(self, query: list[float], k: int) -> list[tuple[str, float]]:
        """The ``k`` nearest ids by cosine similarity, best first."""
        vector = np.asarray(query, dtype=np.float32)
        norm = float(np.linalg.norm(vector))
        if norm == 0.0:
            return []
        with self._lock:
            n = len(self._ids)
            if n == 0 or k <= 0:
                return []
            scores = self._matrix[:n] @ (vector / norm)
            k = min(k, n)
            top = np.argpartition(-scores, k - 1)[:k]
            top = top[np.argsort(-scores[top])]
            return [(i, float(scores[r])) for r in top if (i := self._ids[r]) is not None]

    def _grow(self, needed: int) -> None:
        if needed <= self._matrix.shape[0]:
            return
        bigger = np.zeros((max(needed, self._matrix.shape[0] * 2), self.dimension), np.float32)
        bigger[: len(self._ids)] = self._matrix[: len(self._ids)]
        self._matrix = bigger

    def _compact(self) -> None:
        live = [(r, i) for r, i in enumerate(self._ids) if i is not None]
        matrix = np.zeros((max(len(live) * 2, 1024), self.dimension), dtype=np.float32)
        for new_row, (old_row, _) in enumerate(live):
            matrix[new_row] = self._matrix[old_row]
        self._matrix = matrix
        self._ids = [i for _, i in live]
        self._row_of = {i: r for r, i in enumerate(self._ids) if i is not None}
        self._dead = 0
