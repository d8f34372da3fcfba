"""Employers typed in lower case after the words that introduce a workplace.

Chat rarely capitalises: "got a job at tesco", "i work for kpmg", "starting at ledgerly on
monday". The tagger takes a lower-case "tesco" for a common noun, and the work rules, which
want an organisation, read nothing (or the next noun: "works at stacking"). Before parsing,
the word right after such an introduction is written as a name when English rarely uses it
(:meth:`graphmem.extract.rules.spelling.Speller.unusual`: "tesco", "kpmg", "farfetch" are
rare, "home", "night", "school" are not) and it is no verb form ("at tesco stacking
shelves": only "tesco"). A second rare word joins it ("jimmys hospital" stays one word:
"hospital" is common). Quitting and leaving name a workplace only in a message about a job
("quit costa, way too many shifts"), and never a value the rules know or a town: "quit
keto", "left uni", "left manchester" name none. Capitalised text is never changed, as with
towns (:mod:`.places`) and people (:mod:`.namecase`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from graphmem.extract.rules.namecase import RARE  # names of firms are as rare as people's

#: "work at", "working for", "a job at", "an internship with", "hired by", "starting at",
#: "first week at", "got the costa job".
_WORKPLACE = re.compile(
    r"\b(?:work(?:s|ed|ing)?\s+(?:at|for)|(?:job|internship|placement|shift|position|role|"
    r"gig)\s+(?:at|with)|(?:hired|employed)\s+(?:at|by)|(?:start|started|starting)\s+at"
    # "first month at razorpay done", "day one at ledgerly"
    r"|(?:first\s+(?:day|week|month|shift)|(?:day|week)\s+(?:one|1))\s+at"
    # "got the costa job"
    r"|(?:got|get|landed)\s+the(?=\s+[a-z][a-z&'-]*\s+(?:job|gig|internship)\b))\s+"
    r"(?=[a-z])", re.IGNORECASE)
#: "quit costa", "left tesco": a workplace only in a message about work (below), as "quit
#: keto" or "left uni" name none.
_LEFT = re.compile(r"\b(?:quit|quitting|left|leaving)\s+(?=[a-z])", re.IGNORECASE)
#: Rare words one quits or leaves that are no workplace: "left uni", "quit insta".
_NOT_LEFT_JOBS = re.compile(r"(?:uni|rehab|insta|instagram|fb|facebook|tiktok|twitter|snapchat|"
                            r"reddit|carbs|vapes?|booze|weed|sugar|dairy|gluten)\b")
#: A message about a job: shifts, a boss, a notice ("work" alone is not: "quit duolingo, too
#: busy with work").
_WORK_WORDS = re.compile(r"\b(?:(?:my|the|a|new)\s+job|shifts?|boss|manager|colleagues?|wages?|"
                         r"rota|employer|hired|fired|redundan\w*|notice|new\s+place|"
                         r"the\s+(?:work|pay|hours)|work(?:ed)?\s+there)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z][a-z&'-]*")
_NEXT_WORD = re.compile(r"[ \t]+([a-z][a-z&'-]*)")
#: Verb and adverb endings: "at tesco stacking shelves", "at kpmg mostly".
_NOT_A_NAME = re.compile(r"(?:ing|ed|ly)$")


@dataclass(frozen=True)
class EmployerNames:
    """Writes lower-case employers after a workplace's introduction as names.

    ``unusual(word, below)`` says whether English uses a lower-case word less often than
    ``below`` and it is no slip of a common word.

    >>> rare = {"tesco": 0.0, "kpmg": 0.0, "stacking": 1e-6}
    >>> names = EmployerNames(lambda w, below: rare.get(w, 1) < below)
    >>> names.capitalised("got a part time job at tesco stacking shelves")
    'got a part time job at Tesco stacking shelves'
    >>> names.capitalised("i work from home, she works at kpmg, he works at night")
    'i work from home, she works at KPMG, he works at night'
    """

    unusual: Callable[[str, float], bool]
    #: What one may quit or leave that is no employer, lower case: the values the rules
    #: know ("keto", "vegan") and towns ("left manchester for a new job in leeds").
    not_left: frozenset[str] = frozenset()

    def capitalised(self, text: str) -> str:
        out: list[str] = []
        at = 0
        intros = [(m, False) for m in _WORKPLACE.finditer(text)]
        if _WORK_WORDS.search(text):  # "quit costa, way too many shifts"
            intros = sorted([*intros, *((m, True) for m in _LEFT.finditer(text)
                                        if not _NOT_LEFT_JOBS.match(text, m.end()))],
                            key=lambda pair: pair[0].start())
        for intro, left in intros:
            words: list[re.Match[str]] = []
            first = _WORD.match(text, intro.end())
            while first is not None and len(words) < 2 and self._named(first.group(0)) \
                    and not (left and first.group(0) in self.not_left):
                words.append(first)
                nxt = _NEXT_WORD.match(text, first.end())
                first = _WORD.match(text, nxt.start(1)) if nxt is not None else None
            if not words or intro.end() < at:
                continue
            for word in words:
                out += [text[at:word.start()], _as_name(word.group(0))]
                at = word.end()
        return "".join([*out, text[at:]])

    def _named(self, word: str) -> bool:
        return len(word) > 1 and not _NOT_A_NAME.search(word) and self.unusual(word, RARE)


def _as_name(word: str) -> str:
    """"tesco" -> "Tesco"; a short word with no vowel is an acronym: "kpmg" -> "KPMG"."""
    return word.upper() if len(word) <= 4 and not re.search(r"[aeiouy]", word) else \
        word.capitalize()
