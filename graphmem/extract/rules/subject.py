"""The subject chat drops, put back before parsing.

First-person messages often drop their "I" (diary style: "Replaced my phone with a Pixel",
"Currently on keto", "gone dairy-free, wish me luck"). The small parser then misreads the
verb ("Swapped" as an adjective, "Got" as an imperative) and no rule sees a speaker, so
:func:`with_subject` writes the subject back. Each opening it knows is one entry of
:data:`_DROPPED`: a test of the sentence's first words, and the words that put the subject
back; a past-tense verb after at most a few diary adverbs is the last and commonest case.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from graphmem.extract.rules.lexicon import IRREGULAR

#: Adverbs a diary-style sentence opens with before its verb ("Finally settled in Prague").
_DIARY_ADVERBS = frozenset({"just", "finally", "recently", "also", "then", "so", "today",
                            "yesterday", "already", "officially", "now", "and", "currently",
                            "still", "separately", "anyway", "plus"})
#: What follows a subjectless progressive ("Living in Denver"), unlike a gerund subject
#: ("Running is my sport").
_GERUND_OBJECTS = frozenset({"in", "at", "for", "with", "on", "from", "a", "an", "the", "my",
                             "our", "to", "through"})
_PAST_FORMS = frozenset({w for forms in IRREGULAR.values() for w in forms.split()} | {
    "got", "left", "quit", "became", "began", "made", "had", "sold", "bought", "went", "took",
    "gave", "drove", "found", "set", "put", "cut", "won", "lost", "said", "swapped"})
_NOT_PAST = frozenset({"need", "speed", "seed", "feed", "breed", "united", "red", "bed", "shed",
                       "weed", "indeed", "embed", "naked", "wicked", "sacred", "hundred",
                       "kindred", "ahead", "instead", "bread", "dread", "thread", "spread"})
#: Finite verbs after a gerund subject: "Writing Go now is fun".
_FINITE = re.compile(r"\b(?:is|was|are|were|has|had|makes|made|feels|felt|keeps|gets|got|sounds|"
                     r"seems|looks|takes|took|means|helps|costs|pays|gives|gave|would|will|could|"
                     r"should|can|might|must|'s)\b", re.IGNORECASE)
#: Openings of a negated present: "dont really play tennis anymore".
_DONT = frozenset({"don't", "dont", "don’t"})
#: Words that make a negated present a statement about now, not an order; and a
#: progressive one ("Writing mostly Go now", "going keto starting today").
_NOWADAYS = re.compile(r"\b(?:anymore|any\s+more|these\s+days|nowadays|now|(?:starting|from)\s+"
                       r"(?:today|tonight|tomorrow|this\s+week|this\s+month|monday))\b",
                       re.IGNORECASE)
#: Where a sentence the gate's split left whole ends: "going keto starting today. is that ok?"
_SENTENCE_END = re.compile(r"[.!?;]+\s")
#: Chat's openings before a dropped subject: "omg just got a puppy", "yay, finally moved".
_INTERJECTION = re.compile(r"(?:(?:(?:omg|yay|wow|lol|ugh|ok|okay|haha|woo+|phew|oof|oh|btw|ps|"
                           r"and|also|hi|hey|hello|oi|yo|ciao|hola)\b|[\u2013\u2014-]+)[,!.:]*\s+)+",
                           re.IGNORECASE)


@dataclass(frozen=True)
class _Opening:
    """A sentence's first words as the openings read them: how many diary adverbs come
    before its verb ("Currently", "Separately,"), the verb, and the word after it."""

    sentence: str
    words: list[str]
    adverbs: int
    verb: str
    following: str

    @property
    def first(self) -> str:
        return self.words[0].lower().strip(",")


def _opening(sentence: str) -> _Opening | None:
    words = sentence.split(maxsplit=3)
    if not words or not words[0][:1].isalpha() or words[0] in ("I", "i"):
        return None  # lowercase too: "just got an iPhone 15 Pro and I'm setting it up"
    i = 0
    while i < len(words) - 1 and words[i].lower().strip(",") in _DIARY_ADVERBS:
        i += 1
    following = words[i + 1].lower() if i + 1 < len(words) else ""
    return _Opening(sentence, words, i, words[i].lower().strip(",.!"), following)


def _on_now(o: _Opening) -> bool:
    """"Currently on keto, ...", "Now on a vegan diet"."""
    return bool(o.adverbs) and o.verb == "on" and o.first in ("currently", "now", "still")


def _gone(o: _Opening) -> bool:
    """"gone dairy-free, wish me luck"; not "Gone are the days"."""
    return o.verb == "gone" and o.following not in ("are", "is", "was", "were")


def _denied(o: _Opening) -> bool:
    """"not vegan anymore, doing keto now", "not a fan of X"; not "Not to brag"."""
    return not o.adverbs and o.verb == "not" and o.following not in (
        "to", "that", "only", "just", "even")


def _stopped(o: _Opening) -> bool:
    """"no longer eat meat", "dont really play tennis anymore"; a "don't" without a word of
    time is an order ("don't forget the milk")."""
    return not o.adverbs and (o.verb == "no" and o.following == "longer" or o.verb in _DONT
                              and _NOWADAYS.search(o.sentence) is not None)


def _progressive(o: _Opening) -> bool:
    """"Currently living in Denver.", "Writing mostly Go now"; "Losing my job was hard" is a
    gerund subject, not a dropped "I'm"."""
    return o.verb.endswith("ing") and len(o.verb) >= 5 and (
        bool(o.adverbs) and o.following in _GERUND_OBJECTS
        or not o.adverbs and _NOWADAYS.search(o.sentence) is not None
        and _FINITE.search(_SENTENCE_END.split(o.sentence, maxsplit=1)[0]) is None)


def _past(o: _Opening) -> bool:
    """"Replaced my phone with a Pixel", "Finally settled in Prague", "Separately, switched
    to decaf"."""
    return (o.verb in _PAST_FORMS or o.verb.endswith("ed") and len(o.verb) > 4) \
        and o.verb not in _NOT_PAST and o.verb != "gone"


#: Chat's openings without their subject, tried in order, and what puts it back.
_DROPPED: tuple[tuple[Callable[[_Opening], bool], str], ...] = (
    (_on_now, "I'm"), (_gone, "I've"), (_denied, "I'm"), (_stopped, "I"),
    (_progressive, "I'm"), (_past, "I"))


def with_subject(sentence: str) -> str:
    """The sentence with the subject its opening dropped put back, else as it was.

    >>> with_subject("Replaced my phone with a Pixel.")
    'I replaced my phone with a Pixel.'
    >>> with_subject("Separately, switched to decaf.")
    'Separately, I switched to decaf.'
    """
    chat = _INTERJECTION.match(sentence)
    if chat is not None and chat.end() < len(sentence):  # "omg just got a puppy!!!"
        return sentence[:chat.end()] + with_subject(sentence[chat.end():])
    opening = _opening(sentence)
    if opening is None:
        return sentence
    subject = next((words for dropped, words in _DROPPED if dropped(opening)), None)
    if subject is None:
        return sentence
    if opening.adverbs and opening.words[opening.adverbs - 1].endswith(","):
        # "Separately, switched to decaf.": the subject goes after the comma
        words = opening.words
        return f"{' '.join(words[:opening.adverbs])} {subject} {' '.join(words[opening.adverbs:])}"
    return f"{subject} {sentence[:1].lower()}{sentence[1:]}"
