"""Predicates: their names, cardinality and timeline family.

A predicate's *cardinality* decides what a new fact does to the old ones:
functional predicates (``one``) hold one value per subject at a time, so a new
value supersedes the current one; multi-valued predicates (``many``) hold many,
so each object has its own timeline. A *family* groups predicates that exclude
each other on the same object (``LIKES`` and ``DISLIKES``): a new fact of the
family supersedes the current one for that object.

The registry is configuration: :class:`PredicateRegistry` takes overrides, and
an extractor may state a cardinality for a predicate it invents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from graphmem.models import Cardinality

#: Predicates become Neo4j relationship types, so they must be plain identifiers.
PREDICATE_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]{0,63}$")


@dataclass(frozen=True)
class PredicateSpec:
    name: str
    cardinality: Cardinality
    family: str


def _spec(name: str, cardinality: Cardinality, family: str | None = None) -> PredicateSpec:
    return PredicateSpec(name, cardinality, family or name)


ONE, MANY = Cardinality.ONE, Cardinality.MANY

DEFAULT_PREDICATES: tuple[PredicateSpec, ...] = (
    # functional: one value per subject at a time
    _spec("WORKS_AT", ONE),
    _spec("JOB_TITLE", ONE),
    _spec("LIVES_IN", ONE),
    _spec("MARRIED_TO", ONE),
    _spec("DRIVES", ONE),
    _spec("IS_NAMED", ONE),
    _spec("PREFERRED_NAME", ONE),
    _spec("AGE", ONE),
    _spec("STUDIES_AT", ONE),
    _spec("RELATIONSHIP_STATUS", ONE),
    _spec("USES_FRAMEWORK", ONE),
    _spec("FAVORITE", ONE),  # the rules extractor says FAVORITE_BAND, FAVORITE_FOOD... (stated one)
    _spec("IS_FROM", ONE),
    _spec("HAS_PARTNER", ONE),
    # multi-valued: each object has its own timeline
    _spec("LIKES", MANY, "SENTIMENT"),
    _spec("LOVES", MANY, "SENTIMENT"),
    _spec("PREFERS", MANY, "SENTIMENT"),
    _spec("DISLIKES", MANY, "SENTIMENT"),
    _spec("USES", MANY),
    _spec("KNOWS", MANY),
    _spec("HAS_VISITED", MANY),
    _spec("OWNS", MANY),
    _spec("HAS", MANY),
    _spec("HAS_RELATIVE", MANY),
    _spec("HAS_SISTER", MANY),
    _spec("HAS_BROTHER", MANY),
    _spec("HAS_CHILD", MANY),
    _spec("HAS_PARENT", MANY),
    _spec("HAS_FRIEND", MANY),
    _spec("HAS_PET", MANY),
    _spec("HOBBY", MANY),
    _spec("SKILLED_IN", MANY),
    _spec("PLANS", MANY),
    _spec("ATTENDED", MANY),
    _spec("VISITED", MANY),
    _spec("TRAVELS_TO", MANY),
    _spec("TODO", MANY),
    _spec("TODO_DONE", MANY, "TODO"),
    _spec("TODO_CANCELLED", MANY, "TODO"),
    _spec("TODO_EXPIRED", MANY, "TODO"),
    _spec("ALLERGIC_TO", MANY),
    _spec("LEARNING", MANY),
    _spec("LESSON", MANY),
    _spec("GOAL", MANY),
    _spec("PROJECT_USES", MANY),
    _spec("RELATED_TO", MANY),
)


@dataclass
class PredicateRegistry:
    """Looks up a predicate's spec; unknown predicates are multi-valued by default."""

    specs: dict[str, PredicateSpec] = field(
        default_factory=lambda: {s.name: s for s in DEFAULT_PREDICATES}
    )

    @classmethod
    def with_overrides(cls, overrides: dict[str, Cardinality]) -> PredicateRegistry:
        registry = cls()
        for name, cardinality in overrides.items():
            check_predicate(name)
            old = registry.specs.get(name)
            registry.specs[name] = PredicateSpec(name, cardinality, old.family if old else name)
        return registry

    def spec(self, name: str, stated: Cardinality | None = None) -> PredicateSpec:
        check_predicate(name)
        known = self.specs.get(name)
        if known is not None:
            return known
        return PredicateSpec(name, stated or Cardinality.MANY, name)


def check_predicate(name: str) -> str:
    """Raise if ``name`` cannot safely become a relationship type."""
    from graphmem.errors import ValidationError

    if not PREDICATE_PATTERN.fullmatch(name):
        raise ValidationError(
            f"predicate {name!r} must be UPPER_SNAKE_CASE: a letter, then letters, digits "
            "or underscores, at most 64 characters"
        )
    return name
