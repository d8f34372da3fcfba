"""A cheap language guess, so English-only rules are not run on other languages.

The rules are written for English dependency parses; on Chinese or German text
they would produce nonsense facts. The guess uses scripts (CJK, Cyrillic,
Arabic...) and, for Latin script, how many words are common stopwords of
English versus a few other European languages. It only needs to be right about
"English or not", so a handful of words per language is enough.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_SCRIPTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("ja", re.compile(r"[\u3040-\u30ff]")),
    ("ko", re.compile(r"[\uac00-\ud7af\u1100-\u11ff]")),
    ("zh", re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]")),
    ("ru", re.compile(r"[\u0400-\u04ff]")),
    ("ar", re.compile(r"[\u0600-\u06ff]")),
    ("he", re.compile(r"[\u0590-\u05ff]")),
    ("el", re.compile(r"[\u0370-\u03ff]")),
    ("hi", re.compile(r"[\u0900-\u097f]")),
    ("th", re.compile(r"[\u0e00-\u0e7f]")),
)
_STOPWORDS: tuple[tuple[str, frozenset[str]], ...] = (
    ("en", frozenset("the a an and or but i you he she it we they is are was were be been have "
                     "has had do does did not to of in on at for with my your this that what so "
                     "me just like can will would it's i'm don't".split())),
    ("es", frozenset("el la los las y o pero yo tú es son fue de en con por para que no un una "
                     "mi muy pero más como está estoy".split())),
    ("fr", frozenset("le la les et ou mais je tu il elle est sont de du des en avec pour que ne "
                     "pas un une mon très c'est je suis".split())),
    ("de", frozenset("der die das und oder aber ich du er sie es ist sind war zu von mit für "
                     "nicht ein eine mein sehr auch auf bin".split())),
    ("pt", frozenset("o a os as e ou mas eu você é são foi de em com por para que não um uma "
                     "meu muito está estou".split())),
    ("it", frozenset("il lo la gli le e o ma io tu è sono era di in con per che non un una mio "
                     "molto sto".split())),
    ("nl", frozenset("de het een en of maar ik jij hij zij is zijn was van in met voor dat niet "
                     "mijn heel ook".split())),
)

_ENGLISH = _STOPWORDS[0][1]
#: Other languages' stopwords that are English words too ("as", "a", "in", "is"): they are
#: no evidence against English ("starting there as a test engineer" is not Portuguese).
_ALSO_ENGLISH = frozenset("a an as in is it no on or for do me he was be are die con per "
                          "son fue de la le".split())
_FOREIGN: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (code, words - _ALSO_ENGLISH) for code, words in _STOPWORDS[1:])


def guess_language(text: str) -> str:
    """``"en"`` for English (or too little text to tell), else an ISO 639-1 guess."""
    ascii_text = text.isascii()
    words = _WORD.findall(text.lower())
    if ascii_text and (len(words) < 4 or sum(w in _ENGLISH for w in words) >= 0.2 * len(words)):
        return "en"  # the common case, decided without looking at scripts
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "en"
    if not ascii_text:
        for code, pattern in _SCRIPTS:
            if len(pattern.findall(text)) / len(letters) > 0.2:
                return code
    if len(words) < 4:
        return "en"
    scores = {"en": sum(w in _ENGLISH for w in words)}
    scores |= {code: sum(w in stops for w in words) for code, stops in _FOREIGN}
    best = max(scores, key=lambda code: scores[code])
    if scores["en"] >= scores[best] or scores[best] < 2:
        non_ascii = sum(not c.isascii() for c in letters) / len(letters)
        return "en" if non_ascii < 0.15 else "und"
    return best
