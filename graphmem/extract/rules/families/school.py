"""Verb rules about studying: the school a person studies at now, and its end.

``STUDIES_AT`` holds one school at a time, so enrolling somewhere new or
transferring replaces the old one, and graduating or dropping out ends it.
Only a school's name starts studies ("I go to Leeds University"; "I go to
school" names none); an ending needs no name ("I dropped out of college").
A degree finished is also an event, :data:`ATTENDED`, read by
:mod:`graphmem.extract.rules.families.events`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Clause, Finding, Rule, each
from graphmem.extract.rules.lexicon import (
    capitalised, dobjs, has_prt, is_named, is_school, pobjs)
from graphmem.extract.rules.parties import Speech
from graphmem.extract.rules.phrases import phrase

if TYPE_CHECKING:
    from spacy.tokens import Token

#: Where each verb names its school: "enrolled at", "transferred to", "attend X".
#: Words that say the sentence is about studies: "transferred my PhD to ...".
_STUDY_WORDS = frozenset({"phd", "degree", "master", "masters", "bachelor", "mba", "credits",
                          "studies", "course", "program", "programme", "major"})
_WHERE = MappingProxyType({"enrol": ("at", "in"), "enroll": ("at", "in"), "transfer": ("to",),
                           "go": ("to",), "attend": ()})


def study_at(clause: Clause, speech: Speech) -> list[Finding]:
    """"I enrolled at Leeds University", "I transferred to UCL", "I go to Leeds University",
    "I attend the University of Porto": the school studied at from now (or the date said)."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or clause.tense == "future":
        return []
    lemma = clause.lemma
    if lemma in ("go", "attend") and not (verb.tag_ in ("VBP", "VBZ") or clause.perfect):
        return []  # "I went to MIT" is history, "I'm going to Leeds University" a visit or plan
    places = dobjs(verb) if lemma == "attend" else pobjs(verb, _WHERE[lemma])
    # "transferred to the Technion": a named place moved to is a school when studies are
    # spoken of or the message is about one ("transferred my PhD to ETH Zurich")
    said = lemma in ("enrol", "enroll") or any(t.lower_.removesuffix("'s") in _STUDY_WORDS
                                              for t in verb.sent)
    schools = [t for t in places if _named_school(t) or lemma in ("transfer", "enrol", "enroll")
               and is_named(t) and (said or t.ent_type_ != "PERSON") and (
                   said or not dobjs(verb) and t.ent_type_ not in ("GPE", "LOC"))]
    return each(clause, lambda s: [Finding(s, "STUDIES_AT", n, "organization")
                                    for t in schools if (n := phrase(t))])


def stop_studying(clause: Clause, speech: Speech) -> list[Finding]:
    """"I graduated from MIT last year", "I dropped out of college", "I finished uni": the
    studies end (at that school when one is named, else wherever they were)."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or clause.tense != "past":
        return []
    if clause.lemma == "drop":
        if not (has_prt(verb, "out") or any(c.lower_ == "out" for c in verb.children)):
            return []
        left = pobjs(verb, ("out", "of"))
    elif clause.lemma == "finish":  # "finished uni", where "uni" may be read as a cry
        left = [t for t in [*dobjs(verb), *(c for c in verb.children if c.dep_ == "intj")]
                if is_school(t)]
        if not left:
            return []  # "finished my degree" is read by the degree rules; "finished dinner" is not
    else:
        left = pobjs(verb, ("from", "at"))
    if any(not (is_school(t) or clause.lemma != "finish" and capitalised(t)) for t in left):
        return []  # "dropped out of the race", "graduated from the bootcamp": no school
    named = [n for t in left if capitalised(t) and (n := phrase(t))] or [""]
    return each(clause, lambda s: [Finding(s, "STUDIES_AT", n, "organization", "retract",
                                            timing="event") for n in named])


def _named_school(token: Token) -> bool:
    return is_school(token) and capitalised(token)


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "enrol": (study_at,), "enroll": (study_at,), "transfer": (study_at,), "go": (study_at,),
    "attend": (study_at,), "graduate": (stop_studying,), "drop": (stop_studying,),
    "finish": (stop_studying,),
})
TRIGGERS: frozenset[str] = frozenset({"uni", "university", "college"})
PATTERNS: tuple[re.Pattern[str], ...] = ()
