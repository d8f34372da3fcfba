"""Verb rules for states: a slot's value opens.

A possessed slot noun linked to a value by a copula ("my phone is a Pixel 8",
"Rust is my go-to language now", "home for me is Oslo", "Camille became my
boss"), "I drive X", "employed by X", "I'm with X", "settled in X", "started at
X", "I write almost everything in X", "I'm on an iPhone 15". Negated or ended,
the same clauses close the value instead (dispatch._never_asserted). Diets are
read by :mod:`graphmem.extract.rules.families.diet`, managers by
:mod:`graphmem.extract.rules.families.manager`.
Which slot a value belongs to comes from :mod:`graphmem.extract.rules.slots`;
closing and replacing values is :mod:`graphmem.extract.rules.families.change`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import (Clause, Finding, Rule, Timing, action_of, each,
                                           lasting)
from graphmem.extract.rules.lexicon import (
    capitalised, dobjs, is_named, is_org, is_place, job_titles, pobjs, studies_or_works,
    talks_of_work)
from graphmem.extract.rules.parties import (KIN, Speech, appositive_name, conjuncts,
                                            copula_subjects, possessor)
from graphmem.extract.rules.moves import firm_not_town
from graphmem.extract.rules.phrases import phrase
from graphmem.extract.rules.slots import (
    NOT_SO, SLOT_THINGS, SPORTS, SLOT_TYPES, fits, is_language, owner_of, slot_finding, slot_noun,
    value_name, value_slot)
from graphmem.extract.rules.terms import TECH_LABEL

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

#: "I'm with Globex", "I'm not at Cyberdyne anymore": a name after a copula and "with"/"at".
_WITH_ORG = re.compile(r"(?:'m|\b[Aa]m|'re|\b[Aa]re|\b[Ii]s|\b[Bb]e|\b[Bb]een)\s+"
                          r"(?:\w+\s+){0,2}(?:with|at)\s+[A-Z]|\bout\s+of\s+work\b")

_DATING = re.compile(r"\b(?:dating|boyfriend|girlfriend|partner|seeing\s+each\s+other|together)\b",
                     re.IGNORECASE)
#: How names of peoples end ("Germans", "Italian", "Danish", "Japanese").
_DEMONYM = re.compile(r"(?:ans?|ish|ese|is|ic)$")
#: A message about a change of job, where being "at" a name is being employed there.
_CHANGED_JOBS = re.compile(r"\b(?:switch|chang|mov)\w*\s+jobs?\b|\bnew\s+job\b|\bquit\b"
                           r"|\bleft\s+(?:his|her|my|the|their)?\s*job\b|\bresign\w*"
                           r"|\b(?:got\s+)?(?:hired|poached)\b|\blaid\s+off\b|\bfired\b",
                           re.IGNORECASE)
_UNEMPLOYED = frozenset({"unemployed", "jobless", "retired"})


_ALL_OF_IT = frozenset({"everything", "all", "most", "mostly", "mainly", "primarily",
                        "exclusively", "only", "nothing"})
#: What one does every working day is the main thing: "Day to day I program in Java", "i
#: write TypeScript all day".
_EVERY_DAY = re.compile(r"\b(?:day[- ]to[- ]day|every\s*day|daily|all\s+day|at\s+work|full[- ]time"
                        r"|these\s+days|nowadays)\b", re.IGNORECASE)


#: Words for a new one of something: "the replacement is a OnePlus 9".
_STAND_INS = frozenset({"replacement", "upgrade"})


def slot_copula(clause: Clause, speech: Speech) -> list[Finding]:
    """"my phone is X", "X is my only sport now", "home for me is X", "X became my boss"."""
    verb = clause.verb
    if clause.modal in NOT_SO or (clause.tense == "past" and clause.lemma == "be"
                                  and not clause.perfect):  # "has been Haskell since August"
        return []
    sides = copula_subjects(verb) + [c for c in verb.children if c.dep_ in ("attr", "acomp",
                                                                            "oprd")
                                     or c.dep_ == "advmod" and c.lower_ == "home"]
    # ("Toronto is home these days": the parser reads "home" as an adverb there)
    action = action_of(clause)
    out: list[Finding] = []
    for noun in sides:
        slot = slot_noun(noun)
        owner = owner_of(noun, speech)
        if (noun.lemma_.lower() in _STAND_INS or _it_after_a_thing(noun)) \
                and noun.dep_ == "nsubj" and speech.first_person and possessor(noun) in (None, "me"):
            # "The replacement is a OnePlus 9": whichever slot the value names
            out += [slot_finding(speech.me(), s, n, action) for v in sides if v is not noun
                    and (n := value_name(v)) and (s := value_slot(n, v)) in ("HAS_PHONE", "DRIVES")]
            continue
        if slot is None or owner is None or any(
                c.lower_ in ("favorite", "favourite", "fave", "dream", "ideal", "first", "old",
                             "previous", "former", "last", "ex") for c in noun.children):
            continue  # a favourite is not the current value; a former one is not either
        for other in sides:
            if other is noun or other.dep_ == noun.dep_ and other.dep_ != "attr" or \
                    other.dep_ in ("nsubj", "csubj", "conj") and noun.dep_ in ("nsubj", "conj"):
                continue
            for value in [other, *conjuncts(other)]:
                if (name := fits(slot, value)) is not None:
                    out.append(slot_finding(owner, slot, name, action))
        if noun.dep_ in ("nsubj", "nsubjpass") and slot in _WHERE_SLOTS:
            out += [slot_finding(owner, slot, name, action)  # "my new job is at Figma"
                    for t in pobjs(verb, _WHERE_SLOTS[slot]) if (name := fits(slot, t))]
    return out


def _it_after_a_thing(noun: Token) -> bool:
    """"I have bought a car, it is Skoda Octavia": "it" after a car or a phone the speaker
    bought or got, named by its kind alone, stands in for it, as "the replacement" does (not
    one a relative bought, one found, rented or being sold)."""
    return noun.lower_ == "it" and any(
        t.lemma_.lower() in ("car", "phone") and t.dep_ == "dobj"
        and t.head.lemma_ in ("buy", "get", "purchase") and not any(
            c.dep_ == "neg" for c in t.head.children)
        and any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in t.head.children)
        for t in noun.sent if t.i < noun.i)


#: Slots whose value may follow the copula as a place: "my job is at X", "home is in X".
_WHERE_SLOTS = MappingProxyType({"WORKS_AT": ("at", "with"), "LIVES_IN": ("in",)})


def with_org(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm with Globex now", "I'm no longer with Accenture": an employer."""
    if clause.lemma != "be" or clause.modal in NOT_SO or clause.tense == "past" and not (
            clause.perfect and lasting(clause.verb)):  # "I've been at Stripe since March"
        return []
    # (not "My job is fine. I'm with Harper now, we've been dating a month")
    work = talks_of_work(speech.message) and not _DATING.search(speech.message)
    orgs = [t for t in pobjs(clause.verb, ("with",)) if is_named(t) and possessor(t) is None
            and t.ent_type_ not in ("GPE", "LOC") and t.text not in speech.speakers
            and not (t.dep_ == "appos" and t.head.lemma_.lower() in KIN)  # "my girlfriend Ana"
            and (t.ent_type_ not in ("PERSON", "NORP") or " " in t.text
                 and t.ent_type_ == "PERSON"
                 # "My last day at Airbus was Friday; I'm now with Adyen" (Adyen a person or
                 # a people): a firm in a message about work, unless a first name or a people
                 or work and t.lower_ not in speech.first_names
                 and not _DEMONYM.search(t.lower_))
            # "I've been with Ines for three months": with someone as often as with a firm
            and (clause.tense != "past" or work)]
    titled = bool(pobjs(clause.verb, ("as",))) or clause.perfect  # "I've been at Shopify for..."
    now = any(c.lower_ in ("now", "nowadays") for c in clause.verb.children)
    orgs += [t for t in pobjs(clause.verb, ("at",)) if is_org(t) and t.ent_type_ == "ORG"
             or (clause.ended or titled) and (is_named(t) or t.ent_type_ == TECH_LABEL)
             and t.ent_type_ not in ("GPE", "LOC")
             # "Tom switched jobs. He's at Initech now", "i'm at Cabify now doing research":
             # the NER's town is a firm when the gazetteer knows no such town
             or t.ent_type_ == "GPE" and is_named(t) and firm_not_town(
                 t.lower_, speech.message, speech.all_towns,
                 other_signs=_CHANGED_JOBS.search(speech.message) is not None or now)]
    orgs = list(dict.fromkeys(orgs))
    titles = [t for t in pobjs(clause.verb, ("as",))]
    action = action_of(clause)
    return each(clause, lambda s: [Finding(s, studies_or_works(t, titles), n, "organization",
                                           action) for t in orgs if (n := phrase(t))]
                 + [Finding(s, "JOB_TITLE", n, "role", action) for t in job_titles(titles, orgs)
                    if orgs and (n := phrase(t))])


def out_of_work(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm unemployed for now", "between jobs", "out of work": no employer at the moment."""
    verb = clause.verb
    if clause.modal in NOT_SO or clause.tense == "past" or clause.negated:
        return []
    said = any(c.lower_ in _UNEMPLOYED for c in verb.children if c.dep_ in ("acomp", "attr"))
    said = said or any(t.lemma_.lower() == "job" for t in pobjs(verb, ("between",)))
    said = said or any(t.lower_ == "work" for p in verb.children if p.lower_ == "out"
                       for t in pobjs(p, ("of",)))
    if not said:
        return []
    return each(clause, lambda s: [Finding(s, "WORKS_AT", "", "organization", "retract")])


_WORK_NOUNS = frozenset({"day", "work", "code", "time", "job", "codebase", "week", "stack"})


def language_at_work(clause: Clause, speech: Speech) -> list[Finding]:
    """"Most of my day is C#", "most of my work is Dart now", "most of what I write is Go",
    "my research code is all Julia now", "it's Swift all day now": the main language."""
    verb = clause.verb
    if not speech.first_person or clause.negated or clause.modal or clause.tense != "present":
        return []
    langs = [n for c in verb.children if c.dep_ == "attr"
             and (n := value_name(c)) and is_language(n, said=True)]
    if not langs:
        return []
    sent = verb.sent
    said = False
    for subject in (c for c in verb.children if c.dep_ == "nsubj"):
        parts = pobjs(subject, ("of",))
        if subject.lower_ == "most":  # "most of my day", "most of what I write"
            said = any(p.lemma_.lower() in _WORK_NOUNS and possessor(p) == "me"
                       or p.lemma_ in ("write", "code") for p in parts)
        elif subject.lemma_.lower() in _WORK_NOUNS and possessor(subject) == "me":
            said = any(t.lower_ == "all" for c in verb.children for t in c.subtree)
        elif subject.lower_ == "it":  # "it's Swift all day now", "it's all C# here"
            said = any(t.lower_ in ("all day", "day") for t in sent if t.ent_type_ == "DATE") \
                or any(t.lower_ == "all" for t in sent) and any(
                    c.lower_ in ("here", "now") for c in verb.subtree)
    if not said:
        return []
    me = speech.me()
    return [Finding(me, "MAIN_LANGUAGE", n, "technology") for n in langs]


def sport_word(clause: Clause, speech: Speech) -> list[Finding]:
    """"I do judo twice a week" when the parser reads the sport as the verb ("do" its
    auxiliary): the sport, habitually."""
    verb = clause.verb
    if clause.modal in NOT_SO or verb.lower_ not in SPORTS or clause.tense == "past" or not any(
            c.dep_ == "aux" and c.lemma_ == "do" for c in verb.children):
        return []
    return each(clause, lambda s: [Finding(s, "PLAYS_SPORT", verb.lower_, "activity",
                                            action_of(clause))])


def drive(clause: Clause, speech: Speech) -> list[Finding]:
    """"I drive a Honda Civic", "I don't drive the Volvo anymore"."""
    if clause.modal in NOT_SO or clause.tense == "past" and not clause.perfect:
        return []
    cars = [t for t in dobjs(clause.verb) if t.pos_ in ("PROPN", "NOUN")
            and (value_slot(phrase(t) or "") == "DRIVES" or t.text[:1].isupper())]
    action = action_of(clause)
    if not dobjs(clause.verb) and clause.ended:  # "I no longer drive"
        return each(clause, lambda s: [Finding(s, "DRIVES", "", "product", "retract")])
    return each(clause, lambda s: [Finding(s, "DRIVES", n, "product", action)
                                    for t in cars if (n := phrase(t))])


#: Hiring someone away from another employer.
_LURING = frozenset({"poach", "recruit", "headhunt", "lure", "steal"})


def employed(clause: Clause, speech: Speech) -> list[Finding]:
    """"employed by Globex", "hired by Oscorp", and in the active voice "Apple hired me in
    May" (when the speaker speaks for themselves): the employer."""
    if clause.negated or clause.modal in NOT_SO:
        return []
    verb = clause.verb
    orgs = [t for t in pobjs(verb, ("by", "at")) if t.text[:1].isupper()]
    titles = pobjs(verb, ("as",))
    if speech.first_person and any(t.lower_ in ("me", "us") for t in dobjs(verb)):
        luring = clause.lemma in _LURING  # "Salesforce poached me from Bosch": a company
        hirers = [t for t in verb.children if t.dep_ == "nsubj" and (
            is_named(t) or luring and capitalised(t)) and t.text not in speech.speakers]
        timing: Timing = "event" if clause.tense == "past" else "start"
        left = [t for t in pobjs(verb, ("from",)) if is_named(t)] if hirers and luring else []
        return [Finding(speech.me(), "WORKS_AT", n, "organization", timing=timing)
                for t in hirers if (n := phrase(t))] + [
            Finding(speech.me(), "WORKS_AT", n, "organization", "retract")
            for t in left if (n := phrase(t))] + [
            Finding(speech.me(), "JOB_TITLE", n, "role") for t in titles
            if (n := phrase(t))]  # "the startup hired me as an ML engineer": the title
    return each(clause, lambda s: [Finding(s, "WORKS_AT", n, "organization")
                                    for t in orgs if (n := phrase(t))]
                 + [Finding(s, "JOB_TITLE", n, "role") for t in titles if (n := phrase(t))])


def settle_in(clause: Clause, speech: Speech) -> list[Finding]:
    """"Finally settled in Prague", "we ended up in Wellington instead": a new home."""
    if clause.negated or clause.modal or clause.lemma == "end" and not any(
            c.lower_ == "up" for c in clause.verb.children):
        return []
    places = [t for t in pobjs(clause.verb, ("in", "into")) if is_place(t)]
    return each(clause, lambda s: [Finding(s, "LIVES_IN", n, "place")
                                    for t in places if (n := phrase(t))])


def main_language(clause: Clause, speech: Speech) -> list[Finding]:
    """"I write almost everything in Go", "I code mostly in Rust": the main language; "I
    don't really program anymore": none."""
    verb = clause.verb
    if clause.lemma in ("code", "program") and clause.ended and clause.modal not in NOT_SO \
            and not dobjs(verb) and not pobjs(verb, ("in", "with")):
        return each(clause, lambda s: [Finding(s, "MAIN_LANGUAGE", "", "technology", "retract")])
    if clause.ended and clause.negated and clause.modal not in NOT_SO:
        # "I don't write Python anymore": no longer the main language either
        gone = [n for t in dobjs(verb) + pobjs(verb, ("in",))
                if (n := phrase(t)) and is_language(n, said=True)]
        return each(clause, lambda s: [Finding(s, "MAIN_LANGUAGE", n, "technology", "retract")
                                        for n in gone])
    if clause.negated or clause.modal in NOT_SO or clause.tense == "past":
        return []
    tokens = [*dobjs(verb), *[c for c in verb.children if c.dep_ == "advmod"]]
    tokens += [x for t in tokens for x in t.children if x.dep_ == "advmod"]
    if not any(t.lower_ in _ALL_OF_IT or t.lower_ == "now" for t in tokens) \
            and not _EVERY_DAY.search(verb.sent.text):
        return []  # "I write almost everything in Go", "now I'm writing Zig"
    langs = list(dict.fromkeys(
        n for t in pobjs(verb, ("in", "with")) + [x for o in dobjs(verb) for x in pobjs(o, ("in",))]
        + dobjs(verb)  # "now I'm writing Zig"
        if (n := phrase(t)) and is_language(n, said=True)))
    if len(langs) != 1:
        return []  # "mostly in Python and TypeScript" names no single main language
    return each(clause, lambda s: [Finding(s, "MAIN_LANGUAGE", langs[0], "technology")])


def as_my(clause: Clause, speech: Speech) -> list[Finding]:
    """"I use a Galaxy S24 as my phone": the object fills the slot named after "as my"."""
    verb = clause.verb
    if clause.modal in NOT_SO or clause.tense == "past" and not clause.perfect:
        return []
    action = action_of(clause)
    out: list[Finding] = []
    for noun in pobjs(verb, ("as",)):
        slot = slot_noun(noun)
        if slot is None or possessor(noun) != "me":
            continue
        out += each(clause, lambda s: [Finding(s, slot, n, SLOT_TYPES.get(slot, "concept"),
                                                action)
                                        for t in dobjs(verb) if (n := fits(slot, t))])
    return out


#: Names that are phones by themselves; a brand alone ("Android Studio", "Samsung Pay") may
#: be software or a service, a model has a number ("Xperia 5 V").
_PHONE_LINES = frozenset({"iphone", "pixel", "galaxy", "xperia", "redmi", "fairphone", "oneplus",
                          "zenfone"})


def use_thing(clause: Clause, speech: Speech) -> list[Finding]:
    """"I use an Android phone", "I don't use my Pixel anymore": the slot the thing fills."""
    if clause.modal in NOT_SO or clause.tense == "past" and not clause.perfect:
        return []
    out: list[Finding] = []
    for t in dobjs(clause.verb):
        slot = SLOT_THINGS.get(t.lemma_.lower())
        if slot and any(c.dep_ == "compound" for c in t.children) and (n := phrase(t)):
            out += each(clause, lambda s: [Finding(s, slot, n, "product", action_of(clause))])
        elif (model := value_name(t)) and value_slot(model, t) == "HAS_PHONE" \
                and model[:1].isupper() and (any(ch.isdigit() for ch in model)
                                             or model.split()[0].lower() in _PHONE_LINES):
            # "I use an Xperia 5 V for everything": a phone by its model's name
            out += each(clause, lambda s: [Finding(s, "HAS_PHONE", model, "product",
                                                    action_of(clause))])
    return out


def on_thing(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm on an iPhone 15 now": the phone one uses; "I'm on F# now": the language one
    writes (a language only said to be the one now)."""
    if clause.modal in NOT_SO or clause.tense == "past":
        return []
    now = any(c.lower_ in ("now", "nowadays") for c in clause.verb.children)
    found: list[tuple[str, str]] = []
    for t in pobjs(clause.verb, ("on",)):
        name = value_name(t) or ""
        if t.lower_ == "#" and t.i > 0 and t.doc[t.i - 1].text in ("F", "C"):
            name = t.doc[t.i - 1].text + "#"  # "F#" split by the tokenizer
        if name and value_slot(name, t) in ("HAS_PHONE", "DIET"):  # "currently on keto"
            found.append((value_slot(name, t) or "", name))
        elif name and now and is_language(name, said=True):
            found.append(("MAIN_LANGUAGE", name))
    return each(clause, lambda s: [slot_finding(s, slot, n, action_of(clause))
                                   for slot, n in found])


#: Plural nouns that name a whole slot: "off all diets", "off phones for a month".
_WHOLE_SLOTS = MappingProxyType({"diets": "DIET", "phones": "HAS_PHONE", "sports": "PLAYS_SPORT",
                                 "cars": "DRIVES", "smartphones": "HAS_PHONE"})


def off_thing(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm off keto now", "I'm off all diets", "off phones for a month": that value, or any
    value of the slot, no longer holds."""
    if clause.modal in NOT_SO or clause.tense == "past" or clause.negated:
        return []
    verb = clause.verb
    off = pobjs(verb, ("off",))
    if any(c.lower_ == "off" for c in verb.children):  # parsed "off" + an attribute
        off += [c for c in verb.children if c.dep_ == "attr"]
    found: list[tuple[str, str]] = []
    for t in off:
        if t.lower_ in _WHOLE_SLOTS:
            found.append((_WHOLE_SLOTS[t.lower_], ""))
        elif (n := value_name(t)) and (slot := value_slot(n, t)) in (
                "DIET", "PLAYS_SPORT", "HAS_PHONE", "DRIVES", "MAIN_LANGUAGE"):
            found.append((slot, n))
    return each(clause, lambda s: [slot_finding(s, slot, n, "retract") for slot, n in found])


def call_home(clause: Clause, speech: Speech) -> list[Finding]:
    """"I now call Lisbon home", "I call Berlin my home": where one lives."""
    verb = clause.verb
    if clause.modal in NOT_SO or clause.tense == "past" or clause.negated:
        return []
    objects = [c for c in verb.children if c.dep_ in ("dobj", "oprd", "xcomp", "ccomp")]
    if not any(t.lemma_.lower() == "home" for t in objects):
        return []
    places = [c for t in objects for c in [t, *t.children] if c.lemma_.lower() != "home"
              and c.dep_ in ("dobj", "compound", "nsubj") and is_named(c)]
    return each(clause, lambda s: [Finding(s, "LIVES_IN", n, "place", action_of(clause))
                                   for t in places if (n := phrase(t))])


def got_new(clause: Clause, speech: Speech) -> list[Finding]:
    """"Got a new phone, a Pixel 8", "bought a new car: a Kia Niro": the appositive value."""
    if clause.negated or clause.modal:
        return []
    out: list[Finding] = []
    for noun in dobjs(clause.verb):
        slot = SLOT_THINGS.get(noun.lemma_.lower())
        # "a Mazda 3 hatchback, first car ever": an appositive kind of thing names no model
        values = [c for c in noun.children if c.dep_ == "appos"
                  and c.lemma_.lower() not in SLOT_THINGS]
        if slot is None or not values:
            continue
        out += each(clause, lambda s: [Finding(s, slot, n, "product")
                                        for v in values if (n := value_name(v))])
    return out


def born(clause: Clause, speech: Speech) -> list[Finding]:
    """"Our daughter Mia was born in September": the child, dated by the sentence."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.tense == "future":
        return []
    out: list[Finding] = []
    for t in (c for c in verb.children if c.dep_ == "nsubjpass"):
        relation = KIN.get(t.lemma_.lower())
        name = appositive_name(t)
        if relation != "HAS_CHILD" or name is None or possessor(t) != "me" or \
                not speech.first_person:
            continue
        out.append(Finding(speech.me(), "HAS_CHILD", name, "person", timing="event",
                           confidence=0.9, statement=f"{{s's}} {t.lower_} {name} was born"))
    return out


def support(clause: Clause, speech: Speech) -> list[Finding]:
    """"I support Arsenal", "I no longer support Arsenal": a team one follows."""
    if clause.modal in NOT_SO or clause.tense == "past":
        return []
    teams = [t for t in dobjs(clause.verb) if is_named(t)]
    return each(clause, lambda s: [Finding(s, "LIKES", n, "organization", action_of(clause),
                                            timing="none") for t in teams if (n := phrase(t))])


def progressive_slot(sent: Span, speech: Speech) -> list[Finding]:
    """"My sport is running", parsed as the progressive of "run"."""
    out: list[Finding] = []
    for t in sent:
        slot = slot_noun(t) if t.dep_ == "nsubj" else None
        head = t.head.head if t.head.dep_ == "aux" else t.head
        if slot != "PLAYS_SPORT" or head.tag_ != "VBG" or not any(
                a.lemma_ == "be" for a in head.children if a.dep_ == "aux"):
            continue
        owner = owner_of(t, speech)
        if owner is not None:
            out.append(Finding(owner, slot, head.lower_, "activity"))
    return out


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    **{word: (sport_word,) for word in SPORTS if " " not in word},
    "bear": (born,), "support": (support,),
    "be": (slot_copula, with_org, out_of_work, on_thing, off_thing, language_at_work),
    "become": (slot_copula,), "drive": (drive,), "lease": (drive,),
    "employ": (employed,), "hire": (employed,), "poach": (employed,), "recruit": (employed,), "headhunt": (employed,),
    "lure": (employed,),
    "settle": (settle_in,), "end": (settle_in,),
    "write": (main_language,), "code": (main_language,), "program": (main_language,),
    "develop": (main_language,), "use": (as_my, use_thing), "have": (as_my,),
    "get": (got_new,), "buy": (got_new,), "call": (call_home,),
})
#: Words the sentence gate must let through for these rules.
TRIGGERS: frozenset[str] = _UNEMPLOYED | {"jobs", "born", "settled"}
PATTERNS: tuple[re.Pattern[str], ...] = (_WITH_ORG,)
