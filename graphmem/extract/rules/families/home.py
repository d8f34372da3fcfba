"""Verb rules about where a person lives: living, moving, renting, growing up.

Each rule takes a :class:`Clause` whose subject is already resolved and returns
:class:`Finding` objects. Negating a home ("I don't live in Paris anymore") retracts it; a
move still ahead with no date, or one only dreamt of ("Someday I'll live in Kyoto"), is a
plan or nothing; a move of something else ("moved all my work to Illustrator") is no home.
Partners, family, pets and possessions are in :mod:`graphmem.extract.rules.families.life`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import (Action, Clause, Finding, Rule, Timing, action_of,
                                           ahead_of_its_sentence, each, has_time, past_stretch,
                                           past_until, reworded)
from graphmem.extract.rules.lexicon import (
    HOMES, dobjs, has_prt, is_named, is_place, is_street, pobjs)
from graphmem.extract.rules.moves import (CHILDHOOD, ends_a_childhood, move_titles,
                                          moved_to_a_job, moves_a_thing, tells_a_childhood)
from graphmem.extract.rules.parties import Party, Speech
from graphmem.extract.rules.phrases import phrase
from graphmem.extract.rules.slots import is_language
from graphmem.extract.rules.terms import TECH_LABEL

if TYPE_CHECKING:
    from spacy.tokens import Token

#: How a stretch of history is worded: "Maya lived in Paris from 2015 to 2020".
_PAST = MappingProxyType({"LIVES_IN": "{s} lived in {o}"})


def live(clause: Clause, speech: Speech) -> list[Finding]:
    stretch = past_stretch(clause)  # "I lived in Paris from 2015 to 2020"
    ended = past_until(clause)  # "I lived in Paris until 2020": it ended then
    never = any(c.lower_ == "never" for c in clause.verb.children)
    if clause.tense == "past" and not clause.perfect and not clause.ended and not (
            stretch or ended or never):  # "I never lived in Paris" denies it, then and now
        return []
    if clause.modal in ("would", "could", "should") or clause.tense == "future" and (
            not has_time(clause.verb) or _SOMEDAY.search(clause.verb.sent.text)):
        return []  # "Someday I'll live in Kyoto, mark my words": a dream, not a home
    if _ALL_DAY.search(clause.verb.sent.text):
        return []  # "at Yoco I basically live in dbt and SQL all day": what one does
    # one lives in a place, whatever the tagger says ("Valencia" read as a person); "at" a
    # place after the verb ("live at Hilltop Farm"), not a setting before it
    places = [t for t in pobjs(clause.verb, ("in", "at", "near"))
              if (t.head.lower_ != "at" or t.head.i > clause.verb.i)
              and (is_place(t) or t.head.lower_ == "in" and is_named(t)
                   and t.ent_type_ != TECH_LABEL)]
    places += _there(clause.verb) if not places else []
    places += [] if places else [x for t in pobjs(clause.verb, ("on",)) for x in _home_on(t)]
    action: Action = "assert" if stretch else "retract" if ended else action_of(clause)
    timing: Timing = "span" if stretch else "start"
    found = each(clause, lambda s: [Finding(s, "LIVES_IN", n, "place", action, timing=timing)
                                     for t in places if (n := phrase(t))])
    return [reworded(f, _PAST) for f in found] if stretch else found


#: "I live in VS Code all day", "basically living in spreadsheets these days": an idiom.
_ALL_DAY = re.compile(r"\b(?:all\s+day|24/7|day\s+and\s+night)\b", re.IGNORECASE)
#: Times that name no day: "someday", "one day", "eventually".
_SOMEDAY = re.compile(r"\b(?:some\s*day|one\s+day|eventually|sooner\s+or\s+later|in\s+the\s+future"
                      r"|when\s+i\s+retire)\b", re.IGNORECASE)


def _home_on(token: Token) -> list[Token]:
    """The place a home "on" ``token`` is in: the town said after a street ("on Elm Road in
    Leeds"), or the street itself ("on Baker Street"); nothing for what is no street ("on the
    top floor", "on the coast")."""
    if not is_street(token):
        return []
    return [t for t in pobjs(token, ("in",)) if is_place(t)] or [token]


def _there(verb: Token) -> list[Token]:
    """"Porto is lovely in spring, I live there now": "there" is the last town or country
    named before it in the sentence, when there is one."""
    there = next((c for c in verb.children if c.lower_ == "there" and c.dep_ == "advmod"), None)
    if there is None:
        return []
    named = [t for t in verb.sent if t.i < there.i and is_place(t)
             and not (t.dep_ == "nsubj" and t.head is verb)]
    return named[-1:]


#: What one rents, leases or signs for to live in: "a small flat", "a lease".
_HOMES = HOMES | {"lease"}
#: Verbs that start living somewhere when their object is a home.
_HOME_STARTS = frozenset({"rent", "lease", "sign", "share", "find", "get"})


def rent(clause: Clause, speech: Speech) -> list[Finding]:
    """"We rent a small flat in Wellington", "just signed a lease in Johannesburg": a home
    there; "gave up my lease in Osaka": no home there any more. Not "we rented a flat in Rome
    that summer" (a past stay), a flat one would like, nor a house bought (maybe to let)."""
    verb = clause.verb
    if clause.modal or clause.hedged:
        return []
    homes = [t for t in dobjs(verb) if t.lemma_.lower() in _HOMES]
    if clause.lemma == "get" and any(t.lemma_.lower() == "key" for t in dobjs(verb)):
        homes += [h for t in [*dobjs(verb), verb] for h in pobjs(t, ("to",))
                  if h.lemma_.lower() in _HOMES]  # "got the keys to a place in Amsterdam"
    places = [p for t in homes for p in pobjs(t, ("in", "on"))] + pobjs(verb, ("in",))
    places = [t for t in places if is_place(t) or is_named(t) and t.ent_type_ != TECH_LABEL]
    if not homes or not places:
        return []
    if clause.lemma == "give" and has_prt(verb, "up") and not clause.negated:
        return each(clause, lambda s: [Finding(s, "LIVES_IN", n, "place", "retract")
                                        for t in places if (n := phrase(t))])
    starts = clause.lemma in _HOME_STARTS and (
        clause.tense != "past" or clause.lemma in ("sign", "find", "get") and not has_time(verb))
    if not starts:
        return []
    return each(clause, lambda s: [Finding(s, "LIVES_IN", n, "place", action_of(clause))
                                    for t in places if (n := phrase(t))])


def make_move(clause: Clause, speech: Speech) -> list[Finding]:
    """"Finally made the move to Helsinki": moved there."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or clause.tense == "future":
        return []
    places = [t for m in dobjs(verb) if m.lemma_.lower() == "move" for t in pobjs(m, ("to",))
              if is_place(t) or is_named(t) and t.ent_type_ != TECH_LABEL]
    return each(clause, lambda s: [f for t in places if (n := phrase(t))
                                    for f in _moved_to(s, t, n, speech)])


def _moved_to(subject: Party, place: Token, name: str, speech: Speech) -> list[Finding]:
    """A move's findings: a job (:func:`moved_to_a_job`) with the titles it names, or else
    a home; a language one moved over to is neither ("Moved over to Swift")."""
    if moved_to_a_job(place, speech.message, speech.all_towns):
        return [] if is_language(name, said=True) else [
            Finding(subject, "WORKS_AT", name, "organization"),
            *(Finding(subject, "JOB_TITLE", title, "role")
              for t in move_titles(place) if (title := phrase(t)))]
    return [Finding(subject, "LIVES_IN", name, "place", statement=f"{{s}} moved to {name}")]


def move(clause: Clause, speech: Speech) -> list[Finding]:
    """"moved to Berlin" -> LIVES_IN; a hedged move is only a plan, and so is one still
    ahead with no date ("I'm going to move to Oslo", "I'm moving to Rome"): it has not
    happened, and no day says when it will. A dated one holds from its day."""
    verb = clause.verb
    targets = pobjs(verb, ("to", "into", "back"))
    # "moved into a flat in Leicester": the parser may hang the town on the verb
    homes = [t for t in targets if t.lemma_.lower() in HOMES]
    # "we moved in together in Uppsala", "moved in with Tom in Leeds": the town is the home's
    moved_in = any(c.dep_ in ("advmod", "prt") and c.lower_ == "in" for c in verb.children)
    places = [t for t in targets + [x for t in targets for x in pobjs(t, ("in",))]
              + (pobjs(verb, ("in",)) if homes or moved_in else [])
              if (is_place(t) or is_named(t)) and t.ent_type_ != TECH_LABEL]
    # "moved into a small flat on Great Pulteney Street": the street, when no town is said
    places = places or [x for t in targets for s in pobjs(t, ("on",)) for x in _home_on(s)]
    # "moved into the Clifton flat": a home named by the town or district it is in
    places = places or [c for t in homes for c in t.children if c.dep_ == "compound"
                        and c.text[:1].isupper() and c.lower_ in speech.all_towns]
    if not places or clause.modal in ("would", "could", "should") or moves_a_thing(verb) \
            or ends_a_childhood(verb):  # "grew up in Enugu before we moved to the UK"
        return []
    if clause.negated:  # "I'm not moving to Berlin after all": that plan is off
        return each(clause, lambda s: [
            Finding(s, "PLANS", f"move to {n}", "plan", "retract", timing="none",
                    statement=f"{{s}} is not moving to {n}")
            for t in places if (n := phrase(t))]) if clause.tense == "future" else []
    # "... before I move to Google": not yet, whatever the tense says
    plan = clause.hedged or (clause.tense == "future" and not has_time(verb)) or \
        ahead_of_its_sentence(verb)
    if not plan and any(c.dep_ == "prep" and c.lower_ == "from" for c in verb.children):
        return []  # "moved from X to Y" is a transition (families.change)
    if plan:
        return each(clause, lambda s: [Finding(s, "PLANS", f"move to {n}", "plan", timing="plan")
                                        for t in places if (n := phrase(t))])
    # "moved over to Brightline Health": a new job, not a home
    return each(clause, lambda s: [f for t in places if (n := phrase(t))
                                    for f in _moved_to(s, t, n, speech)])


def grow_up(clause: Clause, speech: Speech) -> list[Finding]:
    """"I grew up in Lagos", "I come from Cork", "spent my childhood in Enugu": where the
    subject is from (a town the gazetteer knows, however the tagger took it)."""
    if clause.lemma in ("grow", "spend") and not tells_a_childhood(clause.verb):
        return []
    preps = ("from",) if clause.lemma == "come" else ("in",)
    places = [t for t in pobjs(clause.verb, preps) if is_place(t) or t.lower_ in speech.towns]
    if clause.lemma == "spend":  # the place right after the childhood ("..., then uni in Leeds")
        youth = [t for t in dobjs(clause.verb) if t.lemma_.lower() in CHILDHOOD]
        places = [t for t in places for y in youth if t.head.i == y.right_edge.i + 1]
    return each(clause, lambda s: [Finding(s, "IS_FROM", n, "place", timing="none")
                                    for t in places if (n := phrase(t))])


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "live": (live,), "reside": (live,), "move": (move,), "relocate": (move,),
    "grow": (grow_up,), "come": (grow_up,), "spend": (grow_up,), "give": (rent,),
    "rent": (rent,), "lease": (rent,), "sign": (rent,), "share": (rent,), "find": (rent,),
    "make": (make_move,), "get": (rent,),
})
TRIGGERS: frozenset[str] = frozenset()
PATTERNS: tuple[re.Pattern[str], ...] = ()
