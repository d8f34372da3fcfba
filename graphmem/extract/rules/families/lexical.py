"""Facts best caught by surface patterns, before any parse: names, age, labels, todos.

"Call me Bobby", "I go by Sam", "My name is Priya", "Hi, I'm Dev", "I'm 34 years
old", "Phone: Pixel 8" and "Todo: renew the passport" say what they say in a
fixed shape that the parser often splits badly, so regular expressions read
them off the sentence text. Only first-person messages are read: the speaker
is the one named.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Finding, Rule, Speech
from graphmem.extract.rules.slots import SLOT_NOUNS, SLOT_TYPES

if TYPE_CHECKING:
    from spacy.tokens import Span

_NAME = r"([A-Z][\w'\u2019-]*(?:\s+[A-Z][\w'\u2019-]*){0,3})"
_CALL_ME = re.compile(r"\b(?i:calls?|calling)\s+(?i:me)\s+" + _NAME)
_GO_BY = re.compile(r"\b(?i:i\s+go\s+by)\s+" + _NAME)
_MY_NAME = re.compile(r"\b(?i:my\s+name(?:'s|\s+is))\s+" + _NAME)
I_AM = re.compile(r"^(?i:(?:hi|hello|hey)(?:\s+there|\s+all|\s+everyone)?[,!.]*\s+)?"
                   r"(?i:i'm|i\s+am|this\s+is)\s+" + _NAME + r"(?=[\s,.!]|$)")
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


def lexical_facts(sent: Span, speech: Speech) -> list[Finding]:
    """The speaker's names, age, labelled slots and "Todo:" lines, read off the text."""
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


#: No verb rules: these facts are read by :func:`lexical_facts` from the text.
RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({})
TRIGGERS: frozenset[str] = frozenset()
#: A sentence these match is worth parsing whatever its words.
PATTERNS: tuple[re.Pattern[str], ...] = (I_AM, TODO, AGE)
