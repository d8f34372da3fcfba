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

from graphmem.extract.rules.clause import PETS, Finding, Party, Rule, Speech
from graphmem.extract.rules.lexicon import OCCUPATIONS
from graphmem.extract.rules.slots import SLOT_NOUNS, SLOT_TYPES, is_language, value_slot

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
#: "they made me head of data", "they appointed me team lead": a title given.
_MADE_ME = re.compile(r"\b(?i:made|named|appointed|make)\s+(?i:me)\s+(?:(?i:the|a|an)\s+)?"
                      r"([a-z][a-z-]*(?:\s+(?:of\s+)?[a-z][a-z-]*){0,3}?)(?=\s*(?:[!.,;]|$|\s+at\b|"
                      r"\s+(?:now|today|last|this)\b))")
#: "a junior developer at an agency, mostly PHP and WordPress": the language worked in.
_MOSTLY = re.compile(r"(?:,|^)\s*(?i:mostly|mainly|primarily)\s+(?i:writing\s+|coding\s+in\s+|"
                     r"in\s+)?([A-Z][\w#+]*)(?=\s*(?:$|[,.;!]|and\b|all\s+day|now\b|these\s+days"
                     r"|at\s+work|on\s+the\b))")
#: "officially a data scientist now": a title said without a verb.
_TITLE_NOW = re.compile(r"^\s*(?i:officially|finally|now)\s+(?i:an?|the)\s+([a-z][a-z -]{2,40}?)"
                        r"\s+(?i:now|as\s+of\s+today)\b")
#: "no more rowing for me", "not plant-based anymore": a sport or diet said to be over.
_NO_MORE = re.compile(r"(?:\b(?i:no\s+more)|(?:^|[,.;!]\s*|\bso\s+)(?i:not))\s+([a-z][a-z-]*(?:\s[a-z-]+)?)"
                      r"\s+(?i:for\s+me|anymore|any\s+more)\b")
#: "so no boss at all", "no sports for a while", "no car anymore": a slot left empty.
_NO_SLOT = re.compile(r"\b(?i:no)\s+(?i:(" + "|".join(sorted(SLOT_NOUNS, key=len, reverse=True))
                      + r"))(?i:e?s)?\s+(?i:at\s+all|anymore|any\s+more|for\s+now|for\s+a\s+while"
                      r"|right\s+now|these\s+days)\b")
#: A pet just got, named in the same message: "got a hamster! his name is Churro",
#: "adopted a rescue cat yesterday, we named her Miso".
_NEW_PET = re.compile(r"(?:^|[.!?]\s+|\b(?i:i|we|i've|we've)\s+)(?i:just\s+)?"
                      r"(?i:got|adopted|rescued|brought\s+home|bought)\s+(?i:a|an|our|my)\s+"
                      r"(?:[\w-]+\s+){0,2}?(?i:(" + "|".join(sorted(PETS)) + r"))\b")
_PET_NAME = re.compile(r"\b(?i:(?:his|her|its)\s+name(?:'s|\s+is)|(?:we|i)\s+(?:named|called)"
                       r"\s+(?:him|her|it))\s+([A-Z][\w'-]+)")
#: The speaker dating someone: "I've been seeing ...", "dating again!", "seeing someone new".
_DATING = re.compile(r"(?:^|[.!?]\s+|\b(?i:i'm|i\s+am|i've\s+been|i\s+have\s+been|we're)\s+)"
                     r"(?i:(?:been\s+)?(?:seeing|dating)\b|met\s+someone\b(?=.*\b(?i:together|dating)\b))")
#: Who that is: "his name is Karim", "a guy named Jonas".
_DATE_NAME = re.compile(r"\b(?i:(?:his|her|their)\s+name(?:'s|\s+is)|(?:a\s+(?:guy|girl|man|woman|"
                        r"boy|lady)|someone)\s+(?:named|called))\s+([A-Z][\w'-]+)")
_SLOT_WORDS = "|".join(sorted(SLOT_NOUNS, key=len, reverse=True))
#: "New phone: a Pixel 8", "new title as of this week: engineering manager", "switched
#: phones: Nothing Phone 2", "new phone, a Nokia X30": a slot named, then its value.
_SLOT_LABEL = re.compile(
    r"^\s*(?i:(?:(?:my|our)\s+)?(?:(?:new|current)\s+)?|(?:switched|changed)\s+)"
    r"(?i:(" + _SLOT_WORDS + r"))(?i:s)?(?i:\s+as\s+of\s+(?:this|last|today|yesterday)[\w ]*?)?"
    r"\s*([:\u2013\u2014,-])\s+(?i:(?:an?|the|my)\s+)?([^,.;!?()]+?)\s*(?:[,.;!?(]|$)")
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
    renamed = _NEW_NAME.search(text)
    if renamed and (name := _clean_name(renamed.group(1))) and not _NEGATED_BEFORE.search(
            text[max(0, renamed.start() - 24): renamed.start()]):
        out.append(Finding(me, "IS_NAMED", name, "name", confidence=0.9,
                           statement="{s's} name is now " + name))
    out += _dating(sent, me) + _new_pet(sent, me) + _made_me(text, me)
    out += [Finding(me, slot, m.group(1).lower(), SLOT_TYPES[slot], "retract")
            for m in _NO_MORE.finditer(text)
            if (slot := value_slot(m.group(1)) or "") in ("PLAYS_SPORT", "DIET")]
    out += [Finding(me, "MAIN_LANGUAGE", m.group(1), "technology", confidence=0.75)
            for m in _MOSTLY.finditer(text) if is_language(m.group(1), said=True)]
    out += [Finding(me, slot, "", SLOT_TYPES.get(slot, "concept"), "retract")
            for m in _NO_SLOT.finditer(text) if (slot := SLOT_NOUNS[m.group(1).lower()])
            not in ("LIVES_IN",)]
    aged = AGE.search(text)
    if aged:
        age = int(aged.group(1))
        if 0 < age < 120 and (age > 12 or aged.group(0).lower().endswith("old")):
            out.append(Finding(me, "AGE", str(age), "number", timing="none", confidence=0.85))
    label = _SLOT_LABEL.match(text)
    if label and (value := label.group(3).strip()) and len(value.split()) <= 5:
        slot = SLOT_NOUNS[label.group(1).lower()]
        # after a comma only a value that names its own slot: "new phone, a Nokia X30"
        if label.group(2) != "," or value_slot(value) == slot:
            out.append(Finding(me, slot, value, SLOT_TYPES.get(slot, "concept"),
                               confidence=0.85))
    todo = TODO.match(text)
    if todo:
        task = todo.group(1).strip()
        out.append(Finding(me, "TODO", task, "task", timing="due", confidence=0.9,
                           statement=f"{{s}} needs to {task}"))
    return out


def _made_me(text: str, me: Party) -> list[Finding]:
    """"They made me head of data!", "officially a data scientist now": the title, when it
    reads as one (an occupation last, or a head, director or lead of something)."""
    out = []
    for m in [*_MADE_ME.finditer(text), *_TITLE_NOW.finditer(text)]:
        title = m.group(1).strip()
        words = title.split()
        if words[-1] in OCCUPATIONS or words[0] in ("head", "director", "vp", "chief") \
                or words[-1] == "lead":
            out.append(Finding(me, "JOB_TITLE", title, "role", confidence=0.8))
    return out


def _new_pet(sent: Span, me: Party) -> list[Finding]:
    """The name a pet the speaker just got is given later in the message."""
    message = sent.doc.text
    kind = _NEW_PET.search(message)
    if kind is None or kind.start() > sent.end_char:
        return []
    return [Finding(me, "HAS_PET", name, "animal", timing="none",
                    statement=f"{{s}} has a {kind.group(1).lower()} named {name}")
            for m in _PET_NAME.finditer(sent.text) if (name := _clean_name(m.group(1)))]


def _dating(sent: Span, me: Party) -> list[Finding]:
    """"Seeing someone new, his name is Karim", "dating again! his name is Andre": the name
    given in the message the speaker says they are dating in (not "my sister is dating a
    guy called Niall", which is the sister's)."""
    message = sent.doc.text
    if not _DATING.search(message):
        return []
    return [Finding(me, "HAS_PARTNER", name, "person", confidence=0.8)
            for m in _DATE_NAME.finditer(sent.text) if (name := _clean_name(m.group(1)))]


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
PATTERNS: tuple[re.Pattern[str], ...] = (I_AM, TODO, AGE, _DATING, _NEW_NAME, _PET_NAME,
                                               _NO_SLOT, _MADE_ME, _TITLE_NOW,
                                               _NO_MORE)
