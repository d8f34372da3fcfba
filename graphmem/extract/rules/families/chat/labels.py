"""A slot named as a label, then its value: "New phone: a Pixel 8", "new title as of this week:
engineering manager", "switched phones: Nothing Phone 2", "new phone, a Nokia X30", "new year
new diet: Whole30"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Finding
from graphmem.extract.rules.parties import SOMEONE_ELSES, Party
from graphmem.extract.rules.slots import SLOT_NOUNS, SLOT_TYPES, value_slot

if TYPE_CHECKING:
    from spacy.tokens import Span

#: Time words after a labelled value: "Changed my diet - pescatarian from now on".
_UNTIL_FURTHER = re.compile(r"\s+(?i:from\s+now\s+on|for\s+now|now|these\s+days|as\s+of\s+today)$")
#: What a slot's label may be followed by before its value: "new city: I live in Montreal now".
_SAID_IN = re.compile(r"^(?i:(?:i'm|i\s+am|we're|we\s+are)\s+(?:now\s+)?(?:living\s+|based\s+)?in"
                      r"|(?:i|we)\s+(?:now\s+)?live\s+in)\s+")
_SLOT_WORDS = "|".join(sorted(SLOT_NOUNS, key=len, reverse=True))
#: "New phone: a Pixel 8", "new title as of this week: engineering manager", "switched
#: phones: Nothing Phone 2", "new phone, a Nokia X30": a slot named, then its value.
_SLOT_LABEL = re.compile(
    r"^\s*(?i:i\s+)?(?i:(?:(?:my|our)\s+)?(?:(?:new|current)\s+)?|(?:switched|changed)\s+(?:my\s+|our\s+)?"
    r"|(?:i\s+|we\s+)?(?:just\s+)?(?:got|have|there's)\s+a\s+new\s+)"
    r"(?i:(" + _SLOT_WORDS + r"))(?i:s)?(?i:\s+(?:as\s+of\s+)?(?:this|last|today|yesterday)"
    r"[\w ]*?)?"
    r"\s*([:\u2013\u2014,-])\s+(?i:(?:an?|the|my)\s+)?([^,.;!?()]+?)\s*(?:[,.;!?(]|$)")
#: "Switched sports: it's ultimate frisbee for me now": the value without its pointer.
_POINTED = re.compile(r"^(?i:it's|it\s+is|now)\s+|\s+(?i:for\s+me)(?:\s+(?i:now))?$")
_LEAD_IN = re.compile(r"^\W*(?:[\w']+\W+){1,3}?(?=(?i:new)\s+(?i:(?:" + _SLOT_WORDS + r")))")


def labelled_facts(sent: Span, me: Party) -> list[Finding]:
    """The value after a slot's label, when it reads as a value (five words at most, not a
    clause of its own)."""
    text = sent.text
    # a label the splitter cut off its value ("new year new diet:" / "Whole30 from now on.")
    labelled = sent.doc.text[sent.start_char:] if text.rstrip().endswith(":") else text
    label = _SLOT_LABEL.match(labelled) or _SLOT_LABEL.match(labelled[_lead_in(labelled):])
    if not label or not (value := _POINTED.sub("", _UNTIL_FURTHER.sub(
            "", _SAID_IN.sub("", label.group(3)))).strip()) or \
            len(value.split()) > 5 or value.split()[0].lower() in ("i", "we", "i'm", "we're"):
        return []
    slot = SLOT_NOUNS[label.group(1).lower()]
    # after a comma only a value that names its own slot: "new phone, a Nokia X30"
    if label.group(2) == "," and value_slot(value) != slot:
        return []
    return [Finding(me, slot, value, SLOT_TYPES.get(slot, "concept"), confidence=0.85)]


def _lead_in(text: str) -> int:
    """Where "new <slot>:" starts after a few words of lead-in ("new year new diet: Whole30"),
    or 0."""
    found = _LEAD_IN.match(text)
    # "Tom's new home: ...", "his new job: ...": someone else's slot, not the speaker's
    return found.end() if found and not SOMEONE_ELSES.search(found.group(0)) else 0

