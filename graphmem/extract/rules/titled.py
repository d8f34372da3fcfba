"""Where a job title said with "to be" is held, and which title a sentence means.

"I'm a nurse at St Mary's" (the employer), "I'm a sous chef in Bilbao" (the town worked
in), "I'm a paramedic doing night shifts" (the title the parser hid in a modifier), "I'm
not a customs broker, I'm a compliance officer" (the title said instead of a denied one):
the copula family (:mod:`.families.copula`) reads the title; these read around it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.extract.rules.lexicon import is_company, is_occupation, is_org, pobjs
from graphmem.extract.rules.terms import TECH_LABEL

if TYPE_CHECKING:
    from spacy.tokens import Token

#: Nouns that name a place of work: "the restaurant's general manager", "a nurse at the clinic".
WORKPLACES = frozenset({"bank", "hospital", "school", "university", "college", "clinic",
                        "restaurant", "cafe", "bakery", "library", "museum", "startup", "agency",
                        "firm", "factory", "store", "shop", "hotel", "airline", "company"})


def title_instead(verb: Token) -> bool:
    """Whether the sentence of a denied "I'm (not) a ..." says, in a clause of its own, what
    the same subject is instead: "I'm not a customs broker, I'm a compliance officer"."""
    subject = {c.lower_ for c in verb.children if c.dep_ == "nsubj"}
    return bool(subject) and any(
        other.i != verb.i and other.lemma_ == "be" and not any(
            c.dep_ == "neg" for c in other.children)
        and {c.lower_ for c in other.children if c.dep_ == "nsubj"} == subject
        and any(c.dep_ == "attr" and is_occupation(c) for c in other.children)
        for other in verb.sent)


def occupation_read_as_modifier(attr: Token) -> Token | None:
    """"I'm a paramedic doing night shifts": the parser reads "a paramedic doing night
    shifts" as one noun phrase about shifts; the occupation right after its article is the
    attribute, the gerund after it says what they do."""
    if is_occupation(attr):
        return None
    first = attr.left_edge  # the article, on the phrase's head or on the occupation
    job = attr.doc[first.i + 1] if first.dep_ == "det" and first.i + 1 < attr.i else None
    if job is None or job.head.i != attr.i or job.dep_ not in ("amod", "compound", "nmod") \
            or not is_occupation(job):
        return None
    return job if attr.doc[job.i + 1].tag_ == "VBG" else None


def town_of_work(title: Token) -> list[Token]:
    """"I'm a sous chef in Bilbao": the city one works in, said of oneself with no
    employer between, is where one lives. Not "a nurse at Children's Hospital in Boston":
    a workplace's town may be a commute away, and a wrong home would end the right one."""
    return [t for t in pobjs(title, ("in",)) if t.ent_type_ == "GPE"]


def workplaces(title: Token, verb: Token) -> list[Token]:
    """Where a title is held: "a nurse at St Mary's", and "the head of design at Globex",
    where the parser hangs "at" on the verb. A company named like a tool ("a designer at
    Figma") is an employer here, and so is a name tagged as a person's; a city is not ("a
    nurse at Boston" is a place)."""
    found = pobjs(title, ("at", "for", "with")) + pobjs(verb, ("at", "for"))
    return [t for t in found if t.dep_ == "pobj" and t.ent_type_ not in ("GPE", "LOC")
            and (is_org(t) or is_company(t) or t.lower_ in WORKPLACES
                 # "an engineer at Van Ooststraat Bouw", "a cashier at John Lewis": one works
                 # at a firm, whatever the tagger took the name for
                 or t.ent_type_ == "PERSON" and t.tag_ == "NNP" and t.head.lower_ == "at"
                 or (t.ent_type_ == TECH_LABEL and t.text[:1].isupper()
                     and t.head.lower_ in ("at", "for")))]
