"""A home said in chat shorthand: "Copenhagen is where I live now", "i'm a Lisbon resident
now", "new city, new me: I'm in Zurich now", "My address is in Porto now", "new flat in
Wroclaw!! finally moved"."""

from __future__ import annotations

import re

from graphmem.extract.rules.clause import Finding
from graphmem.extract.rules.parties import Party

#: "Copenhagen is where I live now", "Kraków is where I call home": home.
_WHERE_I_LIVE = re.compile(r"(?:^|[,:;]\s*)([A-Z][\w\u00C0-\u017F'-]*(?:\s[A-Z][\w\u00C0-\u017F'-]*){0,2})"
                           r"\s+is\s+(?i:where\s+i\s+(?:live|am\s+based|call\s+home|"
                           r"settled)|home\s+now)\b")
#: "been a Zurich resident for 2 years", "i'm a Lisbon resident now", "i'm Edinburgh-based":
#: home, said of the speaker now (not "I was a Paris resident").
_RESIDENT = re.compile(r"(?:\b(?i:i'm|i\s+am|i've\s+been|i\s+have\s+been)|(?:^|[,;:!?]\s*)"
                       r"(?i:been|now|still))\s+(?:(?i:a|an)\s+)?"
                       r"(?:(?i:proud|happy|new|full-time|permanent)\s+)?"
                       r"([A-Z][\w\u00C0-\u017F'-]*?(?:\s[A-Z][\w\u00C0-\u017F'-]*?){0,2})"
                       r"(?:\s+(?i:resident|local)\b|-based\b)")
#: "new city, new me: I'm in Zurich now", "New town: we're living in Leeds": a new home named as
#: such, then where the speaker is ("I'm in Zurich" alone may be a trip).
_NEW_HOME = re.compile(r"^\W*(?:[\w']+\W+){0,3}?(?i:new)\s+(?i:city|town|home|place|country)\b"
                       r"[^:\u2013\u2014]*[:\u2013\u2014]\s*(?i:i'm|i\s+am|we're|we\s+are)\s+"
                       r"(?i:(?:now\s+)?(?:living\s+|based\s+)?in)\s+"
                       r"([A-Z][\w\u00C0-\u017F'-]*(?:\s[A-Z][\w\u00C0-\u017F'-]*){0,2})")
#: "new flat in Wroclaw!! finally moved": a new home announced by where it is.
_NEW_FLAT = re.compile(r"^\W*(?:(?i:my|our)\s+)?(?i:new)\s+(?i:flat|apartment|house|place|home)\s+"
                       r"(?i:in)\s+([A-Z][\w\u00C0-\u017F'-]*(?:\s[A-Z][\w\u00C0-\u017F'-]*){0,2})"
                       r"(?=\s*(?:[!.,;:]|$))")
#: "My address is in Porto now", "my new flat is in Leith": home.
_ADDRESS = re.compile(r"\b(?i:my|our)\s+(?:(?i:new|current)\s+)?(?i:address|home|flat|apartment)\s+"
                      r"(?i:is)\s+(?:(?i:now)\s+)?(?i:in)\s+"
                      r"([A-Z][\w\u00C0-\u017F'-]*(?:\s[A-Z][\w\u00C0-\u017F'-]*){0,3})")


def home_facts(text: str, me: Party) -> list[Finding]:
    """Where the speaker lives now, said in one of the shapes above."""
    return [Finding(me, "LIVES_IN", m.group(1), "place", confidence=0.8)
            for pattern in PATTERNS for m in pattern.finditer(text)]


PATTERNS: tuple[re.Pattern[str], ...] = (_WHERE_I_LIVE, _RESIDENT, _NEW_HOME, _ADDRESS, _NEW_FLAT)
