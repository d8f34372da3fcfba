"""Who a clause speaks about: the parties its words name.

"I" is the speaker, "my sister Anna" is Anna, "my sister" is the speaker's sister, "our
app" is the project, "he" after a name is that name; a sentence in diary style ("Got a new
job") has the speaker as its unsaid subject, and "the phone I carry around" is the
speaker's. :mod:`graphmem.extract.rules.clause` builds a clause on these answers; the
rule families use them for objects and owners too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from spacy.lang.en.stop_words import STOP_WORDS

from graphmem.extract.rules.located import text_before
from graphmem.extract.rules.terms import TECH_LABEL

if TYPE_CHECKING:
    from spacy.tokens import Token

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
    "fiancée": "HAS_PARTNER", "fella": "HAS_PARTNER", "bae": "HAS_PARTNER",
    "wifey": "MARRIED_TO", "missus": "MARRIED_TO",
    "friend": "HAS_FRIEND", "buddy": "HAS_FRIEND",
    "bestie": "HAS_FRIEND", "roommate": "HAS_FRIEND", "flatmate": "HAS_FRIEND",
    "housemate": "HAS_FRIEND", "cousin": "HAS_RELATIVE", "grandchild": "HAS_RELATIVE",
    "grandkid": "HAS_RELATIVE", "stepmum": "HAS_PARENT", "stepmom": "HAS_PARENT",
    "stepdad": "HAS_PARENT",
    "aunt": "HAS_RELATIVE", "uncle": "HAS_RELATIVE", "grandma": "HAS_RELATIVE",
    "grandmother": "HAS_RELATIVE", "grandpa": "HAS_RELATIVE", "grandfather": "HAS_RELATIVE",
    "niece": "HAS_RELATIVE", "nephew": "HAS_RELATIVE", "grandson": "HAS_RELATIVE",
    "granddaughter": "HAS_RELATIVE", "stepson": "HAS_CHILD", "stepdaughter": "HAS_CHILD",
    "colleague": "KNOWS", "coworker": "KNOWS", "boss": "KNOWS", "neighbor": "KNOWS",
    "neighbour": "KNOWS", "mentor": "KNOWS",
})
#: Kin words that name the same relative: "my mom" is whom "my mum" was said of.
SAME_RELATIVE = (frozenset({"mom", "mum", "mother"}), frozenset({"dad", "father"}),
                 frozenset({"sister", "sis"}), frozenset({"brother", "bro"}))
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
#: What a capitalised word after "is" is, when it is no one's name.
NOT_NAMES = frozenset({TECH_LABEL, "GPE", "LOC", "DATE", "TIME", "FAC", "CARDINAL", "ORDINAL"})


@dataclass(frozen=True)
class Party:
    """A resolved subject or object: its entity name and type, and whether it is the speaker."""

    name: str
    type: str = "person"
    is_speaker: bool = False


@dataclass
class Speech:
    """Who is talking in the current message and which names the episode knows as people."""

    speaker: str
    first_person: bool
    people: frozenset[str]
    speakers: frozenset[str] = frozenset()  # the participants: "I love it, Nate!" names no object
    message: str = ""  # the whole message the sentence is from ("...notice. My last day is...")
    #: First names anyone may have, lower case (the ``nicknames`` dataset): a capitalised one
    #: the tagger misread ("Emily" as an adverb, for its "-ly") is still someone.
    first_names: frozenset[str] = frozenset()
    #: Capitalised words of the episode that neither the dictionary nor the gazetteer knows
    #: ("Chidi", "Siobhan"): the tagger reads such a name as a common noun or a place, so
    #: "Chidi works at Google" had no subject. As the subject of a clause, one is someone.
    strangers: frozenset[str] = frozenset()
    #: Who the message's earlier sentences gave a fact to ("Tyler quit Amazon."): someone.
    actors: frozenset[str] = frozenset()
    #: Whether English rarely uses a word (lower case), as it does names ("rory", not
    #: "fine"); None without a dictionary.
    rare: Callable[[str], bool] | None = None
    #: Towns and countries the gazetteer knows by name, lower case: "I'm at Leeds now" is no
    #: firm, and "i live in leeds" names a town.
    towns: frozenset[str] = frozenset()
    #: Every town the gazetteer knows (smaller ones too, :data:`places.MIN_TOWN_POPULATION`),
    #: lower case: what the firm-or-town questions ask ("moved to Tartu for a new job").
    all_towns: frozenset[str] = frozenset()
    #: What they gave as a place, firm or thing ("Amazon"): no one.
    things: frozenset[str] = frozenset()

    def me(self) -> Party:
        return Party(self.speaker, "person", True)


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
        if not subj and (misread := [c for c in node.children if _misread_name(c, node, speech)]):
            return [Party(c.text, "person") for c in misread]  # "Emily lives in Denver"
        if subj:
            break
        if node.dep_ in ("advcl", "ccomp") and _diary(node, speech):
            return [speech.me()]  # "took up bouldering - my mate built a wall": not the mate
        if node.dep_ == "conj" and (misplaced := _misplaced_subject(node)) is not None:
            subj = [misplaced]  # "Poppy started violin lessons and Alfie is obsessed with X"
            break
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


def _misread_name(token: Token, verb: Token, speech: Speech) -> bool:
    """A first name before its verb that the parser took for a modifier: "Emily lives in
    Denver" ("Emily" tagged an adverb, for its "-ly"), so the sentence had no subject."""
    return token.dep_ in ("advmod", "npadvmod", "intj", "dep") and token.i < verb.i \
        and token.text[:1].isupper() and not token.text.isupper() \
        and token.lower_ in speech.first_names and token.lower_ not in WORD_NAMES


#: First names that are as often a word at the start of a sentence ("May I ...", "Will do").
WORD_NAMES = frozenset({"may", "june", "april", "august", "will", "mark", "bill", "hope",
                         "grace", "faith", "joy", "art", "don", "sunny", "summer", "dawn",
                         "rusty", "sandy", "honey", "sky", "rich", "frank", "earnest"})


def first_names() -> frozenset[str]:
    """First names, lower case, from the ``nicknames`` dataset (also used by entity
    resolution); loaded by the rules extractor once."""
    from nicknames import name_triplets

    return frozenset(n.lower() for t in name_triplets() for n in (t.name1, t.name2))


def _misplaced_subject(verb: Token) -> Token | None:
    """The name just before a joined clause's own finite auxiliary, which the parser hung on
    the clause before ("... violin lessons and Alfie is obsessed"): that clause's subject."""
    aux = next((a for a in verb.children if a.dep_ in ("aux", "auxpass") and a.i < verb.i
                and a.tag_ in ("VBZ", "VBP", "VBD")), None)
    if aux is None or aux.i == 0:
        return None
    before = aux.nbor(-1)
    return before if before.pos_ == "PROPN" and before.dep_ == "conj" else None


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
    joined = _joined_subject(token, speech)
    if joined is not None:
        return Party(joined.text, "person")
    named = _named_before(token, speech)
    return Party(named, "person") if named is not None else None


_CAPITALISED = re.compile(r"\b(?!I\b)[A-Z][a-z]*\b")
#: A capitalised word said where a place may be ("looking at flats in Clifton", "back from
#: Leeds"): no one "he" or "she" may be when the gazetteer knows it as a town ("introduced me
#: to Tom" names Tom).
_PLACED = re.compile(r"\b(?:in|to|from|near|around)\s+([A-Z][a-z]*)\b")
#: Words that give what follows to someone else: "Tom's new job", "his new home".
SOMEONE_ELSES = re.compile(r"'s\b|\u2019s\b|\b(?:his|her|their)\b", re.IGNORECASE)
#: A sentence's first word, capitalised as any first word is ("My sister Tamsin ...").
_OPENING = re.compile(r"(?:^|[.!?]\s+)([A-Z][a-z]*)\b")
#: A word opening a sentence with what only people do: "Tyler texted me", "Jamal called".
_ACTING = re.compile(r"(?:^|[.!?]\s+)([A-Z][a-z]+)\s+(?:just\s+)?(?:texted|called|rang|messaged|"
                     r"came|visited|said|told|wrote|emailed|phoned|replied|asked|mentioned|"
                     r"popped)\b")


def _named_before(token: Token, speech: Speech) -> str | None:
    """Who "he" or "she" as a subject is when one person alone was named before it, in the
    sentence or earlier in the message: "Tom just switched jobs, he's at KPMG now", "Tyler
    quit Amazon. He's at Microsoft now". None when anyone else may be meant: two names ("Anna
    told Tom she got the job"), someone's relative or partner ("Sarah's husband is great. He
    works at Tesla", "Tom and his wife came over. She..."), or no name."""
    if token.lower_ not in ("he", "she") or token.dep_ not in ("nsubj", "nsubjpass"):
        return None
    earlier = text_before(speech.message, token.sent)
    before = earlier + " " + token.doc[token.sent.start:token.i].text
    # "my brother Tom", "Jo is my best friend": the name is who is meant
    if _SOMEONE_ELSE.search(_RELATIVE_NAMED.sub(r"\1", _NAMED_RELATIVE.sub(r"\1", before))):
        return None
    others = speech.speakers | {speech.speaker}
    named = {t.text for t in token.sent if t.i < token.i and t.text not in others
             and t.pos_ == "PROPN" and is_person_name(t, speech) and not _a_thing(t, speech)}
    if not named:
        # the earlier sentences as text: every capitalised word but "I" counts, so that one
        # name alone is the only candidate ("Tom and Mia came over. She..." names two; a
        # sentence with nothing to parse, "Tom switched jobs.", named no one the NER saw),
        # but for what the message's facts gave as a firm, place or thing ("Tyler quit
        # Amazon. He's at Microsoft now"), towns ("flats in Clifton") and common words
        # opening a sentence ("My sister Tamsin ...", not "Anna and Will came over")
        placed = {w for w in _PLACED.findall(earlier) if w.lower() in speech.all_towns}
        opening = {w for w in _OPENING.findall(earlier) if w.lower() in STOP_WORDS}
        named = {w for w in _CAPITALISED.findall(earlier)
                 if w not in others and w not in speech.things} - placed - opening
        acting = set(_ACTING.findall(earlier))  # "Tyler texted me last night."
        if len(named) != 1 or not any(_a_name(w, speech, rare=w in acting) for w in named):
            return None  # "Omg! She got a job", "Edinburgh was freezing. He...": no one
    return next(iter(named)) if len(named) == 1 else None


def _a_name(word: str, speech: Speech, *, rare: bool = True) -> bool:
    """A known name: someone the NER or a fact named, a first name, a subject no dictionary
    knows, or (``rare``) a word as rare as names are ("Tyler", which the first-name list
    lacks). Rare words are also firms' names and chat's interjections ("Omg", "Yikes"), so
    only a name said in the same sentence may be known by rarity alone."""
    low = word.lower()
    return word in speech.people or word in speech.actors or word in speech.strangers \
        or low in speech.first_names and low not in WORD_NAMES \
        or rare and speech.rare is not None and speech.rare(low)


def _a_thing(token: Token, speech: Speech) -> bool:
    """A name the sentence gives as a firm or a place left, joined or been at, tagged so by
    the NER, that no one has: "Tyler left Amazon, he's at Microsoft now" names one person
    ("I had coffee with Siobhan, she's at Google now" another: one meets people)."""
    head = token.head
    placed = token.dep_ == "pobj" and head.lower_ in ("at", "for", "from", "in", "to") \
        or token.dep_ == "dobj" and head.lemma_.lower() in ("quit", "leave", "join", "visit")
    return placed and token.ent_type_ in ("ORG", "GPE", "LOC", "FAC", "PRODUCT") \
        and not _a_name(token.text, speech, rare=False)


#: A relative named in apposition ("my brother Tom"): the name is who is meant.
_NAMED_RELATIVE = re.compile(
    r"\b(?i:my|our)\s+(?:\w+\s+)?(?i:" + "|".join(sorted(KIN, key=len, reverse=True))
    + r"),?\s+([A-Z][a-z]+)")
#: A name said to be a relative ("Jo is my best friend"): the name is who is meant.
_RELATIVE_NAMED = re.compile(
    r"\b([A-Z][a-z]+)(?:'s|\s+is)\s+(?i:my|our)\s+(?:\w+\s+)?(?i:"
    + "|".join(sorted(KIN, key=len, reverse=True)) + r")\b")
#: Words that name someone besides a name: a possessive ("Sarah's husband", "his wife"), a
#: relative or a person by a noun.
_SOMEONE_ELSE = re.compile(
    r"'s\b|\b(?:his|her|their|my|our)\s+\w|\b(?:" + "|".join(sorted(KIN, key=len, reverse=True))
    + r"|guy|girl|man|woman|boy|lady|friend|boss|colleague|neighbou?r|partner)s?\b",
    re.IGNORECASE)


def _joined_subject(token: Token, speech: Speech) -> Token | None:
    """Who "he" or "she" is as the subject of a clause joined to one whose subject is a
    name: "Chidi is at Google but he moved to London" -> Chidi. Not a clause said by
    someone ("Sarah said he moved": "he" is not Sarah), nor any other pronoun."""
    verb = token.head
    if token.lower_ not in ("he", "she") or token.dep_ != "nsubj" or verb.dep_ != "conj":
        return None
    named = [c for c in verb.head.children if c.dep_ == "nsubj"]
    return named[0] if len(named) == 1 and is_person_name(named[0], speech) else None


def is_subject(token: Token) -> bool:
    """A clause's subject, or one joined to it ("me and Jayden")."""
    return token.dep_ in ("nsubj", "nsubjpass") or token.dep_ == "conj" and token.head.dep_ in (
        "nsubj", "nsubjpass")


#: What people do, as the subject of which a name no dictionary knows is someone's.
_PEOPLE_VERBS = frozenset({"work", "live", "move", "relocate", "date", "marry", "study", "join",
                           "start", "quit", "leave", "retire"})


def _done_by_people(subject: Token) -> bool:
    """"Chidi works at Google", "Chidi is at Google now": a verb of people, or being at or
    with a firm (not "Gymshark is from Birmingham": a brand can be from somewhere)."""
    verb = subject.head.head if subject.dep_ == "conj" else subject.head
    if verb.lemma_.lower() in _PEOPLE_VERBS:
        return True
    return verb.lemma_ == "be" and any(c.dep_ == "prep" and c.lower_ in ("at", "with")
                                       for c in verb.children)


def is_person_name(token: Token, speech: Speech) -> bool:
    """A person's name; the small model often calls first names ORG or NORP, so those count."""
    if token.text in speech.people or token.ent_type_ == "PERSON":
        return True
    if token.text in speech.strangers and is_subject(token) and _done_by_people(token):
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


def appositive_name(token: Token, nouns: Collection[str] | None = None) -> str | None:
    """"my sister Anna" -> "Anna"; "my dog, Max" -> "Max"; "Arman, my boss" -> "Arman".

    ``token`` is a relative or a pet, or one of ``nouns`` when given ("my supervisor
    Yerlan", for the rule that reads managers)."""
    lemma = token.lemma_.lower()
    if lemma not in KIN and lemma not in PETS if nouns is None else lemma not in nouns:
        return None
    for c in token.children:
        if c.dep_ in ("appos", "npadvmod") and c.text[:1].isupper() and c.i > token.i:
            return c.text
    head = token.head
    if token.dep_ == "appos" and head.i < token.i and head.text[:1].isupper() \
            and head.tag_ in ("NNP", "NNPS") and head.ent_type_ not in NOT_NAMES:
        return head.text  # "Arman, my new boss at Halyk, wants ...": the name comes first
    nxt = token.nbor(1) if token.i + 1 < len(token.doc) else None
    # right after the word, a name the NER took for a town is a name ("my husband Tomasz")
    not_names = NOT_NAMES - {"GPE", "LOC"} if possessor(token) == "me" else NOT_NAMES
    if nxt is not None and nxt.text[:1].isupper() and nxt.ent_type_ not in not_names and \
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
