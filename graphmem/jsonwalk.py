"""Walking parsed JSON without recursion.

A client's JSON document can nest as deep as its body size allows; a recursive
walk over it ends in ``RecursionError`` (a 500) long before any size limit.
These walks keep their own stack. :data:`graphmem.ingest.inputs.MAX_DOCUMENT_DEPTH`
and :class:`api.limits.JsonDepthLimit` bound the depth at the edge as well.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def map_strings(value: Any, clean: Callable[[str], str]) -> Any:
    """A copy of a JSON value with ``clean`` applied to every string value (keys stay).

    >>> map_strings({"a": ["x", 1, {"b": "y"}]}, str.upper)
    {'a': ['X', 1, {'b': 'Y'}]}
    """
    if not isinstance(value, dict | list):
        return clean(value) if isinstance(value, str) else value
    root: dict[str, Any] | list[Any] = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        pairs = list(source.items()) if isinstance(source, dict) else list(enumerate(source))
        for key, item in pairs:
            if isinstance(item, dict | list):
                copy: dict[str, Any] | list[Any] = {} if isinstance(item, dict) else []
                stack.append((item, copy))
                item = copy
            elif isinstance(item, str):
                item = clean(item)
            if isinstance(target, dict):
                target[key] = item
            else:
                target.append(item)
    return root
