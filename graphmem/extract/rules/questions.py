"""Whether a sentence asks or tells, and what it tells before a question.

Chat mixes both in one sentence: "I live in Guadalajara, what's a good day
trip?" tells where the user lives. Such a sentence is read, without the
question it ends with; a sentence that opens like a question states nothing.
The gate (which sentences to parse), the extractor (which text to parse) and
the dispatcher (which parsed sentences to read) all ask here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Span

#: How a question opens: "What ...?", "Is it ...?", "Can you ...?", "Any tips ...?".
_ASKING = re.compile(
    r"^\W*(?:(?:hi|hey|hello|ok|okay|so|um|hmm|also|and|but|quick\s+q(?:uestion)?)\W+)*"
    r"(?:what|what's|whats|who|who's|whom|whose|which|when|where|where's|why|how|how's|"
    r"is|isn't|are|aren't|am|was|wasn't|were|do|does|doesn't|did|didn't|don't|can|can't|"
    r"could|would|should|will|won't|shall|may|might|have|has|had|any|anyone|anybody|"
    r"should've|isnt|arent|dont|cant|wouldnt|shouldnt|ur|u|you|your|tips|ideas)\b",
    re.IGNORECASE)


def asks(text: str) -> bool:
    """Whether a sentence asks rather than tells: it ends with a question mark and opens
    like a question, or is a short statement asked back ("I live in Paris? No, never").
    "My pixel 3a keeps freezing, any fixes??", "I live in Guadalajara, what's a good day
    trip?" and "I start Monday, right?" tell something first, so they are read."""
    text = text.strip()
    if not text.endswith("?"):
        return False
    if _ASKING.match(text) is not None:
        return True
    return (len(text.split()) <= _ECHO_WORDS and not text.rstrip("?").endswith("!")
            and _TRAILING_QUESTION.search(text) is None and _TAG_QUESTION.search(text) is None)


#: The longest statement read as asked back when it ends with a question mark.
_ECHO_WORDS = 10
#: A tag that makes a statement ask for agreement, not a question: "..., right?".
_TAG_QUESTION = re.compile(
    r"[,;\u2014\u2013-]?\s*\b(?i:right|ok|okay|yeah|no|eh|huh|innit|lol|you\s+know|"
    r"(?:is|was|do|did|have|has|are|were)n't\s+(?:it|i|you|we|they|he|she)|remember|"
    r"though|too)\W*\?+\s*$")


#: The question a telling sentence ends with: "..., any walking routes you'd recommend?".
_TRAILING_QUESTION = re.compile(
    r"\s*[,;\u2014\u2013-]+\s*(?=(?i:what|what's|any|anyone|how|which|where|who|why|is|are|"
    r"can|could|should|would|do|does|did|thoughts|ideas|tips|advice|"
    r"(?:is|was|are|were|do|does|did|have|has|can|would|could|should)n't)\b)[^,;]*\?+\s*$")


#: What a question takes as given about the speaker: "how do I back up my new Galaxy S23?"
#: (a phone they have), "can you help me ask my boss Gunnar for a day off?" (their manager):
#: the name, its capitalised words and numbers, not a choice ("my boss Gunnar or Ingrid?").
_PRESUPPOSED = re.compile(r"\b(?i:my)\s+(?:(?i:new)|(?i:(?:line\s+)?manager|boss|supervisor|"
                          r"team\s+lead))\s+(?P<name>[A-Z0-9][\w-]*(?:\s+[A-Z0-9][\w-]*)*)"
                          r"(?!\s+or\b)")
#: What a question's presupposition may state: the speaker's manager, phone or car.
PRESUPPOSED_SLOTS = frozenset({"REPORTS_TO", "HAS_PHONE", "DRIVES"})


def presupposed(text: str) -> frozenset[str]:
    """The names a question takes as the speaker's manager or new phone or car (lower
    case): it asks something else, but takes them as given."""
    return frozenset(m["name"].lower() for m in _PRESUPPOSED.finditer(text))


def told_part(sentence: str) -> str:
    """A sentence without the question it ends with, so the question's words state nothing
    ("my girlfriend Siobhan and I are planning a weekend, any routes you'd recommend?")."""
    if asks(sentence):
        return sentence
    cut = _TRAILING_QUESTION.search(sentence)
    return sentence[:cut.start()] + "." if cut else sentence


def is_question(sent: Span) -> bool:
    return asks(sent.text)
