"""Whose a noun phrase's thing is, and the names a sentence gives it: "my boss Sarah",
"my cat is called Biscuit", "the phone I carry around", "I have a new boss, Sarah".

Split from :mod:`.parties`, which resolves who a phrase names; these answer for a noun
(a relative, a pet, a possession) who holds it and what it is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.extract.rules.parties import (KIN, NOT_NAMES, PETS, Party, Speech, appositive_name,
                                            conjuncts, has_det, is_person_name)

if TYPE_CHECKING:
    from spacy.tokens import Token


def stated_names(token: Token) -> list[str]:
    """The names relatives or pets are given in a sentence of their own: "my boyfriend is
    Jake", "my cat is called Biscuit", "my dog is named Rex", "my cat's name is Biscuit",
    "my kids are Ella and Sam"; or the appositive's ("my sister Anna"). Not a past or
    negated one ("my cat was called Tom", "my boss isn't Sarah"), and only names ("my
    sister is Canadian" names no one)."""
    if (appositive := appositive_name(token)) is not None:
        # "my grandchildren Poppy and Oliver": each name of the appositive
        named = next((c for c in token.children if c.text == appositive), None)
        if named is None or token.tag_ not in ("NNS", "NNPS"):
            return [appositive]
        return [appositive, *(c.text for c in conjuncts(named) if c.dep_ == "conj"
                              and c.tag_ in ("NNP", "NNPS") and c.text[:1].isupper())]
    first = _stated_name(token)
    if first is None:
        return []
    return [first.text, *(c.text for c in conjuncts(first)
                          if c.tag_ in ("NNP", "NNPS") and c.text[:1].isupper())]


def _stated_name(token: Token) -> Token | None:
    if token.lemma_.lower() not in KIN and token.lemma_.lower() not in PETS:
        return None
    verb = token.head
    wanted: tuple[str, ...] = ("attr",)
    if token.dep_ == "nsubjpass" and verb.lemma_ in ("call", "name"):
        wanted = ("oprd", "attr")
    elif token.dep_ == "poss" and verb.lemma_ == "name" and verb.dep_ == "nsubj":
        verb = verb.head  # "my cat's name is Biscuit"
    elif token.dep_ != "nsubj":
        return None
    if verb.lemma_ not in ("be", "call", "name") or verb.tag_ == "VBD" or any(
            c.dep_ == "neg" or c.tag_ == "VBD" for c in verb.children):
        return None
    named = token.dep_ == "poss"  # after "name is" a capitalised word is the name
    for c in verb.children:
        if c.dep_ in wanted and c.text[:1].isupper() and c.ent_type_ not in NOT_NAMES and \
                (named or c.ent_type_ == "PERSON" or c.tag_ in ("NNP", "NNPS")) \
                and not any(d.dep_ == "det" for d in c.children):
            return c
    return None


def had_by_speaker(token: Token) -> bool:
    """Whether the speaker says they have ``token``: "I have a new boss, Sarah", "we got a
    puppy, Miso" (the object of have/get with a first-person subject, not negated)."""
    verb = token.head
    return token.dep_ == "dobj" and verb.lemma_ in ("have", "get") and any(
        c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in verb.children) and not any(
        c.dep_ == "neg" for c in verb.children)


#: Verbs of a relative clause that name what one does not (yet) have: "the phone I want".
_WANTING = frozenset({"want", "wish", "need", "like", "love", "prefer", "hope", "plan", "dream",
                      "miss", "consider", "recommend", "choose", "pick", "covet", "eye"})


def noun_owner(noun: Token, speech: Speech) -> Party | None:
    """Whose noun: "my" is the speaker, "Ana's" is Ana, and "the phone I carry around" or
    "the company I joined" (the noun of a relative clause the speaker is the subject of) is
    the speaker's; None for anyone else."""
    for c in noun.children:
        if c.dep_ == "poss":
            if c.lower_ in ("my", "our"):
                return speech.me() if speech.first_person else None
            if is_person_name(c, speech):
                return Party(c.text, "person")
        if c.dep_ == "relcl" and has_det(noun, ("the",)) and speech.first_person and any(
                s.dep_ == "nsubj" and s.lower_ in ("i", "we") for s in c.children) \
                and c.lemma_ not in _WANTING and not any(
                    a.dep_ == "aux" and a.tag_ == "MD" for a in c.children):
            return speech.me()  # not "the phone I want", "the car I'd buy"
    return None
