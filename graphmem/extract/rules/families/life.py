"""Verb rules about a person's life: work, home, family, pets and possessions.

Each rule takes a :class:`Clause` whose subject is already resolved and
returns :class:`Finding` objects. Negating a state ("I don't live in Paris
anymore", "I don't work at Acme") retracts it. Trips and events are in
:mod:`graphmem.extract.rules.families.events`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import (
    KIN, PETS, VAGUE, Action, Clause, Finding, Party, Rule, Speech, Timing, action_of, conjuncts,
    each, has_time, past_stretch, past_until, possessor)
from graphmem.extract.rules.lexicon import (
    BUSINESSES, EVENT_NOUNS, NOT_POSSESSIONS, POSSESSIONS, TRIP_NOUNS, dobjs, has_prt,
    capitalised, is_company, is_named, is_occupation, is_place, object_type, pobjs)
from graphmem.extract.rules.phrases import phrase, trips
from graphmem.extract.rules.slots import married, value_slot
from graphmem.extract.rules.terms import TECH_LABEL

if TYPE_CHECKING:
    from spacy.tokens import Token

_JOB_NOUNS = frozenset({"job", "position", "role", "internship", "gig", "career", "post",
                        "offer"})
_NOT_WORKPLACES = frozenset({"home", "night", "moment", "end", "same", "place", "office"})


def work(clause: Clause, speech: Speech) -> list[Finding]:
    verb = clause.verb
    if any(c.dep_ == "prep" and c.lower_ == "on" for c in verb.children) and \
            not pobjs(verb, ("at", "for", "as")):
        return []
    places = [t for t in pobjs(verb, ("at", "for")) if t.lower_ not in _NOT_WORKPLACES
              and t.lower_ not in VAGUE and t.ent_type_ not in ("DATE", "TIME")]
    titles = [t for t in pobjs(verb, ("as",)) if t.ent_type_ != TECH_LABEL]
    tools = [t for t in pobjs(verb, ("with",)) if t.ent_type_ == TECH_LABEL]
    if _out_of_work(clause, places, titles, tools):
        return each(clause, lambda s: [Finding(s, "WORKS_AT", "", "organization", "retract")])
    stretch = past_stretch(clause)  # "I worked at Google from 2015 to 2020"
    ended = past_until(clause)  # "I worked at Google until 2020": it ended then
    if clause.tense == "past" and not clause.perfect and not clause.negated and not (
            stretch or ended):
        return []
    action: Action = "assert" if stretch else "retract" if ended else action_of(clause)
    timing: Timing = "span" if stretch else "start"

    def make(s: Party) -> list[Finding]:
        out = [Finding(s, "WORKS_AT", name, object_type(t), action, timing=timing)
               for t in places if (name := phrase(t))]
        for t in titles:
            for attached in pobjs(t, ("at", "for")):
                if (org := phrase(attached)) and not places:
                    out.append(Finding(s, "WORKS_AT", org, object_type(attached), action,
                                       timing=timing))
            if title := phrase(t):
                out.append(Finding(s, "JOB_TITLE", title, "role", action, timing=timing))
        out += [Finding(s, "USES", name, "technology", action, timing=timing)
                for t in tools if (name := phrase(t))]
        return [_in_past(f) for f in out] if stretch else out
    return each(clause, make)


#: How a stretch of history is worded: "Maya lived in Paris from 2015 to 2020".
_PAST = MappingProxyType({"WORKS_AT": "{s} worked at {o}", "LIVES_IN": "{s} lived in {o}",
                          "JOB_TITLE": "{s} worked as {a_o}", "USES": "{s} used {o}"})


def _in_past(finding: Finding) -> Finding:
    return replace(finding, statement=_PAST.get(finding.predicate, finding.statement))


def _out_of_work(clause: Clause, places: list[Token], titles: list[Token],
                 tools: list[Token]) -> bool:
    """"I'm not working at the moment": no job now, whichever it was (not "I'm not working
    today", a day off, nor "not working on X", a task)."""
    verb = clause.verb
    return (clause.negated and clause.tense == "present" and verb.tag_ == "VBG"
            and not (places or titles or tools) and not dobjs(verb)
            and not any(c.dep_ == "prep" for c in verb.children if c.lower_ != "at")
            and not any(t.ent_type_ in ("DATE", "TIME") for t in verb.sent))


#: What one joins to take up a sport: "the rowing club", "a handball team".
_SPORTS_GROUPS = frozenset({"club", "team", "league", "squad", "crew", "class", "group"})


#: What people say they do at work: "I build logistics software at Tidewater Logistics".
_WORK_VERBS = frozenset({"build", "develop", "design", "code", "program", "engineer", "manage",
                         "lead", "research", "sell", "market", "analyze", "analyse", "write",
                         "run", "teach", "advise", "consult"})


def work_at(clause: Clause, speech: Speech) -> list[Finding]:
    """"I build logistics software at Tidewater Logistics", "I design games at Fernhill
    Games": a present habit done at a company is a job there (a company by its name's last
    word or the tagger's ORG, never a place: "I write at the Berlin library" is not)."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or clause.tense != "present" or \
            verb.tag_ not in ("VBP", "VBZ") or not any(s.is_speaker for s in clause.subjects):
        return []
    orgs = [t for t in pobjs(verb, ("at", "for")) + [x for o in dobjs(verb)
                                                     for x in pobjs(o, ("at", "for"))]
            if is_company(t) or t.ent_type_ == "ORG" and capitalised(t)]
    return [Finding(s, "WORKS_AT", n, "organization") for s in clause.subjects if s.is_speaker
            for t in orgs if (n := phrase(t))]


def join(clause: Clause, speech: Speech) -> list[Finding]:
    """"joined Datadog as a staff engineer": an employer, and a title when one is given."""
    orgs = [t for t in dobjs(clause.verb) if (is_named(t) or t.ent_type_ == TECH_LABEL)
            and t.text not in speech.speakers]
    if clause.negated or clause.modal:
        return []
    sports = [n for t in dobjs(clause.verb) if t.lemma_.lower() in _SPORTS_GROUPS
              for c in t.children if c.dep_ in ("compound", "amod")
              and value_slot(n := c.lower_) == "PLAYS_SPORT"]
    if sports:  # "joined the rowing club", "joined a handball team": the sport
        return each(clause, lambda s: [Finding(s, "PLAYS_SPORT", n, "activity") for n in sports])
    titles = pobjs(clause.verb, ("as",)) if orgs else []
    return each(clause, lambda s: [Finding(s, "WORKS_AT", n, "organization", timing="start")
                                    for t in orgs if (n := phrase(t))]
                 + [Finding(s, "JOB_TITLE", n, "role") for t in titles if (n := _title(t))])


def start_job(clause: Clause, speech: Speech) -> list[Finding]:
    """"started a new job at Spotify", "got a job at X", "got hired by X", "landed a role at"."""
    verb = clause.verb
    if clause.negated:
        return []
    orgs: list[Token] = []
    titles: list[Token] = []
    jobs = [t for t in dobjs(verb) if t.lemma_.lower() in _JOB_NOUNS]
    for t in jobs:
        orgs += pobjs(t, ("at", "with", "for", "from"))
        titles += pobjs(t, ("as",))
    for t in list(titles):  # "a job as a barista at Blue Bottle"
        orgs += [o for o in pobjs(t, ("at", "with", "for")) if o not in orgs]
    if verb.lemma_ == "hire":
        if any(t.lower_ in ("me", "us") for t in dobjs(verb)):
            return []  # "Apple hired me as a designer": the hirer is the employer (states)
        orgs += pobjs(verb, ("by", "at"))
        titles += pobjs(verb, ("as",))
    if jobs:
        orgs += pobjs(verb, ("at", "with", "for"))
        titles += pobjs(verb, ("as",))
    return each(clause, lambda s: [Finding(s, "WORKS_AT", n, object_type(t))
                                    for t in orgs if (n := phrase(t))]
                 + [Finding(s, "JOB_TITLE", n, "role") for t in titles if (n := _title(t))])


def _title(token: Token) -> str | None:
    """"head of design" keeps its "of" phrase; other titles are plain noun phrases."""
    name = phrase(token)
    if name is None:
        return None
    tail = [t for p in token.children if p.dep_ == "prep" and p.lower_ == "of" for t in p.subtree]
    return " ".join([name, *[t.text for t in tail]]) if tail else name


def promote(clause: Clause, speech: Speech) -> list[Finding]:
    """"promoted to staff engineer", and "they promoted me to team lead": the speaker holds
    the title. The parser often reads "to staff" or "me to team lead" as an infinitive."""
    verb = clause.verb
    doc = verb.doc
    if clause.negated or clause.modal or clause.hedged:
        return []
    at = verb.i + 1
    me = at < len(doc) and doc[at].lower_ in ("me", "us") and speech.first_person
    titles = [n for t in pobjs(verb, ("to",)) if (n := phrase(t))]
    if not titles and at + me < len(doc) and doc[at + me].lower_ == "to":
        words = []
        for t in doc[at + me + 1: verb.sent.end]:
            if t.pos_ not in ("NOUN", "PROPN", "ADJ", "VERB") or t.ent_type_ in ("DATE", "TIME"):
                break
            words.append(t.text)
        titles = [" ".join(words)] if words else []
    if me:
        return [Finding(speech.me(), "JOB_TITLE", n, "role") for n in titles]
    if any(t.pos_ in ("PROPN", "PRON") for t in dobjs(verb)):
        return []  # "they promoted Tom to director": Tom's title, and Tom is not the subject
    return each(clause, lambda s: [Finding(s, "JOB_TITLE", n, "role") for n in titles])


def train_as(clause: Clause, speech: Speech) -> list[Finding]:
    """"Left nursing, I'm training as a paramedic now": the title one works towards is the
    job now (a trainee paramedic); not "I trained as a chef" years ago, nor a wish."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or clause.tense != "present" or \
            verb.tag_ != "VBG":
        return []
    titles = [n for t in pobjs(verb, ("as",)) if is_occupation(t) and (n := _title(t))]
    return each(clause, lambda s: [Finding(s, "JOB_TITLE", n, "role") for n in titles])


def teach(clause: Clause, speech: Speech) -> list[Finding]:
    verb = clause.verb
    habitual = verb.tag_ in ("VBP", "VBZ") or clause.perfect
    if not habitual or clause.negated or clause.modal or verb.dep_ == "xcomp":
        return []
    subjects = [t for t in dobjs(clause.verb) if t.pos_ in ("NOUN", "PROPN")]
    names = [t.text if t.text[:1].isupper() else t.lemma_.lower() for t in subjects[:1]]
    return each(clause, lambda s: [Finding(s, "JOB_TITLE", f"{n} teacher", "role")
                                    for n in names])


def leave(clause: Clause, speech: Speech) -> list[Finding]:
    """quit / leave / resign / retire / lose a job / be laid off or fired: WORKS_AT ends."""
    verb = clause.verb
    lemma = clause.lemma
    if clause.negated or clause.modal in ("would", "might", "could", "should"):
        return []
    if clause.tense == "future" and not has_time(verb):
        return []  # "I'm going to quit my job": not yet ("leaving Acme on Friday" is dated)
    if lemma == "lay" and not has_prt(verb, "off"):
        return []
    if lemma in ("quit", "leave") and any(c.dep_ == "xcomp" and c.tag_ == "VBG"
                                          for c in verb.children):
        return []  # "quit using X" is handled by the usage rules; "quit X to freelance" is not
    orgs: list[Token] = []
    job_mentioned = False
    for t in dobjs(verb):
        if t.lemma_.lower() in _JOB_NOUNS:
            job_mentioned = True
            orgs += pobjs(t, ("at", "with", "for"))
        elif lemma in ("quit", "leave") and is_named(t) and t.text not in speech.speakers \
                and (lemma == "quit" or t.ent_type_ not in ("GPE", "LOC")):
            orgs.append(t)
    orgs += pobjs(verb, ("from",) if lemma != "leave" else ())
    if job_mentioned:
        orgs += pobjs(verb, ("at", "with"))
    if lemma == "lose" and not job_mentioned:
        return []
    if lemma in ("quit", "leave") and not orgs and not job_mentioned:
        return []
    places = [t for t in dobjs(verb) if lemma == "leave" and t.ent_type_ in ("GPE", "LOC")]
    if places:
        return []

    def make(s: Party) -> list[Finding]:
        if not orgs:
            return [Finding(s, "WORKS_AT", "", "organization", "retract")]
        return [Finding(s, "WORKS_AT", n, "organization", "retract")
                for t in orgs if (n := phrase(t))]
    return each(clause, make)


def live(clause: Clause, speech: Speech) -> list[Finding]:
    stretch = past_stretch(clause)  # "I lived in Paris from 2015 to 2020"
    ended = past_until(clause)  # "I lived in Paris until 2020": it ended then
    if clause.tense == "past" and not clause.perfect and not clause.ended and not (
            stretch or ended):
        return []
    if clause.modal in ("would", "could", "should"):
        return []
    places = [t for t in pobjs(clause.verb, ("in", "at", "near")) if is_place(t)]
    action: Action = "assert" if stretch else "retract" if ended else action_of(clause)
    timing: Timing = "span" if stretch else "start"
    found = each(clause, lambda s: [Finding(s, "LIVES_IN", n, "place", action, timing=timing)
                                     for t in places if (n := phrase(t))])
    return [_in_past(f) for f in found] if stretch else found


def move(clause: Clause, speech: Speech) -> list[Finding]:
    """"moved to Berlin" -> LIVES_IN; a hedged move is only a plan, and so is one still
    ahead with no date ("I'm going to move to Oslo", "I'm moving to Rome"): it has not
    happened, and no day says when it will. A dated one holds from its day."""
    verb = clause.verb
    targets = pobjs(verb, ("to", "into", "back"))
    places = [t for t in targets + [x for t in targets for x in pobjs(t, ("in",))]
              if (is_place(t) or is_named(t)) and t.ent_type_ != TECH_LABEL]
    if not places or clause.modal in ("would", "could", "should"):
        return []
    if clause.negated:  # "I'm not moving to Berlin after all": that plan is off
        return each(clause, lambda s: [
            Finding(s, "PLANS", f"move to {n}", "plan", "retract", timing="none",
                    statement=f"{{s}} is not moving to {n}")
            for t in places if (n := phrase(t))]) if clause.tense == "future" else []
    plan = clause.hedged or (clause.tense == "future" and not has_time(verb))
    if not plan and any(c.dep_ == "prep" and c.lower_ == "from" for c in verb.children):
        return []  # "moved from X to Y" is a transition (families.change)
    if plan:
        return each(clause, lambda s: [Finding(s, "PLANS", f"move to {n}", "plan", timing="plan")
                                        for t in places if (n := phrase(t))])
    # "moved over to Brightline Health": a company moved to is a new job, not a home
    return each(clause, lambda s: [
        Finding(s, "WORKS_AT", n, "organization") if is_company(t) else
        Finding(s, "LIVES_IN", n, "place", statement=f"{{s}} moved to {n}")
        for t in places if (n := phrase(t))])


def grow_up(clause: Clause, speech: Speech) -> list[Finding]:
    if clause.lemma == "grow" and not has_prt(clause.verb, "up"):
        return []
    preps = ("in",) if clause.lemma == "grow" else ("from",)
    places = [t for t in pobjs(clause.verb, preps) if is_place(t)]
    return each(clause, lambda s: [Finding(s, "IS_FROM", n, "place", timing="none")
                                    for t in places if (n := phrase(t))])


def marry(clause: Clause, speech: Speech) -> list[Finding]:
    verb = clause.verb
    if clause.negated or clause.modal:
        return []
    if any(a.tag_ == "VBG" for a in verb.children if a.dep_ in ("aux", "auxpass")) and \
            clause.lemma != "divorce":
        return []  # "is getting married in October": not yet; "getting divorced" is under way
    partners = [t for t in dobjs(verb) + pobjs(verb, ("to",)) if t.ent_type_ == "PERSON"
                or t.tag_ == "NNP"]
    if clause.lemma in ("divorce", "separate"):  # "we divorced", "my wife and I separated"
        status = "divorced" if clause.lemma == "divorce" else "separated"
        return each(clause, lambda s: [
            Finding(s, "RELATIONSHIP_STATUS", status, "status"),
            Finding(s, "MARRIED_TO", partners[0].text if partners else "", "person", "retract")])
    return married(clause.subjects, [t.text for t in partners])


def date_someone(clause: Clause, speech: Speech) -> list[Finding]:
    people = [t for t in dobjs(clause.verb) if t.ent_type_ == "PERSON"]
    if clause.negated or clause.tense == "past" or not people:
        return []
    return each(clause, lambda s: [Finding(s, "HAS_PARTNER", t.text, "person") for t in people])


def know(clause: Clause, speech: Speech) -> list[Finding]:
    if clause.negated or clause.modal:
        return []
    out: list[Finding] = []
    for t in dobjs(clause.verb):
        if t.ent_type_ == "PERSON" or (t.text in speech.people):
            out += [Finding(s, "KNOWS", t.text, "person", confidence=0.75)
                    for s in clause.subjects]
        elif t.ent_type_ == TECH_LABEL or (t.ent_type_ in ("LANGUAGE", "NORP")
                                           and clause.lemma in ("know", "speak")):
            name = phrase(t)
            if name:
                out += [Finding(s, "SKILLED_IN", name, "skill") for s in clause.subjects]
    return out


def meet(clause: Clause, speech: Speech) -> list[Finding]:
    if clause.negated or clause.tense != "past":
        return []
    people = [t for t in dobjs(clause.verb) if t.ent_type_ == "PERSON"]
    return each(clause, lambda s: [Finding(s, "KNOWS", t.text, "person", confidence=0.7)
                                    for t in people])


def _misread_kind(obj: Token) -> Token | None:
    """"a parrot called Kiwi" parsed as "Kiwi", modified by "called", modified by "parrot"."""
    if not obj.text[:1].isupper() or obj.i < 2:
        return None
    kind, called = obj.doc[obj.i - 2], obj.doc[obj.i - 1]
    inside = {t.i for t in obj.subtree}
    if called.lemma_ in ("name", "call") and {kind.i, called.i} <= inside and (
            kind.lemma_.lower() in PETS or kind.lemma_.lower() in KIN):
        return kind
    return None


def pets_and_kin(obj: Token, s: Party, action: Action, *, named: list[str] | None = None
                 ) -> list[Finding]:
    """"a dog named Max", "two cats, Luna and Oliver", "two kids" as objects of have/adopt."""
    lemma = obj.lemma_.lower()
    names = list(named or [])
    names += [c.text for c in obj.children if c.dep_ == "acl" and c.lemma_ in ("name", "call")
              for c in c.children if c.dep_ in ("oprd", "attr", "dobj") and c.text[:1].isupper()]
    names += [c.text for c in conjuncts(obj) if c.dep_ in ("appos", "conj") and
              c.text[:1].isupper() and c.ent_type_ != TECH_LABEL]
    if lemma in PETS:
        if names:
            return [Finding(s, "HAS_PET", n, "animal", action, timing="none",
                            statement=f"{{s}} has a {obj.lemma_.lower()} named {n}")
                    for n in names]
        name = phrase(obj)
        return [Finding(s, "HAS_PET", name, "animal", action)] if name else []
    predicate = KIN.get(lemma)
    if predicate is None or predicate in ("MARRIED_TO", "KNOWS") or action == "retract":
        return []
    if names:
        return [Finding(s, predicate, n, "person", timing="none",
                        statement=f"{n} is {{s's}} {obj.lemma_.lower()}") for n in names]
    counted = any(c.dep_ == "nummod" for c in obj.children)
    name = phrase(obj)
    return [Finding(s, predicate, name, "person", timing="none")] if counted and name else []


def have(clause: Clause, speech: Speech) -> list[Finding]:
    verb = clause.verb
    if clause.modal in ("would", "could", "should", "might") or clause.tense == "past":
        return []
    if any(c.dep_ == "xcomp" for c in verb.children):
        return []  # "have to ..." is a todo
    action = action_of(clause)
    out: list[Finding] = []
    for s in clause.subjects:
        for obj in dobjs(verb):
            lemma = obj.lemma_.lower()
            kind = _misread_kind(obj)
            if kind is not None and not clause.negated:
                out += pets_and_kin(kind, s, action, named=[obj.text])
            elif lemma in PETS or lemma in KIN:
                if not (clause.negated and not clause.ended):
                    out += pets_and_kin(obj, s, action)
            elif lemma in TRIP_NOUNS:
                out += trips(obj, s, clause)
            elif lemma in EVENT_NOUNS and not clause.negated:
                name = phrase(obj)
                if name and verb.sent.text and has_time(verb):
                    out.append(Finding(s, "PLANS", name, "event", timing="plan"))
            elif (lemma in POSSESSIONS or obj.ent_type_ == "PRODUCT"
                  or value_slot(phrase(obj) or "", obj) in ("DRIVES", "HAS_PHONE")) and \
                    not (clause.negated and not clause.ended):
                if name := phrase(obj):
                    out.append(Finding(s, "OWNS", name, object_type(obj), action))
    return out


#: Words for a newborn: "a baby girl", "a son", "twins".
_NEWBORNS = frozenset({"baby", "girl", "boy", "son", "daughter", "twins"})


def birth(clause: Clause, speech: Speech) -> list[Finding]:
    """"I had a baby girl named Ava", "We had a baby boy, Leo", "My sister gave birth to a
    son named Leo": a child, named, from the day it was born."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or clause.tense != "past":
        return []
    if clause.lemma == "give":
        if not any(t.lemma_.lower() == "birth" for t in dobjs(verb)):
            return []
        babies = pobjs(verb, ("to",))
    else:
        babies = dobjs(verb)
    names = [n for t in babies if t.lemma_.lower() in _NEWBORNS and (n := _given_name(t))]
    return each(clause, lambda s: [Finding(s, "HAS_CHILD", n, "person", timing="event")
                                    for n in names])


def _given_name(token: Token) -> str | None:
    """The name a newborn is given: "a girl named Ava", "a boy called Leo", "a boy, Leo"."""
    for c in token.children:
        if c.dep_ == "acl" and c.lemma_.lower() in ("name", "call"):
            named = [x for x in c.children if x.dep_ in ("oprd", "dobj", "attr", "xcomp")
                     and x.text[:1].isupper()]
            if named:
                return named[0].text
        if c.dep_ == "appos" and c.pos_ == "PROPN":
            return c.text
    return None


def acquire(clause: Clause, speech: Speech) -> list[Finding]:
    """buy / purchase / own / get / adopt / rescue: OWNS or HAS_PET."""
    verb = clause.verb
    lemma = clause.lemma
    if clause.negated or clause.modal in ("would", "could", "should", "might", "will"):
        return []
    if lemma == "pick" and not (has_prt(verb, "up") and any(
            value_slot(phrase(t) or "", t) in ("DRIVES", "HAS_PHONE") for t in dobjs(verb))):
        return []  # "picked up my Renault Zoe", not "picked up my sister"
    if lemma == "get" and (has_prt(verb, "rid") or any(
            c.dep_ == "acomp" or c.dep_ in ("xcomp", "prep") and not dobjs(verb)
            for c in verb.children)):
        return []  # "got rid of", "got sick", "got into yoga"; "got a bike for my birthday" is
    out: list[Finding] = []
    for s in clause.subjects:
        for obj in dobjs(verb):
            olemma = obj.lemma_.lower()
            kind = _misread_kind(obj)
            if kind is not None and kind.lemma_.lower() in PETS:
                out += pets_and_kin(kind, s, "assert", named=[obj.text])
            elif olemma in PETS:
                out += pets_and_kin(obj, s, "assert")
            elif lemma in ("adopt", "rescue") and olemma not in KIN and \
                    (named := _given_name(obj)) is not None:  # "adopted a shiba named Mochi"
                out.append(Finding(s, "HAS_PET", named, "animal", timing="none",
                                   statement=f"{{s}} has a {olemma} named {named}"))
            elif lemma in ("adopt", "rescue") or olemma in NOT_POSSESSIONS or olemma in KIN:
                continue
            elif lemma == "get" and olemma not in POSSESSIONS and obj.ent_type_ != "PRODUCT" \
                    and value_slot(phrase(obj) or "", obj) not in ("DRIVES", "HAS_PHONE"):
                continue  # "got a OnePlus 9", "got a Kia Niro": a phone or car by its name
            elif name := phrase(obj):
                out.append(Finding(s, "OWNS", name, object_type(obj), confidence=0.8))
    return out


def dispose(clause: Clause, speech: Speech) -> list[Finding]:
    """sell / get rid of / give away: a possession or pet is gone."""
    verb = clause.verb
    if clause.negated or clause.modal:
        return []
    if clause.lemma == "get" and not any(c.lower_ == "rid" for c in verb.children):
        return []
    if clause.lemma == "give" and not has_prt(verb, "away") and not (
            pobjs(verb, ("to",)) and any(possessor(t) == "me" for t in dobjs(verb))):
        return []  # "gave away my bike", "gave my car to my son"; not "gave my son a car"
    objects = dobjs(verb) + pobjs(next((c for c in verb.children if c.lower_ == "rid"), verb),
                                  ("of",))
    return each(clause, lambda s: [
        Finding(s, "HAS_PET" if t.lemma_.lower() in PETS else "OWNS", n, object_type(t), "retract")
        for t in objects if (n := phrase(t))])


def found_business(clause: Clause, speech: Speech) -> list[Finding]:
    if clause.negated or clause.modal or clause.tense == "future":
        return []
    objects = [t for t in dobjs(clause.verb) if t.lemma_.lower() in BUSINESSES]
    return each(clause, lambda s: [Finding(s, "OWNS", n, "organization")
                                    for t in objects if (n := phrase(t))])


def break_up(clause: Clause, speech: Speech) -> list[Finding]:
    """"I broke up with my boyfriend": the partner fact ends."""
    verb = clause.verb
    if clause.negated or clause.modal or not has_prt(verb, "up"):
        return []
    out: list[Finding] = []
    if not pobjs(verb, ("with",)) and not any(c.dep_ == "prt" and pobjs(c, ("with",))
                                              for c in verb.children):
        together = any(c.dep_ == "nsubj" and c.lower_ == "we" for c in verb.children) or (
            len(clause.subjects) > 1 and any(s.is_speaker for s in clause.subjects))
        return [Finding(s, "HAS_PARTNER", "", "person", "retract") for s in clause.subjects
                if s.is_speaker] if together else []  # "We broke up", "My partner and I..."
    for t in pobjs(verb, ("with",)) or pobjs(next((c for c in verb.children if c.dep_ == "prt"),
                                                  verb), ("with",)):
        predicate = "MARRIED_TO" if KIN.get(t.lemma_.lower()) == "MARRIED_TO" else "HAS_PARTNER"
        name = t.text if t.ent_type_ == "PERSON" else ""
        out += [Finding(s, predicate, name, "person", "retract") for s in clause.subjects]
    return out


_VERB_RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "work": (work,), "join": (join,), "start": (start_job, found_business),
    "get": (start_job, acquire, dispose), "land": (start_job,), "accept": (start_job,),
    "hire": (start_job,), "promote": (promote,), "quit": (leave,),
    "leave": (leave,), "resign": (leave,), "retire": (leave,), "lose": (leave,), "lay": (leave,),
    "fire": (leave,), "live": (live,), "reside": (live,), "move": (move,), "relocate": (move,),
    "grow": (grow_up,), "come": (grow_up,), "marry": (marry,), "divorce": (marry,), "separate": (marry,),
    "date": (date_someone,), "break": (break_up,), "split": (break_up,), "know": (know,), "speak": (know,),
    "meet": (meet,), "have": (have, birth), "buy": (acquire,), "purchase": (acquire,),
    "own": (acquire,), "adopt": (acquire,), "rescue": (acquire,), "pick": (acquire,),
    "sell": (dispose,), "rid": (dispose,),
    "give": (dispose, birth), "open": (found_business,), "found": (found_business,),
    "launch": (found_business,), "teach": (teach,), "train": (train_as,),
    "retrain": (train_as,),
})
#: A work verb also reads "at <company>" (:func:`work_at`) beside its own rules.
RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType(
    {**_VERB_RULES, **{verb: (*_VERB_RULES.get(verb, ()), work_at) for verb in _WORK_VERBS}})
TRIGGERS: frozenset[str] = frozenset()
PATTERNS: tuple[re.Pattern[str], ...] = ()
