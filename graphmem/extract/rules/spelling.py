"""Slips of the keyboard mended before the rules read a sentence.

Chat is typed fast: "99% of what I wrrite is Perl", "switched phnes", "been a Zurich
ressident for 2 years", "my Zenfone got stloen". Each rule keys on a few words ("write",
"phones", "resident", "stolen"), so one swapped or doubled letter hides a fact the
sentence plainly states. :class:`Speller` puts such a word back: a lowercase word of five
letters or more that the English dictionary does not know becomes the one common word a
single edit away (a letter added, dropped, changed, or two swapped), when that word is
clearly the likeliest.

It never touches what could be a value: capitalised words (names), words with digits
("Whole30"), words shorter than five letters ("keto", "perl", "lol"), words stretched for
effect ("soooo"), and the values the
rules know (``protected``: diets, sports, phones, languages...), since a value one edit
from a common word ("paleo", "pale") is a value, not a slip. Only the text the rules read
is mended, and the extractor reads the mended sentence only where the rules read nothing in
the sentence as typed ("Our backend is written in Go" keeps "backend", one edit from
"backed"); the conversation is stored as it was typed.

The dictionary is pyspellchecker's English word frequency list (MIT), loaded once.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spellchecker import SpellChecker

#: Words a slip may be read in: lowercase letters only, not part of a longer token.
_WORD = re.compile(r"(?<![\w'’-])[a-z]{5,}(?![\w'’-])")
#: A letter typed three times or more is stretched for effect ("sooo", "yesss"), not slipped.
_STRETCHED = re.compile(r"([a-z])\1\1")
#: How common the mended word must be (share of the dictionary's running text): rarer
#: words one edit away are as likely to be a word the dictionary lacks ("keto" is one edit
#: from "veto", 1e-6) as a slip.
MIN_FREQUENCY = 2e-6
#: How much likelier than the next candidate the mended word must be: "chhats" is one edit
#: from "chats" and from "cheats", and is left alone.
MIN_LEAD = 3.0


class Speller:
    """Mends one-edit slips in lowercase words (see the module docstring)."""

    def __init__(self, protected: frozenset[str] = frozenset()) -> None:
        from spellchecker import SpellChecker  # loaded with the rules, not at import

        self._spell: SpellChecker = SpellChecker(distance=1)
        self._protected = frozenset(w.lower() for w in protected)
        self._mended: dict[str, str | None] = {}

    def mend(self, text: str) -> str:
        """``text`` with each slip replaced by the word meant; everything else unchanged.

        >>> Speller().mend("99% of what I wrrite is Perl, I braely touch Kotlin")
        '99% of what I write is Perl, I barely touch Kotlin'
        """
        return _WORD.sub(lambda m: self.word(m.group(0)) or m.group(0), text)

    def unusual(self, word: str, rarer_than: float) -> bool:
        """Whether English uses ``word`` (lower case) less often than ``rarer_than`` per word
        and it is no slip of a common word: names are rare ("dana" 3e-7, "kowalski" never),
        the words said of people are not ("kinda" 4e-5), and "jsut" is "just"."""
        return float(self._spell.word_usage_frequency(word)) < rarer_than and \
            self.word(word) is None

    def knows(self, word: str) -> bool:
        """Whether the dictionary has ``word`` (lower case) at all."""
        return word in self._spell

    def word(self, word: str) -> str | None:
        """The word ``word`` is a slip of, or None if it is not one."""
        if word in self._mended:
            return self._mended[word]
        meant = None if word in self._protected or _STRETCHED.search(word) else self._meant(word)
        if len(self._mended) < 10_000:  # a bounded memo: chat repeats its words
            self._mended[word] = meant
        return meant

    def _meant(self, word: str) -> str | None:
        spell = self._spell
        if word in spell:
            return None
        ranked = sorted(((spell.word_usage_frequency(c), c) for c in spell.edit_distance_1(word)
                         if c in spell and c not in self._protected), reverse=True)
        if not ranked or ranked[0][0] < MIN_FREQUENCY:
            return None
        if len(ranked) > 1 and ranked[0][0] < MIN_LEAD * ranked[1][0]:
            return None
        return ranked[0][1]


#: Contractions chat types without their apostrophe, whose bare form is no English word the
#: rules need ("im" parses as "i" and a verb "m", and "im Dev" names no one), and chat's
#: shorthands the parser reads as something else ("my fav band": "fav" a compound noun).
_BARE_CONTRACTIONS = {
    "fav": "favourite", "Fav": "Favourite", "fave": "favourite", "Fave": "Favourite",
    "im": "I'm", "Im": "I'm", "ive": "I've", "Ive": "I've", "dont": "don't", "Dont": "Don't",
    "doesnt": "doesn't", "didnt": "didn't", "Didnt": "Didn't", "isnt": "isn't",
    "wasnt": "wasn't", "arent": "aren't", "werent": "weren't", "havent": "haven't",
    "Havent": "Haven't", "hasnt": "hasn't", "wouldnt": "wouldn't", "couldnt": "couldn't",
    "shouldnt": "shouldn't", "youre": "you're", "theyre": "they're", "hes": "he's",
    "shes": "she's", "thats": "that's", "Thats": "That's", "whats": "what's",
    # chat's short forms of words the rules read: "my bf tom", "living in portland rn"
    "bf": "boyfriend", "gf": "girlfriend", "rn": "right now", "hubby": "husband",
    # a partner in the words English chat keeps from the speaker's language: "my namorada
    # Bianca" (which the tagger runs into one name)
    "namorada": "girlfriend", "namorado": "boyfriend", "novia": "girlfriend",
    "novio": "boyfriend", "ragazza": "girlfriend", "ragazzo": "boyfriend", "copine": "girlfriend",
    # "bought a Kia Sorento bc we need 7 seats": read as part of the car's name
    "bc": "because", "b/c": "because", "cuz": "because", "coz": "because", "bcoz": "because",
    "abt": "about", "tmrw": "tomorrow", "ppl": "people", "prolly": "probably",
    # modals typed as said: "shud i get a new phone" asks (the parser reads "should i" so)
    "shud": "should", "Shud": "Should", "shld": "should", "cud": "could", "Cud": "Could",
    "wud": "would", "Wud": "Would",
}
_BARE_CONTRACTION = re.compile(r"(?<![\w'’-])(" + "|".join(_BARE_CONTRACTIONS) + r")(?![\w'’-])")


def with_apostrophes(text: str) -> str:
    """``text`` with chat's bare contractions written out: "hey im Omar" -> "hey I'm Omar".

    >>> with_apostrophes("yo. im Dev, i dont drink coffee")
    "yo. I'm Dev, i don't drink coffee"
    >>> with_apostrophes("gonna live w my dad prob, me n mia split. no prob")
    'gonna live with my dad probably, me and mia split. no prob'
    >>> with_apostrophes("Chidi's at Google, Chidi's car is red")
    "Chidi is at Google, Chidi's car is red"
    """
    text = _TIMES.sub(lambda m: _TIMES_WORDS.get(m.group(1), m.group(1) + " times"), text)
    text = _SHORT_LINK.sub(lambda m: _SHORT_LINKS[m.group(1)], text)
    text = _PROBABLY.sub("probably", text)
    text = _NAME_IS.sub(r"\1 is ", text)
    text = _CHAT_ARE.sub("are", text)
    return _BARE_CONTRACTION.sub(lambda m: _BARE_CONTRACTIONS[m.group(1)], text)


#: Chat's "r" for "are" before what people are ("me and jayden r officially dating", "we r
#: moving"); not the language ("i code in r and python", "learning r").
_CHAT_ARE = re.compile(r"(?<=[a-z] )r(?= (?:[a-z]+ing|officially|now|so|still|together|engaged|"
                       r"married|not|just|really|gonna|both|back|finally|in|at|on)\b)")
#: One-letter links chat writes between two words: "skateboarding w my mates", "live w/ my
#: dad", "me n mia are together". Read as they stand, "w" is a noun the parser hangs the
#: next words on, and "n" splits the couple.
_SHORT_LINKS = {"w": "with ", "w/": "with ", "n": "and "}
_SHORT_LINK = re.compile(r"(?<=\w )(w/|w(?= )|n(?= )) ?(?=[\w'’])")
#: "Chidi's at Google in Dublin": after a name, "'s" before a preposition, an article or an
#: "-ing" is "is" (what a name owns is a noun); read as a possessive, "Chidi's" was stored
#: as a person of its own.
_NAME_IS = re.compile(r"\b([A-Z][a-z]+)['’]s[ \t]+(?=(?:at|in|on|from|with|into|a|an|now|still|"
                      r"also|not|moving|working|living|going|getting|doing|studying|dating|"
                      r"pregnant|engaged|married|retired|back|off|away)\b)")
#: "gonna live w my dad prob": "prob" is no name ("Prob is Maya's dad"); "no prob" is thanks.
_PROBABLY = re.compile(r"(?<![\w'’-])(?<!no )probs?(?![\w'’/-])")


#: "started rock climbing 2x a week": the parser takes "2x" for the object, and no rule
#: sees the sport; written out ("twice a week") it reads as how often.
_TIMES = re.compile(r"(?<![\w.])(\d{1,2})x(?=\s+(?:a|an|per|every|each)\s)", re.IGNORECASE)
_TIMES_WORDS = {"1": "once", "2": "twice"}


#: Chat's asides inside a sentence ("decided against Lisbon btw, staying in Berlin"): the
#: parser reads "btw" as a noun the name before it modifies, and no rule sees the name.
_ASIDE = re.compile(r"(?<=\w)\s+(?:btw|tbh|imo|imho|ngl|fyi|lol|lmao|tho)\b(?![\w'’-])", re.IGNORECASE)
#: "bought a car!! a used Toyota Vitz": chat's exclamation before the thing's name, which
#: says which car as "a car, a Toyota Vitz" would (a lower-case article goes on the thought).
_NAMED_AFTER = re.compile(r"\b((?i:car|phone|smartphone|bike|motorbike|ride))\s*!+\s+"
                          r"(?=(?:a|an)\s+(?:[a-z]+\s+)?[A-Z])")
#: A parenthesised aside of some words closing a sentence ("I've changed my diet to
#: plant-based (my partner's idea, to be fair)."): a sentence of its own, or the parser hangs
#: the sentence's value on it. A name's part in brackets ("Nothing Phone (2)") is one word.
_CLOSING_ASIDE = re.compile(r"\s*\(([^()]*\w\s+\w[^()]*)\)(?=\s*(?:[.!?]|$))")


#: An emoji between two words ("got the costa job 💪 barista now") ends a thought as a comma
#: would; read as a word, the parser joins what is on both sides into one noun phrase.
_EMOJI = r"[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]+"
_EMOJI_BETWEEN = re.compile(rf"(?<=\w)[ \t]*{_EMOJI}(?=[ \t]+\w)")
#: Anywhere else an emoji says nothing the rules read, and after a name it would join it
#: ("a hamster called nugget 🐹" stored the name "Nugget 🐹").
_EMOJI_ELSEWHERE = re.compile(rf"[ \t]*{_EMOJI}")


def without_asides(text: str) -> str:
    """``text`` without chat's asides after a word, and an emoji between words as a comma.

    >>> without_asides("decided against Lisbon btw, staying in Berlin for now")
    'decided against Lisbon, staying in Berlin for now'
    >>> without_asides("ok got the costa job 💪 barista now 😍")
    'ok got the costa job, barista now'
    >>> without_asides("I've switched to decaf (doctor's orders, sadly).")
    "I've switched to decaf. doctor's orders, sadly."
    >>> without_asides("I use a Nothing Phone (2) now.")
    'I use a Nothing Phone (2) now.'
    >>> without_asides("bought a car!! a used Toyota Vitz, 2014.")
    'bought a car, a used Toyota Vitz, 2014.'
    """
    text = _NAMED_AFTER.sub(r"\1, ", _CLOSING_ASIDE.sub(r". \1", text))
    return _EMOJI_ELSEWHERE.sub("", _EMOJI_BETWEEN.sub(",", _ASIDE.sub("", text)))
