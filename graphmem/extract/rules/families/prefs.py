"""Verb rules about tastes and tools: likes and dislikes, technologies used, switched or dropped.

Negation is handled one way throughout: a negated *liking* ("I don't like
coffee") asserts ``DISLIKES``, so the sentiment family's timeline flips from
like to dislike; a negated or ended *use* ("I don't use Vue anymore", "I
stopped using Jira") retracts the current ``USES`` fact. Switching tools
("from Vue 3 to React") asserts the new one; for the functional
``USES_FRAMEWORK`` that alone supersedes the old one, for multi-valued
``USES`` and ``PROJECT_USES`` the old one is retracted explicitly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Action, Clause, Finding, Rule, each
from graphmem.extract.rules.lexicon import (
    ACTIVITY_VERBS, dobjs, has_prt, object_type, pobjs, taken_up)
from graphmem.extract.rules.parties import PROJECT_NOUNS, Party, Speech, possessor
from graphmem.extract.rules.phrases import activity, clause_tokens, gerund, phrase
from graphmem.extract.rules.slots import is_language
from graphmem.extract.rules.terms import FRAMEWORK, TECH_LABEL, kind_of

if TYPE_CHECKING:
    from spacy.tokens import Token

_SENTIMENT = MappingProxyType({
    "like": "LIKES", "enjoy": "LIKES", "love": "LOVES", "adore": "LOVES", "prefer": "PREFERS",
    "favour": "PREFERS", "favor": "PREFERS", "hate": "DISLIKES", "dislike": "DISLIKES",
    "detest": "DISLIKES", "loathe": "DISLIKES", "despise": "DISLIKES", "stand": "DISLIKES"})
_TECH_PREPS = ("in", "with", "on", "using")
_REJECTING = frozenset({"over", "than", "from"})
_COLLECTIVES = frozenset({"team", "company", "org", "organization", "startup", "group",
                          "department", "squad", "employer", "lab"})


def _stray_tech(verb: Token) -> list[Token]:
    """Technologies the tagger misread as adverbs or modifiers ("dislike Java")."""
    return [c for c in verb.children if c.ent_type_ == TECH_LABEL
            and c.dep_ in ("advmod", "npadvmod", "attr", "oprd", "dep", "acomp", "ccomp")]


def _quoted_title(verb: Token) -> str | None:
    """A title in quotes right after the verb: spaCy parses "Becoming Nicole" as a verb."""
    doc = verb.doc
    start = verb.i + 1
    if start >= len(doc) or doc[start].text not in ('"', "\u201c", "'"):
        return None
    quote = doc[start].text
    closing = {'"': '"', "\u201c": "\u201d", "'": "'"}[quote]
    for end in range(start + 1, min(len(doc), start + 12)):
        if doc[end].text == closing:
            title = doc[start + 1: end].text.strip()
            return title or None
    return None


def _targets(verb: Token, speech: Speech) -> list[tuple[str, str]]:
    """(phrase, type) of what a liking verb is about: objects, gerunds, "to" infinitives."""
    found: list[tuple[str, str]] = []
    stray = [c for c in verb.children if c.dep_ in ("advmod", "acomp", "npadvmod")
             and c.tag_ in ("JJ", "NN", "NNS", "NNP", "NNPS") and c.i > verb.i
             and c.ent_type_ not in ("DATE", "TIME")]
    quoted = _quoted_title(verb)
    if quoted:  # I loved "Becoming Nicole" by Amy Ellis Nutt
        return [(quoted, "work")]
    for t in dobjs(verb) + _stray_tech(verb) + stray:
        if t.text in speech.speakers or any(c.text in speech.speakers for c in t.children):
            continue  # "I love the thought, Nate!": the name is whom it is said to
        if t.tag_ == "VBG" or (t.pos_ == "VERB"):
            found.append((activity(t, speech) or "", "activity"))
        elif name := phrase(t):
            found.append((name, object_type(t)))
    for c in verb.children:
        if c.dep_ == "xcomp":
            if c.pos_ == "VERB" or c.tag_ == "VBG":
                found.append((activity(c, speech) or "", "activity"))
            elif name := phrase(c):
                found.append((name, object_type(c)))
    return [(n, k) for n, k in found if n]


def sentiment(clause: Clause, speech: Speech) -> list[Finding]:
    verb = clause.verb
    predicate = _SENTIMENT[clause.lemma]
    if clause.modal == "would" and clause.lemma in ("like", "love"):
        return []  # "I'd love to visit Japan" is a wish (intent.would_love)
    if clause.lemma == "stand" and not (clause.negated and clause.modal == "can"):
        return []
    if clause.negated and clause.ended and predicate in ("LIKES", "LOVES"):
        pass  # "I don't like jazz anymore": the liking ends (dispatch._never_asserted)
    elif clause.negated and clause.lemma != "stand":
        if predicate not in ("LIKES", "LOVES"):
            return []
        predicate = "DISLIKES"
    if clause.modal in ("would", "could", "might", "will", "should"):
        return []
    if any(c.dep_ == "ccomp" for c in verb.children) and not dobjs(verb):
        return []
    confidence = 0.65 if clause.tense == "past" else 0.85
    if clause.negated and clause.lemma != "stand":
        confidence = 0.75
    targets = _targets(verb, speech)
    return each(clause, lambda s: [Finding(s, predicate, n, k, confidence=confidence,
                                            timing="none")
                                    for n, k in targets])


def rather(clause: Clause, speech: Speech) -> list[Finding]:
    """"I'd rather use Postgres than MongoDB" -> PREFERS PostgreSQL."""
    if not any(c.lower_ == "rather" for c in clause.verb.children):
        return []
    objects = [t for t in dobjs(clause.verb)]
    return each(clause, lambda s: [Finding(s, "PREFERS", n, object_type(t), timing="none")
                                    for t in objects if (n := phrase(t))])


def _uses(subject: Party, name: str, action: Action, *, alone: bool,
          statement: str | None = None) -> Finding:
    if subject.type == "project":
        predicate = "PROJECT_USES"
    elif kind_of(name) == FRAMEWORK and alone:
        predicate = "USES_FRAMEWORK"
    else:
        predicate = "USES"
    return Finding(subject, predicate, name, "technology", action, statement=statement)


def use(clause: Clause, speech: Speech) -> list[Finding]:
    verb = clause.verb
    # "I use Go at work": the parser read the language as a verb ("use [to] go")
    misread = [c for c in verb.children if c.dep_ == "xcomp" and c.text[:1].isupper()
               and c.i > 0 and is_language(c.text, said=True)
               and not any(a.dep_ == "aux" for a in c.children)]
    if any(c.dep_ == "xcomp" and c not in misread for c in verb.children) or \
            verb.tag_ == "VBN" and not clause.perfect and \
            not any(c.dep_ == "auxpass" for c in verb.children):
        return rather(clause, speech)
    if clause.modal in ("would", "could", "should", "might") or \
            any(c.lower_ == "rather" for c in verb.children):
        return rather(clause, speech)
    if clause.tense == "past" and not clause.perfect:
        return []
    names = [(phrase(t), t) for t in dobjs(verb) if t.ent_type_ != TECH_LABEL]
    names += [(t.text, t) for t in misread]
    names += [(phrase(t), t) for t in clause_tech(verb)]
    tools = [(n, t) for n, t in names if n and (t.ent_type_ in (TECH_LABEL, "PRODUCT", "ORG")
                                                 or t.tag_ in ("NNP", "NNPS") or t in misread)]
    action: Action = "retract" if clause.negated or clause.ended else "assert"
    alone = len(tools) == 1
    return [_uses(s, n, action, alone=alone) for s in _tech_subjects(clause, speech)
            for n, _ in tools if n]


def clause_tech(verb: Token) -> list[Token]:
    """Technologies in the verb's own clause, except the ones set aside ("over", "than")."""
    rejected = {t.i for p in verb.subtree if p.dep_ == "prep" and p.lower_ in _REJECTING
                for t in p.subtree}
    rejected |= {t.i for p in verb.subtree if p.lower_ == "instead" for t in p.subtree}
    return [t for t in clause_tokens(verb) if t.ent_type_ == TECH_LABEL and t.i not in rejected]


def _tech_subjects(clause: Clause, speech: Speech) -> list[Party]:
    """"My team uses X", "our company switched to Y": the speaker's own working context."""
    if clause.subjects:
        return clause.subjects
    for c in clause.verb.children:
        if c.dep_ in ("nsubj", "nsubjpass") and c.lemma_.lower() in _COLLECTIVES and \
                possessor(c) == "me" and speech.first_person:
            return [speech.me()]
    return []


def build_with(clause: Clause, speech: Speech) -> list[Finding]:
    """code in / write in / build with / run on / deploy with / rely on: technologies only."""
    verb = clause.verb
    if clause.negated or clause.modal in ("would", "could", "should", "might"):
        return []
    tools = [t for t in pobjs(verb, _TECH_PREPS) if t.ent_type_ == TECH_LABEL]
    tools += [t for t in dobjs(verb) if t.ent_type_ == TECH_LABEL and clause.lemma in
              ("deploy", "run", "host", "write", "code", "program", "develop")]
    tools += [t for o in pobjs(verb, ("on",)) + dobjs(verb) for t in pobjs(o, ("in", "with", "using"))
              if t.ent_type_ == TECH_LABEL and t not in tools]
    if clause.tense == "past" and not clause.perfect and not any(
            s.type == "project" for s in clause.subjects):
        return []
    names = [n for t in tools if (n := phrase(t))]
    alone = len(names) == 1
    return [_uses(s, n, "assert", alone=alone) for s in _tech_subjects(clause, speech)
            for n in names]


def _owner(verb: Token, clause: Clause, speech: Speech) -> list[Party]:
    """"migrated the project", "moved our CI": the project, else the clause's subjects."""
    for t in dobjs(verb):
        if t.lemma_.lower() in PROJECT_NOUNS and possessor(t) != "other":
            return [Party("project", "project")]
    return clause.subjects


def switch(clause: Clause, speech: Speech) -> list[Finding]:
    verb = clause.verb
    if clause.negated or clause.modal in ("would", "could", "should", "might"):
        return []
    if clause.lemma in ("replace", "swap"):
        old = dobjs(verb)
        new = pobjs(verb, ("with", "for"))
    else:
        old = pobjs(verb, ("from", "off"))
        if has_prt(verb, "off") or has_prt(verb, "away"):  # "moved off Heroku"
            old += [t for t in dobjs(verb) if t.ent_type_ == TECH_LABEL]
        inner = [x for p in verb.children if p.dep_ == "prep" and p.lower_ == "from"
                 for x in pobjs(p, ("to",))] + [x for o in old for x in pobjs(o, ("to",))]
        misread = [c for c in verb.children if c.dep_ in ("advcl", "xcomp") and c.i > verb.i + 1
                   and c.text[:1].isupper() and any(a.lower_ == "to" for a in c.children)]
        new = pobjs(verb, ("to", "over")) + inner + misread  # "to Fly" read as a verb
        old = [t for t in old if t not in new]
    if not any(t.ent_type_ == TECH_LABEL for t in [*old, *new, *verb.sent]):
        return []
    if all(is_language(phrase(t) or "") for t in old + new):
        return []  # the main programming language changes (families.change.transition)
    # "switched from Neovim to Zed": what replaces a known tool is one, whatever the NER
    # calls its name ("Zed" a person)
    from_tool = any(t.ent_type_ == TECH_LABEL for t in old)
    old = [t for t in old if _toolish(t)]
    new = [t for t in new if _toolish(t) or from_tool and t.tag_ in ("NNP", "NNPS")]
    olds = [n for t in old if (n := phrase(t) or t.text)]
    news = [n for t in new if (n := phrase(t) or t.text)]
    moved = f" from {olds[0]}" if olds else ""
    out: list[Finding] = []
    for s in _owner(verb, clause, speech) or _tech_subjects(clause, speech):
        for n in news:
            out.append(_uses(s, n, "assert", alone=len(news) == 1,
                             statement=f"{{s}} switched{moved} to {n}"))
        for o in olds:  # a new framework supersedes the old one: no retraction needed
            gone = _uses(s, o, "retract", alone=True)
            if not (gone.predicate == "USES_FRAMEWORK" and any(
                    f.predicate == "USES_FRAMEWORK" for f in out)):
                out.append(gone)
    return out


def _toolish(token: Token) -> bool:
    """A known technology, or a product name standing where one is expected."""
    if token.ent_type_ == TECH_LABEL:
        return True
    capitalised = token.text[:1].isupper() and token.i > token.sent.start
    return (token.tag_ in ("NNP", "NNPS") or capitalised) and token.ent_type_ not in (
        "PERSON", "LOC", "DATE") and token.pos_ != "PRON"


def stop(clause: Clause, speech: Speech) -> list[Finding]:
    """stop / quit / drop / ditch / give up: using a tool or doing a hobby ends."""
    verb = clause.verb
    if clause.negated or clause.modal in ("would", "could", "should", "might"):
        return []
    if clause.lemma == "give" and not has_prt(verb, "up"):
        return []
    out: list[Finding] = []
    for c in verb.children:
        if c.dep_ in ("xcomp", "dobj") and c.tag_ == "VBG":
            if c.lemma_ == "use":
                tools = [n for t in dobjs(c) if (n := phrase(t))]
                out += [_uses(s, n, "retract", alone=True) for s in clause.subjects for n in tools]
            elif c.lemma_ in ACTIVITY_VERBS:
                played = [n for t in dobjs(c) if (n := phrase(t))] if c.lemma_ == "play" else []
                names = played or [gerund(c)]
                out += [Finding(s, "HOBBY", n, "activity", "retract")
                        for s in clause.subjects for n in names]
    if clause.lemma in ("drop", "ditch", "abandon", "quit", "stop"):
        new = taken_up(verb)  # "dropped Java for Go": Go is new
        for t in clause_tech(verb):
            if t.i not in new and (n := phrase(t)) and not any(f.obj == n for f in out):
                out += [_uses(s, n, "retract", alone=True) for s in _tech_subjects(clause, speech)]
    return out


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({
    **{lemma: (sentiment,) for lemma in _SENTIMENT},
    "use": (use,), "code": (build_with,), "program": (build_with,), "write": (build_with,),
    "develop": (build_with,), "build": (build_with,), "run": (build_with,),
    "deploy": (build_with,), "host": (build_with,), "rely": (build_with,), "base": (build_with,),
    "power": (build_with,), "work": (build_with,), "switch": (switch,), "migrate": (switch,),
    "move": (switch,), "change": (switch,), "transition": (switch,), "port": (switch,),
    "replace": (switch,), "swap": (switch,), "stop": (stop,), "quit": (stop,), "drop": (stop,),
    "ditch": (stop,), "abandon": (stop,), "give": (stop,),
})
TRIGGERS: frozenset[str] = frozenset()
PATTERNS: tuple[re.Pattern[str], ...] = ()
