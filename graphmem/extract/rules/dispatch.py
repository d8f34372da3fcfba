"""The rule set: lexical patterns, then one pass over the verbs of a sentence.

:func:`sentence_findings` is the single entry point. It runs the few facts
that are best caught by surface patterns (names, "call me X", age, "Todo:"),
the noun-phrase facts ("my sister Anna"), every verb rule registered for each
clause's lemma (see :mod:`families.life`, :mod:`families.events`, :mod:`families.prefs`,
:mod:`families.intent`, :mod:`families.copula`) and finally the lesson detector. Questions state nothing and are skipped.

Which clauses are read: main clauses and their coordinated or complement
verbs. A ``to``-infinitive under a wish or duty ("I want to work at Google")
is left to the rule of the governing verb, which turns it into a goal or a
todo instead of a fact; only aspectual heads ("started working at",
"I'm going to move to") pass their infinitive through as a statement.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from graphmem.extract.rules.families import change, events, intent, life, prefs, states
from graphmem.extract.rules.clause import (
    PROJECT_NOUNS, Clause, Finding, Rule, Speech, build_clause, is_question, tech_in)
from graphmem.extract.rules.families.copula import copula, linking, noun_facts, passive_state
from graphmem.extract.rules.families.lesson import lesson_facts
from graphmem.extract.rules.phrases import phrase
from graphmem.extract.rules.slots import SLOT_NOUNS, SLOT_TYPES, settle

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

_VERB_DEPS = frozenset({"ROOT", "conj", "ccomp", "xcomp", "advcl", "parataxis", "pcomp"})
#: Heads whose infinitive or gerund complement is itself a statement.
_PASS_THROUGH = frozenset({"start", "begin", "continue", "keep", "go", "get", "finish", "be"})
#: What a project can be said to have; "the app runs" is not a hobby.
_PROJECT_PREDICATES = frozenset({"PROJECT_USES", "LESSON"})
#: Every verb rule, by lemma; a lemma may have rules in several tables ("get" a job, a bike).
_TABLES = (life.RULES, events.RULES, prefs.RULES, intent.RULES,
           states.RULES, change.RULES)
#: What a negated or ended clause may still assert: its own negative ("I don't like X" is a
#: dislike) and intentions whose rules read the negation themselves ("don't forget to...").
_NEGATION_AWARE = frozenset({"DISLIKES", "TODO", "GOAL", "PLANS", "LESSON", "LEARNING",
                             "PREFERRED_NAME"})
_NAME = r"([A-Z][\w'\u2019-]*(?:\s+[A-Z][\w'\u2019-]*){0,3})"
_CALL_ME = re.compile(r"\b(?i:calls?|calling)\s+(?i:me)\s+" + _NAME)
_GO_BY = re.compile(r"\b(?i:i\s+go\s+by)\s+" + _NAME)
_MY_NAME = re.compile(r"\b(?i:my\s+name(?:'s|\s+is))\s+" + _NAME)
I_AM = re.compile(r"^(?i:(?:hi|hello|hey)(?:\s+there|\s+all|\s+everyone)?[,!.]*\s+)?"
                   r"(?i:i'm|i\s+am|this\s+is)\s+" + _NAME + r"(?=[\s,.!]|$)")
_REMIND_ME = re.compile(r"\bremind\s+me\b", re.IGNORECASE)
_INSTEAD = re.compile(r"\s*[,;]\s*(?i:just|only|simply|but|rather)\s+" + _NAME)
_NEGATED_BEFORE = re.compile(r"(?:n't|\bnot|\bnever|\bstop)\s+(?:\w+\s+)?$", re.IGNORECASE)
AGE = re.compile(r"\b(?i:i'm|i\s+am|i\s+just\s+turned|i\s+turned)\s+(\d{1,3})"
                  r"(?i:\s+years?\s+old\b|(?=\s*(?:[,.!;]|and\b|now\b|$)))")
_SLOT_LABEL = re.compile(r"^\s*(?i:(?:my\s+)?(?:new|current)\s+)?(?i:(" + "|".join(
    sorted(SLOT_NOUNS, key=len, reverse=True)) + r"))\s*[:\u2013\u2014-]\s+(.+?)[.!]*\s*$")
TODO = re.compile(r"^\s*(?i:todo|to-do|to\s+do)\s*[:\-]\s*(.+?)[.!]?\s*$")
_NOT_NAMES = frozenset({"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                        "Sunday", "Maybe", "Later", "Back", "Tomorrow", "Tonight", "Today", "I",
                        "Sorry", "So", "Just", "Not", "Here", "Sure", "Glad", "Happy", "Excited",
                        "Ok", "Okay", "The", "A", "An", "Really"})


def sentence_findings(sent: Span, speech: Speech, earlier_tech: list[str]) -> list[Finding]:
    """Every finding in one sentence, each anchored to the verb it came from."""
    if is_question(sent) and not _REMIND_ME.search(sent.text):
        return []
    found = _lexical(sent, speech)
    found += noun_facts(sent, speech)
    found += states.progressive_slot(sent, speech)
    for token in sent:
        if token.pos_ not in ("VERB", "AUX") or token.dep_ not in _VERB_DEPS:
            continue
        used_to = _used_to(token)
        if token.dep_ in ("xcomp", "pcomp") and token.head.lemma_ not in _PASS_THROUGH \
                and not used_to:
            continue
        if token.dep_ == "advcl" and any(c.dep_ == "aux" and c.lower_ == "to"
                                         for c in token.children):
            continue
        rules = _rules(token.lemma_.lower(), token.lower_)
        clause = build_clause(token, speech) if rules or _has_project_subject(token) else None
        if clause is None:
            continue
        clause.ended = clause.ended or used_to  # "I used to live in Paris": no longer
        findings = [f for rule in rules for f in rule(clause, speech)]
        findings += _stack(clause, findings)
        if clause.negated or clause.ended:
            findings = [_never_asserted(f) for f in findings]
        for finding in findings:
            if finding.subject.type == "project" and finding.predicate not in _PROJECT_PREDICATES:
                continue
            finding.anchor = token.i
            if clause.hedged:
                finding.confidence *= 0.6
            found.append(finding)
    found += lesson_facts(sent, speech, earlier_tech)
    earlier_tech.extend(tech_in(sent))
    return settle(_dedupe(found))


def _never_asserted(finding: Finding) -> Finding:
    """A negated clause closes what it names; it never states it."""
    if finding.action == "assert" and finding.predicate not in _NEGATION_AWARE:
        finding.action = "retract"
    return finding


def _used_to(verb: Token) -> bool:
    """"used to love jazz", "used to live in Paris": a state that has ended."""
    head = verb.head
    return verb.dep_ == "xcomp" and head.lemma_ == "use" and head.tag_ == "VBD" and any(
        c.lower_ == "to" for c in verb.children if c.dep_ == "aux")


def _stack(clause: Clause, findings: list[Finding]) -> list[Finding]:
    """Whatever a project's verb is ("talks to Kafka", "caches in Redis"), its tools are its stack."""
    projects = [s for s in clause.subjects if s.type == "project"]
    if not projects or clause.negated or clause.ended:
        return []
    known = {f.obj for f in findings if f.predicate == "PROJECT_USES"}
    return [Finding(p, "PROJECT_USES", n, "technology", confidence=0.75) for p in projects
            for t in prefs.clause_tech(clause.verb) if (n := phrase(t)) and n not in known]


def _rules(lemma: str, word: str) -> list[Rule]:
    rules = [rule for table in _TABLES for rule in table.get(lemma, ())]
    if lemma == "be":
        rules.insert(0, copula)
    if lemma in ("get", "become"):
        rules.append(linking)
    if word in ("engaged", "based", "interested", "obsessed", "passionate", "allergic"):
        rules.append(passive_state)
    return rules


def _has_project_subject(verb: Token) -> bool:
    return any(c.dep_ in ("nsubj", "nsubjpass") and c.lemma_.lower() in PROJECT_NOUNS
               for c in verb.children)


def _dedupe(found: list[Finding]) -> list[Finding]:
    seen: dict[tuple[str, str, str, str], Finding] = {}
    for f in found:
        key = (f.subject.name.lower(), f.predicate, f.obj.lower(), f.action)
        if key not in seen or seen[key].confidence < f.confidence:
            seen[key] = f
    return list(seen.values())


def _lexical(sent: Span, speech: Speech) -> list[Finding]:
    if not speech.first_person:
        return []
    text = sent.text
    me = speech.me()
    out: list[Finding] = []
    for m in _CALL_ME.finditer(text):
        name = _clean_name(m.group(1))
        if name is None:
            continue
        negated = _NEGATED_BEFORE.search(text[max(0, m.start() - 24): m.start()])
        out.append(Finding(me, "PREFERRED_NAME", name, "name",
                           "retract" if negated else "assert", timing="none", confidence=0.9))
        instead = _INSTEAD.match(text, m.end()) if negated else None
        if instead and (other := _clean_name(instead.group(1))):  # "..., just Dev"
            out.append(Finding(me, "PREFERRED_NAME", other, "name", timing="none",
                               confidence=0.85))
    for m in _GO_BY.finditer(text):
        if name := _clean_name(m.group(1)):
            out.append(Finding(me, "PREFERRED_NAME", name, "name", timing="none", confidence=0.9))
    for pattern in (_MY_NAME, I_AM):
        named = pattern.search(text)
        if named and (name := _clean_name(named.group(1))) and (
                pattern is _MY_NAME or _is_name(sent, named.start(1))):
            out.append(Finding(me, "IS_NAMED", name, "name", timing="none", confidence=0.9))
    aged = AGE.search(text)
    if aged:
        age = int(aged.group(1))
        if 0 < age < 120 and (age > 12 or aged.group(0).lower().endswith("old")):
            out.append(Finding(me, "AGE", str(age), "number", timing="none", confidence=0.85))
    label = _SLOT_LABEL.match(text)
    if label and (value := label.group(2).strip()) and len(value.split()) <= 5:
        slot = SLOT_NOUNS[label.group(1).lower()]
        out.append(Finding(me, slot, value, SLOT_TYPES.get(slot, "concept"), confidence=0.85))
    todo = TODO.match(text)
    if todo:
        task = todo.group(1).strip()
        out.append(Finding(me, "TODO", task, "task", timing="due", confidence=0.9,
                           statement=f"{{s}} needs to {task}"))
    return out


def _clean_name(raw: str) -> str | None:
    words = []
    for w in raw.split():
        if w in _NOT_NAMES:
            break
        words.append(w.strip("'\u2019"))
    name = " ".join(words)
    return name or None


def _is_name(sent: Span, char: int) -> bool:
    for token in sent:
        if token.idx - sent.start_char >= char:
            return token.ent_type_ == "PERSON" or (
                token.ent_type_ in ("", "ORG") and token.tag_ in ("NNP", "NNPS"))
    return False
