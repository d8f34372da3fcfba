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
PREDICATE_PATTERN = re.compile(r"\A[A-Z][A-Z0-9_]{0,63}\Z")


@dataclass(frozen=True)
class PredicateSpec:
    """One predicate: how its facts supersede each other, and how people ask about it.

    ``description`` and ``questions`` describe the *slot* the predicate fills
    ("where does X work?"): recall's slot channel matches a question against
    them to read the answer straight from the graph, so every predicate a user
    would ask about carries a few example questions with ``X`` for the person.

    ``held_with`` names the one-valued predicate whose value this one holds
    within: a job title or a manager belongs to the employer of when it was said,
    so when that job ends, so does it (see :mod:`graphmem.ingest.held_with`),
    unless the change restates it.

    ``left`` marks a place one can leave ("I left Acme"): an employer, a home, a
    school. Words alone cannot tell a company from a town, so a retraction of one
    such value that the subject does not hold ends the one that it does.

    ``also_ends`` names the predicates whose current facts about the same object a
    retraction of this one ends too: a divorce ends "in a relationship with Tom"
    as well as the marriage, and "I stopped rock climbing" ends "loves rock
    climbing" as well as the sport.

    ``ends_states`` names states of the subject this fact leaves behind when it starts, by
    predicate and value: a marriage ends being engaged (or single), so "Daniel and I got
    married" no longer leaves "engaged" current beside the marriage.

    ``implies`` names the predicates a fact of this one states as well, which an
    extractor reads from the same words: "I mostly code in Erlang" is Erlang as the
    main language and Erlang used. A correction of a value misread in one such fact
    (``PATCH`` with ``since="start"``) corrects the others read with it.
    """

    name: str
    cardinality: Cardinality
    family: str
    description: str = ""
    questions: tuple[str, ...] = ()
    held_with: str | None = None
    left: bool = False
    also_ends: tuple[str, ...] = ()
    implies: tuple[str, ...] = ()
    ends_states: tuple[tuple[str, frozenset[str]], ...] = ()


def _spec(name: str, cardinality: Cardinality, family: str | None = None,
          description: str = "", questions: tuple[str, ...] = (),
          held_with: str | None = None, left: bool = False,
          also_ends: tuple[str, ...] = (), implies: tuple[str, ...] = (),
          ends_states: tuple[tuple[str, frozenset[str]], ...] = ()) -> PredicateSpec:
    return PredicateSpec(name, cardinality, family or name, description, questions,
                         held_with, left, also_ends, implies, ends_states)


#: The relationship statuses a partner or a marriage leaves behind.
_UNMARRIED = frozenset({"engaged", "single", "dating", "in a relationship", "seeing someone"})


#: What a person does for its own sake: stopping it ends liking it as a pastime too.
_PASTIMES = ("HOBBY", "PLAYS_SPORT", "LIKES", "LOVES")


ONE, MANY = Cardinality.ONE, Cardinality.MANY

DEFAULT_PREDICATES: tuple[PredicateSpec, ...] = (
    # functional: one value per subject at a time
    _spec("WORKS_AT", ONE, description="the organisation a person works for (employer)",
          questions=("Where does X work?", "Who does X work for?", "What company is X at?",
                     "Who is X's employer?"), left=True),
    _spec("JOB_TITLE", ONE, description="a person's job title or role at work",
          questions=("What is X's job title?", "What does X do for a living?",
                     "What is X's role?", "What position does X hold?"),
          held_with="WORKS_AT"),
    _spec("LIVES_IN", ONE, description="the city or place a person lives in",
          questions=("Where does X live?", "Which city does X live in?", "Where is X based?",
                     "Where is X's home?"), left=True),
    _spec("MARRIED_TO", ONE, description="a person's spouse",
          questions=("Who is X married to?", "Who is X's wife?", "Who is X's husband?"),
          also_ends=("HAS_PARTNER",), ends_states=(("RELATIONSHIP_STATUS", _UNMARRIED),)),
    _spec("DRIVES", ONE, description="the car a person drives",
          questions=("What car does X drive?", "What does X drive?", "What is X's car?")),
    _spec("HAS_PHONE", ONE, description="the phone a person uses",
          questions=("What phone does X use?", "What phone does X have?",
                     "Which smartphone does X own?")),
    _spec("DIET", ONE, description="the diet a person follows (vegan, vegetarian, keto...)",
          questions=("What diet does X follow?", "Is X vegetarian?", "What does X eat?")),
    _spec("MAIN_LANGUAGE", ONE, description="the programming language a person uses most",
          questions=("Which programming language does X use most?",
                     "What is X's main programming language?", "What language does X code in?"),
          implies=("USES",)),
    _spec("PLAYS_SPORT", ONE, description="the sport a person does or plays regularly",
          questions=("Which sport does X do?", "What sport does X play?",
                     "What does X do for exercise?"), also_ends=_PASTIMES),
    _spec("REPORTS_TO", ONE, description="a person's manager or boss at work",
          questions=("Who is X's manager?", "Who does X report to?", "Who is X's boss?"),
          held_with="WORKS_AT"),
    _spec("IS_NAMED", ONE),
    _spec("PREFERRED_NAME", ONE),
    _spec("AGE", ONE),
    _spec("STUDIES_AT", ONE, description="the school or university a person studies at",
          questions=("Where does X study?", "Which university does X attend?"), left=True),
    _spec("RELATIONSHIP_STATUS", ONE, description="whether a person is single, dating, married...",
          questions=("Is X single?", "What is X's relationship status?")),
    _spec("USES_FRAMEWORK", ONE, description="the frontend or web framework a person uses",
          questions=("Which frontend framework does X use?", "What framework does X use?")),
    _spec("FAVORITE", ONE),  # the rules extractor says FAVORITE_BAND, FAVORITE_FOOD... (stated one)
    _spec("IS_FROM", ONE, description="where a person comes from (hometown, home country)",
          questions=("Where is X from?", "Where did X grow up?")),
    _spec("HAS_PARTNER", ONE, description="a person's partner (boyfriend, girlfriend)",
          questions=("Who is X's partner?", "Who is X dating?"), also_ends=("MARRIED_TO",),
          ends_states=(("RELATIONSHIP_STATUS", frozenset({"single"})),)),
    # multi-valued: each object has its own timeline
    _spec("LIKES", MANY, "SENTIMENT", also_ends=("HOBBY",)),
    _spec("LOVES", MANY, "SENTIMENT", also_ends=("HOBBY",)),
    _spec("PREFERS", MANY, "SENTIMENT"),
    _spec("DISLIKES", MANY, "SENTIMENT"),
    _spec("USES", MANY),
    _spec("KNOWS", MANY),
    _spec("HAS_VISITED", MANY),
    _spec("OWNS", MANY, also_ends=("DRIVES", "HAS_PHONE")),  # "I sold the Focus"
    _spec("HAS", MANY),
    _spec("HAS_RELATIVE", MANY),
    _spec("HAS_SISTER", MANY, description="a person's sisters",
          questions=("Who is X's sister?", "Does X have a sister?")),
    _spec("HAS_BROTHER", MANY, description="a person's brothers",
          questions=("Who is X's brother?", "Does X have a brother?")),
    _spec("HAS_CHILD", MANY, description="a person's children",
          questions=("Who are X's children?", "Does X have kids?",
                     "What are the names of X's kids?", "Who is X's daughter?",
                     "Who is X's son?")),
    _spec("HAS_PARENT", MANY, description="a person's parents",
          questions=("Who are X's parents?", "Who is X's mother?", "Who is X's father?")),
    _spec("HAS_FRIEND", MANY),
    _spec("HAS_PET", MANY, description="a person's pets",
          questions=("What pets does X have?", "Does X have a pet?")),
    _spec("HOBBY", MANY, also_ends=_PASTIMES, description="a person's hobbies",
          questions=("What are X's hobbies?", "What hobbies does X have?")),
    _spec("SKILLED_IN", MANY),
    _spec("PLANS", MANY),
    _spec("ATTENDED", MANY),
    _spec("VISITED", MANY),
    _spec("TRAVELS_TO", MANY),
    _spec("TODO", MANY),
    _spec("TODO_DONE", MANY, "TODO"),
    _spec("TODO_CANCELLED", MANY, "TODO"),
    _spec("TODO_EXPIRED", MANY, "TODO"),
    _spec("HAS_CONDITION", MANY, description="a person's health conditions",
          questions=("Does X have any health problems?", "What health conditions does X have?",
                     "Does X have a medical condition?")),
    _spec("ALLERGIC_TO", MANY, description="what a person is allergic to",
          questions=("What is X allergic to?", "Does X have allergies?")),
    _spec("LEARNING", MANY, description="what a person is learning",
          questions=("What is X learning?", "Which language is X learning?")),
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

    def spec(self, name: str, stated: Cardinality | None = None) -> PredicateSpec:
        check_predicate(name)
        known = self.specs.get(name)
        if known is not None:
            return known
        return PredicateSpec(name, stated or Cardinality.MANY, name)

    def held_families(self) -> dict[str, list[str]]:
        """Each family some one-valued predicates hold within, with theirs:
        ``{"WORKS_AT": ["JOB_TITLE", "REPORTS_TO"]}`` by default."""
        held: dict[str, list[str]] = {}
        for spec in self.specs.values():
            owner = self.specs.get(spec.held_with) if spec.held_with else None
            if owner is not None and spec.cardinality is Cardinality.ONE:
                held.setdefault(owner.family, []).append(spec.family)
        return held

    def read_with(self, name: str) -> list[str]:
        """The predicates one statement can give with ``name`` about the same value: those
        it implies and those that imply it."""
        implied = self.specs[name].implies if name in self.specs else ()
        return [p for p, spec in self.specs.items()
                if p != name and (p in implied or name in spec.implies)]


def check_predicate(name: str) -> str:
    """Raise if ``name`` cannot safely become a relationship type."""
    from graphmem.errors import ValidationError

    if not PREDICATE_PATTERN.fullmatch(name):
        raise ValidationError(
            f"predicate {name!r} must be UPPER_SNAKE_CASE: a letter, then letters, digits "
            "or underscores, at most 64 characters"
        )
    return name
