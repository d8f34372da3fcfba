"""Fusion of ranked candidate lists; pure functions, no store in sight."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

import numpy as np

RRF_K = 60


def reciprocal_rank_fusion(
    ranked: Mapping[str, Sequence[str]], *, k: int = RRF_K, weights: dict[str, float] | None = None,
) -> tuple[dict[str, float], dict[str, dict[str, int]]]:
    """Fuse ``channel -> ids best first`` lists by RRF: sum of w / (k + rank).

    Returns the fused score of each id and, per id, the 1-based rank each
    channel gave it (so every result can explain itself).
    """
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    for channel, ids in ranked.items():
        weight = (weights or {}).get(channel, 1.0)
        for rank, item in enumerate(dict.fromkeys(ids), start=1):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
            ranks.setdefault(item, {})[channel] = rank
    return scores, ranks


def recency_factor(when: datetime, now: datetime, half_days: float = 30.0) -> float:
    """exp(-days / 30): the product's recency decay."""
    days = max(0.0, (now - when).total_seconds() / 86400.0)
    return math.exp(-days / half_days)


#: The least a memory's age or unimportance can scale it by: an old or unimportant memory
#: is dimmed, never zeroed, and relevance keeps the last word. MiniLM puts unrelated
#: sentences about the same person at cosine ~0.45 and a matching one at ~0.9, so the
#: two factors together may move a score by at most 1 / 0.64 = 1.56x.
RECENCY_FLOOR = 0.8
IMPORTANCE_FLOOR = 0.8


def rerank_score(similarity: float, recency: float, importance: float) -> float:
    """The product's re-rank formula: similarity x recency decay x importance.

    Recency and importance only scale similarity, between their floors and 1, so
    a memory unrelated to the question cannot outrank a related one by being new
    or important: it would need 64% of the related one's similarity.

    >>> rerank_score(0.9, 0.0, 0.0) > rerank_score(0.45, 1.0, 1.0)
    True
    """
    return (max(similarity, 0.0)
            * (RECENCY_FLOOR + (1 - RECENCY_FLOOR) * recency)
            * (IMPORTANCE_FLOOR + (1 - IMPORTANCE_FLOOR) * importance))


def mmr(ids: list[str], relevance: dict[str, float], vector: Callable[[str], list[float] | None],
        *, limit: int, diversity: float = 0.3) -> list[str]:
    """Maximal marginal relevance: trade relevance against similarity to what is already picked."""
    picked: list[str] = []
    picked_vectors: list[np.ndarray] = []
    pool = list(ids)
    top = max(relevance.values(), default=1.0) or 1.0
    while pool and len(picked) < limit:
        best, best_score = pool[0], -math.inf
        for item in pool:
            vec = vector(item)
            redundancy = 0.0
            if vec is not None and picked_vectors:
                v = np.asarray(vec, dtype=np.float32)
                redundancy = max(float(p @ v) for p in picked_vectors)
            score = (1 - diversity) * relevance[item] / top - diversity * redundancy
            if score > best_score:
                best, best_score = item, score
        pool.remove(best)
        picked.append(best)
        vec = vector(best)
        if vec is not None:
            picked_vectors.append(np.asarray(vec, dtype=np.float32))
    return picked
