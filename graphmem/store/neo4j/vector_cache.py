"""A search process's copy of its scopes' fact and turn vectors, kept current by scope clocks.

Ranking a scope exactly on Neo4j reads every vector property of the scope, and that read
is most of a search's server time at 100k facts (2,000 facts a scope, about 18 ms even
through sketches). The same ranking in this process is one matrix product (about 0.2 ms).
So :class:`VectorCache` holds, per ``(tenant, scope)``, the ids and unit vectors of its
facts and turns, and a search brings them up to date first: it reads what was stamped
since the clock it last saw (:func:`graphmem.store.neo4j.scope_clocks.changes`; usually a
handful of rows) and ranks the copy. The server then only checks the best candidates
against the search's time filter and returns the first that pass
(``search.channels``'s ``candidates``).

The copy is only used while it is provably whole: a scope is loaded whole once (on the
search's thread when small, otherwise beside the searches while the server ranks as
before), a scope whose node count differs from the copy's (a deletion) is loaded again,
and a change too large to read on the search's thread is read beside it. Memory is
bounded by ``max_rows``: the scopes used least recently are dropped first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: The labels a scope's copy holds, by the name the Cypher rows use.
KINDS = ("fact", "message")


@dataclass
class _Rows:
    """One label's rows of one scope: ids, unit vectors (a zero row: no vector), stamps, and
    the scope clock they are current at."""

    dimension: int
    clock: int
    #: Whether the next read of changes asks again for the nodes stamped at ``clock``: once
    #: after the clock moved, in case its commit was caught half applied.
    recheck: bool = True
    ids: list[str] = field(default_factory=list)
    where: dict[str, int] = field(default_factory=dict)
    vectors: np.ndarray = field(init=False)
    present: np.ndarray = field(init=False)
    stamps: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.vectors = np.zeros((16, self.dimension), dtype=np.float32)
        self.present = np.zeros(16, dtype=bool)

    def __len__(self) -> int:
        return len(self.ids)

    def put(self, node_id: str, vector: Iterable[float] | None, stamp: int) -> None:
        """Add or replace a row, unless the copy already holds a later stamp of it."""
        row = self.where.get(node_id)
        if row is not None and self.stamps[row] > stamp:
            return
        if row is None:
            row = len(self.ids)
            if row == len(self.vectors):
                grown = np.zeros((2 * row, self.dimension), dtype=np.float32)
                grown[:row] = self.vectors
                self.vectors = grown
                self.present = np.concatenate([self.present, np.zeros(row, dtype=bool)])
            self.ids.append(node_id)
            self.stamps.append(stamp)
            self.where[node_id] = row
        self.stamps[row] = stamp
        unit = np.zeros(self.dimension, dtype=np.float32)
        if vector is not None:
            given = np.asarray(list(vector), dtype=np.float32)
            norm = float(np.linalg.norm(given)) if given.shape == unit.shape else 0.0
            if norm > 0.0 and np.isfinite(norm):
                unit = given / norm
        self.vectors[row] = unit
        self.present[row] = bool(np.any(unit))

    def since(self) -> int:
        return self.clock + (0 if self.recheck else 1)


class VectorCache:
    """Scope copies by ``(tenant, scope key)``, each a :class:`_Rows` per label in
    :data:`KINDS`; the least recently used dropped past ``max_rows``.

    Thread safe: searches on several threads read and update it under one lock (updates
    are a handful of rows; a ranking is one matrix product a scope).
    """

    def __init__(self, dimension: int, max_rows: int) -> None:
        self.dimension = dimension
        self.max_rows = max_rows
        self._scopes: OrderedDict[tuple[str, str], dict[str, _Rows]] = OrderedDict()
        self._lock = threading.Lock()

    def since(self, tenant: str, key: str, kind: str) -> int | None:
        """The first stamp the next read of the scope's ``kind`` changes asks for (see
        ``_Rows.recheck``); None: no copy."""
        with self._lock:
            copy = self._scopes.get((tenant, key))
            if copy is None:
                return None
            self._scopes.move_to_end((tenant, key))
            return copy[kind].since()

    def position(self, tenant: str, key: str, kind: str) -> tuple[int, int] | None:
        """``(since, clock)`` of the copy's ``kind`` rows, read together; None: no copy."""
        with self._lock:
            copy = self._scopes.get((tenant, key))
            if copy is None:
                return None
            self._scopes.move_to_end((tenant, key))
            return copy[kind].since(), copy[kind].clock

    def clock(self, tenant: str, key: str, kind: str) -> int | None:
        """The scope clock the copy's ``kind`` rows are current at; None: no copy."""
        with self._lock:
            copy = self._scopes.get((tenant, key))
            return None if copy is None else copy[kind].clock

    def drop(self, tenant: str, key: str) -> None:
        with self._lock:
            self._scopes.pop((tenant, key), None)

    def load(self, tenant: str, row: Mapping[str, Any]) -> None:
        """Replace a scope's copy with a whole scope read (``scope_clocks.whole_scope``)."""
        copy = {kind: _Rows(self.dimension, int(row["clock"])) for kind in KINDS}
        for kind in KINDS:
            for r in row[f"{kind}Rows"]:
                copy[kind].put(str(r["id"]), r["vector"], int(r["stamp"]))
        with self._lock:
            self._scopes[(tenant, str(row["key"]))] = copy
            self._scopes.move_to_end((tenant, str(row["key"])))
            self._trim()

    def update(self, tenant: str, kind: str, change: Mapping[str, Any]) -> bool:
        """Apply a scope's ``kind`` changes (``{key, clock, count, rows}``, read by
        ``scope_clocks.changes``); False, and the copy dropped, when it holds more nodes than
        the server counted after reading the changes: some were deleted. (Fewer: nodes
        committed meanwhile, which the next changes bring.)"""
        key = (tenant, str(change["key"]))
        with self._lock:
            copy = self._scopes.get(key)
            if copy is None:
                return False
            rows = copy[kind]
            for r in change["rows"]:
                rows.put(str(r["id"]), r["vector"], int(r["stamp"]))
            clock = int(change["clock"])
            rows.recheck, rows.clock = clock > rows.clock, max(rows.clock, clock)
            whole = len(rows) <= int(change["count"])
            if not whole:
                del self._scopes[key]
            self._trim()
            return whole

    def rank(self, tenant: str, keys: list[str], kind: str, vector: list[float],
             k: int) -> tuple[list[dict[str, Any]], int] | None:
        """The ``k`` best ``{id, score}`` (cosine) of the scopes' ``kind`` rows, best first,
        and how many rows with a vector there were; None if a scope has no copy (another
        thread may have dropped one since it was asked for)."""
        query = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(query))
        if norm == 0.0 or not np.isfinite(norm):
            return [], 0
        query /= norm
        found: list[tuple[float, str]] = []
        available = 0
        with self._lock:  # a put may grow or rewrite the arrays
            if any((tenant, key) not in self._scopes for key in keys):
                return None
            for key in keys:
                rows = self._scopes[(tenant, key)][kind]
                present = np.flatnonzero(rows.present[:len(rows)])
                available += len(present)
                scores = (rows.vectors[:len(rows)] @ query)[present]
                best = (np.argpartition(-scores, k - 1)[:k] if len(present) > k
                        else np.arange(len(present)))
                found += [(float(scores[i]), rows.ids[present[i]]) for i in best]
        found.sort(key=lambda hit: -hit[0])
        return [{"id": node_id, "score": score} for score, node_id in found[:k]], available

    def rows(self) -> int:
        with self._lock:
            return sum(len(r) for copy in self._scopes.values() for r in copy.values())

    def _trim(self) -> None:
        total = sum(len(r) for copy in self._scopes.values() for r in copy.values())
        while total > self.max_rows and len(self._scopes) > 1:
            _, dropped = self._scopes.popitem(last=False)
            total -= sum(len(r) for r in dropped.values())
