"""A pet gone: "our cat Luna passed away", "my dog died", "our dog ran away", "our cat went
missing", "we lost our greyhound Pepper", and a bare name's death ("Biscuit died last week"). A partner's death, said with the word
for them, ends the marriage or the partnership ("My husband Geoffrey passed away"); any
other person's death ends no relation to them ("my grandma Rose died" still names a
grandmother). A bare name's death ("Geoffrey passed away") ends no partner: the rules do
not know whether the name is a partner's or a pet's, and a retraction of a partner not
held would still be kept as "no longer with" that name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Clause, Finding, Rule
from graphmem.extract.rules.lexicon import dies, dobjs, has_prt, is_named, pobjs
from graphmem.extract.rules.occupations import OCCUPATIONS
from graphmem.extract.rules.parties import (KIN, PETS, WORD_NAMES, Speech, appositive_name,
                                            possessor)
from graphmem.extract.rules.phrases import phrase

if TYPE_CHECKING:
    from spacy.tokens import Token


def pass_away(clause: Clause, speech: Speech) -> list[Finding]:
    """"Our cat Luna passed away", "my dog died", "our dog ran away", "our cat went
    missing": the pet is gone.

    A bare name ("Biscuit died last week"), said in the first person by someone
    other than the name, ends the speaker's pet of that name if they have one (a
    retraction of a value not held ends nothing), and so does a partner of that name
    ("Geoffrey passed away"); a person's death ends no relation to them but a partner's
    ("my grandma Rose died" still names a grandmother)."""
    verb = clause.verb
    if clause.lemma == "lose":  # "We lost our greyhound Pepper last night"
        return _lost_pet(clause, speech)
    if clause.negated or clause.modal or clause.tense == "future" or (
            clause.lemma in ("pass", "run") and not has_prt(verb, "away")) or (
            clause.lemma == "go" and not any(c.lower_ == "missing" for c in verb.children)):
        return []
    out: list[Finding] = []
    for t in (c for c in verb.children if c.dep_ == "nsubj"):
        # "my dog", "our dog Rex" (Rex with a compound), "Rex, our dog," (an apposition)
        kind = t if t.lemma_.lower() in PETS else next(
            (c for c in t.children if c.dep_ in ("compound", "appos")
             and c.lemma_.lower() in PETS), None)
        bare = [Finding(speech.me(), "HAS_PET", t.text, "animal", "retract")
                ] if kind is None and _bare_name(t, speech) else []
        if kind is None and clause.lemma in ("die", "pass") and _bare_person(t, speech) \
                and _a_death(clause):
            # "Geoffrey passed away": a partner of that name, if the speaker has one
            bare += [Finding(speech.me(), p, t.text, "person", "retract") for p in _COUPLED]
        if bare:
            out += bare
            continue
        if clause.lemma in ("die", "pass") and speech.first_person and possessor(t) == "me" \
                and KIN.get(t.lemma_.lower()) in _COUPLED and dies(t):
            # "My husband Geoffrey passed away": no longer married (a sister stays a sister)
            out.append(Finding(speech.me(), KIN[t.lemma_.lower()], appositive_name(t) or "",
                               "person", "retract"))
            continue
        if kind is not None and kind is not t and is_named(t) and speech.first_person and \
                possessor(t) is None and possessor(kind) is None:
            # "Mochi the guinea pig died": the speaker's pet of that name, if they have one
            out.append(Finding(speech.me(), "HAS_PET", t.text, "animal", "retract"))
            continue
        if kind is None or not speech.first_person or "me" not in (possessor(t), possessor(kind)):
            continue
        name = t.text if kind is not t and is_named(t) else appositive_name(t) or phrase(t)
        if name:
            out.append(Finding(speech.me(), "HAS_PET", name, "animal", "retract"))
    return out


def _lost_pet(clause: Clause, speech: Speech) -> list[Finding]:
    """"We lost our greyhound Pepper", "I lost my cat": the speaker's pet has died (not "lost
    my keys", nor "lost our dog in the park for an hour", said with a time span)."""
    if clause.negated or clause.modal or clause.tense != "past" or not speech.first_person:
        return []
    out: list[Finding] = []
    for t in dobjs(clause.verb):
        kind = t if t.lemma_.lower() in PETS else next(
            (c for c in t.children if c.dep_ == "compound" and c.lemma_.lower() in PETS), None)
        if kind is None or "me" not in (possessor(t), possessor(kind)):
            continue
        name = appositive_name(kind) or (t.text if kind is not t and is_named(t) else phrase(t))
        if name:
            out.append(Finding(speech.me(), "HAS_PET", name, "animal", "retract"))
    return out


#: The relations a partner's death ends; kin stay kin ("my grandma Rose died").
_COUPLED = ("MARRIED_TO", "HAS_PARTNER")
#: Plural nouns that open a sentence about a death and name no pet.
_NOT_PET_NAMES = KIN.keys() | PETS | OCCUPATIONS | {"grandparent", "people", "plant", "flower",
                                                    "friend", "neighbour", "neighbor"}


def _bare_name(token: Token, speech: Speech) -> bool:
    """A name alone, not one of the episode's people or speakers, said in the first person."""
    # a pet's name may read as a plural noun at the sentence's start ("Pickles passed away")
    # (not "Grandparents passed away", "Things died down")
    verb = token.head
    opening_name = token.pos_ == "NOUN" and token.i == token.sent.start and \
        token.text[:1].isupper() and token.lemma_.lower() not in _NOT_PET_NAMES and \
        verb.lemma_ in ("die", "pass") and \
        all(c.lower_ == "away" for c in verb.children if c.dep_ == "prt")
    return (speech.first_person and (is_named(token) and token.pos_ == "PROPN" or opening_name)
            and not list(token.children) and token.text not in speech.people
            and token.text not in speech.speakers and token.text != speech.speaker)


#: Where a death is told, not lived: "Geoffrey died in the game again".
_STORIES = frozenset({"game", "film", "movie", "book", "show", "series", "story", "episode",
                      "dream", "play", "novel", "level"})


def _a_death(clause: Clause) -> bool:
    """A death that happened: past ("dies at the end of the book" tells a story), not a
    manner of speaking ("died laughing") or a story's ("died in the game")."""
    verb = clause.verb
    return clause.tense == "past" and not any(
        c.dep_ in ("xcomp", "advcl", "acomp") for c in verb.children) and not any(
        o.lemma_.lower() in _STORIES for o in pobjs(verb, ("in", "at", "during")))


def _bare_person(token: Token, speech: Speech) -> bool:
    """A person's name alone ("Geoffrey"), not a speaker's, said in the first person."""
    person = token.ent_type_ == "PERSON" or (token.lower_ in speech.first_names
                                             and token.lower_ not in WORD_NAMES)
    pet = token.i > 0 and token.doc[token.i - 1].lemma_.lower() in PETS  # "My dog Pixel died"
    return speech.first_person and person and token.pos_ == "PROPN" and not pet \
        and not list(token.children) and token.text not in speech.speakers \
        and token.text != speech.speaker


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "pass": (pass_away,), "die": (pass_away,), "run": (pass_away,), "lose": (pass_away,),
    "go": (pass_away,),
})
#: Words the sentence gate must let through for these rules.
TRIGGERS: frozenset[str] = frozenset({"died", "passed", "missing"})
PATTERNS: tuple[re.Pattern[str], ...] = ()
