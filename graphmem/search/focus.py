"""Entity focus: who a question is about, so that other people's facts do not answer it.

"Where does Maya work?" is about Maya. In a group's memory, Diego's employer is
as close to the question in words and meaning as Maya's, so ranking alone lets
it into the answer. The focus is found once per query, from the names the
question uses: an entity's full name or alias ("Maya Patel"), or a person's
given or family name alone ("Maya"), as people ask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from graphmem.models import Entity, Fact
from graphmem.search.traverse import query_ngrams
from graphmem.store.base import GraphStore, TurnHit
from graphmem.names import normalize_name

#: Entity types a bare part of a name may stand for ("Maya" for "Maya Patel").
PERSON_TYPES = frozenset({"person"})
#: Candidates read by name before the part-of-name match.
NAME_CANDIDATES = 16


@dataclass(frozen=True)
class Focus:
    """The entities a question names, and the words that name them."""

    entities: tuple[Entity, ...] = ()
    names: frozenset[str] = field(default_factory=frozenset)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(e.id for e in self.entities)

    def __bool__(self) -> bool:
        return bool(self.entities)

    def covers_fact(self, fact: Fact) -> bool:
        return fact.subject_id in self.ids or fact.object_id in self.ids

    def said_by(self, speaker: str) -> bool:
        """Whether ``speaker`` is (a name of) the focus."""
        return bool(_name_words(speaker) & self.names)

    def covers_turn(self, turn: TurnHit) -> bool:
        """A turn the focus said, or one that names it."""
        if turn.speaker and self.said_by(turn.speaker):
            return True
        return bool(_name_words(turn.content) & self.names)

    def blank(self, question: str) -> str:
        """The question with the focus's names replaced by ``X`` ("Where does X work?")."""
        out = []
        for word in question.split():
            stem = word[:-2] if word.lower().endswith(("'s", "’s")) else word
            if normalize_name(stem) in self.names:
                word = "X" + word[len(stem):]
            out.append(word)
        return " ".join(out)


def find_focus(store: GraphStore, tenant: str, scope_keys: list[str], question: str) -> Focus:
    """The people a question is about, read from the store (see :func:`choose_focus`)."""
    exact = store.find_entities(tenant, scope_keys, focus_names(question))
    named: list[Entity] = []
    if not [e for e in exact if e.type in PERSON_TYPES]:
        found = store.fulltext_entities(tenant, scope_keys, question, NAME_CANDIDATES)
        named = store.get_entities(tenant, [s.id for s in found]) if found else []
    return choose_focus(question, exact, named)


def focus_names(question: str) -> list[str]:
    """The names a question may call someone by: its n-grams, possessives dropped."""
    return query_ngrams(_without_possessives(question))


def choose_focus(question: str, exact: list[Entity], named: list[Entity]) -> Focus:
    """The people a question is about.

    ``exact`` are entities one of the question's n-grams names (a superset will do:
    only those :func:`focus_names` names count); ``named`` its best BM25 name matches.
    Exact names and aliases win; otherwise a person whose given or family name
    the question uses. Only people: a question's other words name things
    ("project", "coffee") too often for them to narrow the answer. Nothing is
    guessed from meaning: a focus that is wrong would hide the right answer.
    """
    grams = focus_names(question)
    words = frozenset(g for g in grams if " " not in g)
    wanted = set(grams)
    people = [e for e in exact if e.type in PERSON_TYPES
              and any(normalize_name(n) in wanted for n in (e.name, *e.aliases))]
    if not people:
        people = [e for e in named if e.type in PERSON_TYPES and _name_words(e.name) & words]
    chosen = people
    names: set[str] = set()
    for entity in chosen:
        for name in (entity.name, *entity.aliases):
            names |= _name_words(name) & words
            if normalize_name(name) in grams:
                names.add(normalize_name(name))
    return Focus(tuple(chosen), frozenset(names))


def _name_words(text: str) -> set[str]:
    return {normalize_name(w) for w in _without_possessives(text).split() if len(w) > 1}


def _without_possessives(text: str) -> str:
    """"Who was Zoe's manager?" names Zoe."""
    return re.sub(r"(\w)['’]s\b", r"\1", text)
