"""Verb rules for change: a slot's value closes, or is replaced.

* **cessation** verbs (stop, quit, give up, drop, ditch, sell, rehome, leave,
  "done with") close the value they take as object, and a slot
  named without a value ("I don't do any sport now", "I no longer drive",
  "we're no longer together") closes whatever its current value is;
* **transitions** (switch/move/go/change from X to Y, replace/swap X with/for Y,
  trade in X for Y, ditch X for Y) close X and open Y, in the slot the values
  or the verb's object name ("changed jobs from IBM to SAP").

Opening values is :mod:`graphmem.extract.rules.families.states`; a pet gone (died, ran
away, lost) is :mod:`.loss`; negated states are closed by dispatch._never_asserted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import (Clause, Finding, Rule, ahead_of_its_sentence, each,
                                           has_time)
from graphmem.extract.rules.lexicon import (
    ACTIVITY_VERBS, LANGUAGE_LABELS, SPOKEN_LANGUAGES, dobjs, has_prt, is_named, is_place,
    is_school, object_type, pobjs, taken_up, talks_of_work)
from graphmem.extract.rules.moves import (ends_a_childhood, firm_not_town, moved_to_a_job,
                                          moves_a_thing)
from graphmem.extract.rules.parties import (KIN, PETS, Party, Speech, appositive_name, conjuncts,
                                            has_det, possessor)
from graphmem.extract.rules.phrases import gerund, phrase
from graphmem.extract.rules.slots import (
    DIETS, SLOT_THINGS, SLOT_TYPES, SPORT_VERBS, SPORTS, fits, is_language,
    slot_finding, slot_noun, value_name, value_slot)
from graphmem.extract.rules.terms import TECH_LABEL

if TYPE_CHECKING:
    from spacy.tokens import Token

_CONSUMING = frozenset({"drink", "eat", "smoke", "have", "buy", "take"})
#: "I'm with Globex", "I'm not at Cyberdyne anymore": a name after a copula and "with"/"at".


def no_slot(clause: Clause, speech: Speech) -> list[Finding]:
    """"I don't do any sport now", "I don't have a manager": the slot is empty. Not "I never
    had a proper job before Acme", which speaks of a time before one."""
    if not (clause.negated or clause.ended):
        return []
    if any(c.dep_ == "prep" and c.lower_ in ("before", "until", "till")
           for t in (clause.verb, *dobjs(clause.verb)) for c in t.children):
        return []
    out: list[Finding] = []
    for t in dobjs(clause.verb):
        slot = slot_noun(t)
        if slot in ("PLAYS_SPORT", "DIET", "REPORTS_TO", "DRIVES", "HAS_PHONE", "WORKS_AT") \
                and possessor(t) in (None, "me") and not any(
                    c.dep_ == "compound" for c in t.children):
            out += each(clause, lambda s: [Finding(s, slot, "", SLOT_TYPES[slot], "retract")])
    return out


def _old_new(verb: Token, lemma: str) -> tuple[list[Token], list[Token]]:
    """What a transition leaves and what it takes up."""
    passive = [c for c in verb.children if c.dep_ == "nsubjpass"]
    if lemma == "replace" and passive:  # "The Pixel 6 has been replaced by a Galaxy S21 FE"
        return passive, pobjs(verb, ("by", "with"))
    if lemma in ("replace", "swap", "trade", "exchange", "ditch", "drop", "dump", "leave", "quit"):
        old = dobjs(verb) + (pobjs(verb, ("in",)) if lemma == "trade" else [])  # "traded in X"
        to = ("to",) if lemma == "swap" else ()  # "swapped to a Moto G84"
        return old, pobjs(verb, ("with", "for", *to)) + [x for o in old for x in pobjs(o, ("for",))]
    old = pobjs(verb, ("from",)) + [x for o in dobjs(verb) for x in pobjs(o, ("from",))]
    inner = [x for p in verb.children if p.dep_ == "prep" and p.lower_ == "from"
             for x in pobjs(p, ("to",))] + [x for o in old for x in pobjs(o, ("to",))]
    misread = [c for c in verb.children if c.dep_ in ("xcomp", "advcl") and value_slot(c.lower_)
               and any(a.lower_ == "to" for a in c.children)]  # "to keto" read as a verb
    new = pobjs(verb, ("to",)) + inner + misread
    return [t for t in old if t not in new], new


def transition(clause: Clause, speech: Speech) -> list[Finding]:
    """switch/move/go/change from X to Y, replace/swap X with Y, trade in X for Y."""
    verb = clause.verb
    if clause.negated or clause.modal in ("would", "could", "should", "might"):
        return []
    if clause.tense == "future" and not has_time(verb) or ahead_of_its_sentence(verb) \
            or ends_a_childhood(verb):
        return []  # "I'm going to switch to a Honda", "... before I move to York": not yet
    if clause.lemma == "drop" and _fell(verb):
        return []
    old, new = _old_new(verb, clause.lemma)
    moved_on = clause.lemma == "move" and has_prt(verb, "on")
    if moved_on and not any(_slot_of(t, "switch", speech) for t in [*old, *new]):
        # "I've moved on from Acme" (not "from vegetarian to vegan", a change of diet)
        return _moved_on(clause, speech, old, new)
    named = next((s for t in dobjs(verb) if (s := slot_noun(t))
                  and possessor(t) in (None, "me")), None)
    subjects = clause.subjects
    if speech.first_person and old and new and any(c.dep_ == "nsubjpass" for c in verb.children):
        subjects = [speech.me()]  # "The Pixel 6 has been replaced by X": the speaker's thing
    taking = [t for t in verb.children if t.dep_ == "nsubj" and clause.lemma == "replace"
              and _slot_of(t, clause.lemma, speech) in _OWN_VALUES]
    if taking and speech.first_person:  # "Cricket has replaced everything else for me"
        new, subjects = new + taking, [speech.me()]
        old = [t for t in old if t.lower_ not in ("everything", "all", "anything", "it")]
    if named is None:  # "My manager changed from Henrik to Rosa"
        owned = [t for t in verb.children if t.dep_ == "nsubj" and possessor(t) == "me"
                 and slot_noun(t) and speech.first_person]
        named = slot_noun(owned[0]) if owned else None
        subjects = [speech.me()] if owned else subjects
    slot = named or next((s for t in [*new, *old] if (s := _slot_of(t, clause.lemma, speech))),
                         None)
    if slot is None or slot == "LIVES_IN" and moves_a_thing(verb):
        return []
    if named:  # "changed jobs from IBM to SAP": the object names the slot
        news = [n for t in new if (n := fits(slot, t))]
        olds = [n for t in old if (n := fits(slot, t))]
    else:
        news = [n for t in new if (n := _slot_value(t, slot))]
        olds = [n for t in old if (n := _slot_value(t, slot))]
    if not olds and any(SLOT_THINGS.get(t.lemma_.lower()) == slot for t in old):
        olds = [""]  # "traded in my car for X": whichever car it was
    if slot == "MAIN_LANGUAGE" and not news:  # "switched from Python to Go", "Go" read as a verb
        news = [t.nbor(1).text for t in verb.subtree if t.lower_ == "to" and t.i + 1 < len(t.doc)
                and is_language(t.nbor(1).text, said=True)]
    out: list[Finding] = []
    for who in subjects:
        out += [slot_finding(who, slot, o, "retract") for o in olds]
        out += [slot_finding(who, slot, n, "assert") for n in news]
        if slot == "MAIN_LANGUAGE":  # "switched from Python to Rust": Python is left, not kept
            out += [Finding(who, "USES", o, "technology", "retract") for o in olds if o]
    return out


def _moved_on(clause: Clause, speech: Speech, old: list[Token],
              new: list[Token]) -> list[Finding]:
    """"I've moved on from Acme and I'm now with Globex", "I moved on from Amazon to
    Microsoft": a job left (and taken), never a home ("we moved on from Leeds to York" is a
    trip). Only a firm in a message about work: one moves on from a shop one used ("I've
    moved on from Tesco, I shop at Aldi now") or from a person ("moved on from Tom") too.
    "moved on from my job (at Acme)" ends the job."""
    work = talks_of_work(speech.message) or _NOW_WITH.search(speech.message) is not None

    def firm(t: Token) -> bool:
        return work and is_named(t) and t.ent_type_ not in ("PERSON", "GPE", "LOC") \
            and t.lower_ not in speech.first_names and t.text not in speech.people \
            and " to " not in t.text  # "Acme to Globex", run together by the NER

    jobs = [t for t in old if t.lemma_.lower() in _JOB_WORDS and possessor(t) in (None, "me")]
    firms = [t for t in old if firm(t)] + [f for j in jobs for f in pobjs(j, ("at", "with"))]
    names = [n for t in firms if (n := phrase(t))] or ([""] if jobs else [])
    taken = [n for t in new if firm(t) and (n := phrase(t))]
    return each(clause, lambda s: [Finding(s, "WORKS_AT", n, "organization", "retract")
                                   for n in names]
                 + [Finding(s, "WORKS_AT", n, "organization") for n in taken])


#: "...and I'm now with Globex": the firm one works for now.
_NOW_WITH = re.compile(r"\b(?i:i'm|i\s+am)\s+(?i:now\s+)?with\s+[A-Z]")


#: Slots whose value can itself be said to replace another: a sport, a diet, a phone...
_OWN_VALUES = frozenset({"PLAYS_SPORT", "DIET", "HAS_PHONE", "DRIVES", "MAIN_LANGUAGE"})


def _slot_of(token: Token, lemma: str, speech: Speech) -> str | None:
    name = value_name(token) or ""
    slot = value_slot(name, token)
    if slot is not None:
        return slot
    if SLOT_THINGS.get(token.lemma_.lower()):
        return SLOT_THINGS[token.lemma_.lower()]
    # "moved from Fairmont to Oakhurst Partners": a change of job, when the new value is one
    if lemma in ("move", "relocate") and (is_place(token) or is_named(token)):
        if not moved_to_a_job(token, speech.message, speech.all_towns):
            return "LIVES_IN"
        return None if is_language(name, said=True) else "WORKS_AT"  # "moved over to Swift"
    return None


def _slot_value(token: Token, slot: str) -> str | None:
    if token.lemma_.lower() in SLOT_THINGS and not any(
            c.dep_ in ("compound", "appos") for c in token.children):
        return None
    name = value_name(token)
    if name is None:
        return None
    if slot == "LIVES_IN":
        return name if is_place(token) or is_named(token) else None
    if slot == "WORKS_AT":
        return name if is_named(token) else None
    return name if value_slot(name, token) == slot else None


#: What a job is called when one gives it up ("my job at Acme").
_JOB_WORDS = frozenset({"job", "work", "position", "role"})


def _fell(verb: Token) -> bool:
    """"Dropped my phone (in the sea)": a phone or car dropped fell; nothing was given up,
    and neither is anything dropped somewhere ("dropped the keys on the floor")."""
    return any(c.dep_ == "prep" and c.lower_ in ("in", "into", "on", "down")
               or c.dep_ == "prt" and c.lower_ == "down" for c in verb.children) or any(
        SLOT_THINGS.get(t.lemma_.lower()) in ("HAS_PHONE", "DRIVES")
        or value_slot(t.text, t) in ("HAS_PHONE", "DRIVES") for t in dobjs(verb))


def cease(clause: Clause, speech: Speech) -> list[Finding]:
    """stop / quit / give up / drop / ditch / sell / rehome / leave: the value they name ends."""
    verb = clause.verb
    lemma = clause.lemma
    if clause.negated or clause.modal in ("would", "could", "should", "might") or \
            clause.tense == "future":  # "I'm going to quit my job", "I'll give up meat": not yet
        return []
    if lemma == "give" and not has_prt(verb, "up"):
        return []
    if lemma == "drop" and _fell(verb):
        return []
    new = taken_up(verb)  # "dropped Java for Go": Go is new
    objects = [t for t in dobjs(verb) + pobjs(verb, ("on",) if lemma == "give" else ())
               if t.i not in new]
    objects += [c for c in verb.children if c.dep_ == "xcomp" and c.tag_ == "VBG"
                or c.dep_ in ("oprd", "acomp") and (c.lower_ in DIETS  # "I stopped vegetarian"
                                                    or c.lower_ in SPOKEN_LANGUAGES)]
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


def lose_interest(clause: Clause, speech: Speech) -> list[Finding]:
    """"I lost interest in chess", "I've lost all interest in padel": a pastime ends as
    when it is given up. Not "I never lost interest", not "I might lose interest"."""
    verb = clause.verb
    if clause.negated or clause.modal or clause.tense == "future":
        return []
    things = [t for o in dobjs(verb) if o.lemma_.lower() == "interest" for t in pobjs(o, ("in",))]
    return [f for t in things for f in _ended(t, "stop", clause.subjects, speech)]


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
        if t.lemma_ == "work":  # "I stopped working at Philips"
            return [Finding(s, "WORKS_AT", n, "organization", "retract") for s in owners
                    for o in pobjs(t, ("at", "for")) if (n := phrase(o))]
        if t.lemma_ in ("code", "program") and not dobjs(t):  # "gave up coding"
            return [Finding(s, "MAIN_LANGUAGE", "", "technology", "retract") for s in owners]
        if t.lemma_ in ("play", "do"):
            return [Finding(s, "PLAYS_SPORT", n, "activity", "retract") for s in owners
                    for o in dobjs(t) if (n := phrase(o)) and value_slot(n) == "PLAYS_SPORT"]
        if value_slot(t.lower_) == "PLAYS_SPORT":  # "I'm done with skateboarding"
            return [Finding(s, "PLAYS_SPORT", t.lower_, "activity", "retract") for s in owners]
        if t.lemma_ in ACTIVITY_VERBS and lemma in ("give", "quit", "stop"):  # "stopped painting"
            return [Finding(s, "HOBBY", gerund(t), "activity", "retract") for s in owners]
        return []
    if word in _JOB_WORDS and lemma in ("give", "quit", "stop"):  # "gave up my job at Acme"
        places = pobjs(t, ("at", "with", "for")) or pobjs(t.head, ("at", "with", "for"))
        return [Finding(s, "WORKS_AT", n, "organization", "retract") for s in owners
                for o in places if (n := phrase(o))]
    if word in DIETS:  # "I stopped vegetarian", said without "being"
        return [Finding(s, "DIET", word, "diet", "retract") for s in owners]
    if t.lower_ in SPOKEN_LANGUAGES and lemma in ("give", "quit", "stop", "drop") and \
            not has_det(t, ("the", "a", "an")):
        # "dropped japanese", "gave up Spanish": no longer learnt
        return [Finding(s, "LEARNING", t.text, "skill", "retract") for s in owners]
    name = value_name(t)
    if not name:
        return []
    slot = value_slot(name, t)
    pet_named = word in PETS or (lemma == "rehome")
    if slot == "PLAYS_SPORT" or name.lower() in SPORTS:
        return [Finding(s, "PLAYS_SPORT", name, "activity", "retract") for s in owners]
    if slot == "DIET":
        return [Finding(s, "DIET", name, "diet", "retract") for s in owners]
    if word in _COURSES and lemma in ("give", "quit", "stop", "drop", "leave"):
        # "I stopped the german course": the language is no longer being learnt
        return [Finding(s, "LEARNING", c.text.lower(), "skill", "retract") for s in owners
                for c in t.children if c.dep_ in ("amod", "compound")
                and c.ent_type_ in LANGUAGE_LABELS]
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
        if firm_not_town(name, speech.message, speech.all_towns):
            # "left Tinkoff last month, now contracting for Wolt": a firm the tagger took
            # for a town, in a message about work
            return [Finding(s, "WORKS_AT", name, "organization", "retract") for s in owners]
        return [Finding(s, "LIVES_IN", name, "place", "retract") for s in owners]
    if lemma in ("give", "quit", "stop") and slot is None and t.pos_ == "NOUN" and \
            word not in _JOB_WORDS and possessor(t) is None:
        return [Finding(s, "LIKES", name, object_type(t), "retract") for s in owners]
    return []


#: What one learns a language in: "the german course", "my spanish lessons".
_COURSES = frozenset({"course", "class", "classes", "lesson", "lessons"})


def end_of(clause: Clause, speech: Speech) -> list[Finding]:
    """"That's the end of running for me", "that was the end of keto": the speaker's pastime,
    sport or diet ended. Not "the end of the film" (nothing of the speaker's)."""
    verb = clause.verb
    if not speech.first_person or clause.negated or clause.modal or clause.tense == "future":
        return []
    ends = [c for c in verb.children if c.dep_ == "attr" and c.lemma_.lower() == "end"]
    return [f for end in ends for t in pobjs(end, ("of",))
            for f in _ended(t, "end", [speech.me()], speech)]


def consume(clause: Clause, speech: Speech) -> list[Finding]:
    """"I don't drink coffee anymore": what one no longer has stops being a liking; "I
    drink way too much coffee": a habit now, as the liking that sentence would end."""
    verb = clause.verb
    things = [t for t in dobjs(verb) if t.lower_ not in DIETS and t.pos_ == "NOUN"]
    if clause.ended:
        return each(clause, lambda s: [Finding(s, "LIKES", n, object_type(t), "retract",
                                                timing="none") for t in things
                                        if (n := phrase(t))])
    if clause.negated or clause.modal or clause.hedged or verb.tag_ != "VBP" \
            or clause.lemma not in _HABITS:
        return []
    return [Finding(s, "LIKES", n, object_type(t), confidence=0.7,
                    statement=f"{{s}} {_HABITS[clause.lemma]} {n}")
            for s in clause.subjects if s.is_speaker for t in things if (n := _consumed(t))]


#: Habits said in the present, and how they are worded of someone.
_HABITS = MappingProxyType({"drink": "drinks", "smoke": "smokes"})
#: Words that say how much, not what: "way too much coffee", "lots of tea".
_AMOUNTS = frozenset({"much", "many", "more", "less", "little", "lot", "lots", "few", "enough"})


def _consumed(thing: Token) -> str | None:
    """What is consumed, without how much: "way too much coffee" -> "coffee", "green tea"."""
    if thing.lower_ in _AMOUNTS:
        return None
    words = [c for c in thing.children if c.dep_ == "compound" or c.dep_ == "amod"
             and c.lower_ not in _AMOUNTS and c.i == thing.i - 1]
    return " ".join([*(w.lower_ for w in words), thing.lower_])


def together(clause: Clause, speech: Speech) -> list[Finding]:
    """"Chris and I aren't together anymore", "I'm no longer with Tom": the partner fact ends."""
    verb = clause.verb
    me = [s for s in clause.subjects if s.is_speaker]
    if clause.ended and len(clause.subjects) == 1:
        partners = [t.text for t in pobjs(verb, ("with",)) if " " not in t.text
                    and (t.ent_type_ == "PERSON" or t.text in speech.people)
                    and t.text not in speech.speakers and not conjuncts(t)]
        partners += [appositive_name(t) or "" for t in pobjs(verb, ("with",))
                     if possessor(t) == "me"
                     and KIN.get(t.lemma_.lower()) == "HAS_PARTNER"]  # "with my boyfriend"
        if len(partners) == 1:
            return [Finding(s, "HAS_PARTNER", partners[0], "person", "retract")
                    for s in clause.subjects]
    if not clause.ended or not any(c.lower_ == "together" for c in verb.children):
        return []
    others = [s.name for s in clause.subjects if not s.is_speaker and s.type == "person"]
    return [Finding(s, "HAS_PARTNER", others[0] if len(others) == 1 else "", "person", "retract")
            for s in me]


def done_with(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'm done with Java", "I'm through with tennis": it has ended."""
    verb = clause.verb
    word = verb if verb.lower_ in ("done", "through", "finished") else next(
        (c for c in verb.children if c.dep_ == "acomp" and c.lower_ in ("done", "through")), None)
    if word is None or clause.negated or clause.modal:
        return []
    out: list[Finding] = []
    for t in pobjs(word, ("with",)) + (pobjs(verb, ("with",)) if word is not verb else []):
        name = value_name(t)
        if name and is_language(name) or t.ent_type_ == TECH_LABEL:
            out += [Finding(s, "USES", name or t.text, "technology", "retract")
                    for s in clause.subjects]
        elif is_named(t) and t.ent_type_ != "PERSON" and (
                is_school(t) or _STUDY_TALK.search(speech.message)) and (n := phrase(t)):
            # "Done with Bocconi! Thesis submitted and defended": studies there ended
            out += [Finding(s, "STUDIES_AT", n, "organization", "retract")
                    for s in clause.subjects]
        else:
            out += _ended(t, "stop", clause.subjects, speech)
    return out


#: Words of a message about studies: "thesis", "degree", "graduated".
_STUDY_TALK = re.compile(r"\b(?:thesis|dissertation|degree|graduat\w*|exams?|uni|university|"
                         r"course|semester|modules?|studies|phd|masters?)\b", re.IGNORECASE)
#: How a habit is said to be over: "kickboxing is out", "keto is over", "padel's on hold".
_OVER_WORDS = frozenset({"out", "over", "done", "finished", "history"})
_PAUSES = frozenset({"hold", "ice", "pause", "break"})
#: The speaker's own slots whose value can be the subject of such a sentence.
_HABIT_SLOTS = frozenset({"PLAYS_SPORT", "DIET", "MAIN_LANGUAGE"})


def habit_over(clause: Clause, speech: Speech) -> list[Finding]:
    """"kickboxing is out", "keto is over", "badminton is done for me", "padel's on hold",
    "low-carb didn't last", "the vegan diet didn't stick": the speaker's sport, diet or language has ended; and
    "cross-country skiing is my thing": it holds. Only a value with no one else's
    name on it ("my brother's football is over" is his)."""
    verb = clause.verb
    if not speech.first_person or clause.modal or clause.hedged:
        return []
    values = [(t, slot) for t in verb.children if t.dep_ in ("nsubj", "csubj", "nsubjpass")
              and possessor(t) in (None, "me")
              and (name := value_name(t) or phrase(t)) and (slot := value_slot(name, t))
              in _HABIT_SLOTS]
    if not values:
        return []
    ended = clause.lemma in ("last", "stick") and clause.negated \
        or clause.lemma == "go" and any(t.lower_ == "window" for t in pobjs(verb, ("out", "of"))) \
        or verb.lower_ in ("done", "finished") \
        or clause.lemma == "be" and any(
        c.lower_ in _OVER_WORDS and c.dep_ in ("acomp", "advmod", "attr", "prt", "prep")
        for c in verb.children) or any(t.lemma_.lower() in _PAUSES for t in pobjs(verb, ("on",)))
    mine = clause.lemma == "be" and not clause.negated and any(
        c.dep_ == "attr" and c.lemma_.lower() == "thing" and possessor(c) == "me"
        for c in verb.children)
    if not (ended or mine):
        return []
    me = speech.me()
    return [slot_finding(me, slot, n, "retract" if ended else "assert")
            for t, slot in values if (n := value_name(t) or phrase(t))]


def step_down(clause: Clause, speech: Speech) -> list[Finding]:
    """"I stepped down as CTO", "I resigned as treasurer": the title ends."""
    verb = clause.verb
    if clause.negated or clause.modal or (clause.lemma == "step" and not has_prt(verb, "down")):
        return []
    return each(clause, lambda s: [Finding(s, "JOB_TITLE", t.text if t.text.isupper() else n,
                                           "role", "retract")
                                   for t in pobjs(verb, ("as",)) if (n := phrase(t))])


def _owners(clause: Clause, speech: Speech) -> list[Party]:
    """The clause's subjects; "our team" is the speaker's ("our team moved off Scala")."""
    return [speech.me()] if speech.first_person and any(
        c.dep_ == "nsubj" and possessor(c) == "me" for c in clause.verb.children) \
        else clause.subjects


def move_out(clause: Clause, speech: Speech) -> list[Finding]:
    """"I moved out of Boston": the old home ends."""
    verb = clause.verb
    if clause.negated or clause.modal:
        return []
    if has_prt(verb, "off"):  # "our team moved off Scala": that language is left
        left = [n for t in verb.children if t.dep_ in ("dobj", "npadvmod", "pobj")
                and (n := value_name(t)) and (value_slot(n, t) or "") in (
                    "MAIN_LANGUAGE", "DIET", "PLAYS_SPORT", "HAS_PHONE")]
        return [slot_finding(s, value_slot(n) or "MAIN_LANGUAGE", n, "retract")
                for s in _owners(clause, speech) for n in left]
    # one moves out of a place, whatever the tagger says ("Glasgow" read as a person)
    places = [t for p in verb.children if p.lower_ == "out" for t in pobjs(p, ("of",))
              if is_place(t) or is_named(t)]
    places += [t for t in pobjs(verb, ("out",)) if is_place(t) or is_named(t)]
    return each(clause, lambda s: [Finding(s, "LIVES_IN", n, "place", "retract")
                                    for t in places if (n := phrase(t))])


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    "be": (together, done_with, habit_over, end_of), "last": (habit_over,),
    "stick": (habit_over,),
    "do": (no_slot, done_with, habit_over), "finish": (habit_over,), "have": (no_slot,),
    "follow": (no_slot,), "drink": (consume,), "smoke": (consume,), "eat": (consume,),
    "lose": (lose_interest,), "go": (transition, habit_over),
    "switch": (transition,), "move": (transition, move_out), "change": (transition,),
    "replace": (transition,), "swap": (transition,), "trade": (transition,),
    "exchange": (transition,), "upgrade": (transition,), "relocate": (transition,),
    "stop": (cease,), "quit": (cease, transition), "give": (cease,), "drop": (cease, transition),
    "ditch": (cease, transition), "abandon": (cease,), "sell": (cease,), "rehome": (cease,),
    "leave": (cease, transition), "dump": (cease, transition), "step": (step_down,),
    "resign": (step_down,),
})
#: Words the sentence gate must let through for these rules.
TRIGGERS: frozenset[str] = frozenset({"rehomed", "rehome", "together", "done", "through"})
PATTERNS: tuple[re.Pattern[str], ...] = ()
