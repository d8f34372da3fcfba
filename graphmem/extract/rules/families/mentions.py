"""Facts said in passing by a noun phrase, whatever the verb around it.

Chat states much of a life without a verb for it: "my manager Marcus keeps
scheduling 8am standups" says who the manager is, "new job at Greyfield
Capital, first week done!" where the speaker works, "first week of my CS
degree at the University of Leeds" where they study, "Day one at Tidewater Labs
as a junior researcher" a job and its title, "stepped into a clinical educator
role at X" a title, "Living in Cardiff has its perks" a home, "my pixel 3a keeps
freezing" a phone. The verb rules never see these, because the verb is about
something else or there is none.

Each reader here takes the speaker's own noun only (my manager, my degree, a
new job of the speaker's message), never someone else's ("my wife's manager
Bruno", "his PhD at Imperial"), and nothing hedged, negated, finished or former
("my old iPhone 6").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Finding, Rule
from graphmem.extract.rules.lexicon import (
    capitalised, has_prt, is_company, is_named, is_occupation, is_place, is_school, pobjs)
from graphmem.extract.rules.occupations import OCCUPATIONS
from graphmem.extract.rules.owners import had_by_speaker
from graphmem.extract.rules.parties import (FIRST_PERSON, KIN, PETS, Party, Speech, appositive_name,
                                            has_det, possessor)
from graphmem.extract.rules.phrases import phrase
from graphmem.extract.rules.slots import value_slot

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

#: "my manager Marcus", "my boss Svetlana": who the speaker reports to.
_BOSSES = frozenset({"manager", "boss", "supervisor", "lead"})
#: Words of a course of study: "my CS degree at", "a master's at", "first MBA class at".
_STUDIES = frozenset({"degree", "master", "masters", "bachelor", "bachelors", "phd",
                      "doctorate", "mba", "freshman", "sophomore", "semester", "orientation",
                      "undergrad", "postgrad", "msc", "bsc"})
#: What a course of study is made of: "first MBA class at", "orientation week at".
_COURSE_PARTS = frozenset({"class", "course", "program", "programme", "lecture", "week"})
#: A job said to be new: "new job at Greyfield Capital".
_NEW_JOB = frozenset({"job", "position", "role", "gig"})
#: Verbs that keep a mention from being a fact: a wish, a doubt, an ending.
_NOT_HELD = frozenset({"think", "consider", "want", "wish", "hope", "plan", "apply", "dream",
                       "finish", "complete", "quit", "drop", "leave", "abandon", "hate",
                       "miss", "imagine", "reapply"})
#: Verbs by which a phone or car stops being had.
_GONE = frozenset({"steal", "lose", "smash", "sell", "retire", "replace", "ditch", "dump",
                   "trade", "give", "swap", "return", "recycle", "total", "scrap", "rid"})
#: A loss undone or only nearly had: "...but the police found it", "almost lost".
_NOT_GONE = re.compile(r"\b(?:found\s+it|got\s+it\s+back|recovered|returned\s+it|almost|nearly|"
                       r"tried\s+to|if\b)", re.IGNORECASE)
#: Modifiers that make a mention someone's past or future, not their present.
_NOT_NOW = frozenset({"old", "previous", "former", "last", "ex", "next", "future", "dream"})


def mention_facts(sent: Span, speech: Speech) -> list[Finding]:
    """The speaker's manager, new job and studies, mentioned by a noun phrase."""
    if not speech.first_person:
        return []
    out: list[Finding] = []
    me = speech.me()
    for token in sent:
        lemma = token.lemma_.lower().replace("'s", "").rstrip("'")
        if lemma in _NEW_JOB and _announced(token):
            out += _new_job(token, me)
            continue
        if not _speakers(token) or not _held(token):
            continue
        if lemma in _BOSSES and (possessor(token) == "me" or had_by_speaker(token)):
            name = appositive_name(token, _BOSSES)
            if name is not None:
                out.append(Finding(me, "REPORTS_TO", name, "person"))
        elif lemma in _STUDIES or lemma in _COURSE_PARTS and any(
                c.dep_ == "compound" and c.lower_ in _STUDIES for c in token.children):
            places = pobjs(token, ("at", "in")) or [t for t in pobjs(token.head, ("at",))
                                                    if token.dep_ in ("dobj", "nsubj")]
            out += [Finding(me, "STUDIES_AT", n, "organization") for t in places
                    if (is_school(t) or is_named(t) and t.ent_type_ in ("ORG", "FAC", ""))
                    and t.ent_type_ not in ("GPE", "LOC") and (n := phrase(t))]
        elif _first_day(token):
            out += _first_days(token, me)
        elif token.lemma_ == "live" and token.dep_ == "csubj" and token.tag_ == "VBG":
            # "Living in Cardiff has its perks": the speaker's home
            out += [Finding(me, "LIVES_IN", n, "place") for t in pobjs(token, ("in",))
                    if is_place(t) and not is_company(t) and (n := phrase(t))]
        elif lemma in _ROLES and _taken_on(token):
            out += _role(token, me)
        elif (owned := _owned_thing(token)) is not None:
            slot, name, gone = owned
            if not gone:
                out.append(Finding(me, slot, name, "product"))
            elif not any(c.dep_ == "neg" or c.dep_ == "aux" and c.tag_ == "MD"
                         for c in token.head.children):
                # "My Galaxy S22 was stolen", "gave up my Galaxy S21 FE": no longer had
                out.append(Finding(me, slot, name, "product", "retract"))
    return out


def _announced(job: Token) -> bool:
    """"New job at Dell!", "..., new job at Dell as a PM, my wife Hana is a nurse": a new
    job at a named employer said as news, not one looked for ("looking for a new job at
    X"), wished for ("a new job at X would be nice") or someone else's."""
    if not any(c.lower_ == "new" for c in job.children) or possessor(job) not in (None, "me") \
            or not any(is_named(t) and t.ent_type_ not in ("GPE", "LOC")
                       for t in pobjs(job, ("at", "with"))):
        return False
    if job.dep_ == "dobj":
        return _speakers(job) and _held(job)  # "I love my new job at X"
    if job.dep_ == "nsubj":  # "new job at X, first week done!"; its verb may be another
        # clause's ("..., my wife Hana is a nurse"), but not a wish or a denial
        return not any(c.dep_ == "neg" or c.tag_ == "MD" for c in job.head.children)
    return job.dep_ not in ("pobj", "attr")


def _new_job(job: Token, me: Party) -> list[Finding]:
    """The employer of an announced new job, and its title when one is given."""
    return [Finding(me, "WORKS_AT", n, "organization") for t in pobjs(job, ("at", "with"))
            if is_named(t) and t.ent_type_ not in ("GPE", "LOC") and (n := phrase(t))] + [
        Finding(me, "JOB_TITLE", n, "role") for t in pobjs(job, ("as",))
        if is_occupation(t) and (n := phrase(t))]


#: "First week at KTH done!", "Day one at Tidewater Labs": a start somewhere.
_FIRST_DAYS = frozenset({"day", "week", "month", "shift"})
_FIRSTS = frozenset({"first", "one", "1"})


def _first_day(token: Token) -> bool:
    """"first week", "day one": by its words, or by the words the tagger merged into one
    date ("week one at Marrowby Press done")."""
    if token.lemma_.lower() in _FIRST_DAYS:
        return any(c.lower_ in _FIRSTS for c in [*token.children, *token.rights])
    words = token.lower_.split()
    return len(words) == 2 and (words[0] in _FIRST_DAYS and words[1] in _FIRSTS
                                or words[0] == "first" and words[1] in _FIRST_DAYS)


def _first_days(token: Token, me: Party) -> list[Finding]:
    """The first day or week at a school (studies) or a company (a job, with its title
    when one is given: "Day one at Tidewater Labs as a junior researcher")."""
    out: list[Finding] = []
    heads = [token, *(c for c in token.children if c.dep_ == "nummod")]  # "Day one at X"
    places = [t for h in heads for t in pobjs(h, ("at",))]
    after = token.doc[token.i + 1: token.i + 3]
    if not places and len(after) == 2 and after[0].lower_ == "at":
        places = [after[1]]  # "First week at KTH done!": the parser made KTH the subject
    for place in places:
        name = phrase(place)
        if name is None or not capitalised(place) or place.ent_type_ in ("GPE", "LOC", "PERSON"):
            continue
        if is_school(place):
            out.append(Finding(me, "STUDIES_AT", name, "organization"))
        else:
            out.append(Finding(me, "WORKS_AT", name, "organization"))
            out += [Finding(me, "JOB_TITLE", n, "role") for t in pobjs(place, ("as",))
                    + pobjs(token, ("as",)) if (n := phrase(t))]
    return out


#: A job named by its kind: "a clinical educator role at Wrenfield".
_ROLES = frozenset({"role", "position", "post"})
#: Verbs by which one takes a role on.
_TAKING_ON = frozenset({"step", "take", "start", "accept", "land", "begin", "move", "get",
                        "switch"})


def _taken_on(token: Token) -> bool:
    """"stepped into a ... role", "took on a ... position": the speaker's new role."""
    head = token.head.head if token.dep_ == "pobj" else token.head
    return head.lemma_.lower() in _TAKING_ON and token.dep_ in ("dobj", "pobj")


def _role(token: Token, me: Party) -> list[Finding]:
    """The title a role is named by (its modifiers, ending in an occupation) and where."""
    words = [t for t in token.subtree if t.i < token.i and t.dep_ in ("compound", "amod")]
    if not words or words[-1].lemma_.lower() not in OCCUPATIONS:
        return []
    title = " ".join(t.lower_ for t in words)
    return [Finding(me, "JOB_TITLE", title, "role")] + [
        Finding(me, "WORKS_AT", n, "organization") for t in pobjs(token, ("at", "with"))
        if capitalised(t) and t.ent_type_ not in ("GPE", "LOC", "PERSON") and (n := phrase(t))]


def _owned_thing(token: Token) -> tuple[str, str, bool] | None:
    """"my pixel 3a keeps freezing", "My VW Vento needs new tires": the speaker's phone or
    car, named by its model (:func:`value_slot`), as slot and name, and whether the verb
    over it says it is gone ("My Galaxy S22 was stolen", "my Civic was written off"; "the
    Nexon got totaled" too, in a first-person message)."""
    owner = possessor(token)
    the = owner is None and has_det(token, ("the",))
    if owner != "me" and not the or token.pos_ not in ("PROPN", "NOUN") or any(
            c.lower_ in _NOT_NOW or c.dep_ == "compound" and c.lemma_.lower() in PETS
            for c in token.children):
        return None  # "our greyhound Pixel" is a dog, not a phone
    name = phrase(token) or token.text
    code = [c for c in token.children if c.dep_ in ("appos", "nummod") and c.i == token.i + 1
            and any(ch.isdigit() for ch in c.text)]
    if code and code[0].text not in name:
        name = f"{name} {code[0].text}"  # "pixel 3a", the code read as an apposition
    slot = value_slot(name, token)
    # not "died" or "broke" (a flat battery, a cracked screen); and gone already, not "going
    # to sell my Honda Civic" (a plan) nor "I'll trade it in"
    head = token.head
    lemma = head.lemma_.lower()
    gone = (lemma in _GONE or lemma == "write" and has_prt(head, "off")) \
        and token.dep_ in ("nsubj", "nsubjpass", "dobj") \
        and head.tag_ in ("VBD", "VBN") and not any(a.tag_ == "MD" for a in head.children) \
        and _NOT_GONE.search(token.sent.text) is None
    if the and not gone:
        return None  # "the Nexon got totaled" is the speaker's; "the Nexon is nice" may not be
    return (slot, name, gone) if slot in ("HAS_PHONE", "DRIVES") else None


def _speakers(token: Token) -> bool:
    """Whether the noun is the speaker's: theirs by "my", or no one else's in a clause
    with no other person as its subject ("started my master's", "first week of my degree
    done"; not "my flatmate is doing his PhD")."""
    if possessor(token) in ("other", "name", "you"):
        return False
    node = token
    while node.pos_ not in ("VERB", "AUX") and node.head.i != node.i:
        node = node.head
    # the subject the noun is part of is not someone else ("my manager Greta Lund asked me")
    return not any(_someone_else(s) for s in node.children
                   if s.dep_ in ("nsubj", "nsubjpass") and token not in s.subtree)


def _someone_else(subject: Token) -> bool:
    if subject.pos_ == "PRON":
        return subject.lower_ not in FIRST_PERSON and subject.lower_ not in ("it", "this", "that")
    return subject.ent_type_ == "PERSON" or subject.lemma_.lower() in KIN or possessor(
        subject) in ("other", "name")


def _held(token: Token) -> bool:
    """Not wished for, doubted, finished or past: no such verb above, no "old" before it."""
    if any(c.lower_ in _NOT_NOW for c in token.children):
        return False
    node = token
    while node.head.i != node.i and node.dep_ != "conj":  # "finished X, and now starting Y"
        if node.dep_ in ("nsubj", "nsubjpass"):
            return True  # "my manager Oksana wants the deck": her wish, not a doubt of her
        node = node.head
        if node.lemma_.lower() in _NOT_HELD or any(
                c.dep_ == "neg" or c.lower_ in ("might", "may", "could", "would")
                for c in node.children if c.dep_ in ("neg", "aux")):
            return False
    return True


#: No verb rules: :func:`mention_facts` is called by the dispatcher for every sentence.
RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({})
TRIGGERS: frozenset[str] = _BOSSES | _STUDIES | _FIRST_DAYS | {
    "master's", "bachelor's", "class", "course", "living"}
PATTERNS: tuple[re.Pattern[str], ...] = ()
