"""A later statement of a one-valued slot in another scope of the view overrides."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.models import Cardinality, Fact
from graphmem.predicates import PredicateRegistry
from graphmem.search.overrides import overridden_across_scopes

REGISTRY = PredicateRegistry()


def _fact(fid: str, scope: str, predicate: str, obj: str, month: int, subject: str = "Maya",
          **kw: object) -> Fact:
    fields: dict[str, object] = {"subject_id": f"{scope}:{subject}", **kw}
    return Fact(id=fid, tenant="t", scope_key=scope, subject_name=subject, predicate=predicate, object_id=obj, object_name=obj,
                text=f"{subject} {predicate} {obj}", valid_from=datetime(2024, month, 1, tzinfo=UTC),
                **fields)  # type: ignore[arg-type]


def test_the_later_value_of_another_scope_overrides() -> None:
    group = _fact("g", "group:club", "LIVES_IN", "Denver", 2)
    user = _fact("u", "user:maya", "LIVES_IN", "Boulder", 3)
    assert overridden_across_scopes([group, user], REGISTRY) == {"g"}
    assert overridden_across_scopes([user, group], REGISTRY) == {"g"}


def test_many_valued_slots_other_people_and_one_scope_are_left_alone() -> None:
    assert overridden_across_scopes([  # several pets at once
        _fact("a", "group:club", "HAS_PET", "Rex", 2), _fact("b", "user:maya", "HAS_PET", "Miso", 3),
    ], REGISTRY) == set()
    assert overridden_across_scopes([  # Sam's home is not Maya's
        _fact("a", "group:club", "LIVES_IN", "Denver", 2, subject="Sam"),
        _fact("b", "user:maya", "LIVES_IN", "Boulder", 3),
    ], REGISTRY) == set()
    assert overridden_across_scopes([  # within one scope, the write path's timeline decides
        _fact("a", "user:maya", "LIVES_IN", "Denver", 2, subject_id="x1"),
        _fact("b", "user:maya", "LIVES_IN", "Boulder", 3, subject_id="x2"),
    ], REGISTRY) == set()


def test_a_stated_one_valued_predicate_counts_too() -> None:
    old = _fact("o", "group:club", "FAVORITE_TEA", "green", 1, cardinality=Cardinality.ONE)
    new = _fact("n", "user:maya", "FAVORITE_TEA", "black", 5, cardinality=Cardinality.ONE)
    assert overridden_across_scopes([old, new], REGISTRY) == {"o"}
