"""Noun and verb phrases for fact objects: clean, short, and in the third person.

A dependency subtree is rarely what a fact should store: "a functional style"
should be "functional style", "my old car" just "car", "call my mom tomorrow"
the task "call mom", and "I love it" no object at all. These helpers cut
subtrees down to what a user would want to read back.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from graphmem.extract.base import SELF
from graphmem.extract.rules.clause import Clause, Finding, future_time
from graphmem.extract.rules.lexicon import is_place, pobjs
from graphmem.extract.rules.parties import (FIRST_PERSON, FIRST_POSSESSIVE, KIN, PETS, VAGUE, Party,
                                            Speech, has_det, possessor)
from graphmem.extract.rules.terms import TECH_LABEL, canonical_name

if TYPE_CHECKING:
    from spacy.tokens import Token

#: Leading words dropped from an object after an article or possessive ("my old car" -> car).
#: Chat's interjections, which the tagger may fold into the name after them ("lol Desmond").
CHAT_OPENERS = frozenset({"lol", "lmao", "rofl", "haha", "hahaha", "omg", "btw", "fyi", "tbh",
                          "imo", "idk", "ugh", "um", "umm", "uh", "oops", "whoops", "ok", "okay",
                          "yeah", "yep", "hmm", "wow", "welp", "meh"})
_DROP_LEADING = frozenset({
    "a", "an", "the", "my", "our", "some", "any", "this", "that", "these", "those", "new", "old",
    "own", "first", "little", "big", "nice", "great", "really", "very", "such", "whole", "entire",
    "brand", "favorite", "favourite", "beautiful", "amazing", "awesome", "lovely", "cute",
    "wonderful", "fantastic", "huge", "small", "latest", "current", "another", "few", "couple",
    "several", "of", "just", "also", "even", "used", "second-hand", "secondhand", "fluent",
    "native", "basic", "so", "pretty", "super", "best", "good", "cool", "fun", *CHAT_OPENERS})
#: Leading words dropped even without an article ("fluent Portuguese" -> Portuguese).
_ALWAYS_DROP = frozenset({"really", "very", "such", "just", "also", "even", "so", "pretty",
                          "super", "of", "brand", "fluent", "conversational", "basic",
                          *CHAT_OPENERS})
_ORDINAL = re.compile(r"^(?:\d+(?:st|nd|rd|th)|second|third|fourth|fifth|sixth|seventh|eighth|"
                      r"ninth|tenth|eleventh|twelfth|\w+teenth|\w+tieth)$")
_TIME_ENTS = frozenset({"DATE", "TIME"})
_TIME_WORDS = frozenset({"someday", "today", "tomorrow", "tonight", "yesterday", "soon",
                         "eventually", "lately", "recently", "now", "again", "anymore", "ever",
                         "already", "still", "finally", "really", "also", "too", "just",
                         "definitely", "actually", "always", "sometimes", "often", "usually"})
_UNIT_WORDS = [[u] for u in ("second", "minute", "min", "hour", "hr", "day", "week", "month",
                              "year", "seconds", "minutes", "mins", "hours", "hrs")]
_SUBORDINATE = frozenset({"advcl", "ccomp", "relcl", "acl", "conj", "parataxis", "csubj"})
_CLAUSE_DEPS = frozenset({"advcl", "ccomp", "relcl", "acl", "conj", "parataxis", "cc", "punct",
                          "mark", "dep", "intj"})
#: Who an activity is done with is not part of it: "hiking with friends" is hiking.
_COMPANIONS = frozenset({*KIN, *PETS, "family", "friends", "fam", "kids", "children", "partner",
                         "people", "folks", "team", "group", "others"})
#: Verbs that say nothing on their own: "I love being ...", "I like having ...".
LIGHT_VERBS = frozenset({"be", "have", "do", "get", "make", "see", "take", "go", "come", "let",
                         "feel", "put", "give", "keep", "know", "hear", "say", "think"})


def phrase(token: Token, *, keep_articles: bool = False) -> str | None:
    """A clean noun phrase for ``token``: modifiers kept, articles and time words dropped.

    Returns None for vague or deictic objects ("it", "that idea", "your car").
    """
    if token.ent_type_ == TECH_LABEL:
        return canonical_name(token.text, token.ent_id_)
    named = [n for c in token.children if c.dep_ == "acl" and c.lemma_ in ("call", "name")
             for n in c.children if n.dep_ in ("oprd", "attr", "dobj") and n.text[:1].isupper()]
    if named:  # "a fintech startup called Ramp" is Ramp
        return phrase(named[0], keep_articles=keep_articles)
    if token.lower_ in VAGUE or token.pos_ == "PRON" or token.ent_type_ in _TIME_ENTS:
        return None
    owner = possessor(token)
    if owner == "you" or has_det(token, ("that", "this", "these", "those")):
        return None
    if owner == "other" and _first_person_clause(token):
        return None  # "I love his tech": the thing is someone else's
    left = [t for c in token.lefts if c.dep_ in ("compound", "amod", "nmod", "nummod", "poss",
                                                 "quantmod", "npadvmod", "advmod", "det")
            for t in c.subtree]
    start = min([t.i for t in left], default=token.i)
    tokens = [t for t in token.doc[start: token.i + 1]]
    if not keep_articles:
        determined = False
        while tokens[:-1]:
            first = tokens[0]
            if not first.whitespace_ and tokens[1].text == "-":
                break  # "second-hand", "low-carb": one word, not an ordinal and a noun
            if first.tag_ in ("PRP$", "DT", "POS") or first.is_punct:
                determined = determined or not first.is_punct
            elif determined and (first.ent_type_ == "ORDINAL" or _ORDINAL.match(first.lower_)):
                pass  # "my fourth tournament" is a tournament
            elif not (first.lower_ in _DROP_LEADING and (determined or first.lower_ in _ALWAYS_DROP)):
                break  # "old movies" is a kind of movie; "my old car" is just a car
            tokens = tokens[1:]
    right = [c for c in token.rights if c.dep_ == "nummod" or (c.dep_ == "compound")]
    if token.text[:1].isupper():  # "Lord of the Rings", "Bank of America"
        right += [p for p in token.rights if p.dep_ == "prep" and p.lower_ == "of" and any(
            c.dep_ == "pobj" and c.text[:1].isupper() for c in p.children)]
    tokens += [t for c in right for t in c.subtree]
    tokens += _model_code(token, tokens)
    # an emoji or symbol beside the words is no part of the value ("level designer 🎮")
    words = [t.text_with_ws for t in tokens if t.ent_type_ not in _TIME_ENTS
             and (any(ch.isalnum() for ch in t.text) or t.is_punct or t.text in "&+#'-")]
    text = "".join(words).strip(" ,.;:!?'\"")
    if not text or text.lower() in VAGUE:
        return None
    return text


#: A model's code after its name: "Pixel 7a", "Mazda MX-5", "BMW i3", "Nokia X30".
_MODEL_CODE = re.compile(r"^(?=[^\d]*\d)[A-Za-z]{0,3}\d{1,4}[A-Za-z]{0,2}(?:-\d{1,3})?$|"
                         r"^[A-Z]{1,3}-\d{1,3}$")


def _model_code(token: Token, tokens: list[Token]) -> list[Token]:
    """The code the parser left off a capitalised name ("a Pixel 7a" with "7a" read as an
    apposition, "Mazda MX-5" with "MX-5" as punctuation of the verb, "switched to a Pixel 7a
    finally" with "7a" as the verb's modifier)."""
    following = token.doc[tokens[-1].i + 1] if tokens and tokens[-1].i + 1 < len(token.doc) \
        else None
    if following is None or not token.text[:1].isupper() or following.ent_type_ in _TIME_ENTS \
            or not _MODEL_CODE.match(following.text) or following.whitespace_ == "" and \
            following.i + 1 < len(token.doc) and token.doc[following.i + 1].is_alpha:
        return []
    # ("switched to a Pixel 7a": the code hung on the verb above the preposition)
    return [following] if following.head == token or following.head in token.ancestors else []


def clause_tokens(verb: Token) -> list[Token]:
    """The verb's own subtree, without its subordinate and coordinated clauses."""
    skip = {t.i for c in verb.children if c.dep_ in _SUBORDINATE
            and (c.dep_ != "conj" or c.pos_ in ("VERB", "AUX")) for t in c.subtree}
    return [t for t in verb.subtree if t.i not in skip]


def trips(obj: Token, s: Party, clause: Clause) -> list[Finding]:
    """"a trip to Tokyo": ahead it is ``TRAVELS_TO`` with the trip's dates, behind ``HAS_VISITED``."""
    places = [t for t in pobjs(obj, ("to", "in")) if is_place(t)]
    if clause.negated:
        return []
    past = clause.tense == "past" and not future_time(clause.verb)
    return [Finding(s, "HAS_VISITED" if past else "TRAVELS_TO", n, "place",
                    timing="event" if past else "trip",
                    statement=None if past else f"{{s}} has {phrase(obj, keep_articles=True)} to {n}")
            for t in places if (n := phrase(t))]


def _first_person_clause(token: Token) -> bool:
    node = token
    for _ in range(8):
        if node.pos_ in ("VERB", "AUX") or node.dep_ == "ROOT":
            break
        node = node.head
    for _ in range(4):
        subj = [c for c in node.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subj:
            return subj[0].lower_ in FIRST_PERSON
        if node.dep_ in ("xcomp", "conj", "advcl") and node.head != node:
            node = node.head
        else:
            break
    return False


def verb_phrase(verb: Token, speech: Speech, *, generic_you: bool = False,
                companions: bool = True) -> str | None:
    """The verb with its objects and complements, for goals, plans and todos.

    Subordinate clauses, time expressions and filler adverbs are left out, and
    first-person words are turned around: "call my mom tomorrow" -> "call mom".
    """
    keep: list[Token] = [verb]
    for c in verb.children:
        if c.dep_ in _CLAUSE_DEPS or c.dep_ in ("nsubj", "nsubjpass", "aux", "auxpass", "neg"):
            continue
        if c.ent_type_ in _TIME_ENTS or c.lower_ in _TIME_WORDS:
            continue
        if c.dep_ == "prep" and (c.lower_ in ("by", "before", "until", "till", "on", "at")
                                 and any(g.ent_type_ in _TIME_ENTS or g.like_num
                                         for g in c.children)):
            continue
        if c.dep_ == "npadvmod" and c.lower_ in ("day", "one"):
            continue
        if c.dep_ == "prep" and c.lower_ in ("in", "within") and any(
                g.ent_type_ in _TIME_ENTS or g.lemma_.lower().split()[-1:] in _UNIT_WORDS
                for g in c.children):
            continue  # "email the landlord in two minutes": the due time, not the task
        if c.lower_ in ("why", "how", "what"):
            continue
        if not companions and c.dep_ == "prep" and c.lower_ == "with" and any(
                g.ent_type_ == "PERSON" or g.lemma_.lower() in _COMPANIONS for g in c.subtree):
            continue  # "hiking with friends" is hiking
        nested = {t.i for x in c.subtree if x != c and x.dep_ in ("advcl", "relcl", "acl", "ccomp")
                  for t in x.subtree}
        keep.extend(t for t in c.subtree if t.ent_type_ not in _TIME_ENTS and t.i not in nested)
    keep.sort(key=lambda t: t.i)
    words: list[str] = []
    dropped = False
    for t in keep:
        low = t.lower_
        if low in FIRST_POSSESSIVE:
            dropped = True
            continue
        if dropped and low == "own":
            continue  # "open my own bakery" -> "open bakery"
        dropped = False
        if low in ("me", "myself", "us"):
            words.append(speech.speaker if speech.speaker != SELF else "themselves")
            continue
        if low in ("you", "your", "yours") and not generic_you:
            return None
        words.append(t.text)
    text = _join(words)
    return text or None


def _join(words: list[str]) -> str:
    out = ""
    for w in words:
        if out and not (w.startswith("'") or w in (",", ".", "n't", "-") or out.endswith("-")):
            out += " "
        out += w
    return out.strip(" ,.;:!?-\u2013\u2014")


def activity(verb: Token, speech: Speech) -> str | None:
    """The activity a verb names, as a gerund phrase: "to cook" -> "cooking", "reading novels".

    None when it says nothing by itself ("being", "having it", "doing something").
    """
    objects = [c for c in verb.children if c.dep_ in ("dobj", "attr", "acomp", "prt", "prep")]
    if any(c.dep_ in ("auxpass", "ccomp") for c in verb.children) or (
            not objects and any(c.dep_ == "xcomp" for c in verb.children)):
        return None  # "get lost in", "watching them play": the phrase would be a fragment
    if verb.lemma_.lower() in LIGHT_VERBS:
        if not any(c.dep_ == "dobj" and phrase(c) for c in objects):
            return None
    if any(c.dep_ == "dobj" and c.lower_ in VAGUE for c in objects) and \
            not any(c.dep_ in ("prep", "prt") for c in objects):
        return None
    text = verb_phrase(verb, speech, companions=False)
    if text is None:
        return None
    words = text.split()
    words[0] = gerund(verb).split()[0]
    return " ".join(words) if len(words) <= 8 else None


def gerund(verb: Token, objects: bool = True) -> str:
    """"cook" -> "cooking", keeping objects unless told not to: "play chess" -> "playing
    chess"."""
    lemma = verb.lemma_.lower()
    if verb.tag_ == "VBG":
        head = verb.lower_
    elif lemma.endswith("ie"):
        head = lemma[:-2] + "ying"
    elif lemma.endswith("e") and not lemma.endswith(("ee", "ye", "oe")):
        head = lemma[:-1] + "ing"
    elif (len(lemma) >= 3 and lemma[-1] not in "aeiouwxy" and lemma[-2] in "aeiou"
          and lemma[-3] not in "aeiou" and len(lemma) <= 4):
        head = lemma + lemma[-1] + "ing"
    else:
        head = lemma + "ing"
    said = [phrase(c) for c in verb.children if c.dep_ == "dobj"] if objects else []
    return " ".join([head, *[o for o in said if o]])
