"""One value of a one-valued slot per person, when a view spans several scopes.

Each scope keeps its own timelines: a user's memory and a group's are written
apart, and a change said in one never closes a fact of the other (the group's
memory is not the user's to rewrite). A member scope sees both, so "Maya lives
in Denver." (said in the book club in February) and "Maya lives in Boulder."
(said to her assistant in March) are both current there. Read together, the
later statement is what is true now: the earlier one is overridden in that view,
and stays current in its own scope.
"""

from __future__ import annotations

from collections.abc import Iterable

from graphmem.models import Cardinality, Fact
from graphmem.names import normalize_name
from graphmem.predicates import PredicateRegistry


def overridden_across_scopes(facts: Iterable[Fact], registry: PredicateRegistry) -> set[str]:
    """The ids of the facts a later fact of the same one-valued slot, about a person of the
    same name, in another scope, overrides; ``facts`` are those valid in the view.

    """
    latest: dict[tuple[str, str], Fact] = {}
    slotted: list[tuple[tuple[str, str], Fact]] = []
    for fact in facts:
        spec = registry.spec(fact.predicate, fact.cardinality)
        if spec.cardinality is not Cardinality.ONE:
            continue
        key = (normalize_name(fact.subject_name), spec.family)
        slotted.append((key, fact))
        best = latest.get(key)
        if best is None or (fact.valid_from, fact.recorded_at) > (best.valid_from,
                                                                  best.recorded_at):
            latest[key] = fact
    return {fact.id for key, fact in slotted if fact.scope_key != latest[key].scope_key}
