"""Verb rules for a person's manager: whom they report to, sit or work under.

"I report to Yusuf now", "I answer to Siobhan at work", "I work under Hamid", "the
reorg put me under Sunita", "Carlos took over as my manager", "Hamid is covering
as my manager". "My manager is X" is a slot copula
(:mod:`graphmem.extract.rules.families.states`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Clause, Finding, Rule, action_of, each
from graphmem.extract.rules.lexicon import capitalised, dobjs, pobjs
from graphmem.extract.rules.parties import Speech, antecedent, possessor
from graphmem.extract.rules.phrases import phrase
from graphmem.extract.rules.slots import NOT_SO, slot_finding, slot_noun

if TYPE_CHECKING:
    from spacy.tokens import Token


def stands_in(clause: Clause, speech: Speech) -> list[Finding]:
    """"Hamid is covering as my manager", "Rosa is acting as my boss": the subject holds
    the speaker's slot from now, until someone else does."""
    verb = clause.verb
    if not speech.first_person or clause.negated or clause.modal or clause.tense == "past":
        return []
    who = [t for t in verb.children if t.dep_ == "nsubj" and t.text[:1].isupper()
           and t.pos_ == "PROPN"]
    return [slot_finding(speech.me(), slot, t.text, "assert", timing="none")
            for noun in pobjs(verb, ("as",))
            if possessor(noun) == "me" and (slot := slot_noun(noun)) == "REPORTS_TO"
            for t in who]


def under(clause: Clause, speech: Speech) -> list[Finding]:
    """"I sit under Leticia now", "I work under Hamid", "the reorg put me under Sunita": the
    speaker's manager (a name, whatever the tagger makes of it: "Tomasz" read as a noun)."""
    verb = clause.verb
    placed = clause.lemma in _PLACING and any(t.lower_ == "me" for t in dobjs(verb)) \
        and speech.first_person
    if clause.negated or clause.modal or clause.tense == "past" and not placed:
        return []
    bosses = [t for p in pobjs(verb, ("under",)) if ((t := antecedent(p) or p).pos_ == "PROPN"
                                                     or t.pos_ == "NOUN" and capitalised(t))
              and t.ent_type_ not in ("ORG", "GPE", "LOC")]  # "Tomasz" may read as a FAC
    if placed:
        return [Finding(speech.me(), "REPORTS_TO", t.text, "person") for t in bosses]
    return [Finding(s, "REPORTS_TO", t.text, "person") for s in clause.subjects
            if s.is_speaker for t in bosses]


#: What a reorganisation does to someone: "put me under Sunita", "moved me under Ola".
_PLACING = frozenset({"put", "move", "place", "transfer", "shift"})



def report_to(clause: Clause, speech: Speech) -> list[Finding]:
    """"I report to Yusuf now", "I answer to Siobhan at work": the manager."""
    if clause.modal in NOT_SO or clause.tense == "past" and not clause.perfect:
        return []
    if clause.lemma == "answer" and not pobjs(clause.verb, ("at",)) and not any(
            c.lower_ in ("directly", "now") for c in clause.verb.children):
        return []  # "I answered to the call": only "answer to X at work" is a manager
    bosses = [_named(t) for t in pobjs(clause.verb, ("to",)) if t.text[:1].isupper()]
    action = action_of(clause)
    return each(clause, lambda s: [Finding(s, "REPORTS_TO", t.text, "person", action)
                                    for t in bosses])


def _named(boss: Token) -> Token:
    """Who the manager is: the name beside a role ("the CFO, Leila Amrani"), else whom the
    words name ("Yusuf", or a role alone: "straight to the VP", which ends the last one)."""
    return next((c for c in boss.children if c.dep_ == "appos" and capitalised(c)), boss)


def took_over_as(clause: Clause, speech: Speech) -> list[Finding]:
    """"Carlos Mendes took over as my manager", "Ola stepped in as my boss": the manager."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or not speech.first_person or \
            clause.tense == "future":
        return []
    roles = [t for t in pobjs(verb, ("as",)) if slot_noun(t) == "REPORTS_TO"
             and possessor(t) == "me"]  # also "Leila replaced Anneke as my manager"
    bosses = [t for t in verb.children if t.dep_ == "nsubj" and capitalised(t)
              and t.pos_ == "PROPN" and t.text not in speech.speakers]
    return [Finding(speech.me(), "REPORTS_TO", n, "person") for _ in roles[:1]
            for t in bosses if (n := phrase(t))]


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "be": (under,), "report": (report_to,), "answer": (report_to,), "take": (took_over_as,),
    "step": (took_over_as,), "replace": (took_over_as,), "cover": (stands_in,), "act": (stands_in,), "fill": (stands_in,),
    "sit": (under,), "work": (under,), "put": (under,), "place": (under,),
    "transfer": (under,), "shift": (under,), "move": (under,),
})
TRIGGERS: frozenset[str] = frozenset()
PATTERNS: tuple[re.Pattern[str], ...] = ()
