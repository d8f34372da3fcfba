"""A switch said as an idiom: "made the jump to the Pixel 6", "finally made the move to
dublin", "jumped ship to Stripe", "switched over to Go", "out of Dublin and into Barcelona",
"the team switched to python so that's me now". The parser reads these badly ("Go" a
verb, "the jump" a subject), so the text is read: the value names its slot (a phone, a
language...), or is a known town one made the move to (a home), or else a firm: a name one
jumped to, or moved to in a message about work.
"""

from __future__ import annotations

import re

from graphmem.extract.rules.clause import Finding
from graphmem.extract.rules.lexicon import clean_name, talks_of_work
from graphmem.extract.rules.parties import Party, Speech
from graphmem.extract.rules.families.chat.in_use import exchanged_slot
from graphmem.extract.rules.families.chat.work import JOB_BEGUN
from graphmem.extract.rules.slots import SLOT_TYPES

#: The idioms, an article if any, then the value they switched to (up to four words, to the
#: clause's end).
_SWITCHED = re.compile(
    r"\b(?i:made\s+the\s+(?:jump|switch|move|leap)|jumped\s+ship|switched\s+over"
    r"|swapped\s+over|changed\s+over)\s+(?i:over\s+)?(?i:to)\s+((?i:the|an?|my)\s+)?"
    r"([\w#+-]+(?:\s[\w#+-]+){0,3}?)(?=\s*(?:$|[.,;:!?(\u2013\u2014]|\s+-\s|\s+(?i:now|today|"
    r"this|last|and|but|so|finally|after|from|in|at|for|with|because|since)\b|\s+[^\w\s]))")
#: "out of Dublin and into Barcelona!": one town left for another.
_OUT_AND_INTO = re.compile(r"\b(?i:out\s+of)\s+([\w'-]+(?:\s(?!and\b)[\w'-]+)?)\s*,?\s+(?i:and\s+)?"
                           r"(?i:into)\s+"
                           r"([\w'-]+(?:\s[\w'-]+)?)(?=\s*(?:$|[.,;:!?]|\s+[^\w\s]|\s+(?i:now|today)\b))")
#: "the team switched to python so that's me now", "we moved to Swift so now I write it all
#: day": a switch the speaker is part of.
_WE_SWITCHED = re.compile(r"\b(?i:(?:the|my|our)\s+(?:team|company|squad|org|department)|we)\s+"
                          r"(?i:switched|moved|migrated|changed)\s+(?i:over\s+)?(?i:to)\s+"
                          r"([\w#+-]+)\b[^.!?]*?\b(?i:so\s+that's\s+(?:me|what\s+i)|so\s+i'm|"
                          r"so\s+now\s+i)\b")
#: Words before the idiom that say it was not done: "we might have made the move to Berlin",
#: "if I'd made the jump to Go", "never made the switch to keto".
_NOT_DONE = re.compile(r"\b(?:might|would|could|should|may|if|wish|never|not|n't|didn't|wanna|want"
                       r"|thinking|plan\w*|consider\w*)\b[^.!?]*$", re.IGNORECASE)
#: Those whose values are things bought, named by their maker alone or with an article.
_THINGS = frozenset({"HAS_PHONE", "DRIVES"})


def switched_facts(text: str, speech: Speech, me: Party) -> list[Finding]:
    """The value switched to, in the slot it belongs to (see the module docstring)."""
    out = []
    for m in _SWITCHED.finditer(text):
        if _NOT_DONE.search(text[max(0, m.start() - 40):m.start()]):
            continue
        value = m.group(2)
        slot = exchanged_slot(value)
        moved = "move" in m.group(0).lower()
        # "made the jump to Toyota": the maker's name alone is as often a firm
        maker = slot in _THINGS and not m.group(1) and " " not in value
        if slot and not maker:
            out.append(Finding(me, slot, value, SLOT_TYPES[slot], confidence=0.8))
        elif value.lower() in speech.towns and moved:
            out.append(Finding(me, "LIVES_IN", value, "place", confidence=0.8))
        elif value[:1].isupper() and value.lower() not in speech.towns and (
                not (moved or maker) or talks_of_work(speech.message or text)) \
                and (firm := clean_name(value)):
            # "made the jump to Deloitte": a name one jumps to is a firm (one moves to a town)
            out.append(Finding(me, "WORKS_AT", firm, "organization", confidence=0.8))
    for m in _OUT_AND_INTO.finditer(text):
        left, taken = m.group(1), m.group(2)
        if left.lower() in speech.towns and taken.lower() in speech.towns:
            slot, kind = "LIVES_IN", "place"
        elif JOB_BEGUN.search(speech.message or text) or talks_of_work(speech.message or text):
            slot, kind = "WORKS_AT", "organization"  # "...and into ocado! first day was a blur"
        else:
            continue
        out += [Finding(me, slot, taken, kind, confidence=0.8),
                Finding(me, slot, left, kind, "retract", confidence=0.8)]
    for m in _WE_SWITCHED.finditer(text):
        value = m.group(1)
        if (slot := exchanged_slot(value)) in ("MAIN_LANGUAGE", "DIET"):
            out.append(Finding(me, slot, value, SLOT_TYPES[slot], confidence=0.8))
    return out


PATTERNS: tuple[re.Pattern[str], ...] = (_SWITCHED, _OUT_AND_INTO, _WE_SWITCHED)
