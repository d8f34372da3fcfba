"""A slot said to be empty, in chat shorthand: "so no boss at all", "no car for now", "i've got
no car at the moment", "i'm going without a car for now", "Currently phoneless", "between
jobs": a retraction with no value, which ends whatever the slot held."""

from __future__ import annotations

import re
from types import MappingProxyType

from graphmem.extract.rules.clause import Finding
from graphmem.extract.rules.parties import Party
from graphmem.extract.rules.slots import SLOT_NOUNS, SLOT_TYPES

#: "so no boss at all", "no sports for a while", "no car anymore": a slot left empty.
#: What "no ..." can leave empty: a slot's noun, or the doing it names ("no coding for me").
_EMPTIED = MappingProxyType({**SLOT_NOUNS, "coding": "MAIN_LANGUAGE",
                             "programming": "MAIN_LANGUAGE"})
#: A slot's noun under "no": "no car", "no main language", "no coding".
_NO_NOUN = (r"(?i:no)\s+(?:(?i:main|primary|current|fixed|regular|special|particular)\s+)?(?i:("
            + "|".join(sorted(_EMPTIED, key=len, reverse=True)) + r"))")
#: "no car for now", "no coding for me anymore", "no programming language to speak of now":
#: a slot empty for a while.
_NO_SLOT = re.compile(r"\b" + _NO_NOUN + r"(?i:e?s)?(?:\s+(?i:for\s+(?:me|us)|to\s+speak\s+of))?\s+"
                      r"(?i:at\s+all|anymore|any\s+more"
                      r"|for\s+now|for\s+a\s+while|right\s+now|these\s+days|at\s+the\s+moment"
                      r"|now|rn|atm)\b")
#: "so rn i technically have no boss", "I've got no car at the moment": a slot had by no one.
_HAVE_NO = re.compile(r"\b(?i:i|i've|i\s+have)\s+(?:(?i:rn|now|currently|technically|still|"
                      r"basically|officially|actually)\s+){0,3}(?i:have|got)\s+" + _NO_NOUN
                      + r"\b(?!\s+(?:who|that|which|to|for)\b)")
#: "I'm currently without a line manager", "i'm going without a car for now": a slot left empty.
_WITHOUT_SLOT = re.compile(r"\b(?i:i'm|i\s+am)\s+(?:(?i:currently|now|still)\s+)?"
                           r"(?:(?i:going|managing|living|getting\s+by)\s+)?(?i:without)\s+"
                           r"(?:(?i:a|an|any)\s+)?(?i:(line\s+manager|manager|boss|phone|car|job))\b")
#: "Currently phoneless", "between jobs", "our team is leaderless": a slot left empty.
_WITHOUT = re.compile(r"(?:^\s*(?i:currently|now|still)?\s*|\b(?i:i'm|i\s+am|we're|we\s+are|our\s+team"
                      r"\s+is)\s+(?:(?i:currently|now|still|officially)\s+)?)(?i:(phoneless|carless|"
                      r"phone-free|car-free|not\s+on\s+any\s+diet|"
                      r"between\s+jobs|leaderless|managerless|boss-less|bossless|out\s+of\s+work|"
                      r"on\s+a\s+career\s+break|not\s+employed|manager-free|boss-free))\b")
_EMPTY_SLOTS = MappingProxyType({"phoneless": "HAS_PHONE", "carless": "DRIVES",
                                 "not on any diet": "DIET",
                                 "phone-free": "HAS_PHONE", "car-free": "DRIVES",
                                 "leaderless": "REPORTS_TO", "managerless": "REPORTS_TO",
                                 "boss-less": "REPORTS_TO", "bossless": "REPORTS_TO",
                                 "manager-free": "REPORTS_TO", "boss-free": "REPORTS_TO"})


def emptied_facts(text: str, me: Party) -> list[Finding]:
    """One retraction without a value for each slot the text says the speaker is without."""
    out = []
    for m in _WITHOUT.finditer(text):
        word = " ".join(m.group(1).lower().split())
        slot = _EMPTY_SLOTS.get(word, "WORKS_AT")
        out.append(Finding(me, slot, "", SLOT_TYPES[slot], "retract", confidence=0.8))
    out += [Finding(me, slot, "", SLOT_TYPES[slot], "retract", confidence=0.8)
            for m in _WITHOUT_SLOT.finditer(text)
            if (slot := SLOT_NOUNS[" ".join(m.group(1).lower().split())])]
    emptied = dict.fromkeys(slot for pattern in (_HAVE_NO, _NO_SLOT) for m in pattern.finditer(text)
                            if (slot := _EMPTIED[m.group(1).lower()]) != "LIVES_IN")
    out += [Finding(me, slot, "", SLOT_TYPES.get(slot, "concept"), "retract", confidence=0.8)
            for slot in emptied]
    return out


PATTERNS: tuple[re.Pattern[str], ...] = (_NO_SLOT, _WITHOUT, _WITHOUT_SLOT, _HAVE_NO)
