"""People's names typed in lower case after the relation that introduces them.

Chat rarely capitalises: "my sister jess lives in denver", "my bf tom works at amazon", "my
manager is dana kowalski", "his name is omar". The tagger takes a lower-case "jess" for a
common noun, so no rule sees a person. Before parsing, a name right after such a relation is
written as a name: a known first name (the ``nicknames`` dataset,
:func:`graphmem.extract.rules.parties.first_names`), or a word English rarely uses (a
name the dataset lacks: "my bf omar"; after "is", only two such words, a first name and a
surname, since "my sister is vegan" says what she is; never a slip of a common word, "my
sister jsut moved"). A rare word after the first name is its surname ("kowalski", not
"lives"). As with towns (:mod:`.places`), capitalised text is
never changed, and first names that are as often words ("will", "may", "grace", and any
English uses as often as "green": "left", "day") are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from graphmem.extract.rules.parties import KIN, PETS, WORD_NAMES

#: Relations that introduce a person by name, besides kin: "my manager is dana".
_ROLES = ("manager", "boss", "supervisor", "lead", "mentor", "coach", "therapist", "doctor",
          "landlord", "flatmate", "housemate", "teammate", "bf", "gf", "hubby", "bestie")
_RELATION = "|".join(sorted({*KIN, *_ROLES}, key=len, reverse=True))
#: Who may be introduced as "a <being> called <name>".
_BEINGS = frozenset({"guy", "girl", "man", "woman", "boy", "lady", "gentleman", "bloke", "fella",
                     "chap", "dude", "someone", "friend", "kitten", "puppy"})
#: "my (new) sister jess", "my manager is dana", "her name's jess", "his name is omar",
#: "new manager at msft is raj patel".
_INTRODUCED = re.compile(
    r"\b(?:(?:my|our|his|her|their)\s+(?:(?:new|old|ex|current|best|little|big|older|younger|"
    r"baby|twin|line)\s+)*(?:" + _RELATION + r")(?:,|\s+(?:is|was|'s)(?:\s+(?:called|named))?)?"
    r"|(?:my|his|her|their|its)\s+name(?:\s+is|'s)"
    # "hey im zoe lol": a greeting, then the speaker's own name
    r"|\b(?:hi|hey|hello|hiya|yo)\b\W+(?:it's|this\s+is|i'm|i\s+am)"
    # "me n mia are together", "going out w priya", "been seeing omar": a partner by name
    r"|\bme\s+and|\b(?:going|went)\s+out\s+with|\b(?:been|started|i'm|am)\s+(?:dating|seeing)"
    # "a hamster called nugget", "a guy named omar"
    r"|\b(?:" + "|".join(sorted(PETS | _BEINGS, key=len, reverse=True))
    + r")(?:\s+(?:is|was|'s))?\s+(?:called|named)"
    # "new manager at msft is raj patel": news of the speaker's own, without the "my"
    r"|(?:^|(?<=[.!?]\s))(?:new|current)\s+(?:" + _RELATION + r")(?:\s+(?:at|@)\s+[\w&.-]+)?"
    r"\s+(?:is|'s))\s+(?=[a-z])", re.IGNORECASE)
#: "nugget died this morning": a bare word opening a sentence, then a death, is a name.
_DIED = re.compile(r"(?:^|(?<=[.!?]\s))(?=[a-z][a-z'-]*\s+(?:died|passed\s+away|was\s+put\s+down|"
                   r"ran\s+away)\b)")
_WORD = re.compile(r"[a-z][a-z'-]*")
_NEXT_WORD = re.compile(r"[ \t]+([a-z][a-z'-]*)")
#: Words English uses less often than this (per word of text) may be names: names are rare
#: ("dana" 3e-7, "jess" 6e-7, "patel" 5e-8), what is said of people is not ("retired"
#: 1e-5, "kinda" 4e-5, "great" 5e-4). Chosen on those words, not on any benchmark.
RARE = 3e-6
#: A first name English uses more often than this is a word first ("my manager left", not
#: Left): the dataset's names above it are words ("one", "see", "day", "left", "win", "king",
#: "green", "field"), the ones below it names as often ("rose", "jack", "emily"). Chosen on
#: that list.
WORDLIKE = 3e-5


@dataclass(frozen=True)
class PersonNames:
    """Writes lower-case names after a relation as names; built once per extractor.

    ``unusual(word, below)`` says whether English uses a lower-case word less often than
    ``below`` and it is no slip of a common word (:meth:`.spelling.Speller.unusual`).

    >>> rare = {"kowalski": 0.0, "omar": 5e-7, "jess": 6e-7, "dana": 3e-7}
    >>> names = PersonNames(frozenset({"jess", "dana"}), lambda w, below: rare.get(w, 1) < below)
    >>> names.capitalised("my sister jess lives in denver, my manager is dana kowalski")
    'my sister Jess lives in denver, my manager is Dana Kowalski'
    >>> names.capitalised("my bf omar is great, my sister is vegan")
    'my bf Omar is great, my sister is vegan'
    >>> PersonNames(frozenset({"left"}), lambda w, below: False).capitalised("my boss left")
    'my boss left'
    >>> rare["nugget"] = 7e-7
    >>> names.capitalised("got a hamster called nugget. nugget died, my mum died")
    'got a hamster called Nugget. Nugget died, my mum died'
    """

    first_names: frozenset[str]
    unusual: Callable[[str, float], bool]

    def capitalised(self, text: str) -> str:
        out: list[str] = []
        at = 0
        intros = sorted([*_INTRODUCED.finditer(text), *_DIED.finditer(text)],
                        key=lambda m: m.start())
        for intro in intros:
            first = _WORD.match(text, intro.end())
            if first is None or intro.end() < at or first.group(0) in WORD_NAMES \
                    or first.group(0) in KIN:
                continue
            surname = _NEXT_WORD.match(text, first.end())
            last = surname.group(1) if surname is not None and len(surname.group(1)) > 2 \
                and self._rare(surname.group(1)) else None
            said = intro.group(0).lower().split()
            # "my sister is <word>" may say what she is; "her name is <word>" names her
            stated = bool(said) and said[-1] in ("is", "was", "'s") and "name" not in said \
                and not said[-1].startswith("name")
            name = first.group(0)
            known = name in self.first_names and self.unusual(name, WORDLIKE)
            if not (known or self._rare(name) and (last or not stated)):
                continue
            out += [text[at:first.start()], name.capitalize()]
            at = first.end()
            if last is not None and surname is not None:
                out += [text[at:surname.start(1)], last.capitalize()]
                at = surname.end(1)
        return "".join([*out, text[at:]])

    def _rare(self, word: str) -> bool:
        return self.unusual(word, RARE)
