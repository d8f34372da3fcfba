"""Verb rules about a person's life: partners, family, pets and possessions.

Each rule takes a :class:`Clause` whose subject is already resolved and
returns :class:`Finding` objects. Where one lives is in
:mod:`graphmem.extract.rules.families.home`, work in
:mod:`graphmem.extract.rules.families.work`, trips and events in
:mod:`graphmem.extract.rules.families.events`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Action, Clause, Finding, Rule, action_of, each, has_time
from graphmem.extract.rules.lexicon import (
    BUSINESSES, EVENT_NOUNS, NOT_POSSESSIONS, POSSESSIONS, TRIP_NOUNS, condition_name, dobjs,
    has_prt, object_type, pobjs)
from graphmem.extract.rules.parties import (KIN, PETS, Party, Speech, conjuncts,
                                            possessor)
from graphmem.extract.rules.phrases import phrase, trips
from graphmem.extract.rules.slots import married, value_slot
from graphmem.extract.rules.terms import TECH_LABEL

if TYPE_CHECKING:
    from spacy.tokens import Token

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
    """"I'm dating Priya", "been going out with Priya for two weeks", "I have been seeing
    Geoffrey", "started seeing Omar": a partner. Not a date had ("went out with Priya last
    night") nor an appointment ("I'm seeing Dr Lee on Monday", "seeing Tom tomorrow"): going
    out and seeing count only as under way for a while (been ..., started ...)."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.tense == "past":
        return []
    if clause.lemma == "go":
        if not any(c.dep_ == "prt" and c.lower_ == "out" for c in verb.children):
            return []
        found = pobjs(verb, ("with",))
    else:
        found = dobjs(verb)
    if clause.lemma != "date" and not _under_way(verb):
        return []
    if clause.lemma == "date" and not found and any(s.is_speaker for s in clause.subjects):
        # "me and jayden are officially dating", "Jayden and I are dating": each other
        return [Finding(speech.me(), "HAS_PARTNER", s.name, "person")
                for s in clause.subjects if not s.is_speaker and s.type == "person"]
    people = [t for t in found if _someone(t)]
    return each(clause, lambda s: [Finding(s, "HAS_PARTNER", t.text, "person") for t in people])


#: The speaker's side of a proposal: "I said yes", "we're engaged".
_ACCEPTED = re.compile(r"\bi\s+said\s+yes\b|\b(?:we're|we\s+are|we\s+got|i'm|i\s+am|i\s+got)\s+"
                       r"engaged\b", re.IGNORECASE)


def propose(clause: Clause, speech: Speech) -> list[Finding]:
    """"Daniel proposed last night and I said yes!", "Daniel proposed to me", "I proposed to
    Sofia on the beach": the one who proposed to the speaker, or was proposed to, is the
    speaker's partner (engaged only when said); a proposal to no one said is the speaker's
    only when the speaker said yes.
    Not a proposal of something ("Daniel proposed a new plan") nor to someone else ("Daniel
    proposed to Emma")."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.tense == "future" or dobjs(verb) \
            or not speech.first_person or any(c.dep_ in ("xcomp", "ccomp") for c in verb.children):
        return []
    to = pobjs(verb, ("to",))
    if any(s.is_speaker for s in clause.subjects):  # "I proposed to Sofia"
        people = [t for t in to if _someone(t)]
        return each(clause, lambda s: [Finding(s, "HAS_PARTNER", t.text, "person")
                                        for t in people] if s.is_speaker else [])
    if to and not any(t.lower_ == "me" for t in to):
        return []  # "Daniel proposed to Emma"
    if not to and not _ACCEPTED.search(speech.message):
        return []  # "Tom finally proposed! Anna said yes!", "Tom proposed in the meeting"
    named = [t for t in verb.children if t.dep_ == "nsubj" and _someone(t)
             and t.text not in speech.speakers]
    return [Finding(speech.me(), "HAS_PARTNER", t.text, "person") for t in named]


def _someone(token: Token) -> bool:
    """A name one dates or proposes to is a person's, whatever the tagger calls it ("dating
    Priya": a product; "proposed to Sofia": a place)."""
    return token.ent_type_ == "PERSON" or token.tag_ == "NNP" and token.ent_type_ not in (
        "DATE", "TIME") and token.text[:1].isupper()


def _under_way(verb: Token) -> bool:
    """"(have) been seeing", "started seeing", "began going out with": a going on, not an
    appointment ("been seeing the physio tomorrow" has a time to come)."""
    been = any(c.dep_ == "aux" and c.lower_ == "been" for c in verb.children)
    started = verb.dep_ == "xcomp" and verb.head.lemma_ in ("start", "begin")
    later = any(t.lower_ in ("tomorrow", "tonight", "later") for t in verb.subtree)
    return verb.tag_ == "VBG" and (been or started) and not later


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
    # "a dog named Max", and "a dog from the shelter, a beagle called Biscuit"
    kinds = [obj, *(c for c in obj.children if c.dep_ == "appos" and c.pos_ == "NOUN")]
    names += [c.text for k in kinds for c in k.children if c.dep_ == "acl"
              and c.lemma_ in ("name", "call")
              for c in c.children if c.dep_ in ("oprd", "attr", "dobj") and c.text[:1].isupper()]
    names += [c.text for c in conjuncts(obj) if c.dep_ in ("appos", "conj") and
              c.text[:1].isupper() and c.ent_type_ != TECH_LABEL]
    if obj.tag_ in ("NNS", "NNPS"):  # "two guinea pigs, Salt and Pepper": the NER's one name
        names = [part for n in names for part in re.split(r"\s+(?:and|&)\s+", n) if part]
    if lemma in PETS:
        # "guinea pig", not "pig"
        kind = " ".join([*(c.lower_ for c in obj.children if c.dep_ == "compound"), lemma])
        if names:
            return [Finding(s, "HAS_PET", n, "animal", action, timing="none",
                            statement=f"{{s}} has a {kind} named {n}")
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
            elif condition_name(phrase(obj) or obj.lower_):
                continue  # "I have Asthma": a condition (families.health), not a thing owned
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
    """sell / get rid of / give away / total / scrap / write off: a possession or pet is gone;
    not one still to go ("I'm
    going to sell my Honda Civic" is a plan, :mod:`.intent`)."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.hedged or clause.tense == "future":
        return []
    if clause.lemma == "get" and not any(c.lower_ == "rid" for c in verb.children):
        return []
    if clause.lemma == "write" and not any(c.lower_ == "off" for c in verb.children):
        return []  # "wrote off my car"; not "wrote my thesis"
    if clause.lemma == "give" and not has_prt(verb, "away") and not (
            pobjs(verb, ("to",)) and any(possessor(t) == "me" for t in dobjs(verb))):
        return []  # "gave away my bike", "gave my car to my son"; not "gave my son a car"
    objects = dobjs(verb) + pobjs(next((c for c in verb.children if c.lower_ == "rid"), verb),
                                  ("of",))
    objects += [t for c in verb.children if c.lower_ == "off" and c.dep_ == "prt"
                for t in c.children if t.dep_ == "pobj"]  # "wrote off my car", parsed so
    return each(clause, lambda s: [
        Finding(s, "HAS_PET" if t.lemma_.lower() in PETS else "OWNS", n, object_type(t), "retract")
        for t in objects if (n := phrase(t))])


def found_business(clause: Clause, speech: Speech) -> list[Finding]:
    if clause.negated or clause.modal or clause.tense == "future":
        return []
    objects = [t for t in dobjs(clause.verb) if t.lemma_.lower() in BUSINESSES]
    return each(clause, lambda s: [Finding(s, "OWNS", n, "organization")
                                    for t in objects if (n := _business_name(t))])


def _business_name(business: Token) -> str | None:
    """"my own bakery, Crumbs Bakery": the business's name, where it is given."""
    named = [c for c in business.children if c.dep_ == "appos" and c.text[:1].isupper()]
    return named[0].text if named else phrase(business)


def break_up(clause: Clause, speech: Speech) -> list[Finding]:
    """"I broke up with my boyfriend": the partner fact ends."""
    verb = clause.verb
    if clause.negated or clause.modal or not has_prt(verb, "up"):
        return []
    out: list[Finding] = []
    if not pobjs(verb, ("with",)) and not any(c.dep_ == "prt" and pobjs(c, ("with",))
                                              for c in verb.children):
        if dobjs(verb):
            return []  # "Tom and I broke up the fight"
        together = any(c.dep_ == "nsubj" and c.lower_ == "we" for c in verb.children) or (
            len(clause.subjects) > 1 and any(s.is_speaker for s in clause.subjects))
        # "My boyfriend and I broke up", "tomás and i broke up": whoever the other one is
        paired = speech.first_person and any(
            c.dep_ == "nsubj" and (any(t.dep_ == "conj" and t.lower_ in ("i", "me")
                                       for t in c.subtree)
                                   or c.lower_ == "i" and c.i > 0 and c.nbor(-1).lower_ == "and"
                                   # "Me and my boyfriend Sam split up"
                                   or c.lower_ in ("i", "me")
                                   and any(t.dep_ == "conj" for t in c.children))
            for c in verb.children)  # the parser may hang "my boyfriend" off the verb
        if paired and not together:
            return [Finding(speech.me(), "HAS_PARTNER", "", "person", "retract")]
        return [Finding(s, "HAS_PARTNER", "", "person", "retract") for s in clause.subjects
                if s.is_speaker] if together else []  # "We broke up", "Me and my partner..."
    for t in pobjs(verb, ("with",)) or pobjs(next((c for c in verb.children if c.dep_ == "prt"),
                                                  verb), ("with",)):
        predicate = "MARRIED_TO" if KIN.get(t.lemma_.lower()) == "MARRIED_TO" else "HAS_PARTNER"
        name = t.text if t.ent_type_ == "PERSON" else ""
        out += [Finding(s, predicate, name, "person", "retract") for s in clause.subjects]
    return out


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "start": (found_business,),
    "marry": (marry,), "divorce": (marry,), "separate": (marry,), "date": (date_someone,),
    "see": (date_someone,), "go": (date_someone,), "propose": (propose,),
    "break": (break_up,), "split": (break_up,), "know": (know,), "speak": (know,),
    "meet": (meet,), "have": (have, birth), "buy": (acquire,), "purchase": (acquire,),
    "own": (acquire,), "adopt": (acquire,), "rescue": (acquire,), "pick": (acquire,),
    "sell": (dispose,), "rid": (dispose,), "give": (dispose, birth), "get": (acquire, dispose),
    "total": (dispose,), "scrap": (dispose,), "write": (dispose,),
    "open": (found_business,), "found": (found_business,), "launch": (found_business,),
})
TRIGGERS: frozenset[str] = frozenset()
PATTERNS: tuple[re.Pattern[str], ...] = ()
