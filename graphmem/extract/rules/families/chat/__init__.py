"""Slots said in chat shorthand, read off the text before any parse.

"New phone: a Pixel 8", "Got a new manager this month: Yuki Tanaka", "My manager's name is
Teodora", "no more rowing for me", "no sport for me these days", "Most of my code is in C#",
"they made me head of data", "seeing someone new, his name is Karim", "got a hamster! his
name is Churro": people write these without the verb or in a shape the small parser splits
badly, so regular expressions read them. Only first-person messages are read: the speaker
is the one they are about.

A module per kind of shorthand: :mod:`.in_use` (the value in use of a slot that holds one at
a time, told by the value's own words), :mod:`.work` (employer, title, manager), :mod:`.home`,
:mod:`.people` (a person named in a slot, a date, a pet), :mod:`.empty` (a slot said to be
empty), :mod:`.labels` ("New phone: a Pixel 8") and :mod:`.switched` ("made the jump to X").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Finding, Rule
from graphmem.extract.rules.families.chat import (empty, home, in_use, labels, people, switched,
                                                  work)
from graphmem.extract.rules.parties import Speech

if TYPE_CHECKING:
    from spacy.tokens import Span


def chat_facts(sent: Span, speech: Speech) -> list[Finding]:
    """The speaker's slots said in shorthand (see the module docstring)."""
    if not speech.first_person:
        return []
    me = speech.me()
    return (people.people_facts(sent, me) + work.work_facts(sent, speech, me)
            + in_use.in_use_facts(sent.text, me, speech.towns) + home.home_facts(sent.text, me)
            + empty.emptied_facts(sent.text, me) + labels.labelled_facts(sent, me)
            + switched.switched_facts(sent.text, speech, me))


#: No verb rules: these facts are read by :func:`chat_facts` from the text.
RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({})
TRIGGERS: frozenset[str] = frozenset()
#: A sentence these match is worth parsing whatever its words.
PATTERNS: tuple[re.Pattern[str], ...] = (*people.PATTERNS, *work.PATTERNS, *in_use.PATTERNS,
                                         *home.PATTERNS, *empty.PATTERNS, *switched.PATTERNS)
