"""Verb rules about leaving a job: quitting, resigning, being laid off, fired or let go,
being made redundant, a notice handed in, a last day.

The job ends (WORKS_AT is retracted), at a firm when one is named and whichever job it
was when none is. A dismissal needs an employer ("Acme laid me off", "my boss fired me";
not "my client fired me" or "that podcast fired me up"); a last day ends the job on that
day, not when it was said. Joining and starting a job are in
:mod:`graphmem.extract.rules.families.work`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Clause, Finding, Rule, each, has_time
from graphmem.extract.rules.lexicon import (
    JOB_NOUNS, dobjs, has_prt, is_named, pobjs, talks_of_work)
from graphmem.extract.rules.parties import KIN, Party, Speech, party_of, possessor
from graphmem.extract.rules.phrases import phrase

if TYPE_CHECKING:
    from spacy.tokens import Token


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
    if lemma == "fire" and has_prt(verb, "up"):
        return []  # "That podcast really fired me up"
    if lemma in ("lay", "fire", "sack") and dobjs(verb):
        # "Acme laid me off", "they fired Tom": the object lost the job ("Acme laid off 200
        # people" names no one); by an employer ("My client fired me" ends one client)
        firms = _employers(verb, speech)
        if not firms and not _by_an_employer(verb, speech, fired=True):
            return []
        return [f for who in _dismissed(verb, speech)
                for f in _jobs_ended(who, firms + pobjs(verb, ("from",)))]
    if lemma in ("quit", "leave") and any(c.dep_ == "xcomp" and c.tag_ == "VBG"
                                          for c in verb.children):
        return []  # "quit using X" is handled by the usage rules; "quit X to freelance" is not
    orgs: list[Token] = []
    job_mentioned = False
    for t in dobjs(verb):
        if t.lemma_.lower() in JOB_NOUNS:
            job_mentioned = True
            orgs += pobjs(t, ("at", "with", "for"))
        elif lemma in ("quit", "leave") and is_named(t) and t.text not in speech.speakers \
                and (lemma == "quit" or t.ent_type_ not in ("GPE", "LOC")):
            orgs.append(t)
    orgs += pobjs(verb, ("from",) if lemma != "leave" else ())
    if lemma in ("lay", "fire", "sack"):  # "I was laid off by Acme"
        orgs += [t for t in pobjs(verb, ("by",)) if is_named(t) and t.ent_type_ != "PERSON"]
    if job_mentioned:
        orgs += pobjs(verb, ("at", "with"))
    if lemma == "lose" and not job_mentioned:
        return []
    if lemma in ("quit", "leave") and not orgs and not job_mentioned:
        return []
    places = [t for t in dobjs(verb) if lemma == "leave" and t.ent_type_ in ("GPE", "LOC")]
    if places:
        return []
    joined = _left_for(verb) if lemma in ("quit", "leave") and orgs else []
    return each(clause, lambda s: _jobs_ended(s, orgs) + [
        Finding(s, "WORKS_AT", n, "organization") for t in joined if (n := phrase(t))])


def _left_for(verb: Token) -> list[Token]:
    """"Left Google for Meta", "quit Acme for a job at Stripe": the firm left for, which the
    job that ends gives way to (not "for good", "for personal reasons", "for Berlin")."""
    found: list[Token] = []
    for t in pobjs(verb, ("for",)):
        if t.lemma_.lower() in JOB_NOUNS:
            found += [o for o in pobjs(t, ("at", "with")) if is_named(o)]
        elif is_named(t) and t.ent_type_ not in ("GPE", "LOC", "PERSON", "NORP", "DATE", "TIME"):
            found.append(t)
    return found


def _dismissed(verb: Token, speech: Speech) -> list[Party]:
    """Who a dismissal names as its object: "Acme laid me off", "they fired Tom", "Google
    laid off my husband" (the subject, if anyone's, is the employer, not who lost the job)."""
    found: list[Party] = []
    for t in dobjs(verb):
        if t.lower_ == "me" and speech.first_person:
            found.append(speech.me())
        elif t.ent_type_ == "PERSON" and t.text not in speech.speakers:
            found.append(Party(t.text, "person"))
        elif t.lemma_.lower() in KIN and (kin := party_of(t, speech)) is not None:
            found.append(kin)
    return found


def _employers(verb: Token, speech: Speech) -> list[Token]:
    """The firm named as the subject (or, parsed loosely, before) a dismissal: "Acme laid me
    off", "Acme let me go"; not "they", "my boss", a relative, a first name, nor a person by
    a capitalised noun ("Coach let me go from the team")."""
    return [t for t in verb.children if t.dep_ in ("nsubj", "npadvmod") and t.i < verb.i
            and is_named(t) and t.ent_type_ != "PERSON" and t.text not in speech.speakers
            and t.lower_ != "i" and t.lemma_.lower() not in KIN
            and t.lower_ not in speech.first_names and t.lower_ not in _NOT_DISMISSERS]


#: A day or month a job ended on: "in March", "on Friday".
_WHEN = re.compile(r"(?i:(?:mon|tues|wednes|thurs|fri|satur|sun)day|jan|feb|mar|apr|may|jun|jul|"
                   r"aug|sep|oct|nov|dec|\d)")
#: How long one may have held a job: "after six years".
_SPANS = frozenset({"year", "month", "week", "decade"})
#: Who may end one's job without being named: "they", "my boss", "the company" (not "the
#: hospital let me go this morning": a discharge).
_DISMISSERS = frozenset({"they", "company", "firm", "boss", "manager", "employer", "employers",
                         "business", "management", "hr", "startup", "agency", "council",
                         "owner", "owners", "bosses", "supervisor", "director", "ceo",
                         "i", "we"})
#: People who end something else: a client, a coach, a landlord.
_NOT_DISMISSERS = frozenset({"coach", "trainer", "teacher", "client", "customer", "clients",
                             "landlord", "doctor", "tutor", "professor", "team", "club"})


def _by_an_employer(verb: Token, speech: Speech, *, fired: bool = False) -> bool:
    """Whether a dismissal's unnamed subject can be an employer: "the company", "my boss",
    "they" (who fire someone, or let them go in a message about work: "they let me go" may
    be one's parents)."""
    return any(c.lemma_.lower() in _DISMISSERS and (c.lower_ != "they" or fired
                                                    or talks_of_work(speech.message))
               for c in verb.children if c.dep_ in ("nsubj", "npadvmod") and c.i < verb.i)


def let_go(clause: Clause, speech: Speech) -> list[Finding]:
    """"Acme let me go last week", "they let Tom go": a job ended. Not "let me go home",
    "they let me go early" (a day's work, not the job), nor a request ("let me go")."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or \
            clause.tense == "future" and not has_time(verb):
        return []
    # gone for good: "after six years", "from Acme", a time ("last week"); not "let me go
    # on holiday", "in the end", "after lunch"
    went = [c for c in verb.children if c.dep_ in ("ccomp", "xcomp") and c.lemma_ == "go"
            and all(d.dep_ in ("nsubj", "punct")
                    # "last week"; not "let me go part-time" (fewer hours, the same job)
                    or d.dep_ == "npadvmod" and d.lemma_.lower() != "time"
                    or d.dep_ == "prep" and d.lower_ in ("after", "in", "on")
                    and any(_WHEN.match(o.text) or o.ent_type_ == "DATE"
                            or d.lower_ == "after" and o.lemma_.lower().split()[-1] in _SPANS
                            for o in d.children)
                    or d.dep_ == "prep" and d.lower_ == "from"
                    and any(is_named(o) or o.lemma_.lower() in JOB_NOUNS for o in d.children)
                    for d in c.children)]
    if not went:
        return []
    employers = _employers(verb, speech)
    # "I was let go last week": said so, it is a dismissal, by whoever it was
    passive = [c for c in verb.children if c.dep_ == "nsubjpass"]
    if not employers and not passive and not _by_an_employer(verb, speech):
        return []  # "Mum finally let me go", "Coach let me go": leave to go, not a job's end
    who = [speech.me() if t.lower_ in ("me", "i") else Party(t.text, "person")
           for t in passive or [c for c in went[0].children if c.dep_ == "nsubj"] if (
               t.lower_ in ("me", "i") and speech.first_person
               or t.ent_type_ == "PERSON" and t.text not in speech.speakers)]
    return [f for w in who for f in _jobs_ended(w, employers)]


def _jobs_ended(s: Party, orgs: list[Token]) -> list[Finding]:
    """The jobs at ``orgs`` end; with none named, whichever job it was."""
    if not orgs:
        return [Finding(s, "WORKS_AT", "", "organization", "retract")]
    return [Finding(s, "WORKS_AT", n, "organization", "retract")
            for t in orgs if (n := phrase(t))]


def made_redundant(clause: Clause, speech: Speech) -> list[Finding]:
    """"I got made redundant", "they made me redundant": the job ends, whichever it was."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or \
            clause.tense == "future" and not has_time(verb):
        return []
    said = [c for c in verb.children if c.lower_ == "redundant" and c.dep_ in ("oprd", "acomp")]
    if said:  # "I was made redundant": the subject's job
        return each(clause, lambda s: _jobs_ended(s, pobjs(verb, ("from", "at"))))
    made = [c for c in verb.children if c.lower_ == "redundant" and c.dep_ in ("ccomp", "xcomp")
            and any(d.lower_ == "me" for d in c.children)]
    return [Finding(speech.me(), "WORKS_AT", "", "organization", "retract")] \
        if made and speech.first_person else []


#: A message that says the speaker is leaving a job: "handed in my notice, my last day is...".
_LEAVING_TALK = re.compile(r"\b(?:notice|resign|quit|leav|job|work|employ|redundan|contract)\w*",
                           re.IGNORECASE)
#: Time off after a last day: "before my holiday", "before I go on leave", "for the year".
_TIME_OFF = re.compile(r"\b(?:holidays?|leave|vacation|break|time\s+off|sabbatical|honeymoon|"
                       r"christmas|summer|for\s+the\s+(?:week|year|month|term))\b",
                       re.IGNORECASE)
#: "my last day (at Tesco) is March 31", "my final day is Friday".
_LAST_DAY = re.compile(r"\b(?:last|final)\s+day\b", re.IGNORECASE)


def last_day(clause: Clause, speech: Speech) -> list[Finding]:
    """"my last day at Tesco is March 31", "handed in my notice, my last day is the 31st",
    "today was my last day at Acme": the job ends on that day, not when it was said. Only
    when the message speaks of work ("my last day of holiday is Friday" ends nothing)."""
    verb = clause.verb
    if clause.negated or clause.modal or not speech.first_person or not has_time(verb):
        return []
    days = [t for t in verb.children if t.dep_ in ("nsubj", "attr") and _LAST_DAY.search(
        " ".join(x.lower_ for x in t.subtree if x.i <= t.i)) and possessor(t) == "me"]
    if not days:
        return []
    # "Friday was my last day at Deloitte": the parser may hang the workplace on the verb
    orgs = [t for t in pobjs(days[0], ("at", "with")) + pobjs(verb, ("at", "with"))
            if is_named(t) and t.text not in speech.speakers]
    if not orgs and _TIME_OFF.search(verb.sent.text):
        return []  # "my last day at work before my holiday": a break, not the job's end
    if not orgs and (pobjs(days[0], ("of",)) or not _LEAVING_TALK.search(speech.message)):
        return []
    return [replace(f, timing="last") for f in _jobs_ended(speech.me(), orgs)]


#: What one hands in to leave a job.
_NOTICES = frozenset({"resignation", "notice", "two-weeks", "letter"})


def hand_in_notice(clause: Clause, speech: Speech) -> list[Finding]:
    """"I handed in my resignation at Booking.com", "gave my notice": the job ends."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or \
            clause.tense == "future" and not has_time(verb):
        return []
    # one's own notice ("my notice", not "gave him a notice about the rent"), a resignation
    notices = [t for t in dobjs(verb) if t.lemma_.lower() == "resignation" or (
        t.lemma_.lower() in _NOTICES and any(c.dep_ == "poss" for c in t.children)
        and (t.lemma_.lower() != "letter" or any(c.lower_ == "resignation" for c in t.subtree)))]
    if not notices or _LAST_DAY.search(speech.message):
        return []  # the last day, said in the message, is when the job ends (:func:`last_day`)
    orgs = pobjs(verb, ("at", "to")) + [o for t in notices for o in pobjs(t, ("at", "to"))]
    orgs = [t for t in orgs if is_named(t) and t.text not in speech.speakers]
    return each(clause, lambda s: _jobs_ended(s, orgs))


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "quit": (leave,), "leave": (leave,), "resign": (leave,), "retire": (leave,),
    "lose": (leave,), "lay": (leave,), "fire": (leave,), "sack": (leave,),
    "make": (made_redundant,), "be": (last_day,), "hand": (hand_in_notice,),
    "give": (hand_in_notice,), "submit": (hand_in_notice,), "put": (hand_in_notice,),
    "turn": (hand_in_notice,), "let": (let_go,),
})
TRIGGERS: frozenset[str] = frozenset({"redundant"})  # "I was made redundant"
PATTERNS: tuple[re.Pattern[str], ...] = (_LAST_DAY,)  # "My last day is Friday."
