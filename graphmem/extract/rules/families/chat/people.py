"""People said in chat shorthand: a manager or partner named ("My manager's name is Teodora",
"my new boss is called Sam"), someone the speaker is dating ("seeing someone new, his name is
Karim"), a pet just got and named in the same message ("got a hamster! his name is Churro")."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Finding
from graphmem.extract.rules.lexicon import clean_name
from graphmem.extract.rules.parties import PETS, Party
from graphmem.extract.rules.slots import SLOT_NOUNS

if TYPE_CHECKING:
    from spacy.tokens import Span

#: A person's name: capitalised words, with the particles of family names ("Anneke de Vries").
NAME = (r"([A-Z][\w'\u2019-]*(?:\s+(?:(?:de|van|von|da|di|del|der|den|le|la|al|bin|ter)\s+)?"
         r"[A-Z][\w'\u2019-]*){0,3})")
#: "My manager's name is Teodora", "my new boss is called Sam": a person's slot, named.
_SLOT_NAMED = re.compile(r"\b(?i:my|our)\s+(?:(?i:new|current)\s+)?(?i:(line\s+manager|manager|"
                         r"boss|supervisor|team\s+lead|partner|girlfriend|boyfriend|wife|"
                         r"husband))(?:'s\s+(?i:name)(?:\s+is|'s)|\s+(?i:is\s+called|is\s+named|"
                         r"goes\s+by)|\s+(?i:(?:has\s+)?changed)\s*[,;:\u2013\u2014-]+\s*"
                         r"(?i:it's|it\s+is|now\s+it's))\s+" + NAME)
#: The partner a word names (a partner's slot is one, whatever they are called).
_PARTNERS = frozenset({"partner", "girlfriend", "boyfriend", "wife", "husband"})
#: A pet just got, named in the same message: "got a hamster! his name is Churro",
#: "adopted a rescue cat yesterday, we named her Miso".
_NEW_PET = re.compile(r"(?:^|[.!?]\s+|\b(?i:i|we|i've|we've)\s+)(?i:just\s+)?"
                      r"(?i:got|adopted|rescued|brought\s+home|bought)\s+(?i:a|an|our|my)\s+"
                      r"(?:[\w-]+\s+){0,2}?(?i:(" + "|".join(sorted(PETS)) + r"))\b")
_PET_NAME = re.compile(r"\b(?i:(?:his|her|its)\s+name(?:'s|\s+is)|(?:we|i)\s+(?:named|called)"
                       r"\s+(?:him|her|it)|(?<=\s)named)\s+([A-Z][\w'-]+)")  # "a greyhound named Luna"
#: The speaker dating someone: "I've been seeing ...", "dating again!", "seeing someone new"
#: (also after an emoticon: "we broke up :( started seeing someone new").
_DATING = re.compile(r"(?:^|[.!?]\s+|[:;][()DP/|]\s+|\b(?i:i'm|i\s+am|i've\s+been|i\s+have\s+been|we're|i(?=\s+"
                     r"(?i:started|began)))\s+)"
                     r"(?i:(?:also|and|plus|oh|so|anyway|btw)\s+)?"  # "Also dating someone new"
                     r"(?i:(?:been\s+|started\s+|begun\s+)?(?:seeing|dating)\b|met\s+someone\b(?=.*\b(?i:together|dating)\b))")
#: Seeing someone for care, not dating: "started seeing a therapist, her name is Dr Lee".
_SEEING_CARE = re.compile(r"\bseeing\s+(?:a|an|my|the)\s+(?:new\s+)?(?:therapist|counsell?or|"
                          r"doctor|dr|physio\w*|psycholog\w+|psychiatrist|specialist|dentist|"
                          r"nutritionist|dietitian|consultant|gp|nurse|coach|trainer|tutor)\b",
                          re.IGNORECASE)
#: Who that is: "his name is Karim", "a guy named Jonas".
_DATE_NAME = re.compile(r"\b(?i:(?:his|her|their)\s+name(?:'s|\s+is)|(?:a\s+(?:guy|girl|man|woman|"
                        r"boy|lady|gentleman|fella|bloke|chap|dude)|someone)\s+(?:named|called)"
                        # "been seeing someone new for a few months, Declan"
                        r"|someone(?:\s+new)?(?:\s+(?:for|since)\s+[^,.!?]{1,30})?,)\s+"
                        r"([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)")


def people_facts(sent: Span, me: Party) -> list[Finding]:
    """The speaker's manager or partner named, whom they date, the pet they just got."""
    out = _dating(sent, me) + _new_pet(sent, me)
    for m in _SLOT_NAMED.finditer(sent.text):
        if (name := clean_name(m.group(2))) is not None:
            noun = " ".join(m.group(1).lower().split())
            slot = "HAS_PARTNER" if noun in _PARTNERS else SLOT_NOUNS[noun]
            out.append(Finding(me, slot, name, "person", confidence=0.85))
    return out


def _new_pet(sent: Span, me: Party) -> list[Finding]:
    """The name a pet the speaker just got is given later in the message."""
    message = sent.doc.text
    kind = _NEW_PET.search(message)
    if kind is None or kind.start() > sent.end_char:
        return []
    return [Finding(me, "HAS_PET", name, "animal", timing="none",
                    statement=f"{{s}} has a {kind.group(1).lower()} named {name}")
            for m in _PET_NAME.finditer(sent.text) if (name := clean_name(m.group(1)))]


def _dating(sent: Span, me: Party) -> list[Finding]:
    """"Seeing someone new, his name is Karim", "dating again! his name is Andre": the name
    given in the message the speaker says they are dating in (not "my sister is dating a
    guy called Niall", which is the sister's)."""
    message = sent.doc.text
    if not _DATING.search(message) or _SEEING_CARE.search(message):
        return []
    return [Finding(me, "HAS_PARTNER", name, "person", confidence=0.8)
            for m in _DATE_NAME.finditer(sent.text) if (name := clean_name(m.group(1)))]


PATTERNS: tuple[re.Pattern[str], ...] = (_DATING, _PET_NAME, _SLOT_NAMED)
