"""A short vector beside each stored one, so that a large scope is ranked in two steps.

Ranking a scope exactly reads every node's vector, and on Neo4j that read is the cost:
a 384-float property takes about 9 us to read and 4 more to compare, against about 1 us
for the rest of the row (2,000 facts of a scope: 26 ms of server time, measured with
``bench/search_plan.py``'s store at 100k facts). So each Fact, Entity and Message with a
vector also keeps a *sketch* of it, :data:`SKETCH_DIM` floats: the vector times a fixed
sparse random projection (entries +1, 0 and -1 with chances 1/6, 2/3 and 1/6; Achlioptas
2003), which keeps cosines close on average. A large scope is ranked by the sketches, and
the best of them (:func:`shortlist`) by their whole vectors (``search_reads.vector_scan_scope``):
the same 2,000 facts in 12 ms.

The projection is derived from a hash of a fixed name and the row number, not from a
random generator whose stream could change with a library version: a stored sketch and
a query's sketch are always made by the same matrix. A changed projection must change
:data:`PROJECTION_NAME` and re-sketch the stored nodes (a schema migration).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

#: Floats in a sketch. 32 were read barely faster (7 against 8 ms for 2,000 facts: the row's
#: own cost dominates) and kept fewer of the best 40 in the shortlist of 400 (95% against 99%).
SKETCH_DIM = 64
#: The node property holding the sketch.
SKETCH_PROPERTY = "sketch"
#: Names the projection: the seed of its hash.
PROJECTION_NAME = b"graphmem-sketch-v1"
#: Vectors this short or shorter get no sketch: reading them is already cheap.
MIN_SKETCHED_DIM = 2 * SKETCH_DIM
#: Whole vectors read after the sketches rank a scope: at least this many...
MIN_SHORTLIST = 400
#: ... and at least this many times the hits asked for.
SHORTLIST_PER_HIT = 8
# Chances of +1 and of -1 for each projection entry, as byte thresholds: 43 / 256 ~ 1/6.
_PLUS_BELOW, _MINUS_ABOVE = 43, 212


@lru_cache(maxsize=8)
def projection(dimension: int) -> np.ndarray:
    """The ``dimension`` x :data:`SKETCH_DIM` projection, read only: row ``i`` from the
    BLAKE2b hash of :data:`PROJECTION_NAME` and ``i``, one byte per column."""
    rows = np.empty((dimension, SKETCH_DIM), dtype=np.float32)
    for i in range(dimension):
        digest = np.frombuffer(hashlib.blake2b(
            PROJECTION_NAME + i.to_bytes(4, "big"), digest_size=SKETCH_DIM).digest(),
            dtype=np.uint8)
        rows[i] = np.where(digest < _PLUS_BELOW, 1.0, np.where(digest > _MINUS_ABOVE, -1.0, 0.0))
    rows.setflags(write=False)
    return rows


def sketch(vector: Sequence[float] | None) -> list[float] | None:
    """The sketch of ``vector``; None for no vector, a vector of at most
    :data:`MIN_SKETCHED_DIM` floats, or one the projection maps to zero (it cannot rank).

    >>> len(sketch([0.1] * 384) or [])
    64
    >>> sketch([0.1] * 8) is None
    True
    """
    if vector is None or len(vector) <= MIN_SKETCHED_DIM:
        return None
    short = np.asarray(vector, dtype=np.float32) @ projection(len(vector))
    if not np.any(short) or not np.all(np.isfinite(short)):
        return None
    return [float(x) for x in short]


def shortlist(k: int) -> int:
    """How many of a scope's nodes the sketches keep for the exact ranking of its ``k`` best.

    >>> shortlist(40), shortlist(80)
    (400, 640)
    """
    return max(MIN_SHORTLIST, SHORTLIST_PER_HIT * k)
