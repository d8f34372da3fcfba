"""Verb rules for change: a slot's value opens, closes or is replaced.

Three families, each read off the parse rather than listed as phrases:

* **states** open a value: a possessed slot noun linked to a value by a copula
  ("my phone is a Pixel 8", "Rust is my go-to language now", "home for me is
  Oslo", "Camille became my boss"), a diet word in any clause about oneself
  ("I eat vegan", "I went vegetarian"), "I drive X", "I report to X",
  "employed by X", "I'm with X", "settled in X", "started at X";
* **cessation** verbs (stop, quit, give up, drop, ditch, sell, rehome, leave)
  close the value they take as object, and a negated state ("not ... anymore",
  "no longer", "never") closes what it would have opened;
* **transitions** (switch/move/go from X to Y, replace/swap X with/for Y, trade
  in X for Y) close X and open Y.

Which slot a value belongs to comes from :mod:`graphmem.extract.rules_slots`;
a slot named without a value ("I'm unemployed", "I don't do any sport now")
closes whatever its current value is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules_clause import (
    KIN, PETS, Action, Clause, Finding, Party, Rule, Speech, appositive_name, conjuncts,
    is_person_name, possessor)
from graphmem.extract.rules_copula import copula_subjects
from graphmem.extract.rules_lexicon import (
    dobjs, has_prt, is_named, is_org, is_place, object_type, pobjs)
from graphmem.extract.rules_phrases import phrase
from graphmem.extract.rules_slots import (
    DIETS, SLOT_THINGS, SLOT_TYPES, SPORT_VERBS, SPORTS, is_language, slot_noun, value_slot)
from graphmem.extract.terms import TECH_LABEL

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

_PAST_STATES = ("would", "could", "should", "might")
#: Words that make a possessed slot noun the *current* one ("my main sport", "my new boss").
_UNEMPLOYED = frozenset({"unemployed", "jobless", "retired"})
_ALL_OF_IT = frozenset({"everything", "all", "most", "mostly", "mainly", "primarily",
                        "exclusively", "only", "nothing"})
_DIET_VERBS = frozenset({"be", "eat", "go", "become", "turn", "try", "follow", "stay", "start",
                         "keep", "live", "do", "switch", "get"})
_CONSUMING = frozenset({"drink", "eat", "smoke", "have", "buy", "take"})
#: "I'm with Globex", "I'm not at Cyberdyne anymore": a name after a copula and "with"/"at".
GATE_PATTERN = re.compile(r"(?:'m|\b[Aa]m|'re|\b[Aa]re|\b[Ii]s|\b[Bb]e|\b[Bb]een)\s+"
                          r"(?:\w+\s+){0,2}(?:with|at)\s+[A-Z]|\bout\s+of\s+work\b")
#: Words the sentence gate must let through for these rules.
TRIGGERS = _UNEMPLOYED | {"jobs", "born", "rehomed", "rehome", "settled", "together", "died",
                          "passed", "done", "through"}


def _each(clause: Clause, make: Callable[[Party], list[Finding]]) -> list[Finding]:
    return [f for s in clause.subjects for f in make(s)]


def _action(clause: Clause) -> Action:
    return "retract" if clause.negated or clause.ended else "assert"


def _value(token: Token) -> str | None:
    """A slot value's name: "a Pixel 8" -> "Pixel 8", "a keto diet" -> "keto"."""
    if token.lemma_.lower() == "diet":
        words = [c.lower_ for c in token.children if c.dep_ in ("amod", "compound")
                 and c.lower_ in DIETS]
        return words[0] if words else None
    if token.lower_ in DIETS:
        return token.lower_
    if token.pos_ in ("VERB", "AUX") and token.text[:1].isupper():
        return token.text  # "Go is my main language": the parser read a verb
    name = phrase(token)
    if name is None and token.pos_ == "PROPN":  # "an iPhone 12" merged as a number
        words = token.text.split()
        name = " ".join(words[1:] if words[0].lower() in ("a", "an", "the", "my") else words)
    after = token.nbor(1) if token.i + 1 < len(token.doc) else None
    if name and after is not None and after.tag_ == "CD" and token.pos_ == "PROPN" and \
            after.head != token and not name.endswith(after.text):
        name = f"{name} {after.text}"  # "a Pixel 8 as my phone": the parser lost the "8"
    return name


def _slot_finding(s: Party, slot: str, name: str, action: Action, **kw: object) -> Finding:
    return Finding(s, slot, name, SLOT_TYPES.get(slot, "concept"), action, **kw)  # type: ignore[arg-type]


def _slot_for(slot: str, token: Token) -> str | None:
    """Check a value fits the slot its noun names; None when it does not."""
    name = _value(token)
    if not name or name.lower() in ("it", "this", "that", "what", "who", "one"):
        return None
    if slot == "REPORTS_TO" and not (is_person_name(token, _NOBODY) or token.text[:1].isupper()):
        return None
    if slot == "LIVES_IN" and not (is_place(token) or token.text[:1].isupper()):
        return None
    if slot == "WORKS_AT" and not token.text[:1].isupper():
        return None
    if slot == "MAIN_LANGUAGE" and not is_language(name):
        return None
    if slot == "PLAYS_SPORT" and value_slot(name) != "PLAYS_SPORT" and token.tag_ != "VBG":
        return None
    if slot == "DIET" and value_slot(name) != "DIET":
        return None
    return name.lower() if slot in ("PLAYS_SPORT", "DIET") else name  # "Tennis is my sport"


_NOBODY = Speech("", False, frozenset())


def slot_copula(clause: Clause, speech: Speech) -> list[Finding]:
    """"my phone is X", "X is my only sport now", "home for me is X", "X became my boss"."""
    verb = clause.verb
    if clause.modal in _PAST_STATES or (clause.tense == "past" and clause.lemma == "be"):
        return []
    sides = copula_subjects(verb) + [c for c in verb.children if c.dep_ in ("attr", "acomp",
                                                                            "oprd")]
    action = _action(clause)
    out: list[Finding] = []
    for noun in sides:
        slot = slot_noun(noun)
        owner = _possessed_by(noun, speech)
        if slot is None or owner is None or any(
                c.lower_ in ("favorite", "favourite", "fave", "dream", "ideal", "first", "old",
                             "previous", "former", "last", "ex") for c in noun.children):
            continue  # a favourite is not the current value; a former one is not either
        for other in sides:
            if other is noun or other.dep_ == noun.dep_ and other.dep_ != "attr" or \
                    other.dep_ in ("nsubj", "csubj", "conj") and noun.dep_ in ("nsubj", "conj"):
                continue
            for value in [other, *conjuncts(other)]:
                if (name := _slot_for(slot, value)) is not None:
                    out.append(_slot_finding(owner, slot, name, action))
    return out


def _possessed_by(noun: Token, speech: Speech) -> Party | None:
    """"my manager" -> the speaker; "Ana's car" -> Ana; "home for me" -> the speaker."""
    for c in noun.children:
        if c.dep_ == "poss":
            if c.lower_ in ("my", "our"):
                return speech.me() if speech.first_person else None
            if is_person_name(c, speech):
                return Party(c.text, "person")
    for t in pobjs(noun, ("for",)):
        if t.lower_ in ("me", "us") and speech.first_person:
            return speech.me()
    if noun.lower_ == "home" and noun.dep_ == "attr" and speech.first_person and not any(
            c.dep_ in ("det", "poss", "prep") for c in noun.children):
        return speech.me()  # "Lisbon is home now"
    return None


def with_org(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm with Globex now", "I'm no longer with Accenture": an employer."""
    if clause.lemma != "be" or clause.modal in _PAST_STATES or clause.tense == "past":
        return []
    orgs = [t for t in pobjs(clause.verb, ("with",)) if is_named(t) and possessor(t) is None
            and t.ent_type_ not in ("GPE", "LOC", "NORP") and t.text not in speech.speakers
            and (t.ent_type_ != "PERSON" or " " in t.text)]
    titled = bool(pobjs(clause.verb, ("as",))) or clause.perfect  # "I've been at Shopify for..."
    orgs += [t for t in pobjs(clause.verb, ("at",)) if is_org(t) and t.ent_type_ == "ORG"
             or (clause.ended or titled) and (is_named(t) or t.ent_type_ == TECH_LABEL)
             and t.ent_type_ not in ("GPE", "LOC")]
    orgs = list(dict.fromkeys(orgs))
    titles = [t for t in pobjs(clause.verb, ("as",))]
    action = _action(clause)
    return _each(clause, lambda s: [Finding(s, "WORKS_AT", n, "organization", action)
                                    for t in orgs if (n := phrase(t))]
                 + [Finding(s, "JOB_TITLE", n, "role", action) for t in titles
                    if orgs and (n := phrase(t))])


def out_of_work(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm unemployed for now", "between jobs", "out of work": no employer at the moment."""
    verb = clause.verb
    if clause.modal in _PAST_STATES or clause.tense == "past" or clause.negated:
        return []
    said = any(c.lower_ in _UNEMPLOYED for c in verb.children if c.dep_ in ("acomp", "attr"))
    said = said or any(t.lemma_.lower() == "job" for t in pobjs(verb, ("between",)))
    said = said or any(t.lower_ == "work" for p in verb.children if p.lower_ == "out"
                       for t in pobjs(p, ("of",)))
    if not said:
        return []
    return _each(clause, lambda s: [Finding(s, "WORKS_AT", "", "organization", "retract")])


def diet(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm vegan", "I eat pescatarian", "I went vegetarian", "I'm trying a keto diet now"."""
    verb = clause.verb
    if clause.modal in _PAST_STATES or clause.lemma not in _DIET_VERBS:
        return []
    if any(c.dep_ == "prep" and c.lower_ in ("from", "to") for c in verb.children):
        return []  # "went from vegetarian to vegan" is a transition
    if clause.lemma == "be" and clause.tense == "past" and not clause.perfect:
        return []
    words: list[Token] = []
    for c in verb.children:
        if c.dep_ in ("acomp", "attr", "oprd", "dobj", "advmod", "npadvmod", "xcomp", "ccomp",
                      "amod", "nsubj") and c.dep_ != "nsubj":
            words += [c, *conjuncts(c)]
            words += [x for x in c.children if x.dep_ in ("amod", "compound", "acomp")]
    names = list(dict.fromkeys(w.lower_ for w in words if w.lower_ in DIETS
                               or w.lemma_.lower() in DIETS))
    action = _action(clause)
    eats_all = clause.lemma == "eat" and any(t.lower_ in ("everything", "anything")
                                             for t in dobjs(verb)) and not clause.negated
    if eats_all:  # "I eat everything again": no diet any more
        return _each(clause, lambda s: [Finding(s, "DIET", "", "diet", "retract")])
    return _each(clause, lambda s: [Finding(s, "DIET", n, "diet", action) for n in names])


def drive(clause: Clause, speech: Speech) -> list[Finding]:
    """"I drive a Honda Civic", "I don't drive the Volvo anymore"."""
    if clause.modal in _PAST_STATES or clause.tense == "past" and not clause.perfect:
        return []
    cars = [t for t in dobjs(clause.verb) if t.pos_ in ("PROPN", "NOUN")
            and (value_slot(phrase(t) or "") == "DRIVES" or t.text[:1].isupper())]
    action = _action(clause)
    if not dobjs(clause.verb) and clause.ended:  # "I no longer drive"
        return _each(clause, lambda s: [Finding(s, "DRIVES", "", "product", "retract")])
    return _each(clause, lambda s: [Finding(s, "DRIVES", n, "product", action)
                                    for t in cars if (n := phrase(t))])


def report_to(clause: Clause, speech: Speech) -> list[Finding]:
    """"I report to Yusuf now": the manager."""
    if clause.modal in _PAST_STATES or clause.tense == "past" and not clause.perfect:
        return []
    bosses = [t for t in pobjs(clause.verb, ("to",)) if t.text[:1].isupper()]
    action = _action(clause)
    return _each(clause, lambda s: [Finding(s, "REPORTS_TO", t.text, "person", action)
                                    for t in bosses])


def employed(clause: Clause, speech: Speech) -> list[Finding]:
    """"employed by Globex", "hired by Oscorp": the employer."""
    if clause.negated or clause.modal in _PAST_STATES:
        return []
    orgs = [t for t in pobjs(clause.verb, ("by", "at")) if t.text[:1].isupper()]
    titles = pobjs(clause.verb, ("as",))
    return _each(clause, lambda s: [Finding(s, "WORKS_AT", n, "organization")
                                    for t in orgs if (n := phrase(t))]
                 + [Finding(s, "JOB_TITLE", n, "role") for t in titles if (n := phrase(t))])


def started_at(clause: Clause, speech: Speech) -> list[Finding]:
    """"Started at Cyberdyne on Monday!", "I started at Etsy in February"."""
    verb = clause.verb
    if clause.negated or clause.modal or dobjs(verb) or \
            any(c.dep_ == "xcomp" for c in verb.children):
        return []
    orgs = [t for t in pobjs(verb, ("at", "with")) if is_named(t)
            and t.text not in speech.speakers]
    titles = pobjs(verb, ("as",))
    return _each(clause, lambda s: [Finding(s, "WORKS_AT", n, "organization", timing="event")
                                    for t in orgs if (n := phrase(t))]
                 + [Finding(s, "JOB_TITLE", n, "role") for t in titles
                    if orgs and (n := phrase(t))])


def settle_in(clause: Clause, speech: Speech) -> list[Finding]:
    """"Finally settled in Prague": a new home."""
    if clause.negated or clause.modal:
        return []
    places = [t for t in pobjs(clause.verb, ("in", "into")) if is_place(t)]
    return _each(clause, lambda s: [Finding(s, "LIVES_IN", n, "place")
                                    for t in places if (n := phrase(t))])


def main_language(clause: Clause, speech: Speech) -> list[Finding]:
    """"I write almost everything in Go", "I code mostly in Rust": the main language."""
    verb = clause.verb
    if clause.negated or clause.modal in _PAST_STATES or clause.tense == "past":
        return []
    tokens = [*dobjs(verb), *[c for c in verb.children if c.dep_ == "advmod"]]
    tokens += [x for t in tokens for x in t.children if x.dep_ == "advmod"]
    if not any(t.lower_ in _ALL_OF_IT for t in tokens):
        return []
    langs = list(dict.fromkeys(
        n for t in pobjs(verb, ("in", "with")) + [x for o in dobjs(verb) for x in pobjs(o, ("in",))]
        if (n := phrase(t)) and is_language(n)))
    if len(langs) != 1:
        return []  # "mostly in Python and TypeScript" names no single main language
    return _each(clause, lambda s: [Finding(s, "MAIN_LANGUAGE", langs[0], "technology")])


def as_my(clause: Clause, speech: Speech) -> list[Finding]:
    """"I use a Galaxy S24 as my phone": the object fills the slot named after "as my"."""
    verb = clause.verb
    if clause.modal in _PAST_STATES or clause.tense == "past" and not clause.perfect:
        return []
    action = _action(clause)
    out: list[Finding] = []
    for noun in pobjs(verb, ("as",)):
        slot = slot_noun(noun)
        if slot is None or possessor(noun) != "me":
            continue
        out += _each(clause, lambda s: [Finding(s, slot, n, SLOT_TYPES.get(slot, "concept"),
                                                action)
                                        for t in dobjs(verb) if (n := _slot_for(slot, t))])
    return out


def use_thing(clause: Clause, speech: Speech) -> list[Finding]:
    """"I use an Android phone", "I don't use my Pixel anymore": the slot the thing fills."""
    if clause.modal in _PAST_STATES or clause.tense == "past" and not clause.perfect:
        return []
    out: list[Finding] = []
    for t in dobjs(clause.verb):
        slot = SLOT_THINGS.get(t.lemma_.lower())
        if slot and any(c.dep_ == "compound" for c in t.children) and (n := phrase(t)):
            out += _each(clause, lambda s: [Finding(s, slot, n, "product", _action(clause))])
    return out


def got_new(clause: Clause, speech: Speech) -> list[Finding]:
    """"Got a new phone, a Pixel 8", "bought a new car: a Kia Niro": the appositive value."""
    if clause.negated or clause.modal:
        return []
    out: list[Finding] = []
    for noun in dobjs(clause.verb):
        slot = SLOT_THINGS.get(noun.lemma_.lower())
        values = [c for c in noun.children if c.dep_ == "appos"]
        if slot is None or not values:
            continue
        out += _each(clause, lambda s: [Finding(s, slot, n, "product")
                                        for v in values if (n := _value(v))])
    return out


def no_slot(clause: Clause, speech: Speech) -> list[Finding]:
    """"I don't do any sport now", "I don't have a manager": the slot is empty."""
    if not (clause.negated or clause.ended):
        return []
    out: list[Finding] = []
    for t in dobjs(clause.verb):
        slot = slot_noun(t)
        if slot in ("PLAYS_SPORT", "DIET", "REPORTS_TO", "DRIVES", "HAS_PHONE", "WORKS_AT") \
                and possessor(t) in (None, "me") and not any(
                    c.dep_ == "compound" for c in t.children):
            out += _each(clause, lambda s: [Finding(s, slot, "", SLOT_TYPES[slot], "retract")])
    return out


def _old_new(verb: Token, lemma: str) -> tuple[list[Token], list[Token]]:
    """What a transition leaves and what it takes up."""
    if lemma in ("replace", "swap", "trade", "exchange", "ditch", "drop", "dump", "leave", "quit"):
        old = dobjs(verb) + (pobjs(verb, ("in",)) if lemma == "trade" else [])  # "traded in X"
        return old, pobjs(verb, ("with", "for")) + [x for o in old for x in pobjs(o, ("for",))]
    old = pobjs(verb, ("from",)) + [x for o in dobjs(verb) for x in pobjs(o, ("from",))]
    inner = [x for p in verb.children if p.dep_ == "prep" and p.lower_ == "from"
             for x in pobjs(p, ("to",))] + [x for o in old for x in pobjs(o, ("to",))]
    misread = [c for c in verb.children if c.dep_ == "xcomp" and value_slot(c.lower_)
               and any(a.lower_ == "to" for a in c.children)]  # "to keto" read as a verb
    new = pobjs(verb, ("to",)) + inner + misread
    return [t for t in old if t not in new], new


def transition(clause: Clause, speech: Speech) -> list[Finding]:
    """switch/move/go/change from X to Y, replace/swap X with Y, trade in X for Y."""
    verb = clause.verb
    if clause.negated or clause.modal in ("would", "could", "should", "might"):
        return []
    old, new = _old_new(verb, clause.lemma)
    named = next((s for t in dobjs(verb) if (s := slot_noun(t))
                  and possessor(t) in (None, "me")), None)
    slot = named or next((s for t in [*new, *old] if (s := _slot_of(t, clause.lemma))), None)
    if slot is None:
        return []
    if named:  # "changed jobs from IBM to SAP": the object names the slot
        news = [n for t in new if (n := _slot_for(slot, t))]
        olds = [n for t in old if (n := _slot_for(slot, t))]
    else:
        news = [n for t in new if (n := _slot_value(t, slot))]
        olds = [n for t in old if (n := _slot_value(t, slot))]
    if not olds and any(SLOT_THINGS.get(t.lemma_.lower()) == slot for t in old):
        olds = [""]  # "traded in my car for X": whichever car it was
    out: list[Finding] = []
    for who in clause.subjects:
        out += [_slot_finding(who, slot, o, "retract") for o in olds]
        out += [_slot_finding(who, slot, n, "assert") for n in news]
    return out


def _slot_of(token: Token, lemma: str) -> str | None:
    name = _value(token) or ""
    slot = value_slot(name, token)
    if slot is not None:
        return slot
    if SLOT_THINGS.get(token.lemma_.lower()):
        return SLOT_THINGS[token.lemma_.lower()]
    if lemma in ("move", "relocate") and (is_place(token) or is_named(token)):
        return "LIVES_IN"
    return None


def _slot_value(token: Token, slot: str) -> str | None:
    if token.lemma_.lower() in SLOT_THINGS and not any(
            c.dep_ in ("compound", "appos") for c in token.children):
        return None
    name = _value(token)
    if name is None:
        return None
    if slot == "LIVES_IN":
        return name if is_place(token) or is_named(token) else None
    return name if value_slot(name, token) == slot else None


def cease(clause: Clause, speech: Speech) -> list[Finding]:
    """stop / quit / give up / drop / ditch / sell / rehome / leave: the value they name ends."""
    verb = clause.verb
    lemma = clause.lemma
    if clause.negated or clause.modal in ("would", "could", "should", "might"):
        return []
    if lemma == "give" and not has_prt(verb, "up"):
        return []
    objects = dobjs(verb) + pobjs(verb, ("on",) if lemma == "give" else ())
    objects += [c for c in verb.children if c.dep_ == "xcomp" and c.tag_ == "VBG"]
    owners = clause.subjects
    passive = [c for c in verb.children if c.dep_ == "nsubjpass"]
    if passive and lemma in ("rehome", "sell", "give", "adopt"):
        objects, owners = passive, []
        for t in passive:
            holder = t if possessor(t) else next(
                (c for c in t.children if c.dep_ == "appos" and possessor(c)), t)
            if possessor(holder) == "me" and speech.first_person:
                owners = [speech.me()]
    out: list[Finding] = []
    for t in objects:
        out += _ended(t, lemma, owners, speech)
    return out


def _ended(t: Token, lemma: str, owners: list[Party], speech: Speech) -> list[Finding]:
    """What ends when ``t`` is given up, sold, rehomed or left."""
    word = t.lemma_.lower()
    if t.tag_ == "VBG" or t.pos_ == "VERB":
        if t.lemma_ in ("be", "eat", "go"):  # "gave up being vegetarian", "stopped eating vegan"
            names = [c.lower_ for c in t.children if c.lower_ in DIETS]
            if names or t.lemma_ == "be":
                return [Finding(s, "DIET", n, "diet", "retract") for s in owners for n in names]
        if t.lemma_ in SPORT_VERBS:
            return [Finding(s, "PLAYS_SPORT", SPORT_VERBS[t.lemma_], "activity", "retract")
                    for s in owners]
        if t.lemma_ in _CONSUMING:  # "stopped drinking coffee"
            return [Finding(s, "LIKES", n, object_type(o), "retract") for s in owners
                    for o in dobjs(t) if (n := phrase(o))]
        if t.lemma_ in ("play", "do"):
            return [Finding(s, "PLAYS_SPORT", n, "activity", "retract") for s in owners
                    for o in dobjs(t) if (n := phrase(o)) and value_slot(n) == "PLAYS_SPORT"]
        return []
    name = _value(t)
    if not name:
        return []
    slot = value_slot(name, t)
    pet_named = word in PETS or (lemma == "rehome")
    if slot == "PLAYS_SPORT" or name.lower() in SPORTS:
        return [Finding(s, "PLAYS_SPORT", name, "activity", "retract") for s in owners]
    if slot == "DIET":
        return [Finding(s, "DIET", name, "diet", "retract") for s in owners]
    if pet_named and lemma in ("rehome", "sell", "give", "lose"):
        called = appositive_name(t)
        named = [called] if called else (
            [t.text] if t.text[:1].isupper() and word not in PETS else [])
        if not named and word in PETS:
            named = [phrase(t) or word]
        return [Finding(s, "HAS_PET", n, "animal", "retract") for s in owners for n in named]
    if slot == "MAIN_LANGUAGE" and t.ent_type_ == TECH_LABEL:
        return []  # the usage rules retract USES; settle() adds MAIN_LANGUAGE
    if lemma == "leave" and is_place(t) and t.ent_type_ in ("GPE", "LOC"):
        return [Finding(s, "LIVES_IN", name, "place", "retract") for s in owners]
    if lemma in ("give", "quit", "stop") and slot is None and t.pos_ == "NOUN" and \
            word not in ("job", "work", "position", "role") and possessor(t) is None:
        return [Finding(s, "LIKES", name, object_type(t), "retract") for s in owners]
    return []


def consume(clause: Clause, speech: Speech) -> list[Finding]:
    """"I don't drink coffee anymore": what one no longer has stops being a liking."""
    if not clause.ended:
        return []
    things = [t for t in dobjs(clause.verb) if t.lower_ not in DIETS and t.pos_ == "NOUN"]
    return _each(clause, lambda s: [Finding(s, "LIKES", n, object_type(t), "retract",
                                            timing="none") for t in things if (n := phrase(t))])


def together(clause: Clause, speech: Speech) -> list[Finding]:
    """"Chris and I aren't together anymore": the partner fact ends."""
    verb = clause.verb
    if not clause.ended or not any(c.lower_ == "together" for c in verb.children):
        return []
    me = [s for s in clause.subjects if s.is_speaker]
    others = [s.name for s in clause.subjects if not s.is_speaker and s.type == "person"]
    return [Finding(s, "HAS_PARTNER", others[0] if len(others) == 1 else "", "person", "retract")
            for s in me]


def pass_away(clause: Clause, speech: Speech) -> list[Finding]:
    """"Our cat Luna passed away", "my dog died": the pet is gone."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.tense == "future" or (
            clause.lemma == "pass" and not has_prt(verb, "away")):
        return []
    out: list[Finding] = []
    for t in (c for c in verb.children if c.dep_ == "nsubj"):
        if t.lemma_.lower() in PETS and possessor(t) == "me" and speech.first_person:
            name = appositive_name(t) or phrase(t)
            if name:
                out.append(Finding(speech.me(), "HAS_PET", name, "animal", "retract"))
    return out


def done_with(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm done with Java", "I'm through with tennis": it has ended."""
    verb = clause.verb
    word = verb if verb.lower_ in ("done", "through", "finished") else next(
        (c for c in verb.children if c.dep_ == "acomp" and c.lower_ in ("done", "through")), None)
    if word is None or clause.negated or clause.modal:
        return []
    out: list[Finding] = []
    for t in pobjs(word, ("with",)) + (pobjs(verb, ("with",)) if word is not verb else []):
        name = _value(t)
        if name and is_language(name) or t.ent_type_ == TECH_LABEL:
            out += [Finding(s, "USES", name or t.text, "technology", "retract")
                    for s in clause.subjects]
        else:
            out += _ended(t, "stop", clause.subjects, speech)
    return out


def move_out(clause: Clause, speech: Speech) -> list[Finding]:
    """"I moved out of Boston": the old home ends."""
    verb = clause.verb
    if clause.negated or clause.modal:
        return []
    places = [t for p in verb.children if p.lower_ == "out" for t in pobjs(p, ("of",))
              if is_place(t)]
    places += [t for t in pobjs(verb, ("out",)) if is_place(t)]
    return _each(clause, lambda s: [Finding(s, "LIVES_IN", n, "place", "retract")
                                    for t in places if (n := phrase(t))])


def diet_word(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm not keto anymore" when the parser reads the diet word as a verb."""
    if clause.modal in _PAST_STATES or clause.verb.lower_ not in DIETS:
        return []
    word = clause.verb.lower_
    return _each(clause, lambda s: [Finding(s, "DIET", word, "diet", _action(clause))])


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
    if clause.modal in _PAST_STATES or clause.tense == "past":
        return []
    teams = [t for t in dobjs(clause.verb) if is_named(t)]
    return _each(clause, lambda s: [Finding(s, "LIKES", n, "organization", _action(clause),
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
        owner = _possessed_by(t, speech)
        if owner is not None:
            out.append(Finding(owner, slot, head.lower_, "activity"))
    return out


RULES: MappingProxyType[str, tuple[Rule, ...]] = MappingProxyType({
    **{word: (diet_word,) for word in DIETS}, "bear": (born,), "support": (support,),
    "be": (slot_copula, with_org, out_of_work, diet, together, done_with),
    "drink": (consume,), "smoke": (consume,), "pass": (pass_away,), "die": (pass_away,),
    "do": (no_slot, done_with),
    "become": (slot_copula, diet), "eat": (diet, consume), "go": (diet, transition), "turn": (diet,),
    "try": (diet,), "follow": (diet, no_slot), "stay": (diet,), "keep": (diet,),
    "drive": (drive,), "report": (report_to,), "employ": (employed,), "hire": (employed,),
    "start": (started_at,), "settle": (settle_in,),
    "write": (main_language,), "code": (main_language,), "program": (main_language,),
    "develop": (main_language,),
    "use": (as_my, use_thing), "have": (as_my, no_slot),
    "get": (got_new,), "buy": (got_new,),
    "switch": (transition,), "move": (transition, move_out), "change": (transition,),
    "replace": (transition,), "swap": (transition,), "trade": (transition,),
    "exchange": (transition,), "upgrade": (transition,), "relocate": (transition,),
    "stop": (cease,), "quit": (cease, transition), "give": (cease,), "drop": (cease, transition),
    "ditch": (cease, transition), "abandon": (cease,), "sell": (cease,), "rehome": (cease,),
    "leave": (cease, transition), "dump": (cease, transition),
})
