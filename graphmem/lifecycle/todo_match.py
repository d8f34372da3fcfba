"""Does a message say a todo is done? "I sent the report" closes "send the report".

Deterministic and offline on purpose: a todo is closed only when the message
puts the todo's own verb in the past ("sent", "have renewed") or uses a
generic completion verb ("finished", "took care of"), names the todo's
object words, and is not negated ("I haven't sent the report yet").
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

#: Past tense and past participle -> base form, for the verbs todos use most.
_IRREGULAR = {
    "sent": "send", "went": "go", "gone": "go", "bought": "buy", "paid": "pay",
    "wrote": "write", "written": "write", "made": "make", "did": "do", "done": "do",
    "got": "get", "gotten": "get", "took": "take", "taken": "take", "gave": "give",
    "given": "give", "told": "tell", "said": "say", "found": "find", "met": "meet",
    "read": "read", "put": "put", "set": "set", "brought": "bring", "caught": "catch",
    "taught": "teach", "thought": "think", "left": "leave", "kept": "keep", "felt": "feel",
    "built": "build", "spent": "spend", "lent": "lend", "sold": "sell", "held": "hold",
    "ran": "run", "run": "run", "began": "begin", "begun": "begin", "drove": "drive",
    "driven": "drive", "rode": "ride", "ridden": "ride", "chose": "choose",
    "chosen": "choose", "broke": "break", "broken": "break", "spoke": "speak",
    "spoken": "speak", "wore": "wear", "worn": "wear", "flew": "fly", "flown": "fly",
    "knew": "know", "known": "know", "threw": "throw", "thrown": "throw", "drew": "draw",
    "drawn": "draw", "shown": "show", "hung": "hang", "fed": "feed", "led": "lead",
    "fought": "fight", "sought": "seek", "lost": "lose", "shot": "shoot", "hid": "hide",
    "hidden": "hide", "forgot": "forget", "forgotten": "forget", "came": "come",
    "become": "become", "became": "become", "ate": "eat", "eaten": "eat", "saw": "see",
    "seen": "see", "had": "have", "sat": "sit", "laid": "lay", "rang": "ring",
    "rung": "ring", "sang": "sing", "sung": "sing", "won": "win", "understood": "understand",
    "stood": "stand", "slept": "sleep", "swept": "sweep", "dealt": "deal", "meant": "mean",
    "cut": "cut", "let": "let", "hit": "hit", "shut": "shut", "quit": "quit",
    "upgraded": "upgrade", "woke": "wake", "woken": "wake", "froze": "freeze",
    "frozen": "freeze", "grew": "grow", "grown": "grow", "fell": "fall", "fallen": "fall",
}
#: Verbs that complete any todo whose object the message names ("I finished the report").
_GENERIC = frozenset({"finished", "completed", "done", "did", "handled", "sorted", "wrapped",
                      "submitted", "took", "dealt", "ticked", "crossed"})
_NEGATION = frozenset({"not", "never", "no", "haven't", "hasn't", "didn't", "don't", "doesn't",
                       "won't", "can't", "couldn't", "wasn't", "weren't", "yet", "cannot",
                       "forgot", "still"})
_STOP = frozenset({"the", "a", "an", "my", "your", "his", "her", "their", "our", "its", "to",
                   "for", "of", "on", "in", "at", "by", "with", "and", "or", "some", "this",
                   "that", "these", "those", "me", "him", "them", "us", "it", "up", "out",
                   "off", "about", "from", "today", "tomorrow", "tonight", "week", "next",
                   "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                   "morning", "evening", "afternoon", "before", "after", "until", "soon"})


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def base_forms(word: str) -> set[str]:
    """The base forms a past-tense word may come from ("submitted" -> {"submit", ...})."""
    if word in _IRREGULAR:
        return {_IRREGULAR[word]}
    if not word.endswith("ed") or len(word) < 4:
        return set()
    forms = {word[:-2], word[:-1]}
    if word.endswith("ied"):
        forms.add(word[:-3] + "y")
    if len(word) >= 5 and word[-3] == word[-4]:
        forms.add(word[:-3])
    return forms


def _stem(word: str) -> str:
    """A crude plural-insensitive form for object words ("reports" ~ "report")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def says_done(description: str, message: str) -> bool:
    """True when ``message`` reports the todo ``description`` (a verb phrase) as done.

    >>> says_done("send the report", "I sent the report to Bob this morning")
    True
    >>> says_done("send the report", "I haven't sent the report yet")
    False
    """
    todo = words(description)
    said = words(message)
    if not todo or not said or _NEGATION.intersection(said):
        return False
    verb, rest = todo[0], todo[1:]
    objects = {_stem(w) for w in rest if w not in _STOP and not w.isdigit()}
    present = {_stem(w) for w in said}
    named = len(objects & present)
    past_verb = any(verb in base_forms(w) for w in said)
    if past_verb:
        needed = len(objects) if len(objects) <= 2 else (len(objects) + 1) // 2
        return named >= needed
    generic = bool(_GENERIC.intersection(said))
    return generic and bool(objects) and named == len(objects)
