"""Verb rules for health: the conditions a person lives with.

"I have asthma", "my dad has type 2 diabetes", "I was diagnosed with ADHD last year", "I
suffer from migraines", "I'm diabetic". A condition holds until it is said to be over ("I
don't have asthma anymore"; negated or ended, the same clauses close it through
dispatch._never_asserted). Passing illnesses and injuries ("I have a cold", "I broke my
wrist") are not conditions one lives with, and are left to the raw turns.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from graphmem.extract.rules.clause import Clause, Finding, Rule, action_of, each
from graphmem.extract.rules.lexicon import CONDITIONS, condition_name, dobjs, pobjs
from graphmem.extract.rules.parties import Speech
from graphmem.extract.rules.phrases import phrase

#: "I'm diabetic": the adjective for a condition.
_ADJECTIVES = MappingProxyType({
    "diabetic": "diabetes", "asthmatic": "asthma", "epileptic": "epilepsy",
    "autistic": "autism", "dyslexic": "dyslexia", "anaemic": "anaemia", "anemic": "anemia",
    "coeliac": "coeliac disease", "celiac": "celiac disease", "arthritic": "arthritis",
})


def have_condition(clause: Clause, speech: Speech) -> list[Finding]:
    """"I have asthma", "my dad has type 2 diabetes"; "I don't have asthma anymore" ends it."""
    if clause.modal or clause.tense == "past" or clause.hedged:
        return []
    names = [n for t in dobjs(clause.verb) if (n := condition_name(phrase(t) or t.lower_))]
    return each(clause, lambda s: [Finding(s, "HAS_CONDITION", n, "condition",
                                           action_of(clause)) for n in names])


def typed_diabetes(clause: Clause, speech: Speech) -> list[Finding]:
    """"my dad has type 2 diabetes", where the parser reads "type" as the verb after "has"."""
    verb = clause.verb
    if clause.modal or clause.hedged or not any(
            a.dep_ == "aux" and a.lemma_ == "have" for a in verb.children):
        return []
    names = [f"type {n.text} diabetes" for t in dobjs(verb) if t.lower_ == "diabetes"
             for n in t.children if n.dep_ == "nummod" and n.text in ("1", "2")]
    return each(clause, lambda s: [Finding(s, "HAS_CONDITION", n, "condition",
                                           action_of(clause)) for n in names])


def diagnosed(clause: Clause, speech: Speech) -> list[Finding]:
    """"I was diagnosed with ADHD", "got diagnosed with coeliac disease last year", "I suffer
    from migraines": any condition a diagnosis names, a suffered one from the list."""
    if clause.negated or clause.modal or clause.hedged:
        return []
    found = pobjs(clause.verb, ("with", "from"))
    named = [phrase(t) or t.lower_ for t in found]
    if clause.lemma == "suffer":
        named = [n for n in named if condition_name(n)]
    names = [condition_name(n) or n for n in named if n]
    return each(clause, lambda s: [Finding(s, "HAS_CONDITION", n, "condition")
                                   for n in names])


def condition_adjective(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm diabetic", "she's asthmatic"; "I'm not diabetic anymore" ends it."""
    if clause.modal or clause.hedged or clause.tense == "past" and not clause.perfect:
        return []
    names = [_ADJECTIVES[c.lower_] for c in clause.verb.children
             if c.dep_ in ("acomp", "attr") and c.lower_ in _ADJECTIVES]
    return each(clause, lambda s: [Finding(s, "HAS_CONDITION", n, "condition",
                                           action_of(clause)) for n in names])


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "have": (have_condition,), "diagnose": (diagnosed,), "suffer": (diagnosed,),
    "be": (condition_adjective,), "type": (typed_diabetes,),
})
#: Words the sentence gate must let through for these rules.
TRIGGERS: frozenset[str] = frozenset({"diagnosed", *_ADJECTIVES,
                                      *(w for c in CONDITIONS for w in c.split())}) - {
                                          "a", "bad", "type", "1", "2", "high", "chronic", "back",
                                          "heart", "blood", "pressure", "disease", "pain"}
PATTERNS: tuple[re.Pattern[str], ...] = ()
