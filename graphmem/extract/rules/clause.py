"""Clause analysis for the rule extractor: who is speaking about whom, and how.

A clause is a verb with its subject. Before any rule looks at the verb, this
module settles the questions every rule shares: who the subject is ("I" is the
speaker, "my sister Anna" is Anna, "our app" is the project), whether the
clause is negated or says something ended ("anymore", "no longer"), whether it
is hedged ("I think I might"), hypothetical ("if I moved") or a question, and
in which tense it is, and whose noun a possessed noun is. :func:`each` and
:func:`action_of` are the two steps every family takes from a clause to its
findings. Turning subtrees into object phrases is the job of
:mod:`graphmem.extract.rules.phrases`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from graphmem.extract.rules.contrast import contrastive
from graphmem.extract.rules.terms import TECH_LABEL, canonical_name
from graphmem.models import Cardinality

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

Tense = Literal["past", "present", "future"]
Action = Literal["assert", "retract"]
#: How a sentence's time expression applies to a fact: when a state began
#: (``start``), when something happened (``event``), the span of a trip
#: (``trip``), a deadline (``due``), the date a plan is for (``plan``), or not at all.
Timing = Literal["start", "event", "trip", "due", "plan", "span", "none"]

FIRST_PERSON = frozenset({"i", "me", "we", "us", "myself", "ourselves"})
FIRST_POSSESSIVE = frozenset({"my", "our"})
OTHER_POSSESSIVE = frozenset({"your", "his", "her", "their", "its"})
PROJECT_NOUNS = frozenset({"project", "app", "application", "codebase", "repo", "repository",
                           "backend", "frontend", "stack", "service", "website", "site", "ci",
                           "pipeline", "product", "system", "api", "server", "monorepo"})
#: Kinship and social nouns, and the predicate that links their owner to them.
KIN = MappingProxyType({
    "sister": "HAS_SISTER", "sis": "HAS_SISTER", "brother": "HAS_BROTHER", "bro": "HAS_BROTHER",
    "son": "HAS_CHILD", "daughter": "HAS_CHILD", "kid": "HAS_CHILD", "child": "HAS_CHILD",
    "baby": "HAS_CHILD", "mom": "HAS_PARENT", "mother": "HAS_PARENT", "mum": "HAS_PARENT",
    "dad": "HAS_PARENT", "father": "HAS_PARENT", "parent": "HAS_PARENT",
    "husband": "MARRIED_TO", "wife": "MARRIED_TO", "spouse": "MARRIED_TO",
    "boyfriend": "HAS_PARTNER", "girlfriend": "HAS_PARTNER", "partner": "HAS_PARTNER",
    "fiance": "HAS_PARTNER", "fiancé": "HAS_PARTNER", "fiancee": "HAS_PARTNER",
    "fiancée": "HAS_PARTNER", "friend": "HAS_FRIEND", "buddy": "HAS_FRIEND",
    "bestie": "HAS_FRIEND", "roommate": "HAS_FRIEND", "cousin": "HAS_RELATIVE",
    "aunt": "HAS_RELATIVE", "uncle": "HAS_RELATIVE", "grandma": "HAS_RELATIVE",
    "grandmother": "HAS_RELATIVE", "grandpa": "HAS_RELATIVE", "grandfather": "HAS_RELATIVE",
    "niece": "HAS_RELATIVE", "nephew": "HAS_RELATIVE", "grandson": "HAS_RELATIVE",
    "granddaughter": "HAS_RELATIVE", "stepson": "HAS_CHILD", "stepdaughter": "HAS_CHILD",
    "colleague": "KNOWS", "coworker": "KNOWS", "boss": "KNOWS", "neighbor": "KNOWS",
    "neighbour": "KNOWS", "mentor": "KNOWS",
})
PETS = frozenset({"dog", "puppy", "pup", "cat", "kitten", "kitty", "hamster", "parrot", "bird",
                  "rabbit", "bunny", "fish", "goldfish", "turtle", "tortoise", "horse", "pony",
                  "guinea", "snake", "lizard", "gecko", "ferret", "chinchilla", "cockatiel",
                  "budgie", "pig", "goat", "chicken", "pet", "retriever", "labrador", "lab",
                  "poodle", "beagle", "terrier", "husky", "shepherd", "bulldog", "corgi",
                  "dachshund", "chihuahua", "spaniel", "pug", "collie", "tabby", "doggo",
                  "greyhound", "whippet", "shiba", "schnauzer", "rottweiler", "boxer", "dalmatian",
                  "doodle", "labradoodle", "cockapoo", "maltese", "pomeranian", "sheepdog",
                  "mutt", "moggy", "siamese", "persian", "parakeet", "canary", "iguana",
                  "axolotl", "hedgehog", "rat", "mouse", "gerbil"})
#: Words that make an object a pointer rather than a thing worth remembering.
VAGUE = frozenset({"it", "that", "this", "them", "these", "those", "one", "ones", "thing",
                   "things", "stuff", "everything", "something", "anything", "nothing", "lot",
                   "lots", "all", "way", "idea", "you", "what", "which", "who", "bit", "kind",
                   "sort", "part", "much", "more", "most", "some", "any", "none", "both", "each",
                   "other", "others", "same", "time", "moment", "day", "thanks", "hug", "fun",
                   "yourself", "him", "her", "they", "he", "she", "there", "here", "people",
                   "few", "many", "several", "plenty", "everyone", "everybody", "someone",
                   "somebody", "anyone", "nobody", "while", "ton", "tons", "bunch", "heaps",
                   "ways", "deal", "moments", "thought", "ideas", "pic", "picture", "photo"})
_HEDGES = ("i think", "i guess", "maybe", "probably", "perhaps", "not sure", "kind of", "sort of",
           "i suppose", "possibly", "might", "i believe", "i reckon")
_NOT_NAMES = frozenset({TECH_LABEL, "GPE", "LOC", "DATE", "TIME", "FAC", "CARDINAL", "ORDINAL"})


@dataclass(frozen=True)
class Party:
    """A resolved subject or object: its entity name and type, and whether it is the speaker."""

    name: str
    type: str = "person"
    is_speaker: bool = False


@dataclass
class Finding:
    """One fact a rule found, before time, wording and scores are settled.

    ``statement`` is a third-person sentence without its final period or time
    phrase ("Anna is Alice's sister"); None means the predicate's template is used.
    """

    subject: Party
    predicate: str
    obj: str = ""
    object_type: str = "concept"
    action: Action = "assert"
    statement: str | None = None
    confidence: float = 0.85
    timing: Timing = "start"
    cardinality: Cardinality | None = None
    anchor: int | None = None  # index of the verb the finding came from, to scope its time


@dataclass
class Clause:
    """One verb of a sentence with everything rules need to know about it."""

    verb: Token
    subjects: list[Party]
    negated: bool
    ended: bool
    hedged: bool
    tense: Tense
    perfect: bool
    modal: str | None

    @property
    def lemma(self) -> str:
        return self.verb.lemma_.lower()


@dataclass
class Speech:
    """Who is talking in the current message and which names the episode knows as people."""

    speaker: str
    first_person: bool
    people: frozenset[str]
    speakers: frozenset[str] = frozenset()  # the participants: "I love it, Nate!" names no object

    def me(self) -> Party:
        return Party(self.speaker, "person", True)


def build_clause(verb: Token, speech: Speech) -> Clause | None:
    """The clause headed by ``verb``, or None when it cannot state a fact (question, "if")."""
    if _hypothetical(verb):
        return None
    subjects = subjects_of(verb, speech)
    children = {c.lower_ for c in verb.children}
    aux = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    modal = next((a.lower_ for a in aux if a.tag_ == "MD"), None)
    if modal in ("'d", "d"):
        modal = "would"
    if modal in ("'ll", "ll", "wo"):
        modal = "will"
    if modal == "ca":
        modal = "can"
    negated = any(c.dep_ == "neg" and not contrastive(c) or c.lower_ == "never"
                  for c in verb.children)
    if verb.dep_ == "xcomp" and any(c.dep_ == "neg" and not contrastive(c)
                                    for c in verb.head.children):
        negated = True  # "I'm not going to move to Berlin", "I didn't start working there"
    if verb.dep_ == "conj" and not aux and verb.head != verb:
        # "I'll think about it and maybe get pets": the second verb shares the first's modal
        head_aux = [c for c in verb.head.children if c.dep_ in ("aux", "auxpass")]
        modal = modal or next((a.lower_ for a in head_aux if a.tag_ == "MD"), None)
        modal = {"'ll": "will", "ll": "will", "wo": "will", "'d": "would", "ca": "can"}.get(
            modal or "", modal)
        negated = negated or any(c.dep_ == "neg" for c in verb.head.children)
    text = verb.sent.text.lower()
    ended = _ended(verb) or (verb.dep_ == "conj" and _ended(verb.head) and not aux)
    hedged = modal in ("might", "may", "could") or any(h in text for h in _HEDGES)
    perfect = verb.tag_ == "VBN" and any(a.lemma_ == "have" and a.tag_ != "VBD" for a in aux)
    perfect = perfect or (verb.tag_ == "VBG" and any(a.lower_ == "been" for a in aux))
    return Clause(verb, subjects, negated, ended, hedged, tense_of(verb, modal), perfect, modal)


#: Clauses inside a clause: their "anymore" is their own.
_INNER_CLAUSES = frozenset({"conj", "ccomp", "parataxis", "advcl", "relcl", "acl", "csubj"})


def _ended(verb: Token) -> bool:
    """"no longer", "not ... anymore", "any more", "never again", "not ... after all" in the
    verb's own clause."""
    inner = {t.i for c in verb.children if c.dep_ in _INNER_CLAUSES for t in c.subtree}
    # "I'm vegan these days, not keto anymore": the "anymore" of a denied value is its own
    denied = {t.i for n in verb.sent if contrastive(n) for t in verb.doc[n.i: verb.sent.end]
              if t.lower_ in ("anymore", "longer", "more")}
    words = [t.lower_ for t in verb.subtree if t.i not in inner and t.i not in denied]
    pairs = set(zip(words, words[1:], strict=False))
    return ("anymore" in words or ("no", "longer") in pairs or ("any", "longer") in pairs
            or ("any", "more") in pairs
            or ("again" in words or ("after", "all") in pairs)
            and any(w in ("never", "not", "n't") for w in words))


def tense_of(verb: Token, modal: str | None) -> Tense:
    aux = {c.lemma_.lower(): c for c in verb.children if c.dep_ in ("aux", "auxpass")}
    if modal in ("will", "shall") or "gonna" in verb.sent.text.lower():
        return "future"
    head = verb.head
    if verb.dep_ == "xcomp" and head.lemma_ == "go" and head.tag_ == "VBG":
        return "future"  # "I'm going to move"
    if verb.tag_ == "VBD" or any(a.tag_ == "VBD" for a in aux.values()):
        return "past"
    if verb.tag_ == "VBN" and "have" in aux:
        return "past"
    if verb.tag_ == "VBG" and "be" in aux and verb.lemma_ in ("go", "fly", "travel", "move",
                                                             "head", "leave", "visit", "drive"):
        return "future"
    return "present"


def has_time(verb: Token) -> bool:
    """Whether the verb's sentence names a time ("on Monday"): an event without one is chat."""
    return any(t.ent_type_ in ("DATE", "TIME") for t in verb.sent)


#: "from 2015 to 2020": a stretch of time with both ends named.
_STRETCH = re.compile(r"\bfrom\b.+?\b(?:to|until|till|through)\b", re.IGNORECASE)


def past_stretch(clause: Clause) -> bool:
    """Whether a past clause says from when to when it held ("I lived in Paris from 2015
    to 2020"): a closed stretch of history, not a present fact nor a chat about the past."""
    verb = clause.verb
    return clause.tense == "past" and not clause.negated and has_time(verb) and \
        _STRETCH.search(verb.sent.text) is not None


#: "until 2020", "till last May": when something stopped.
_UNTIL = re.compile(r"\b(?:until|till)\b", re.IGNORECASE)


def past_until(clause: Clause) -> bool:
    """Whether a past clause says only when it stopped holding ("I worked at Google until
    2020"): that ends it then, and says nothing of when it began."""
    verb = clause.verb
    return clause.tense == "past" and not clause.negated and not clause.perfect and \
        has_time(verb) and _UNTIL.search(verb.sent.text) is not None and not past_stretch(clause)


def future_time(verb: Token) -> bool:
    """Whether the sentence's time is ahead ("next week", "tomorrow")."""
    return any(t.lower_.startswith(("next", "tomorrow", "this coming")) for t in verb.sent
               if t.ent_type_ in ("DATE", "TIME"))


def _hypothetical(verb: Token) -> bool:
    """A clause that does not say its fact happened or holds: "if I moved", "I wish I
    lived", "I almost joined", "I was going to join", "I doubt I'll move", "I'm not
    sure I like it", "it's not true that I live there"."""
    if any(c.dep_ == "advmod" and c.lower_ in ("almost", "nearly") for c in verb.children):
        return True
    node: Token | None = verb
    while node is not None:
        if any(c.dep_ == "mark" and c.lower_ in ("if", "unless", "whether", "once")
               for c in node.children):
            return True
        if node.dep_ in ("advcl", "ccomp", "conj", "xcomp") and node.head != node:
            head = node.head
            if head.lemma_ in ("wish", "wonder", "imagine") or head.lemma_ in (
                    "ask", "say", "tell") and node.dep_ != "conj":
                return True  # not "said goodbye to Melbourne and moved to Dubai"
            if node.dep_ == "ccomp" and _denied(head):
                return True
            if node.dep_ == "xcomp" and head.lemma_ == "go" and head.tag_ == "VBG" and any(
                    a.dep_ == "aux" and a.tag_ == "VBD" for a in head.children):
                return True  # "I was going to join Stripe": an intention that did not happen
            node = head
        else:
            node = None
    return False


#: Verbs and adjectives whose negation denies the clause they govern.
_BELIEF_FRAMES = frozenset({"think", "believe", "feel", "guess", "suppose", "reckon", "expect",
                            "know", "remember", "say", "claim", "mean", "seem", "be", "sure",
                            "true", "certain", "convinced", "right", "correct"})


def _denied(frame: Token) -> bool:
    """A verb (or "sure", "true" after a copula) that denies or doubts the clause it governs."""
    if frame.lemma_.lower() in ("doubt", "deny"):
        return True
    if frame.lemma_.lower() not in _BELIEF_FRAMES:
        return False  # "I can't wait to see it" is eager, not a denial
    holder = frame.head if frame.dep_ == "acomp" else frame
    return _ended(holder) or any(c.dep_ == "neg" or c.lower_ == "never"
                                 for c in [*frame.children, *holder.children])


def subjects_of(verb: Token, speech: Speech) -> list[Party]:
    """Resolve the subject(s) of ``verb``, inheriting it across ``and`` and ``to``-clauses."""
    node = verb
    for _ in range(4):
        subj = [c for c in node.children if c.dep_ in ("nsubj", "nsubjpass")]
        subj = subj or [x for a in node.children if a.dep_ in ("aux", "auxpass")
                        for x in a.children if x.dep_ == "nsubj"]  # "I go swimming": on "go"
        subj = subj or [c for c in node.children if c.dep_ == "npadvmod" and c.i < node.i
                        and any(x.lower_ in FIRST_PERSON for x in conjuncts(c))]  # "Chris and I"
        subj = [t for t in subj if not _opener(t)]
        if subj:
            break
        if node.dep_ in ("advcl", "ccomp") and _diary(node, speech):
            return [speech.me()]  # "took up bouldering - my mate built a wall": not the mate
        if node.dep_ in ("conj", "xcomp", "advcl") and node.head != node:
            node = node.head
        else:
            return [speech.me()] if _diary(node, speech) else []
    else:
        return []
    parties: list[Party] = []
    for token in subj:
        for member in [token, *conjuncts(token)]:
            party = party_of(member, speech)
            if party is not None:
                parties.append(party)
    # "Tom and I got married" is sometimes parsed with Tom hanging off the verb, as a
    # modifier or even an interjection ("Raj" read as "Hey")
    if any(p.is_speaker for p in parties):
        named = {p.name for p in parties}
        parties += [Party(c.text, "person") for c in verb.children
                    if c.text not in named and _joined_name(c, speech)]
    return parties


#: Openers the parser takes for a subject: "big news, just started at X", "update: ...".
_OPENERS = frozenset({"news", "update", "ok", "okay", "lol", "btw", "fyi", "anyway", "so",
                      "wow", "yay", "omg"})


def _opener(token: Token) -> bool:
    """"Big news, just started at Blue Harbor": a chat opener, set off by a comma."""
    doc = token.doc
    after = token.i + 1
    words = token.lemma_.lower().split()  # "big news" may be one merged token
    return bool(words) and words[-1] in _OPENERS and after < len(doc) and doc[after].text in (
        ",", ":")


_INTERJECTIONS = frozenset({"wow", "oh", "ok", "okay", "yes", "yeah", "well", "so", "hey",
                            "hi", "anyway", "honestly", "finally", "actually", "guess"})


def _joined_name(token: Token, speech: Speech) -> bool:
    """A name hung off the verb that is really the first of "<name> and I"."""
    if token.dep_ not in ("npadvmod", "intj") or not token.text[:1].isupper() \
            or token.lower_ in _INTERJECTIONS:
        return False
    named = token.ent_type_ == "PERSON" or token.text in speech.people or token.tag_ in (
        "NNP", "UH")
    doc = token.doc
    joined = any(x.dep_ == "cc" for x in token.children) or (
        token.i + 2 < len(doc) and doc[token.i + 1].lower_ == "and"
        and doc[token.i + 2].lower_ in FIRST_PERSON)
    return named and joined


def copula_subjects(verb: Token) -> list[Token]:
    """The subject of "is", also when the parser hung it on the previous clause.

    "I work at Siemens and my favourite band is Radiohead" is often parsed with
    "band" coordinated with "Siemens" and "is" left without a subject: the
    possessed noun right before the verb is its subject.
    """
    found = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")
             or c.dep_ == "csubj" and c.tag_ != "VBG"]  # "Go is ...", not "Seeing X was ..."
    if found or verb.i == verb.sent.start:
        return found
    if verb.dep_ == "conj" and verb.head.i < verb.i:  # "Gustavo runs our team and is my manager"
        shared = [c for c in verb.head.children if c.dep_ == "nsubj"]
        if shared:
            return shared
    before = verb.doc[verb.i - 1]
    if before.pos_ in ("NOUN", "PROPN") and before.dep_ == "conj" and \
            any(c.dep_ == "poss" for c in before.children):
        return [before]
    return []


#: Verbs whose past is their base form: "quit rowing" opens a diary line, not an order.
_SAME_PAST = frozenset({"quit", "split", "cut", "shut", "got"})


def _diary(verb: Token, speech: Speech) -> bool:
    """"Replaced my phone", "Got a new job", "Just moved to Oslo": the speaker, unsaid.

    A sentence that opens with a past-tense verb (after adverbs at most) and has
    no subject is the diary style of a first-person message; a base form at the
    start is an imperative and says nothing about the speaker.
    """
    if not speech.first_person:
        return False
    if verb.tag_ not in ("VBD", "VBN") and not (verb.tag_ in ("VB", "VBP")
                                                and verb.lower_ in _SAME_PAST) \
            and not (verb.tag_ == "VBG" and verb.dep_ == "ROOT" and not any(
                c.dep_ == "aux" for c in verb.children)) \
            and not (verb.tag_ == "VBG" and [c.lower_ for c in verb.children
                                             if c.dep_ == "aux"] == ["been"]):
        return False  # "quit rowing" is past; "doing judo" is "I'm doing", "been driving" "I've"
    if verb.dep_ in ("advcl", "ccomp"):
        # "got a Pixel 7 on sale, folding phones are fun": the parser hangs the opening
        # clause on the next one; an opening clause with a conjunction ("when ...") is not one
        if verb.head.i < verb.i or any(c.dep_ == "mark" for c in verb.children):
            return False
    elif verb.dep_ != "ROOT":
        return False
    opened = {x.i for t in verb.children if _opener(t) for x in t.subtree}
    before = [t for t in verb.sent if t.i < verb.i and t.i not in opened]
    return all(t.pos_ in ("ADV", "INTJ", "PUNCT") or t.dep_ in ("aux", "auxpass")
               and t.head.i == verb.i for t in before)  # "got promoted", "been driving"


def party_of(token: Token, speech: Speech) -> Party | None:
    """The entity a noun phrase names, or None when it is vague ("he", "the weather")."""
    low = token.lower_
    if low in FIRST_PERSON:
        return speech.me() if speech.first_person else None
    named = appositive_name(token)
    if named is not None:
        return Party(named, "person")
    owner = possessor(token)
    lemma = token.lemma_.lower()
    if owner == "me" and lemma in KIN and speech.first_person:
        return Party(f"{speech.speaker}'s {token.lower_}", "person")
    if owner == "name" and lemma in KIN:  # "my best friend's husband": a relative's relative
        holder = next(c for c in token.children if c.dep_ == "poss")
        relative = party_of(holder, speech)
        if relative is not None and not relative.is_speaker:
            return Party(f"{relative.name}'s {token.lower_}", "person")
    if lemma in PROJECT_NOUNS and (owner == "me" or has_det(token, ("the", "this"))):
        return Party("project", "project")
    if is_person_name(token, speech):
        return Party(token.text, "person")
    return None


def is_person_name(token: Token, speech: Speech) -> bool:
    """A person's name; the small model often calls first names ORG or NORP, so those count."""
    if token.text in speech.people or token.ent_type_ == "PERSON":
        return True
    text = token.text
    return (token.tag_ in ("NNP", "NNPS") and text[:1].isupper() and not text.isupper()
            and " " not in text and token.ent_type_ in ("", "ORG", "NORP", "PRODUCT")
            and token.lower_ not in VAGUE)


def antecedent(token: Token) -> Token | None:
    """Who "he" or "she" is, when the sentence named one person just before: "Mirela has
    taken over the team, so she's my boss now" -> Mirela. None for any other word, or
    when no name precedes it."""
    if token.lower_ not in ("he", "she", "him", "her"):
        return None
    names = [t for t in token.sent if t.i < token.i and t.pos_ == "PROPN"
             and t.text[:1].isupper() and (t.ent_type_ in ("", "PERSON", "NORP") or (
                 t.ent_type_ == "GPE" and t.dep_ == "nsubj"))]  # a "place" that acts is a name
    return names[-1] if names else None


def appositive_name(token: Token) -> str | None:
    """"my sister Anna" -> "Anna"; "my dog, Max" -> "Max"."""
    if token.lemma_.lower() not in KIN and token.lemma_.lower() not in PETS:
        return None
    for c in token.children:
        if c.dep_ in ("appos", "npadvmod") and c.text[:1].isupper() and c.i > token.i:
            return c.text
    nxt = token.nbor(1) if token.i + 1 < len(token.doc) else None
    if nxt is not None and nxt.text[:1].isupper() and nxt.ent_type_ not in _NOT_NAMES and \
            (nxt.ent_type_ == "PERSON" or nxt.tag_ in ("NNP", "NNPS")):
        return nxt.text  # the parser often hangs "my husband Raj" off the verb
    return None


def possessor(token: Token) -> str | None:
    """"me" for my/our, "you" for your, "other" for his/her/their, "name" for Anna's."""
    for c in token.children:
        if c.dep_ == "poss":
            low = c.lower_
            if low in FIRST_POSSESSIVE:
                return "me"
            if low in ("your", "yours"):
                return "you"
            if low in OTHER_POSSESSIVE:
                return "other"
            return "name"
    return None


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


def has_det(token: Token, words: tuple[str, ...]) -> bool:
    return any(c.dep_ == "det" and c.lower_ in words for c in token.children)


def conjuncts(token: Token) -> list[Token]:
    """Tokens coordinated with ``token``: "TypeScript and a functional style"."""
    found: list[Token] = []
    own = any(c.dep_ == "poss" for c in token.children)
    stack = [c for c in token.children if c.dep_ in ("conj", "appos")
             and (own or c.dep_ == "appos" or not _possessed_by_me(c))]
    while stack:
        c = stack.pop(0)
        found.append(c)
        stack.extend(x for x in c.children if x.dep_ in ("conj", "appos"))
    return found


def _possessed_by_me(token: Token) -> bool:
    """"Siemens and my favourite band": "my" opens a new clause, not a second object."""
    return any(c.dep_ == "poss" and c.lower_ in FIRST_POSSESSIVE for c in token.children)


def tech_in(tokens: list[Token] | Span) -> list[str]:
    """Canonical names of the technical terms among ``tokens``, in order, without repeats."""
    seen: list[str] = []
    for t in tokens:
        if t.ent_type_ == TECH_LABEL:
            name = canonical_name(t.text, t.ent_id_)
            if name not in seen:
                seen.append(name)
    return seen


def each(clause: Clause, make: Callable[[Party], list[Finding]]) -> list[Finding]:
    """What ``make`` finds for each subject of the clause ("Tom and I moved to Oslo")."""
    return [f for s in clause.subjects for f in make(s)]


def action_of(clause: Clause) -> Action:
    """A negated or ended clause closes what it names; any other states it."""
    return "retract" if clause.negated or clause.ended else "assert"


#: A rule reads one clause and returns what it found; rule modules map verb lemmas to rules.
Rule = Callable[[Clause, Speech], list[Finding]]


def reworded(finding: Finding, templates: Mapping[str, str]) -> Finding:
    """The finding with its statement worded by ``templates`` when its predicate has one
    ("{s} lived in {o}" for a stretch of history), else as it was."""
    return replace(finding, statement=templates.get(finding.predicate, finding.statement))
