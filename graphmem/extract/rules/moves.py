"""What a move names: a home, a job, or something else moved.

"Moved to Leeds" is a home; "moved over to Deloitte" or, in a message about work, "moved to
Google" a job; "moved all my vector work to Illustrator" neither. The home rules
(:mod:`.families.home`) and the transitions (:mod:`.families.change`) both ask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.extract.rules.lexicon import HOMES, dobjs, is_company, talks_of_work

if TYPE_CHECKING:
    from spacy.tokens import Token


#: What one moves along with oneself: "moved the family to Leeds", "moved all our stuff".
_MOVED_WITH = frozenset({"family", "kid", "child", "stuff", "thing", "belonging", "everything",
                         "us", "myself", "ourselves", "life", "household"}) | HOMES  # "moved house"


def moves_a_thing(verb: Token) -> bool:
    """"I moved all my vector work to Illustrator", "moved my mum to Leeds": something or
    someone else moved, not the speaker's home ("moved my two cats to Leeds with me" is)."""
    along = any(t.lower_ in ("me", "us") for p in verb.children if p.lower_ == "with"
                for t in p.children)
    return not along and any(t.lemma_.lower() not in _MOVED_WITH and t.lower_ not in _MOVED_WITH
                             for t in dobjs(verb))


def moved_to_a_job(place: Token, message: str, towns: frozenset[str]) -> bool:
    """Whether a name one moved to is a new job, not a home: a company ("moved to Brightline
    Health"), any name but a place's after "moved over to" ("moved over to Deloitte"), or a
    firm in a message about work ("left my job at Acme and moved to Google"; not one of
    ``towns`` the tagger took for one: "work was hard, so we moved to Bristol"). Not "moved
    to Tartu over the holidays"."""
    verb = place.head.head if place.head.dep_ == "prep" else place.head
    over = any(c.lower_ == "over" and c.i + 1 < len(c.doc) and c.doc[c.i + 1].lower_ == "to"
               for c in verb.children)
    return is_company(place) or place.ent_type_ not in ("GPE", "LOC") and (
        over or place.ent_type_ == "ORG" and place.lower_ not in towns and talks_of_work(message))


def firm_not_town(name: str, message: str, towns: frozenset[str], *,
                  other_signs: bool = False) -> bool:
    """Whether a name the tagger took for a town is a firm: the gazetteer, when loaded, knows
    no town of that name, and the message speaks of work, or the caller saw another sign of a
    job ("i'm at Cabify now", "left Tinkoff last month, now contracting for Wolt")."""
    return bool(towns) and name.lower() not in towns and (other_signs or talks_of_work(message))
