"""Facts best caught by surface patterns, before any parse: names, age, todos.

"Call me Bobby", "I go by Sam", "My name is Priya", "Hi, I'm Dev", "I'm 34 years
old" and "Todo: renew the passport" say what they say in a fixed shape that the
parser often splits badly, so regular expressions read them off the sentence
text. Only first-person messages are read: the speaker is the one named. Slots
said in chat shorthand ("New phone: Pixel 8", "no more rowing for me") are read
the same way by :mod:`graphmem.extract.rules.families.chat`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Finding, Rule
from graphmem.extract.rules.lexicon import clean_name, is_occupation
from graphmem.extract.rules.parties import WORD_NAMES, Speech
from graphmem.extract.rules.slots import DIETS

if TYPE_CHECKING:
    from spacy.tokens import Span

_NAME = r"([A-Z][\w'\u2019-]*(?:\s+[A-Z][\w'\u2019-]*){0,3})"
_CALL_ME = re.compile(r"\b(?i:calls?|calling)\s+(?i:me)\s+" + _NAME)
_GO_BY = re.compile(r"\b(?i:i\s+go\s+by)\s+" + _NAME)
_MY_NAME = re.compile(r"\b(?i:my\s+name(?:'s|\s+is))\s+" + _NAME)
#: "I changed my name to Maya Lopez", "my new name is Maya Lopez": a name from now on.
_NEW_NAME = re.compile(r"\b(?i:changed\s+my\s+name\s+to|my\s+new\s+name(?:'s|\s+is)"
                       r"|(?:i'm|i\s+am)\s+now\s+called)\s+" + _NAME)
I_AM = re.compile(r"^(?i:(?:hi|hello|hey)(?:\s+there|\s+all|\s+everyone)?[,!.]*\s+)?"
                   r"(?i:i'm|i\s+am|this\s+is)\s+" + _NAME + r"(?=[\s,.!]|$)")
_INSTEAD = re.compile(r"\s*[,;]\s*(?i:just|only|simply|but|rather)\s+" + _NAME)
_NEGATED_BEFORE = re.compile(r"(?:n't|\bnot|\bnever|\bstop)\s+(?:\w+\s+)?$", re.IGNORECASE)
AGE = re.compile(r"\b(?i:i'm|i\s+am|i\s+just\s+turned|i\s+turned)\s+(\d{1,3})"
                  r"(?i:\s+years?\s+old\b|(?=\s*(?:[,.!;]|and\b|now\b|$)))")
TODO = re.compile(r"^\s*(?i:todo|to-do|to\s+do)\s*[:\-]\s*(.+?)[.!]?\s*$")
#: "I have type 2 diabetes": the parser reads "type" as the sentence's head and no rule sees
#: the condition ("my dad has type 2 diabetes" parses, and is read by its verb). Said as the
#: sentence's statement, not "If I have...", "I'm worried I have...", "...in the family".
TYPED_DIABETES = re.compile(r"^\W*(?i:(?:well|so|also|and|but|yeah|btw|fyi|oh)\W+)*"
                            r"(?i:i\s+have|i\s+have\s+got|i've\s+got|i\s+got|i've)\s+"
                            r"(?i:(type\s+[12])\s+diabetes)\b(?!\s+(?i:in|runs))")
def lexical_facts(sent: Span, speech: Speech) -> list[Finding]:
    """The speaker's names, age, "Todo:" lines and a typed diabetes, read off the text."""
    if not speech.first_person:
        return []
    text = sent.text
    me = speech.me()
    out: list[Finding] = []
    for m in _CALL_ME.finditer(text):
        name = clean_name(m.group(1))
        if name is None:
            continue
        negated = _NEGATED_BEFORE.search(text[max(0, m.start() - 24): m.start()])
        out.append(Finding(me, "PREFERRED_NAME", name, "name",
                           "retract" if negated else "assert", timing="none", confidence=0.9))
        instead = _INSTEAD.match(text, m.end()) if negated else None
        if instead and (other := clean_name(instead.group(1))):  # "..., just Dev"
            out.append(Finding(me, "PREFERRED_NAME", other, "name", timing="none",
                               confidence=0.85))
    for m in _GO_BY.finditer(text):
        if name := clean_name(m.group(1)):
            out.append(Finding(me, "PREFERRED_NAME", name, "name", timing="none", confidence=0.9))
    for pattern in (_MY_NAME, I_AM):
        named = pattern.search(text)
        if named and (name := clean_name(named.group(1))) and not name.endswith(
                ("'s", "\u2019s")) and (  # "I'm Tom's manager" names Tom's manager, not me
                pattern is _MY_NAME or _is_name(sent, named.start(1), speech)):
            out.append(Finding(me, "IS_NAMED", name, "name", timing="none", confidence=0.9))
    renamed = _NEW_NAME.search(text)
    if renamed and (name := clean_name(renamed.group(1))) and not _NEGATED_BEFORE.search(
            text[max(0, renamed.start() - 24): renamed.start()]):
        out.append(Finding(me, "IS_NAMED", name, "name", confidence=0.9,
                           statement="{s's} name is now " + name))
    aged = AGE.search(text)
    if aged:
        age = int(aged.group(1))
        if 0 < age < 120 and (age > 12 or aged.group(0).lower().endswith("old")):
            out.append(Finding(me, "AGE", str(age), "number", timing="none", confidence=0.85))
    typed = TYPED_DIABETES.search(text)
    if typed:
        out.append(Finding(me, "HAS_CONDITION", f"{typed.group(1).lower()} diabetes",
                           "condition", confidence=0.9))
    todo = TODO.match(text)
    if todo:
        task = todo.group(1).strip()
        out.append(Finding(me, "TODO", task, "task", timing="due", confidence=0.9,
                           statement=f"{{s}} needs to {task}"))
    return out


#: Endings of words said of people after "I'm": "Exhausted", "Catholic", "Buddhist",
#: "Mancunian", "Jamaican", "Teetotal", "Redundant".
_ADJECTIVE_ENDING = re.compile(r"\w{3}(?:ed|ous|ful|less|able|ible|ive|ish|ing|ic|ist|ian|an|"
                               r"ese|al|ant|ent|ual)$")
_GREETING = re.compile(r"^\W*(?i:hi|hey|hello|hiya|howdy)\b")
#: Rare words said of people after "I'm" that no ending gives away.
_SAID_OF_PEOPLE = frozenset({"skint", "hungover", "hangry", "knackered", "gutted", "chuffed",
                             "peckish", "stoked", "psyched", "pumped", "bummed", "broke",
                             "single", "hybrid", "scouse", "geordie", "brummie", "gay", "queer",
                             "trans", "bi", "straight", "veggie", "muslim", "hindu", "sikh",
                             "jewish", "pagan", "bipolar", "sober", "wfh", "remote", "pregnant",
                             "engaged", "married", "divorced", "widowed", "retired", "unemployed",
                             "mormon", "quaker", "jain", "wiccan", "welsh", "thai", "kiwi",
                             "aussie", "latina", "latino", "grumpy", "cranky", "sleepy",
                             "homesick", "shattered", "meh", "lesbian", "nonbinary", "ace",
                             "freelance", "coeliac", "dyslexic", "vegan", "keto", "halal",
                             "kosher"})


def _is_name(sent: Span, char: int, speech: Speech) -> bool:
    for token in sent:
        if token.idx - sent.start_char >= char:
            if token.text.isupper() or is_occupation(token) and any(
                    c.dep_ == "prep" for c in token.children):
                return False  # "I'm CTO", "I'm Engineer at Acme": a title
            # "I'm Rory." with Rory tagged an adjective, "I'm Jayden." a town: a first name or a
            # word English rarely uses is a name, unless shaped like an adjective ("Knackered")
            low = token.lower_
            if low in _SAID_OF_PEOPLE or low in DIETS:
                return False  # "I'm Vegan now", "I'm Sikh"
            if low in speech.first_names and low not in WORD_NAMES:
                return True  # "I'm Adrian", "I'm Christian" (a first name before an ending)
            greeted = _GREETING.match(sent.text) is not None  # "Hi, I'm Tristan."
            return token.ent_type_ == "PERSON" or (
                token.ent_type_ in ("", "ORG") and token.tag_ in ("NNP", "NNPS")) or (
                token.ent_type_ in ("", "GPE")
                and (greeted or not _ADJECTIVE_ENDING.search(low))
                and speech.rare is not None and speech.rare(low))
    return False


#: No verb rules: these facts are read by :func:`lexical_facts` from the text.
RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({})
TRIGGERS: frozenset[str] = frozenset()
#: A sentence these match is worth parsing whatever its words.
PATTERNS: tuple[re.Pattern[str], ...] = (I_AM, TODO, AGE, _NEW_NAME, TYPED_DIABETES)
