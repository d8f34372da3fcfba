"""What a move names: a home, a job, or something else moved.

"Moved to Leeds" is a home; "moved over to Deloitte" or, in a message about work, "moved to
Google" a job; "moved all my vector work to Illustrator" neither. The home rules
(:mod:`.families.home`) and the transitions (:mod:`.families.change`) both ask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import has_time
from graphmem.extract.rules.lexicon import (HOMES, JOB_NOUNS, dobjs, has_prt, is_company_name,
                                            is_occupation, is_student_role, pobjs,
                                            talks_of_work)

if TYPE_CHECKING:
    from spacy.tokens import Token

    from graphmem.extract.rules.clause import Finding


#: What one moves along with oneself: "moved the family to Leeds", "moved all our stuff".
_MOVED_WITH = frozenset({"family", "kid", "child", "stuff", "thing", "belonging", "everything",
                         "us", "myself", "ourselves", "life", "household"}) | HOMES  # "moved house"


#: What "spent my ... in X" says one grew up in: "spent my childhood in Enugu".
CHILDHOOD = frozenset({"childhood", "youth", "boyhood", "girlhood", "teens", "teen",
                       "adolescence"})


def tells_a_childhood(verb: Token) -> bool:
    """Whether ``verb`` says where one grew up: "grew up (in Enugu)", "spent my childhood
    (in Ibadan)"."""
    return verb.lemma_ == "grow" and has_prt(verb, "up") or verb.lemma_ == "spend" and any(
        t.lemma_.lower() in CHILDHOOD for t in dobjs(verb))


def ends_a_childhood(verb: Token) -> bool:
    """Whether ``verb`` is an undated clause of time that ends a childhood: "(I grew up in
    Enugu) before we moved to the UK", "(spent my childhood in Ibadan) until we moved to
    Leeds". The move was the family's, years ago: it says where one is from, not where one
    lives now."""
    return verb.dep_ == "advcl" and verb.head.i != verb.i and any(
        c.dep_ == "mark" and c.lower_ in ("before", "until", "till") for c in verb.children) \
        and not has_time(verb) and tells_a_childhood(verb.head)


def moves_a_thing(verb: Token) -> bool:
    """"I moved all my vector work to Illustrator", "moved my mum to Leeds": something or
    someone else moved, not the speaker's home ("moved my two cats to Leeds with me" is)."""
    along = any(t.lower_ in ("me", "us") for p in verb.children if p.lower_ == "with"
                for t in p.children)
    return not along and any(t.lemma_.lower() not in _MOVED_WITH and t.lower_ not in _MOVED_WITH
                             for t in dobjs(verb))


#: What one moves somewhere for when the somewhere is a town: "moved to Tartu for a new job".
_FOR_A_JOB = JOB_NOUNS | {"work", "contract", "promotion", "company", "employer"}


def moved_to_a_job(place: Token, message: str, towns: frozenset[str]) -> bool:
    """Whether a name one moved to is a new job, not a home: a company ("moved to Brightline
    Health"), any name but a place's after "moved over to" ("moved over to Deloitte"), or a
    firm in a message about work or with a title ("left my job at Acme and moved to Google",
    "made the move to Stripe as a product manager"; a name the tagger took for a town too,
    unless ``towns`` knows it: "work was hard, so I moved to Bristol"). Not "moved
    to Tartu over the holidays", nor a move made
    for a job ("moved to Tartu for a new job": the job is there) or by a household ("we moved
    to Tartu last year, work is fine")."""
    verb = _mover(place)
    movers = _movers(place)
    over = any(c.lower_ == "over" and c.i + 1 < len(c.doc) and c.doc[c.i + 1].lower_ == "to"
               for c in verb.children)
    named = " ".join(t.text for t in [*(c for c in place.lefts if c.dep_ == "compound"), place])
    if is_company_name(named) or over and place.ent_type_ not in ("GPE", "LOC"):
        return True
    if not towns or place.ent_type_ == "LOC" or place.lower_ in towns or any(
            o.lemma_.lower() in _FOR_A_JOB for m in movers for o in pobjs(m, ("for",))) or any(
            c.dep_ == "nsubj" and c.lower_ == "we" for m in movers for c in m.children):
        return False
    return talks_of_work(message) or bool(move_titles(place))


def move_titles(place: Token) -> list[Token]:
    """The job titles a move to ``place`` names: "made the move to Stripe as a backend
    engineer" (not "moved to Leeds as a student")."""
    return [t for m in _movers(place) for t in pobjs(m, ("as",))
            if is_occupation(t) and not is_student_role(t)]


def _mover(place: Token) -> Token:
    """The word that moved to ``place``: "moved", or the noun of "made the move"."""
    return place.head.head if place.head.dep_ == "prep" else place.head


def _movers(place: Token) -> list[Token]:
    """The words a move's other parts hang on: "made the move to X as a ...": both."""
    verb = _mover(place)
    return [verb, verb.head] if verb.dep_ == "dobj" else [verb]


def firm_not_town(name: str, message: str, towns: frozenset[str], *,
                  other_signs: bool = False) -> bool:
    """Whether a name the tagger took for a town is a firm: the gazetteer, when loaded, knows
    no town of that name, and the message speaks of work, or the caller saw another sign of a
    job ("i'm at Cabify now", "left Tinkoff last month, now contracting for Wolt")."""
    return bool(towns) and name.lower() not in towns and (other_signs or talks_of_work(message))


def one_reading(findings: list[Finding], towns: frozenset[str]) -> list[Finding]:
    """A name one sentence gave as someone's employer and as their home ("made the move to
    Klarna, the new job is intense": a move, and a job begun) is one of the two: the home if
    the gazetteer knows a town of that name, else the employer."""
    said_as = {(f.subject.name, f.obj.lower(), f.predicate) for f in findings
               if f.action == "assert" and f.predicate in ("WORKS_AT", "LIVES_IN")}

    def loses(f: Finding) -> bool:
        other = "LIVES_IN" if f.predicate == "WORKS_AT" else "WORKS_AT"
        if f.action != "assert" or (f.subject.name, f.obj.lower(), other) not in said_as:
            return False
        return (f.predicate == "WORKS_AT") == (f.obj.lower() in towns)

    return [f for f in findings if f.predicate not in ("WORKS_AT", "LIVES_IN") or not loses(f)]
