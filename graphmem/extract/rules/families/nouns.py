"""Facts a noun phrase carries wherever it stands in a sentence.

"my sister Anna" (Anna is the speaker's sister), "My kids are Ella and Sam", "my old boss
Gerald", "I hate my job at Microsoft" (the employer), "ten years of experience with Java" (a
skill). The dispatcher calls :func:`noun_facts` on every sentence, beside the verb rules; it
reads no verb of its own, so the family's tables are empty.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from graphmem.extract.rules.clause import Finding, Rule
from graphmem.extract.rules.lexicon import (
    LANGUAGE_LABELS, dies, dobjs, has_prt, is_org, object_type, pobjs)
from graphmem.extract.rules.owners import had_by_speaker, noun_owner, stated_names
from graphmem.extract.rules.parties import KIN, PETS, Party, Speech, is_person_name, possessor
from graphmem.extract.rules.phrases import phrase
from graphmem.extract.rules.terms import TECH_LABEL

if TYPE_CHECKING:
    from spacy.tokens import Span, Token


#: Words that say a relation was: "my old boss", "my former colleague".
_FORMER = frozenset({"old", "former", "previous", "ex"})
#: Words that say someone has died: "my late husband".
_DEAD = frozenset({"late", "deceased", "departed"})


def noun_facts(sent: Span, speech: Speech) -> list[Finding]:
    """Facts carried by a noun phrase anywhere: "my sister Anna", "experience with Java"."""
    out: list[Finding] = []
    parting = _parting(sent)
    for token in sent:
        lemma = token.lemma_.lower()
        if lemma in KIN or lemma in PETS:
            owner = _kin_owner(token, speech)
            names = stated_names(token) if owner is not None else []
            if owner is None or (parting or dies(token)) and \
                    KIN.get(lemma) in ("HAS_PARTNER", "MARRIED_TO"):
                continue  # "my gf Ava and I broke up": the parting ends her (life.break_up)
            # "my kids are Ella and Sam": each is the speaker's kid
            word = lemma if token.tag_ == "NNS" else token.lower_
            for name in names:
                if lemma in PETS:
                    out.append(Finding(owner, "HAS_PET", name, "animal", timing="none",
                                       statement=f"{{s}} has a {word} named {name}"))
                elif KIN[lemma] in ("HAS_PARTNER", "MARRIED_TO") and any(
                        c.dep_ == "amod" and c.lower_ in _DEAD for c in token.children):
                    # "my late wife Margaret": a marriage death ended, not one held now; said
                    # in passing it ends nothing either (its turn tells who she was)
                    continue
                elif KIN[lemma] != "KNOWS" or owner.is_speaker:
                    # "my old boss Gerald": what he was, not what he is
                    was = [c.lower_ for c in token.children if c.dep_ == "amod"
                           and c.lower_ in _FORMER]
                    out.append(Finding(owner, KIN[lemma], name, "person", timing="none",
                                       statement=f"{name} is {{s's}} {' '.join([*was, word])}"))
        elif lemma in ("hobby", "hobbies", "passion", "pastime") and token.dep_ == "nsubj" and \
                possessor(token) == "me" and speech.first_person and token.head.tag_ == "VBG" \
                and any(a.lemma_ == "be" for a in token.head.children if a.dep_ == "aux"):
            # "My hobby is painting" parsed as a progressive verb
            out.append(Finding(speech.me(), "HOBBY", token.head.lower_, "activity"))
        elif lemma in _CURRENT_JOB and token.dep_ in ("dobj", "nsubj") and \
                (owner := noun_owner(token, speech)) is not None and _held(token):
            places = pobjs(token, ("at", "with")) or [  # "love my job [at Google]"
                t for t in pobjs(token.head, ("at",)) if t.ent_type_ == "ORG" or is_org(t)]
            out += [Finding(owner, "WORKS_AT", n, "organization")
                    for t in places if (n := phrase(t))]
        elif lemma in ("employer", "workplace") and possessor(token) == "me" \
                and speech.first_person and not parting and not any(
                    c.dep_ == "amod" and c.lower_ in _NOT_NOW for c in token.children):
            # "My employer, Nubank, is trialling a four-day week": the employer by name
            out += [Finding(speech.me(), "WORKS_AT", n, "organization")
                    for c in token.children if c.dep_ == "appos" and c.text[:1].isupper()
                    and (n := phrase(c))]
        elif lemma == "experience":
            skills = [t for t in pobjs(token, ("with", "in")) if t.ent_type_ in
                      (TECH_LABEL, *LANGUAGE_LABELS) or t.pos_ in ("NOUN", "PROPN")]
            subject = _experience_owner(token, speech)
            if subject is not None:
                out += [Finding(subject, "SKILLED_IN", n, object_type(t))
                        for t in skills if (n := phrase(t))]
    return out


#: A job one speaks of as one's own now: "I hate my job at Microsoft".
_CURRENT_JOB = frozenset({"job", "position", "role", "internship", "gig"})
#: Verbs whose object or subject is a job held now, whatever they say of it.
_ABOUT_A_JOB = frozenset({"love", "like", "hate", "enjoy", "dislike", "adore", "loathe",
                          "detest", "be", "find"})
_NOT_NOW = frozenset({"old", "previous", "former", "last", "first", "dream", "ex", "next",
                      "future", "past", "summer", "part-time", "second"})


def _parting(sent: Span) -> bool:
    """Whether the sentence tells of the speaker's couple parting ("my gf Ava and I broke up",
    "My husband Tom and I divorced"): a partner named in it is who ends (life.break_up,
    life.marry), not a partner now. The whole sentence is read, as the parser often
    leaves "my girlfriend Ava" outside the verb's clause, or makes it a sentence of its
    own: a sentence without a verb is read with the next one."""
    doc = sent.doc
    if not any(t.pos_ == "VERB" for t in sent) and sent.end < len(doc):
        sent = doc[sent.start:doc[sent.end].sent.end]
    for verb in sent:
        lemma = verb.lemma_.lower()
        if verb.pos_ != "VERB" or not any(  # "I" or "we" part: not "her parents separated"
                w.lower_ in ("i", "we", "me") for c in verb.children if c.dep_ == "nsubj"
                for w in c.subtree):
            continue
        if lemma in ("divorce", "separate") or lemma == "part" and any(
                t.lower_ == "ways" for t in dobjs(verb)) or lemma in ("break", "split") \
                and has_prt(verb, "up") and not dobjs(verb):  # not "broke up the fight"
            return True
    return False


def _held(job: Token) -> bool:
    """"I hate my job at X", "my job at X is boring": the job is held now. "I lost my job at
    X", "my old job at X" and "I'd love a job at X" are not, and they are left to their verbs."""
    verb = job.head
    present = verb.tag_ in ("VBP", "VBZ") or verb.tag_ == "VB" and any(
        c.dep_ == "aux" and c.lemma_ == "do" and c.tag_ in ("VBP", "VBZ") for c in verb.children)
    return verb.lemma_.lower() in _ABOUT_A_JOB and present and not any(
        c.lower_ in _NOT_NOW for c in job.children) and not any(
        c.dep_ == "aux" and c.tag_ == "MD" for c in verb.children)


def _kin_owner(token: Token, speech: Speech) -> Party | None:
    """Whose sister or dog: "my" is the speaker, "Emma's" is Emma, "her" the clause's subject."""
    holder = token.head if token.dep_ == "compound" else token  # "her dog Pepper"
    whose = possessor(token) or possessor(holder) or ("me" if had_by_speaker(token) else None)
    if whose == "me":
        return speech.me() if speech.first_person else None
    if whose == "name":
        owner = next(c for c in [*token.children, *holder.children] if c.dep_ == "poss")
        return Party(owner.text, "person") if is_person_name(owner, speech) else None
    if whose == "other":
        node = token
        while not any(c.dep_ == "nsubj" for c in node.children) and node.head != node:
            node = node.head
        named = [c for c in node.children if c.dep_ == "nsubj" and is_person_name(c, speech)]
        return Party(named[0].text, "person") if len(named) == 1 else None
    return None


def _experience_owner(token: Token, speech: Speech) -> Party | None:
    node = token
    while node.dep_ not in ("ROOT",) and node.head != node:
        node = node.head
        if node.lemma_ == "have":
            break
    if node.lemma_ != "have":
        return None
    for c in node.children:
        if c.dep_ == "nsubj":
            if c.lower_ in ("i", "we"):
                return speech.me() if speech.first_person else None
            if is_person_name(c, speech):
                return Party(c.text, "person")
    return None


#: No table: the dispatcher hands every "be" clause to :func:`copula`, get/become to
#: :func:`linking` and adjectives parsed as verbs ("engaged", "based") to :func:`passive_state`.


RULES: Mapping[str, tuple[Rule, ...]] = MappingProxyType({})
TRIGGERS: frozenset[str] = frozenset()
PATTERNS: tuple[re.Pattern[str], ...] = ()
