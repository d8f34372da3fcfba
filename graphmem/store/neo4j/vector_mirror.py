"""A copy of each searched scope's fact vectors in the API process, kept in step by a clock.

Ranking a scope's facts by cosine inside Neo4j reads every vector of the scope on the
server, one element at a time (about 14 us a 384-dimension vector): at 1,000 facts a
scope that is two thirds of a search's server time, at 2,000 most of it. Vectors
change only when a fact is written, so a process that keeps a copy ranks them with one
matrix product instead, and asks the server only for what changed.

What changed is read through a clock per scope (``(:VectorClock {tag})``,
:mod:`graphmem.store.neo4j.vector_clock`): each write transaction that writes facts
advances the clocks of their scopes as its last statement and stamps the facts with the
new value (``vclock``). A clock's node lock orders the writers of a scope, so a writer
with value ``v`` committed before any writer with ``v + 1`` could take the lock. A search
sends the values its copy is complete up to and gets back, in its one query, the facts
stamped since (their vectors only when newer than the copy: the last value's facts are
listed by id, so one applied late is noticed and fetched). The copy only proposes
candidates: the query checks each against the store (in scope, in time, still there),
so a deleted or moved fact is never returned from a stale copy.

A scope without a copy is ranked on the server as before while its copy is loaded
beside the search. The copies live in this object (one per store), within
``max_vectors`` vectors: the least recently searched scopes are dropped first.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True)
class VectorRow:
    """One fact as a clock read gives it: its stamp, and its vector when ``sent`` (``None``:
    the fact has no vector any more). A row not sent says only whether it has one."""

    id: str
    vclock: int
    vector: Sequence[float] | None
    sent: bool = True
    has_vector: bool = True


@dataclass
class _ScopeCopy:
    version: int
    dim: int
    ids: list[str | None] = field(default_factory=list)
    clocks: list[int] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)
    dead: list[int] = field(default_factory=list)  # rows whose fact lost its vector
    matrix: Matrix = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    used: float = 0.0

    def __post_init__(self) -> None:
        self.matrix = np.zeros((16, self.dim), dtype=np.float32)

    @property
    def size(self) -> int:
        return len(self.rows)

    def put(self, row: VectorRow) -> None:
        at = self.rows.get(row.id)
        if row.vector is None:
            if at is not None:
                del self.rows[row.id]
                self.ids[at] = None
                self.dead.append(at)
            return
        vector = np.asarray(row.vector, dtype=np.float32)
        norm = float(np.linalg.norm(vector))
        unit = vector / norm if norm > 0 else vector
        if at is None:
            at = len(self.ids)
            if at == len(self.matrix):
                grown = np.zeros((2 * len(self.matrix), self.dim), dtype=np.float32)
                grown[:at] = self.matrix
                self.matrix = grown
            self.ids.append(row.id)
            self.clocks.append(row.vclock)
            self.rows[row.id] = at
        self.matrix[at] = unit
        self.clocks[at] = row.vclock

    def has(self, row: VectorRow) -> bool:
        at = self.rows.get(row.id)
        return (at is not None and self.clocks[at] >= row.vclock) or not row.has_vector


class VectorMirror:
    """The scope copies of one store; every method is safe to call from any thread."""

    def __init__(self, dim: int, max_vectors: int) -> None:
        self.dim = dim
        self.max_vectors = max_vectors
        self._lock = threading.Lock()
        self._scopes: OrderedDict[str, _ScopeCopy] = OrderedDict()
        self._loading: set[str] = set()

    def versions(self, tags: Sequence[str]) -> list[int] | None:
        """The values the copies of ``tags`` are complete up to, or ``None`` if one has none."""
        with self._lock:
            copies = [self._scopes.get(tag) for tag in tags]
            if any(c is None for c in copies):
                return None
            now = time.monotonic()
            for tag in tags:
                self._scopes.move_to_end(tag)
                self._scopes[tag].used = now
            return [c.version for c in copies if c is not None]

    def to_load(self, tags: Iterable[str]) -> list[str]:
        """Of ``tags``, those with no copy and none being loaded; they are marked loading."""
        with self._lock:
            wanted = [t for t in dict.fromkeys(tags)
                      if t not in self._scopes and t not in self._loading]
            self._loading.update(wanted)
            return wanted

    def load(self, tag: str, version: int, rows: Iterable[VectorRow]) -> None:
        """Keep ``rows`` as the whole of ``tag``'s scope at clock ``version``."""
        copy = _ScopeCopy(version=version, dim=self.dim)
        for row in rows:
            copy.put(row)
        with self._lock:
            self._loading.discard(tag)
            copy.used = time.monotonic()
            self._scopes[tag] = copy
            self._scopes.move_to_end(tag)
            self._evict()

    def cancel_load(self, tag: str) -> None:
        with self._lock:
            self._loading.discard(tag)

    def drop(self, tag: str) -> None:
        with self._lock:
            self._scopes.pop(tag, None)

    def nearest(self, tags: Sequence[str], vector: Sequence[float],
                k: int) -> tuple[list[tuple[str, float]], int]:
        """The ``k`` nearest of the copies of ``tags`` by cosine, and how many they hold."""
        query = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(query))
        if norm > 0:
            query = query / norm
        found: list[tuple[str, float]] = []
        held = 0
        with self._lock:
            for tag in dict.fromkeys(tags):
                copy = self._scopes.get(tag)
                if copy is None or not copy.ids:
                    continue
                held += copy.size
                used = len(copy.ids)
                scores = copy.matrix[:used] @ query
                if copy.dead:
                    scores[copy.dead] = -np.inf
                top = min(k, used)
                best = np.argpartition(-scores, top - 1)[:top]
                found += [(str(copy.ids[i]), float(scores[i])) for i in best
                          if copy.ids[i] is not None]
        found.sort(key=lambda pair: pair[1], reverse=True)
        return found[:k], held

    def advance(self, tag: str, version: int, rows: Iterable[VectorRow]) -> list[str]:
        """Apply a clock read of ``tag``'s scope (its facts stamped since the copy's value, up
        to ``version``) and move the copy to ``version``.

        Returns the ids listed without their vector that the copy does not hold at their
        stamp; the caller fetches them (:meth:`put`) before the copy is searched again
        (a fact of the last value that was not yet visible when it was last read).
        """
        missing: list[str] = []
        with self._lock:
            copy = self._scopes.get(tag)
            if copy is None:
                return []
            for row in rows:
                if row.sent:
                    copy.put(row)
                elif not copy.has(row):
                    missing.append(row.id)
            copy.version = max(copy.version, version)
            self._evict()
        return missing

    def put(self, tag: str, rows: Iterable[VectorRow]) -> None:
        with self._lock:
            copy = self._scopes.get(tag)
            if copy is not None:
                for row in rows:
                    copy.put(row)

    def held(self) -> int:
        with self._lock:
            return sum(c.size for c in self._scopes.values())

    def _evict(self) -> None:
        total = sum(c.size for c in self._scopes.values())
        while total > self.max_vectors and len(self._scopes) > 1:
            _, dropped = self._scopes.popitem(last=False)
            total -= dropped.size
