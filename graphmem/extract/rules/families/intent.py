"""Verb rules about what people do and mean to do: hobbies, learning, goals, plans, todos.

Intentions are only facts when they are specific: "I want to learn Rust" is a
goal, "I want to say thanks" is not; "I need to send the report by Friday" is
a todo, "I need to relax" (no deadline) is left alone. A goal's object is its
verb phrase, turned to the third person ("open my own bakery" -> "open own
bakery").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.base import SELF
from graphmem.extract.rules.clause import Clause, Finding, Rule, each
from graphmem.extract.rules.lexicon import (
    ACTIVITY_NOUNS, ACTIVITY_VERBS, ASKED_FOR, SPOKEN_LANGUAGES, TRIP_NOUNS, dobjs, has_prt,
    imperative, pobjs, said_as_habit)
from graphmem.extract.rules.parties import VAGUE, Speech
from graphmem.extract.rules.phrases import gerund, phrase, trips, verb_phrase
from graphmem.extract.rules.slots import value_slot
from graphmem.extract.rules.terms import TECH_LABEL

if TYPE_CHECKING:
    from spacy.tokens import Token


#: Goals that are only conversational moves ("I want to say thanks").
_TRIVIAL_GOALS = frozenset({"say", "thank", "know", "hear", "share", "tell", "ask", "let", "check",
                            "talk", "chat", "mention", "add", "remind", "apologize", "congratulate",
                            "wish", "see", "catch", "give", "send", "show", "help", "make", "do",
                            "get", "take", "keep", "go", "come", "try", "find", "hug", "meet",
                            "reach", "be", "have", "stay", "hang"})
#: Goals that need no object ("I want to retire").
_BARE_GOALS = frozenset({"retire", "travel", "relax", "graduate", "move", "exercise", "rest",
                         "succeed", "win", "improve", "heal", "recover", "grow", "settle"})
_GOAL_VERBS = frozenset({"want", "hope", "aim", "intend", "wish", "dream", "long", "strive"})
_LEAGUES = frozenset({"league", "team", "club"})


def _present_form(verb: Token) -> bool:
    """"I play", "I don't swim", "and play volleyball now", "I go swimming" are all habitual."""
    if verb.tag_ in ("VBP", "VBZ"):
        return True
    aux = [c for c in verb.children if c.dep_ == "aux"]
    if verb.tag_ == "VB" and any(a.lemma_ == "do" and a.tag_ in ("VBP", "VBZ") for a in aux):
        return True
    if verb.tag_ == "VBG" and any(a.lower_ in ("go", "goes") or a.lemma_ == "do" and
                                  a.tag_ != "VBD" for a in aux):
        return True  # "I go swimming", "I do climbing" (the parser makes "do" an auxiliary)
    if verb.tag_ == "VBG" and verb.dep_ == "ROOT" and not aux and verb.i == verb.sent.start:
        return True  # "doing judo twice a week now": a diary line for "I'm doing"
    if verb.tag_ == "VBG" and any(a.lemma_ == "be" and a.tag_ in ("VBP", "VBZ") for a in aux) \
            and (any(c.lower_ in ("now", "nowadays", "lately") for c in verb.children)
                 or said_as_habit(verb, scheduled=True)):
        return True  # "I'm playing rugby now", "...chess in a club every Tuesday": a habit
    return verb.tag_ == "VB" and verb.dep_ == "conj" and not aux and \
        verb.head.tag_ in ("VBP", "VBZ")


def hobby(clause: Clause, speech: Speech) -> list[Finding]:
    """play X, do yoga, go running, take up / get into X, and bare activity verbs."""
    verb = clause.verb
    lemma = clause.lemma
    if clause.modal in ("would", "could", "should", "might", "will") and not (
            clause.negated and clause.ended):  # "I'll never do CrossFit again" still ends it
        return []  # a negated activity is read as it is and closed by dispatch._never_asserted
    habitual = clause.tense == "present" and _present_form(verb) or clause.perfect or (
        clause.ended and (clause.negated or clause.tense == "present"))  # "I no longer play"
    out: list[Finding] = []
    if lemma == "play" and habitual:
        if any(c.dep_ == "prep" and c.lower_ == "with" for c in verb.children) and not dobjs(verb):
            return []  # "play with the kids"; "playing tennis with my sister" is tennis
        leagues = [t for t in pobjs(verb, ("in", "for", "on")) if t.lemma_.lower() in _LEAGUES]
        sports = [c.lower_ for t in leagues for c in t.children if c.dep_ == "compound"
                  and c.pos_ == "NOUN"][-1:]  # "a Sunday football league" -> football
        out += [Finding(s, "HOBBY", sport, "activity") for s in clause.subjects for sport in sports]
        played = [n for t in dobjs(verb) if (n := phrase(t))
                  and t.lemma_.lower() not in ("role", "part", "game", "trick", "card", "music")
                  and t.lemma_.lower() not in ASKED_FOR]  # "..., any tips for shin splints"
        out += each(clause, lambda s: [Finding(s, "HOBBY", n, "activity") for n in played])
    elif lemma == "go":
        for c in verb.children:
            if c.dep_ == "xcomp" and c.tag_ == "VB" and verb.tag_ == "VBG" and any(
                    a.lower_ == "to" for a in c.children) and clause.tense != "past" \
                    and not clause.negated:  # "I'm not going to quit": no plan
                out += _going_to(c, clause, speech)
            if c.dep_ == "xcomp" and c.tag_ == "VBG" and c.lemma_ in ACTIVITY_VERBS:
                doing = gerund(c)
                if habitual:
                    out += [Finding(s, "HOBBY", doing, "activity") for s in clause.subjects]
                elif clause.tense != "past" and verb.tag_ == "VBG":
                    out += [Finding(s, "PLANS", doing, "activity", timing="plan",
                                    statement=f"{{s}} is going {doing}") for s in clause.subjects]
    elif lemma in ("do", "practice", "practise") and habitual:
        done = dobjs(verb) + [c for c in verb.children if c.dep_ == "xcomp" and c.tag_ == "VBG"]
        names = [n for t in done if t.lemma_.lower() in ACTIVITY_NOUNS or lemma != "do"
                 or t.lower_ in ACTIVITY_NOUNS or value_slot(t.lower_) == "PLAYS_SPORT"
                 if (n := phrase(t) if t.tag_ != "VBG" else t.lower_)]
        out += each(clause, lambda s: [Finding(s, "HOBBY", n, "activity") for n in names])
    elif (lemma in ("take", "pick") and has_prt(verb, "up")) or lemma in ("start", "begin"):
        # "took up X" is always an activity; "picked up padel", not "picked up my sister"
        names = [n for t in dobjs(verb) if (n := phrase(t)) and (
            lemma == "take" or t.lemma_.lower() in ACTIVITY_NOUNS or
            lemma in ("pick", "start", "begin") and value_slot(n) == "PLAYS_SPORT")]
        gerunds = [c for c in verb.children if c.dep_ == "xcomp" and c.tag_ == "VBG"]
        names += [gerund(c) if c.lemma_ in ACTIVITY_VERBS else c.lower_ for c in gerunds
                  if c.lemma_ not in ("play", "do") and (
                      c.lemma_ in ACTIVITY_VERBS or value_slot(c.lower_) == "PLAYS_SPORT")]
        names += [n for c in gerunds if c.lemma_ in ("play", "do") for t in dobjs(c)
                  if (n := phrase(t)) and value_slot(n) == "PLAYS_SPORT"]  # "started playing padel"
        # "started pickleball three times a week": the sport read as a complement
        names += [n for c in verb.children if c.dep_ == "xcomp" and c.tag_ in ("NN", "NNS")
                  and (n := phrase(c)) and value_slot(n) == "PLAYS_SPORT"]
        # "started squash twice a week": a sport that is a verb too, read as one
        names += [c.lower_ for c in verb.children if c.dep_ == "xcomp" and c.tag_ == "VB"
                  and not any(a.lower_ == "to" for a in c.children)
                  and value_slot(c.lower_) == "PLAYS_SPORT"]
        out += each(clause, lambda s: [Finding(s, "HOBBY", n, "activity") for n in names])
    elif lemma == "get" and clause.tense == "past":
        names = [n for t in pobjs(verb, ("into",)) if (t.lemma_.lower() in ACTIVITY_NOUNS
                                                       or t.tag_ == "VBG") and (n := phrase(t))]
        out += each(clause, lambda s: [Finding(s, "HOBBY", n, "activity") for n in names])
    elif lemma in ACTIVITY_VERBS and habitual and lemma != "play" and not any(
            c.dep_ == "prt" or (c.dep_ == "prep" and c.lower_ in ("out", "into", "over", "across"))
            for c in verb.children):
        objects = [t for t in dobjs(verb) if t.lower_ not in ("lot", "lots", "bit", "ton", "tons")
                   and not _distance(t)]
        if not objects and not any(c.dep_ in ("xcomp", "ccomp", "prep") and c.lower_ != "in"
                                   for c in verb.children if c.dep_ != "prep" or c.lower_ in
                                   ("to", "for")):
            bare = any(_distance(t) for t in dobjs(verb))  # "running", not "running 5k"
            doing = gerund(verb, objects=not bare)
            out += each(clause, lambda s: [Finding(s, "HOBBY", doing, "activity",
                                                    confidence=0.7)])
    return out


#: How far one runs, swims or rides: "5k", "10 miles", "40 laps", "a half marathon".
_DISTANCE_UNITS = frozenset({"k", "km", "kilometer", "kilometre", "mile", "mi", "lap", "length",
                             "meter", "metre", "m", "marathon", "ultra", "stretch"})


def _distance(t: Token) -> bool:
    """A distance as the object of an activity verb ("I run 5k three times a week"): the
    activity is the habit, the distance only how much of it."""
    return t.tag_ == "CD" or t.lemma_.lower() in _DISTANCE_UNITS or bool(
        re.fullmatch(r"\d+(\.\d+)?(k|km|mi|m)", t.lower_))


def _going_to(step: Token, clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm going to start going to the gym": a plan, unless it is chat ("going to say")."""
    if step.lemma_ in _TRIVIAL_GOALS and step.lemma_ not in ("start", "take", "get", "make", "go"):
        return []
    if step.lemma_ in ("move", "live", "work", "visit", "travel", "fly", "be", "have") or \
            _only_pronoun(step):
        return []  # facts of their own: the move or the trip is stated, not planned
    text = verb_phrase(step, speech)
    if not text or " " not in text:
        return []
    return [Finding(s, "PLANS", text, "plan", timing="plan", confidence=0.75,
                    statement=f"{{s}} plans to {text}") for s in clause.subjects]


def _subject_learnt(token: Token) -> str | None:
    """A noun learnt ("guitar", "Spanish"), or a language the tagger read as an adjective
    ("learning Italian": JJ), which no noun phrase holds."""
    if token.lower_ in SPOKEN_LANGUAGES:
        return phrase(token) or token.text
    return phrase(token) if token.pos_ in ("NOUN", "PROPN") else None


def learn(clause: Clause, speech: Speech) -> list[Finding]:
    verb = clause.verb
    if clause.negated or clause.modal in ("would", "could", "should", "might"):
        return []
    out: list[Finding] = []
    schools = [t for t in pobjs(verb, ("at",)) if t.ent_type_ in ("ORG", "FAC", "GPE")
               or t.tag_ == "NNP"]
    out += each(clause, lambda s: [Finding(s, "STUDIES_AT", n, "organization")
                                    for t in schools if (n := phrase(t))])
    subjects = [n for t in dobjs(verb) if (n := _subject_learnt(t))]
    if clause.tense == "past" and not clause.perfect:
        techs = [n for t in dobjs(verb) if t.ent_type_ == TECH_LABEL if (n := phrase(t))]
        return out + each(clause, lambda s: [Finding(s, "SKILLED_IN", n, "skill") for n in techs])
    return out + each(clause, lambda s: [Finding(s, "LEARNING", n, "skill", confidence=0.8)
                                          for n in subjects])


def goal(clause: Clause, speech: Speech) -> list[Finding]:
    """want / hope / would love / plan + to-infinitive: GOAL (or PLANS for "plan")."""
    verb = clause.verb
    steps = [c for c in verb.children if c.dep_ in ("xcomp", "advcl")
             and c.pos_ in ("VERB", "AUX") and any(a.lower_ == "to" for a in c.children)]
    if clause.lemma in ("plan", "decide") and (clause.ended or any(
            n.dep_ == "neg" for step in steps for n in step.children)):
        # "I'm no longer planning to move to Lisbon", "I decided not to move to Lisbon"
        return _called_off(steps, clause, speech)
    if clause.lemma == "decide" and not clause.negated:
        # "decided against Lisbon", "decided against moving to Lisbon"
        against = pobjs(verb, ("against",))
        moves = [f"move to {n}" for t in against
                 if t.ent_type_ in ("GPE", "LOC") and (n := phrase(t))]
        doing = [t for t in against if t.tag_ == "VBG"]
        return _called_off(doing, clause, speech) + [
            Finding(s, "PLANS", text, "plan", "retract", timing="none",
                    statement=f"{{s}} no longer plans to {text}")
            for s in clause.subjects for text in moves]
    if clause.negated or (clause.tense == "past" and clause.lemma != "dream"):
        return []
    steps += [c for p in pobjs(verb, ("of", "about")) for c in [p] if p.tag_ == "VBG"]
    if clause.lemma == "save" and not has_prt(verb, "up") and not steps:
        return []
    predicate = "PLANS" if clause.lemma == "plan" else "GOAL"
    out: list[Finding] = []
    for step in steps:
        if step.lemma_ in _TRIVIAL_GOALS and not any(c.dep_ in ("dobj", "attr", "acomp", "prep")
                                                    for c in step.children):
            continue
        if step.lemma_ in ("say", "thank", "know", "hear", "share", "tell", "ask", "let",
                           "check", "talk", "chat", "mention", "remind", "congratulate", "see",
                           "hug", "catch", "reach"):
            continue
        text = verb_phrase(step, speech)
        if not text or _only_pronoun(step):
            continue
        if step.tag_ == "VBG":  # "dreaming of playing in big games" -> "play in big games"
            text = " ".join([step.lemma_.lower(), *text.split()[1:]])
        if not _complemented(step) and step.lemma_ not in ACTIVITY_VERBS and \
                step.lemma_ not in _BARE_GOALS:
            continue  # "countries I want to visit", "I'd love to join in": nothing to keep
        out += [Finding(s, predicate, text, "plan" if predicate == "PLANS" else "goal",
                        timing="plan" if predicate == "PLANS" else "none",
                        statement=(f"{{s}} plans to {text}" if predicate == "PLANS"
                                   else f"{{s}} wants to {text}")) for s in clause.subjects]
    if not steps and clause.lemma == "plan":
        for t in dobjs(verb):
            if t.lemma_.lower() in TRIP_NOUNS and (found := [f for s in clause.subjects
                                                               for f in trips(t, s, clause)]):
                out += found  # "planning a trip to Japan" is a trip
            elif name := phrase(t):
                out += [Finding(s, "PLANS", name, "plan", timing="plan") for s in clause.subjects]
    return out


def _called_off(steps: list[Token], clause: Clause, speech: Speech) -> list[Finding]:
    """The plans a clause calls off, as the plan was worded ("move to Lisbon")."""
    texts = [" ".join([step.lemma_.lower(), *text.split()[1:]]) if step.tag_ == "VBG" else text
             for step in steps if (text := verb_phrase(step, speech))]  # "moving" -> "move"
    return [Finding(s, "PLANS", text, "plan", "retract", timing="none",
                    statement=f"{{s}} no longer plans to {text}")
            for s in clause.subjects for text in texts]


def would_love(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'd love to visit Japan", "I would like to learn Rust": a wish is a goal."""
    return goal(clause, speech) if clause.modal == "would" else []


def purpose(clause: Clause, speech: Speech) -> list[Finding]:
    """"I quit my job to start my own company": the purpose of a life change is a goal."""
    if clause.negated or clause.modal in ("would", "could", "should", "might"):
        return []
    out: list[Finding] = []
    for c in clause.verb.children:
        if c.dep_ in ("advcl", "xcomp") and c.pos_ == "VERB" and c.lemma_ not in _TRIVIAL_GOALS \
                and not c.text[:1].isupper() \
                and any(a.lower_ == "to" for a in c.children) and (text := verb_phrase(c, speech)):
            out += [Finding(s, "GOAL", text, "goal", timing="none", confidence=0.7,
                            statement=f"{{s}} wants to {text}") for s in clause.subjects]
    return out


def _complemented(verb: Token) -> bool:
    return any(c.dep_ in ("dobj", "attr", "acomp", "xcomp", "ccomp", "dative", "oprd")
               or (c.dep_ == "prep" and any(g.dep_ == "pobj" for g in c.children))
               for c in verb.children)


def _only_pronoun(verb: Token) -> bool:
    """"explore them", "do it": the goal points at something said before."""
    return any(c.dep_ == "dobj" and (c.lower_ in VAGUE or any(
        d.dep_ == "det" and d.lower_ in ("this", "that", "these", "those") for d in c.children))
        for c in verb.children)


def obligation(clause: Clause, speech: Speech) -> list[Finding]:
    """need to / have to / must + a deadline: TODO. Without a time it is usually chat."""
    verb = clause.verb
    if clause.negated or clause.tense == "past":
        return []
    sent = verb.sent
    if not any(t.ent_type_ in ("DATE", "TIME") for t in sent):
        return []
    steps = [c for c in verb.children if c.dep_ == "xcomp" and c.pos_ == "VERB"]
    if clause.lemma == "must":
        steps = [verb]
    todos = [t for step in steps if (t := verb_phrase(step, speech))]
    return each(clause, lambda s: [Finding(s, "TODO", t, "task", timing="due",
                                            statement=f"{{s}} needs to {t}") for t in todos])


def remind(clause: Clause, speech: Speech) -> list[Finding]:
    """"Remind me to call mom tomorrow", "Don't forget to renew my passport"."""
    verb = clause.verb
    if not speech.first_person:
        return []
    if clause.lemma == "remind":
        if not any(c.lower_ == "me" for c in verb.children):
            return []
        asked = any(c.dep_ == "nsubj" and c.lower_ == "you" for c in verb.children)
        if not (imperative(verb) or asked or clause.modal == "will"):
            return []
    elif not (clause.negated and imperative(verb)):
        return []
    # "remind me in ten minutes to ...": the parser hangs the task on as an adverbial clause
    steps = [c for c in verb.children if c.dep_ in ("xcomp", "ccomp", "advcl")
             and c.pos_ == "VERB" and any(a.lower_ == "to" for a in c.children)]
    if clause.lemma == "forget" and speech.speaker != SELF:
        # between two people "don't forget to ..." is usually advice to the listener
        steps = [s for s in steps if any(t.lower_ in ("my", "me", "our", "us") for t in s.subtree)]
    todos = [t for step in steps if (t := verb_phrase(step, speech))]
    me = speech.me()
    return [Finding(me, "TODO", t, "task", timing="due", confidence=0.9,
                    statement=f"{{s}} needs to {t}") for t in todos]


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "write": (hobby,), "run": (hobby,), "play": (hobby,), "go": (hobby,), "do": (hobby,),
    "practice": (hobby,), "practise": (hobby,), "take": (hobby,), "pick": (hobby,),
    "start": (hobby,),
    "begin": (hobby,), "get": (hobby,),
    **{lemma: (hobby,) for lemma in ACTIVITY_VERBS if lemma not in ("write", "run", "play")},
    "learn": (learn,), "study": (learn, purpose), "quit": (purpose,), "leave": (purpose,),
    "move": (purpose,), "train": (purpose,), "resign": (purpose,),
    **{lemma: (goal,) for lemma in _GOAL_VERBS}, "plan": (goal,), "save": (goal,),
    "decide": (goal,),
    "like": (would_love,), "love": (would_love,),
    "need": (obligation,), "have": (obligation,), "must": (obligation,), "gotta": (obligation,),
    "remind": (remind,), "forget": (remind,),
})
TRIGGERS: frozenset[str] = frozenset()
PATTERNS: tuple[re.Pattern[str], ...] = ()
