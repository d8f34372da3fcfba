"""Verb rules about trips, visits and events: what someone went to, will go to, or called off.

Tense decides between a trip ahead (``TRAVELS_TO``, with the trip's dates)
and a place already seen (``HAS_VISITED``); events attended are ``ATTENDED``,
events ahead are ``PLANS``, and cancelling either retracts it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Clause, Finding, Rule, each, future_time
from graphmem.extract.rules.lexicon import (
    EVENT_NOUNS, TRIP_NOUNS, dobjs, has_prt, is_place, is_school, object_type, pobjs,
    said_as_habit)
from graphmem.extract.rules.parties import Speech
from graphmem.extract.rules.phrases import clause_tokens, phrase

if TYPE_CHECKING:
    from spacy.tokens import Token


_DEGREES = frozenset({"degree", "phd", "ph.d.", "doctorate", "masters", "master", "bachelor",
                      "bachelors", "mba", "diploma", "ba", "bs", "bsc", "msc", "ma", "certificate"})
_RACES = frozenset({"marathon", "race", "triathlon", "tournament", "competition", "contest", "match",
                    "game", "half", "ultramarathon", "hike", "trek", "course", "program", "bootcamp"})


def go(clause: Clause, speech: Speech) -> list[Finding]:
    """go / fly / travel / head / visit: trips ahead, places seen, events attended."""
    verb = clause.verb
    if clause.negated or clause.modal in ("would", "could", "should"):
        return []
    targets = pobjs(verb, ("to",)) if clause.lemma != "visit" else dobjs(verb)
    if clause.lemma == "visit":
        targets += [p for t in targets if not is_place(t) for p in pobjs(t, ("in", "at"))]
        targets += pobjs(verb, ("in",))
    future = clause.tense == "future" or future_time(verb) or (
        verb.tag_ == "VBG" and clause.tense != "past")
    past = clause.tense == "past" and not future
    doing = [c for c in verb.children if c.dep_ in ("xcomp", "dobj") and (
        c.tag_ == "VBG" or c.lower_.endswith("ing"))]
    if past and clause.lemma == "go" and doing:  # "went camping in Yosemite"
        targets += [p for c in [verb, *doing] for p in pobjs(c, ("in", "at"))
                    if p.ent_type_ in ("GPE", "LOC", "FAC")]
    out: list[Finding] = []
    for s in clause.subjects:
        for t in targets:
            name = phrase(t)
            if not name:
                continue
            if t.ent_type_ in ("GPE", "LOC") or (is_place(t) and t.ent_type_ != "ORG"):
                if t.ent_type_ == "PERSON" or t.text in speech.people:
                    continue
                if past or clause.perfect:
                    out.append(Finding(s, "HAS_VISITED", name, "place", timing="event"))
                elif future:
                    out.append(Finding(s, "TRAVELS_TO", name, "place", timing="trip"))
            elif t.lemma_.lower() in EVENT_NOUNS and clause.lemma == "go":
                full = phrase(t, keep_articles=True) or name
                if past:
                    out.append(Finding(s, "ATTENDED", name, "event", timing="event",
                                       statement=f"{{s}} went to {full}"))
                elif future:
                    out.append(Finding(s, "PLANS", name, "event", timing="plan",
                                       statement=f"{{s}} is going to {full}"))
    return out


def attend(clause: Clause, speech: Speech) -> list[Finding]:
    verb = clause.verb
    if clause.negated or clause.modal in ("would", "could", "should"):
        return []
    if clause.lemma in ("get", "earn", "receive", "finish", "complete"):
        degrees = [t for t in dobjs(verb) if t.lower_ in _DEGREES or t.lemma_.lower() in _DEGREES]
        if not degrees or clause.tense != "past":
            return []
        return each(clause, lambda s: [
            Finding(s, "ATTENDED", n, object_type(t) if t.ent_type_ else "organization",
                    timing="event") for d in degrees
            for t in pobjs(verb, ("from", "at")) + pobjs(d, ("from", "at")) if (n := phrase(t))])
    objects = dobjs(verb) if clause.lemma == "attend" else pobjs(verb, ("from",))
    past = clause.tense == "past"
    if not past and verb.tag_ in ("VBP", "VBZ") and said_as_habit(verb):
        return []  # "I attend a class every Thursday": a habit, not a plan
    if not past and clause.lemma == "attend":  # "I attend Leeds University": studies (school)
        objects = [t for t in objects if not is_school(t)]
    return each(clause, lambda s: [
        Finding(s, "ATTENDED" if past or clause.lemma == "graduate" else "PLANS", n,
                object_type(t) if t.ent_type_ else "event",
                timing="event" if past else "plan")
        for t in objects if (n := phrase(t))])


def been(clause: Clause, speech: Speech) -> list[Finding]:
    """"I've been to Japan", "I was in Lisbon for a week": a place visited."""
    verb = clause.verb
    if clause.negated or not (clause.perfect or clause.tense == "past"):
        return []
    preps = ("to",) if clause.perfect else ("in",)
    if clause.tense == "past" and not clause.perfect and not any(p.is_speaker
                                                                 for p in clause.subjects):
        return []
    places = [t for t in pobjs(verb, preps) if t.ent_type_ in ("GPE", "LOC")]
    return each(clause, lambda s: [Finding(s, "HAS_VISITED", n, "place", timing="event")
                                    for t in places if (n := phrase(t))])


def back_from(clause: Clause, speech: Speech) -> list[Finding]:
    """"I just got back from a week in Lisbon", "we returned from Japan": a place visited."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.tense == "future":
        return []
    if clause.lemma in ("get", "come") and not any(c.lower_ == "back" for c in verb.children):
        return []
    if not any(p.dep_ == "prep" and p.lower_ == "from" for p in verb.subtree):
        return []
    # "got back from Paris with Priya": one comes back with people, whatever the tagger says;
    # a town the gazetteer knows is one whatever the tagger says ("Lyon" taken for a firm)
    places = [t for t in clause_tokens(verb) if (t.ent_type_ in ("GPE", "LOC")
                                                 or t.lower_ in speech.towns)
              and not (t.dep_ == "pobj" and t.head.lower_ == "with")]
    return [Finding(s, "HAS_VISITED", n, "place", timing="event")
            for s in clause.subjects for t in places if (n := phrase(t))]


def complete(clause: Clause, speech: Speech) -> list[Finding]:
    """"I just finished my first marathon", "we won the tournament": an event taken part in."""
    if clause.negated or clause.modal or clause.tense != "past":
        return []
    events = [t for t in dobjs(clause.verb) if t.lemma_.lower() in _RACES]
    return each(clause, lambda s: [Finding(s, "ATTENDED", n, "event", timing="event")
                                    for t in events if (n := phrase(t))])


def sign_up(clause: Clause, speech: Speech) -> list[Finding]:
    """"signed up for a pottery class", "enrolled in a course", "registered for the race"."""
    verb = clause.verb
    if clause.negated or clause.modal in ("would", "could", "should", "might"):
        return []
    if clause.lemma == "sign" and (not has_prt(verb, "up") or dobjs(verb)):
        return []
    preps = ("in",) if clause.lemma == "enroll" else ("for",)
    return each(clause, lambda s: [Finding(s, "PLANS", n, "event", timing="plan")
                                    for t in pobjs(verb, preps) if (n := phrase(t))])


def cancel(clause: Clause, speech: Speech) -> list[Finding]:
    verb = clause.verb
    if clause.negated or clause.modal in ("would", "could", "should", "might"):
        return []
    if clause.lemma == "call" and not has_prt(verb, "off"):
        return []
    out: list[Finding] = []
    for s in clause.subjects:
        for t in dobjs(verb):
            places = [p for p in pobjs(t, ("to",)) if is_place(p)]
            if t.lemma_.lower() in TRIP_NOUNS and places:
                out += [Finding(s, "TRAVELS_TO", n, "place", "retract", timing="none")
                        for p in places if (n := phrase(p))]
            elif name := phrase(t):
                out.append(Finding(s, "PLANS", name, "event", "retract", timing="none",
                                   statement=f"{{s}} cancelled {phrase(t, keep_articles=True)}"))
    return out


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "go": (go,), "fly": (go,), "travel": (go,), "head": (go,), "visit": (go,), "drive": (go,),
    "attend": (attend,), "graduate": (attend,), "earn": (attend,), "receive": (attend,),
    "get": (attend, back_from), "come": (back_from,), "return": (back_from,),
    "finish": (complete, attend), "complete": (complete, attend),
    "win": (complete,), "run": (complete,), "be": (been,), "cancel": (cancel,),
    "call": (cancel,), "scrap": (cancel,), "sign": (sign_up,), "enroll": (sign_up,),
    "register": (sign_up,),
})
TRIGGERS: frozenset[str] = frozenset()
PATTERNS: tuple[re.Pattern[str], ...] = ()
