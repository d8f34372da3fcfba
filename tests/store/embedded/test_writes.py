"""The embedded store's writes: vectors converted once, bit for bit as numpy converts them."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.models import Entity
from graphmem.store.embedded.writes import vector_rows


def _entity(name: str, embedding: list[float] | None) -> Entity:
    return Entity(tenant="t", scope_key="u:alice", name=name, embedding=embedding)


def test_vector_rows_are_numpys_float32_bits() -> None:
    rng = np.random.default_rng(7)
    given = [rng.normal(size=8).tolist() for _ in range(3)]
    given[1][2] = 1  # an int in a list of floats
    rows = vector_rows([_entity(f"e{i}", v) for i, v in enumerate(given)]
                       + [_entity("none", None)])
    assert len(rows) == 3
    for row, vector in zip(rows.values(), given):
        assert row.dtype == np.float32
        assert row.tobytes() == np.asarray(vector, dtype=np.float32).tobytes()


def test_a_value_too_large_for_float32_is_infinite_as_numpy_makes_it() -> None:
    with np.errstate(over="ignore"):
        expected = np.asarray([[1e39, -1e39, 0.5]], dtype=np.float32)
    with pytest.warns(RuntimeWarning, match="overflow"):
        rows = vector_rows([_entity("huge", [1e39, -1e39, 0.5])])
    assert next(iter(rows.values())).tolist() == expected[0].tolist() == [np.inf, -np.inf, 0.5]


def test_the_last_record_of_an_id_is_the_one_converted() -> None:
    first, last = _entity("a", [1.0, 0.0]), _entity("a", [0.0, 1.0])
    last = last.model_copy(update={"id": first.id})
    assert vector_rows([first, last])[first.id].tolist() == [0.0, 1.0]
