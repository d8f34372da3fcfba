"""The in-process copy of scopes' vectors: its ranking, its stamps and its memory bound."""

from __future__ import annotations

from typing import Any

import numpy as np

from graphmem.store.neo4j.vector_cache import VectorCache

DIM = 8


def _scope(key: str, clock: int, rows: list[dict[str, Any]],
           messages: list[dict[str, Any]] | None = None, **counts: int) -> dict[str, Any]:
    return {"key": key, "clock": clock, "factRows": rows, "messageRows": messages or [],
            "factCount": counts.get("facts", len(rows)),
            "messageCount": counts.get("messages", len(messages or []))}


def _change(key: str, clock: int, rows: list[dict[str, Any]], count: int) -> dict[str, Any]:
    return {"key": key, "clock": clock, "rows": rows, "count": count}


def _rows(vectors: np.ndarray, stamp: int = 1, prefix: str = "f") -> list[dict[str, Any]]:
    return [{"id": f"{prefix}{i}", "vector": list(map(float, v)), "stamp": stamp}
            for i, v in enumerate(vectors)]


def test_the_ranking_is_the_cosine_order_over_every_scope_asked() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=(40, DIM)), rng.normal(size=(30, DIM))
    cache = VectorCache(DIM, max_rows=1000)
    cache.load("t", _scope("user:a", 3, _rows(a, prefix="a")))
    cache.load("t", _scope("user:b", 4, _rows(b, prefix="b")))
    query = rng.normal(size=DIM)
    hits, available = cache.rank("t", ["user:a", "user:b"], "fact", list(query), 7)
    both = np.concatenate([a, b])
    cosines = both @ query / (np.linalg.norm(both, axis=1) * np.linalg.norm(query))
    names = [f"a{i}" for i in range(40)] + [f"b{i}" for i in range(30)]
    expected = [names[i] for i in np.argsort(-cosines)[:7]]
    assert [h["id"] for h in hits] == expected
    assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
    assert abs(hits[0]["score"] - float(np.max(cosines))) < 1e-5
    assert available == 70
    assert cache.rank("t", ["user:a"], "message", list(query), 7) == ([], 0)
    assert cache.rank("t", ["user:a", "user:gone"], "fact", list(query), 7) is None
    assert cache.rank("other", ["user:a"], "fact", list(query), 7) is None  # per tenant


def test_a_node_without_a_vector_is_never_ranked_and_an_older_stamp_never_wins() -> None:
    cache = VectorCache(DIM, max_rows=1000)
    one = [1.0] + [0.0] * (DIM - 1)
    cache.load("t", _scope("s", 5, [{"id": "x", "vector": one, "stamp": 5},
                                    {"id": "none", "vector": None, "stamp": 5}]))
    assert cache.rank("t", ["s"], "fact", one, 5) == ([{"id": "x", "score": 1.0}], 1)
    other = [0.0, 1.0] + [0.0] * (DIM - 2)
    assert cache.update("t", "fact", _change("s", 7, [{"id": "x", "vector": other, "stamp": 7}],
                                             2))
    assert cache.update("t", "fact", _change("s", 7, [{"id": "x", "vector": one, "stamp": 6}],
                                             2))  # read late, from an older commit: ignored
    assert cache.rank("t", ["s"], "fact", other, 1)[0][0]["id"] == "x"
    assert cache.rank("t", ["s"], "fact", one, 1)[0][0]["score"] == 0.0


def test_changes_that_leave_the_counts_unequal_drop_the_copy() -> None:
    cache = VectorCache(DIM, max_rows=1000)
    cache.load("t", _scope("s", 1, _rows(np.eye(DIM)[:3])))
    assert cache.since("t", "s", "fact") == 1
    # more counted: a node committed after its changes were read, which the next ones bring
    assert cache.update("t", "fact", _change("s", 1, [], 4))
    assert not cache.update("t", "fact", _change("s", 2, [], 2))  # fewer: one deleted
    assert cache.since("t", "s", "fact") is None


def test_the_clock_is_asked_again_once_after_it_moved() -> None:
    cache = VectorCache(DIM, max_rows=1000)
    cache.load("t", _scope("s", 4, _rows(np.eye(DIM)[:2])))
    assert cache.since("t", "s", "fact") == 4  # loaded: its last commit may be half read
    assert cache.update("t", "fact", _change("s", 4, [], 2))
    assert cache.since("t", "s", "fact") == 5
    assert cache.position("t", "s", "fact") == (5, 4)
    assert cache.position("t", "gone", "fact") is None
    assert cache.since("t", "s", "message") == 4  # each label's clock on its own
    assert cache.update("t", "fact", _change("s", 9, _rows(np.eye(DIM)[2:3], 9, "n"), 3))
    assert cache.since("t", "s", "fact") == 9


def test_the_least_recently_used_scopes_go_past_the_row_bound() -> None:
    cache = VectorCache(DIM, max_rows=10)
    for key in ("a", "b", "c"):
        cache.load("t", _scope(key, 1, _rows(np.eye(DIM)[:4], prefix=key)))
        if key == "b":
            cache.since("t", "a", "fact")  # a used after b was loaded
    assert cache.since("t", "b", "fact") is None
    assert cache.since("t", "a", "fact") == 1 and cache.since("t", "c", "fact") == 1
    assert cache.rows() == 8
