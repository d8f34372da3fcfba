"""Clause analysis for the rule extractor: what a clause says, and how.

A clause is a verb with its subject. Before any rule looks at the verb, this
module settles the questions every rule shares: who the subject is (answered by
:mod:`graphmem.extract.rules.parties`: "I" is the speaker, "my sister Anna" is Anna),
whether the clause is negated or says something ended ("anymore", "no longer"),
whether it is hedged ("I think I might"), hypothetical ("if I moved") or a question,
and in which tense it is. :func:`each` and :func:`action_of` are the two steps every
family takes from a clause to its findings. Turning subtrees into object phrases is
the job of :mod:`graphmem.extract.rules.phrases`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from graphmem.extract.rules.contrast import contrastive
from graphmem.extract.rules.lexicon import dobjs
from graphmem.extract.rules.parties import Party, Speech, conjuncts, has_det, subjects_of
from graphmem.extract.rules.terms import TECH_LABEL, canonical_name
from graphmem.models import Cardinality

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

Tense = Literal["past", "present", "future"]
Action = Literal["assert", "retract"]
#: How a sentence's time expression applies to a fact: when a state began
#: (``start``), when something happened (``event``), the span of a trip
#: (``trip``), a deadline (``due``), the date a plan is for (``plan``), or not at all.
#: How a finding's time expression dates it; "last" is the last day a state holds ("my last
#: day is March 31": it ends when that day does).
Timing = Literal["start", "event", "trip", "due", "plan", "span", "last", "none"]

_HEDGES = ("i think", "i guess", "maybe", "probably", "perhaps", "not sure", "kind of", "sort of",
           "i suppose", "possibly", "might", "i believe", "i reckon")


@dataclass
class Finding:
    """One fact a rule found, before time, wording and scores are settled.

    ``statement`` is a third-person sentence without its final period or time
    phrase ("Anna is Alice's sister"); None means the predicate's template is used.
    """

    subject: Party
    predicate: str
    obj: str = ""
    object_type: str = "concept"
    action: Action = "assert"
    statement: str | None = None
    confidence: float = 0.85
    timing: Timing = "start"
    cardinality: Cardinality | None = None
    anchor: int | None = None  # index of the verb the finding came from, to scope its time


@dataclass
class Clause:
    """One verb of a sentence with everything rules need to know about it."""

    verb: Token
    subjects: list[Party]
    negated: bool
    ended: bool
    hedged: bool
    tense: Tense
    perfect: bool
    modal: str | None

    @property
    def lemma(self) -> str:
        return self.verb.lemma_.lower()


def build_clause(verb: Token, speech: Speech) -> Clause | None:
    """The clause headed by ``verb``, or None when it cannot state a fact (question, "if")."""
    if _hypothetical(verb):
        return None
    subjects = subjects_of(verb, speech)
    children = {c.lower_ for c in verb.children}
    aux = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    modal = next((a.lower_ for a in aux if a.tag_ == "MD"), None)
    if modal in ("'d", "d"):
        modal = "would"
    if modal in ("'ll", "ll", "wo"):
        modal = "will"
    if modal == "ca":
        modal = "can"
    negated = any(c.dep_ == "neg" and not contrastive(c) or c.lower_ == "never"
                  for c in verb.children)
    # "I'm not vegan" parsed with "vegan" as the verb: the "not" hangs on its auxiliary
    negated = negated or any(c.dep_ == "neg" and not contrastive(c)
                             for a in aux for c in a.children)
    if verb.dep_ == "xcomp" and any(c.dep_ == "neg" and not contrastive(c)
                                    for c in verb.head.children):
        negated = True  # "I'm not going to move to Berlin", "I didn't start working there"
    negated = negated or _had_by_no_one(verb)
    if verb.dep_ == "conj" and not aux and verb.head != verb:
        # "I'll think about it and maybe get pets": the second verb shares the first's modal
        head_aux = [c for c in verb.head.children if c.dep_ in ("aux", "auxpass")]
        modal = modal or next((a.lower_ for a in head_aux if a.tag_ == "MD"), None)
        modal = {"'ll": "will", "ll": "will", "wo": "will", "'d": "would", "ca": "can"}.get(
            modal or "", modal)
    # "dont play tennis anymore, switched to padel": a finite verb after a bare one is a new
    # statement, outside the first one's "don't ... anymore"
    shares = verb.dep_ == "conj" and not aux and verb.head != verb and not (
        verb.tag_ in ("VBD", "VBZ") and verb.head.tag_ == "VB")
    if shares:
        negated = negated or any(c.dep_ == "neg" for c in verb.head.children)
    text = verb.sent.text.lower()
    ended = _ended(verb) or (shares and _ended(verb.head))
    hedged = modal in ("might", "may", "could") or any(h in text for h in _HEDGES)
    perfect = verb.tag_ == "VBN" and any(a.lemma_ == "have" and a.tag_ != "VBD" for a in aux)
    perfect = perfect or (verb.tag_ == "VBG" and any(a.lower_ == "been" for a in aux))
    return Clause(verb, subjects, negated, ended, hedged, tense_of(verb, modal), perfect, modal)


def _had_by_no_one(verb: Token) -> bool:
    """Whether every object of the verb is under "no" ("I have no car", "we've got no pets",
    "I'm no writer"): the clause then denies what it would say of them, for every rule."""
    heads = dobjs(verb) or [c for c in verb.children if c.dep_ == "attr"]
    # not "I use no framework, just Python": a value set beside the one denied is stated
    objects = [*heads, *(c for h in heads for c in conjuncts(h))]
    return bool(objects) and all(has_det(o, ("no",)) for o in objects if o.pos_ != "PUNCT")


#: Clauses inside a clause: their "anymore" is their own.
_INNER_CLAUSES = frozenset({"conj", "ccomp", "parataxis", "advcl", "relcl", "acl", "csubj"})


def _ended(verb: Token) -> bool:
    """"no longer", "not ... anymore", "any more", "never again", "not ... after all" in the
    verb's own clause."""
    inner = {t.i for c in verb.children if c.dep_ in _INNER_CLAUSES for t in c.subtree}
    # "I'm vegan these days, not keto anymore": the "anymore" of a denied value is its own
    denied = {t.i for n in verb.sent if contrastive(n) for t in verb.doc[n.i: verb.sent.end]
              if t.lower_ in ("anymore", "longer", "more")}
    # "I used to live in Vancouver but not anymore, moved to Toronto": the parser hangs the
    # first clause's "not anymore" on the verb after the comma, which it does not end
    commas = [p.i for p in verb.children if p.dep_ == "punct" and p.lower_ == "," and p.i < verb.i]
    before = {t.i for c in verb.children if c.dep_ in ("advmod", "neg") and commas
              and c.i < max(commas) for t in c.subtree}
    words = [t.lower_ for t in verb.subtree
             if t.i not in inner and t.i not in denied and t.i not in before]
    pairs = set(zip(words, words[1:], strict=False))
    return ("anymore" in words or ("no", "longer") in pairs or ("any", "longer") in pairs
            or ("any", "more") in pairs
            or ("again" in words or ("after", "all") in pairs)
            and any(w in ("never", "not", "n't") for w in words))


def tense_of(verb: Token, modal: str | None) -> Tense:
    aux = {c.lemma_.lower(): c for c in verb.children if c.dep_ in ("aux", "auxpass")}
    if modal in ("will", "shall") or "gonna" in verb.sent.text.lower():
        return "future"
    head = verb.head
    if verb.dep_ == "xcomp" and head.lemma_ == "go" and head.tag_ == "VBG":
        return "future"  # "I'm going to move"
    if verb.tag_ == "VBD" or any(a.tag_ == "VBD" for a in aux.values()):
        return "past"
    if verb.tag_ == "VBN" and "have" in aux:
        return "past"
    if verb.tag_ == "VBG" and "be" in aux and verb.lemma_ in ("go", "fly", "travel", "move",
                                                             "head", "leave", "visit", "drive"):
        return "future"
    return "present"


def has_time(verb: Token) -> bool:
    """Whether the verb's sentence names a time ("on Monday"): an event without one is chat."""
    return any(t.ent_type_ in ("DATE", "TIME") for t in verb.sent)


#: What "for ..." measures a state in: "for a year", "for a while"; the long ones (months and
#: up) make a stay a home ("I've been in Lisbon for two years", not "for a week").
_LONG_SPANS = frozenset({"month", "year", "decade", "age"})
_SPANS = _LONG_SPANS | {"week", "day", "while", "hour"}


def lasting(verb: Token, *, long: bool = False) -> bool:
    """Whether a clause says how long it has held, "since March" or "for a year" (months at
    least when ``long``): in the perfect, a state still holding ("I've been at Stripe for a
    year"), where without one it may be an experience ("I've been at Glastonbury")."""
    spans = _LONG_SPANS if long else _SPANS
    # the last word, as the NER may have merged "two years" into one token
    return any(prep.dep_ == "prep" and (prep.lower_ == "since" or prep.lower_ == "for" and any(
        (t.lemma_.lower().split() or [""])[-1] in spans for t in prep.subtree))
        for prep in verb.children)


#: "from 2015 to 2020": a stretch of time with both ends named.
_STRETCH = re.compile(r"\bfrom\b.+?\b(?:to|until|till|through)\b", re.IGNORECASE)


def past_stretch(clause: Clause) -> bool:
    """Whether a past clause says from when to when it held ("I lived in Paris from 2015
    to 2020"): a closed stretch of history, not a present fact nor a chat about the past."""
    verb = clause.verb
    return clause.tense == "past" and not clause.negated and has_time(verb) and \
        _STRETCH.search(verb.sent.text) is not None


#: "until 2020", "till last May": when something stopped.
_UNTIL = re.compile(r"\b(?:until|till)\b", re.IGNORECASE)


def past_until(clause: Clause) -> bool:
    """Whether a past clause says only when it stopped holding ("I worked at Google until
    2020"): that ends it then, and says nothing of when it began."""
    verb = clause.verb
    return clause.tense == "past" and not clause.negated and not clause.perfect and \
        has_time(verb) and _UNTIL.search(verb.sent.text) is not None and not past_stretch(clause)


#: Marks of a clause of time whose present tense speaks of what is still ahead of the
#: sentence's other clause: "my last day is Friday, before I move to Google".
_AHEAD_MARKS = frozenset({"before", "until", "till"})


def ahead_of_its_sentence(verb: Token) -> bool:
    """Whether ``verb`` is a present-tense clause of time ("before I move", "until I start")
    that says what has not happened yet."""
    return verb.dep_ == "advcl" and verb.tag_ in ("VB", "VBP", "VBZ") and any(
        c.dep_ == "mark" and c.lower_ in _AHEAD_MARKS for c in verb.children)


def future_time(verb: Token) -> bool:
    """Whether the sentence's time is ahead ("next week", "tomorrow")."""
    return any(t.lower_.startswith(("next", "tomorrow", "this coming")) for t in verb.sent
               if t.ent_type_ in ("DATE", "TIME"))


def _hypothetical(verb: Token) -> bool:
    """A clause that does not say its fact happened or holds: "if I moved", "I wish I
    lived", "he wants us to try paleo", "I almost joined", "I was going to join", "I doubt
    I'll move", "I'm not sure I like it", "it's not true that I live there"."""
    if any(c.dep_ == "advmod" and c.lower_ in ("almost", "nearly") for c in verb.children):
        return True
    node: Token | None = verb
    while node is not None:
        if any(c.dep_ == "mark" and c.lower_ in ("if", "unless", "whether", "once")
               for c in node.children):
            return True
        if node.dep_ in ("advcl", "ccomp", "conj", "xcomp") and node.head != node:
            head = node.head
            if head.lemma_ in ("wish", "wonder", "imagine", "want", "hope") and not _spliced(node) \
                    or head.lemma_ in ("ask", "say", "tell") and node.dep_ != "conj" \
                    and not _joined_before(node) and not _spliced(node):
                return True  # not "said goodbye to Melbourne and moved to Dubai"
            if node.dep_ == "ccomp" and node.i > head.i and _denied(head):
                # "it's not true that I live there"; not "I got poached by Mozilla, so I'm no
                # longer at Siemens", parsed with the first clause as the second's complement
                return True
            if node.dep_ == "xcomp" and head.lemma_ == "go" and head.tag_ == "VBG" and any(
                    a.dep_ == "aux" and a.tag_ == "VBD" for a in head.children):
                return True  # "I was going to join Stripe": an intention that did not happen
            node = head
        else:
            node = None
    return False


def _spliced(clause: Token) -> bool:
    """"My manager is Dieter Vogel, he wants a report by Friday": a clause with its own
    subject before a comma, parsed as the complement of the next one's verb, is a sentence
    of its own when that verb has a complement of its own after it (what one wants or
    wishes follows the verb: "I wish I lived in Rome"; "I live in Rome, I wish")."""
    head = clause.head
    return clause.dep_ == "ccomp" and clause.i < head.i and any(
        c.dep_ in ("nsubj", "nsubjpass") for c in clause.children) and any(
        t.lower_ in (",", ";", "-", "—") for t in clause.doc[clause.i:head.i]) and any(
        c.i > head.i and c.dep_ in ("dobj", "xcomp", "ccomp", "prep", "advcl")
        for c in head.children)


def _joined_before(clause: Token) -> bool:
    """"Daniel proposed last night and I said yes", parsed with the proposal as what was
    said: a clause before its head, an "and" between them, is joined to it, not reported."""
    head = clause.head
    return clause.i < head.i and any(c.dep_ == "cc" and clause.i < c.i < head.i
                                     for c in head.children)


#: Verbs and adjectives whose negation denies the clause they govern.
_BELIEF_FRAMES = frozenset({"think", "believe", "feel", "guess", "suppose", "reckon", "expect",
                            "know", "remember", "say", "claim", "mean", "seem", "be", "sure",
                            "true", "certain", "convinced", "right", "correct"})


def _denied(frame: Token) -> bool:
    """A verb (or "sure", "true" after a copula) that denies or doubts the clause it governs."""
    if frame.lemma_.lower() in ("doubt", "deny"):
        return True
    if frame.lemma_.lower() not in _BELIEF_FRAMES:
        return False  # "I can't wait to see it" is eager, not a denial
    holder = frame.head if frame.dep_ == "acomp" else frame
    return _ended(holder) or any(c.dep_ == "neg" or c.lower_ == "never"
                                 for c in [*frame.children, *holder.children])


def tech_in(tokens: list[Token] | Span) -> list[str]:
    """Canonical names of the technical terms among ``tokens``, in order, without repeats."""
    seen: list[str] = []
    for t in tokens:
        if t.ent_type_ == TECH_LABEL:
            name = canonical_name(t.text, t.ent_id_)
            if name not in seen:
                seen.append(name)
    return seen


def each(clause: Clause, make: Callable[[Party], list[Finding]]) -> list[Finding]:
    """What ``make`` finds for each subject of the clause ("Tom and I moved to Oslo")."""
    return [f for s in clause.subjects for f in make(s)]


def action_of(clause: Clause) -> Action:
    """A negated or ended clause closes what it names; any other states it."""
    return "retract" if clause.negated or clause.ended else "assert"


#: A rule reads one clause and returns what it found; rule modules map verb lemmas to rules.
Rule = Callable[[Clause, Speech], list[Finding]]


def reworded(finding: Finding, templates: Mapping[str, str]) -> Finding:
    """The finding with its statement worded by ``templates`` when its predicate has one
    ("{s} lived in {o}" for a stretch of history), else as it was."""
    return replace(finding, statement=templates.get(finding.predicate, finding.statement))
