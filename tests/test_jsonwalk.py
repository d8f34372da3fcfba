"""Walking JSON without recursion: depth far past Python's recursion limit is fine."""

from __future__ import annotations

import sys
from typing import Any

from graphmem.jsonwalk import map_strings


def nested(depth: int, leaf: Any) -> Any:
    value = leaf
    for i in range(depth):
        value = {"k": value} if i % 2 else [value, i]
    return value


def test_map_strings_keeps_shape_order_and_keys() -> None:
    value = {"name": "maria", "tags": ["a", 1, None, True, {"maria": "maria"}], "n": 2.5}
    assert map_strings(value, str.upper) == {
        "name": "MARIA", "tags": ["A", 1, None, True, {"maria": "MARIA"}], "n": 2.5}
    assert map_strings("x", str.upper) == "X" and map_strings(3, str.upper) == 3
    assert value["name"] == "maria"  # a copy, not an edit


def test_map_strings_survives_depth_past_the_recursion_limit() -> None:
    depth = sys.getrecursionlimit() * 5
    out = map_strings(nested(depth, "deep"), str.upper)
    for _ in range(depth):
        out = out["k"] if isinstance(out, dict) else out[0]
    assert out == "DEEP"
