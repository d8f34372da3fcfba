"""Which sentences are worth parsing, and which parsed sentences need the NER.

Parsing is nearly all the cost of rule extraction, and most conversational
sentences ("Haha, that's hilarious!") hold no fact any rule could find. A rule
only fires on one of its verb lemmas or on a word from one of its lexicons, so
a sentence with none of those words, no capitalised name and no technical term
is skipped before spaCy sees it. The trigger words are derived from what each
rule family exports (its verb lemmas, trigger words and patterns; see
:mod:`graphmem.extract.rules.families`) and from the shared lexicons, so a new
rule is gated in without extra work; the test suite checks the gate changes
nothing on the labelled set.

The statistical NER is the most expensive component of the small pipeline, and
it only adds what the tagger cannot: names and places. It runs on sentences
with a capitalised word or a digit past the first token; relative dates in
lower case ("last week") come from the entity ruler instead.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from graphmem.extract.rules.contrast import BARE_CORRECTION, CORRECTION
from graphmem.extract.rules.families import FAMILIES
from graphmem.extract.rules.lexicon import (
    ACTIVITY_NOUNS, BUSINESSES, EVENT_NOUNS, POSSESSIONS, TRIP_NOUNS, inflections)
from graphmem.extract.rules.occupations import OCCUPATIONS
from graphmem.extract.rules.parties import KIN, PETS, PROJECT_NOUNS, SOMEONE_ELSES
from graphmem.extract.rules.questions import asks, presupposed
from graphmem.extract.rules.slots import (
    CAR_WORDS, DIETS, PHONE_WORDS, SLOT_NOUNS, SPORT_VERBS, SPORTS)
from graphmem.extract.rules.subject import with_subject
from graphmem.extract.rules.terms import spellings
from graphmem.extract.rules.timeexpr import has_time_cue

if TYPE_CHECKING:
    from spacy.tokens import Doc

#: Verbs too common to be worth a parse on their own: their rules need a complement word.
_NEEDS_COMPLEMENT = frozenset({"be", "have", "do", "get", "take", "come", "give", "call",
                               "make", "find", "share", "put", "hand", "submit", "place",
                               "shift"})
_COMPLEMENTS = frozenset({"favorite", "favourite", "fave", "name", "student", "rid", "hired",
                          "fan", "fans",
                          "job", "position", "role", "internship", "placement",
                          "apprenticeship", "gig", "career", "nickname", "notice",
                          "resignation", "flat", "apartment", "lease", "studio", "condo",
                          "under", "keys"})
#: Words of multi-word term names that are ordinary English on their own ("Ruby on Rails").
_COMMON_TERM_WORDS = frozenset({"on", "of", "the", "and", "to", "code", "actions", "studio",
                                "visual", "power", "compose", "native", "boot", "cloud", "face",
                                "server", "google", "apache", "travis", "ci", "bi", "express",
                                "next", "js", "hugging", "copilot", "github"})
#: Verbs and words whose rule needs a second word: "the", not "take", is too common.
_PHRASES = re.compile(
    r"\b(?:have|has|had|got|need|needs|must)\s+to\b|\bgotta\b|\byears?\s+old\b|\bturned\s+\d"
    r"|\b(?:take|takes|took|taking|taken|give|gives|gave|giving|given)\s+(?:\w+\s+)?(?:up|away)\b"
    r"|\bcall(?:s|ed|ing)?\s+(?:\w+\s+)?off\b|\b(?:come|comes|came|am|'m|is|are|was|originally)"
    r"\s+from\b|\b(?:get|gets|got|getting|'m|am|is|are|'re|really|so)\s+into\b"
    r"|\b(?:good|great|skilled|proficient|fluent|experienced|expert|decent|talented|competent|"
    r"excellent|strong|comfortable)\s+(?:\w+\s+)?(?:at|in|with)\b|\bexperience\s+(?:with|in)\b"
    r"|\b(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:goals?|dreams?|hobby|hobbies|passion|ambition|"
    r"resolution|plan|aim)\b|\bfans?\s+of\b|\bfriends\s+with\b|\blong(?:s|ed|ing)?\s+to\b"
    r"|\bown(?:s|ed)\b|\b(?:i|we|they|you)\s+own\b|\bremind\s+me\b|(?:n't|\bnot)\s+forget\b"
    r"|\b(?:been|was|were)\s+(?:\w+\s+)?(?:to|in)\b|\bcalls?\s+me\b|\bgo\s+by\b"
    r"|(?:\b(?:i|we|they|you|he|she|who|really|also|not|do|does|did|would|still|actually|"
    r"totally|just|kinda|definitely|genuinely|both|all|absolutely|truly|am|is|are|was|were|been|"
    r"never|always|ever|so|too|sure|\w+ly)|'d|'m|'re|n't)\s+(?:lik|lov)(?:e|es|ed|ing)\b"
    r"|\bwork(?:s|ed|ing)?\s+(?:\w+\s+)?(?:at|for|as|with|under|in)\b|(?:\bnot|n't)\s+working\b"
    # "He's at KPMG now": someone named before is at a firm
    r"|\b(?:he|she)(?:'s|\s+is)\s+(?:now\s+)?(?:at|with)\s+[A-Z]"
    r"|\b(?:hop(?:e|es|ed|ing)|want(?:s|ed|ing)?|aim(?:s|ed|ing)?|intend(?:s|ed|ing)?|"
    r"wish(?:es|ed|ing)?|striv(?:e|es|ing)|long(?:s|ed|ing)?|sav(?:e|es|ed|ing)\s+up)\s+to\b"
    r"|\bwanna\b|\bdream(?:s|t|ed|ing)?\s+(?:of|about|to)\b|\bback\s+from\b", re.IGNORECASE)
#: Case matters here: a name or a place after the verb.
_NAMED_OBJECT = re.compile(r"\b(?:[Kk]n(?:ow|ew|own|ows)|[Hh]a(?:ve|s|d)|[Gg]ot)\s+"
                           r"(?:(?:a|an|my|our|the|new)\s+)*[A-Z]"
                           r"|\b[A-Z][a-z]+\s+(?:lik|lov)(?:e|es|ed|ing)\b")
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")
#: Lemmas whose rule is reached through ``_PHRASES`` only: alone they are mostly chat
#: ("looks like", "hard work", "I hope so").
_PHRASE_ONLY = frozenset({"long", "own", "remind", "forget", "like", "love", "work", "hope",
                          "want", "aim", "intend", "wish", "strive", "save", "dream", "know",
                          "need", "must", "gotta"})
_REMIND = re.compile(r"\bremind\s+me\b", re.IGNORECASE)
_OBLIGATION = re.compile(r"\b(?:need|needs|must|gotta|have\s+to|has\s+to|got\s+to)\b",
                         re.IGNORECASE)
_CAPITAL_AFTER_START = re.compile(r"(?<=[\w,;:'\"()] )(?!I\b|I['\u2019])[A-Z]|\d")
_ABBREVIATION = re.compile(r"\b(?:St|Mr|Mrs|Ms|Dr|Jr|Sr|Prof|Mt|Ave|No|vs|etc|Inc|Ltd|Co|e\.g|"
                           r"i\.e|approx|Jan|Feb|Mar|Apr|Aug|Sept?|Oct|Nov|Dec)\.$")
#: Where a sentence ends: a stop before a capital, a line break, a CJK full stop, or an
#: ellipsis before any word ("I work at Zalando... sorry, I meant Delivery Hero").
#: A semicolon between two clauses ends one: "I have given up the watercolours, I am afraid;
#: my hands are not steady enough" was parsed as one clause under "not", the giving up
#: negated with it.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])|\n+"
                           r"|(?<=;)\s+(?=(?:i|we|my|our|it|he|she|they)\b|[A-Z])"
                           r"|(?:(?<=\.\.\.)|(?<=\u2026))\s*(?=[A-Za-z])"
                           r"|(?<=[\u3002\uff01\uff1f])\s*")  # and CJK full stops


def _nouns(words: frozenset[str] | set[str]) -> set[str]:
    out: set[str] = set()
    for w in words:
        out |= {w, w + "s", w + "es"}
        if w.endswith("y"):
            out.add(w[:-1] + "ies")
    return out | {"children", "kids", "wives", "grandchildren"}


#: Parts of hyphenated diets too common to make a sentence worth parsing on their own.
_COMMON_PARTS = frozenset({"low", "free", "based", "raw", "fat", "intermittent"})


def _triggers() -> frozenset[str]:
    lemmas = {lemma for family in FAMILIES for lemma in family.RULES}
    words: set[str] = set()
    for lemma in lemmas - _NEEDS_COMPLEMENT - _PHRASE_ONLY:
        words |= inflections(lemma)
    words |= _nouns(set(KIN) | PETS | POSSESSIONS | TRIP_NOUNS | EVENT_NOUNS | BUSINESSES
                    | OCCUPATIONS | PROJECT_NOUNS)
    words |= ACTIVITY_NOUNS | _COMPLEMENTS
    words |= DIETS | PHONE_WORDS | CAR_WORDS | set(SPORT_VERBS.values())
    # "low-carb" reaches the gate as "low" and "carb": its telling part is enough
    words |= {part for diet in DIETS for part in re.split(r"[\s-]", diet)} - _COMMON_PARTS
    words |= {w for family in FAMILIES for w in family.TRIGGERS}
    words |= {w for phrase in (*SPORTS, *SLOT_NOUNS) for w in phrase.split()}
    words |= {w for s in spellings() for w in _WORD.findall(s.lower())} - _COMMON_TERM_WORDS
    return frozenset(words)


class Gate:
    """Decides per sentence whether to parse it, and per parse whether to run the NER."""

    def __init__(self) -> None:
        self._triggers = _triggers()
        self._patterns = (_PHRASES, _NAMED_OBJECT, CORRECTION, BARE_CORRECTION,
                          *(p for family in FAMILIES for p in family.PATTERNS))

    def worth_parsing(self, sentence: str) -> bool:
        sentence = sentence.replace("\u2019", "'")
        if asks(sentence) and not _REMIND.search(sentence):
            # questions state nothing but what they take as given (dispatch.sentence_findings)
            return bool(presupposed(sentence))
        if any(p.search(sentence) for p in self._patterns):
            return True
        if _OBLIGATION.search(sentence) and has_time_cue(sentence):
            return True
        lowered = sentence.lower()
        return any(w in self._triggers or (w.endswith("'s") and w[:-2] in self._triggers)
                   for w in _WORD.findall(lowered))

    @staticmethod
    def needs_ner(doc: Doc) -> bool:
        return _CAPITAL_AFTER_START.search(doc.text) is not None


def split_sentences(text: str) -> list[str]:
    """A fast sentence split for gating; the parser may split a piece further.

    Abbreviations ("St. Mary's", "Dr. Lee") do not end a sentence. A heading before a
    colon ("Big life update: I'm living in São Paulo now") is a sentence of its own when a
    first-person clause follows it, or a diary clause whose "I" was dropped ("new job:
    started at X", also after a clause of its own: "We moved to Linz, new job too: ..."):
    the parser would hang that clause on the heading's noun and no rule would read it.
    ("Todo: I need to ..." keeps its label; "Tom's new job: started at X" is not the
    speaker's.) So is what follows "Ignore what I said about X,".
    """
    pieces: list[str] = []
    for piece in _SENTENCE_END.split(_CHAT_STOP.sub(".\n", _ASPECT.sub("", text))):
        if not piece or not piece.strip():
            continue
        if pieces and _ABBREVIATION.search(pieces[-1]):
            pieces[-1] = f"{pieces[-1]} {piece.strip()}"
        elif (headed := _HEADING.match(piece.strip())) \
                and headed.group(1).strip().lower() not in _LABELS and not \
                set(re.findall(r"[a-z]+", headed.group(1).lower())) & _SLOT_WORDS:
            # "New phone: my ...", "new city, new me: I'm in Zurich now": the label is the slot's
            pieces += [f"{headed.group(1).strip()}:", headed.group(2)]
        elif diary := _diary_after_heading(piece.strip()):
            # "new job: started at X": what follows says itself whatever the heading names
            pieces += [*_before_the_heading(diary.group(1)), diary.group(2)]
        elif disregard := _DISREGARD.match(piece.strip()):
            pieces += [f"{disregard.group(1)}.", disregard.group(2)]
        else:
            pieces.append(piece.strip())
    return pieces


#: A full stop before chat's lower-case openings ends a sentence: "hey im zoe lol. omg just got
#: a puppy", "didn't take the role. our new manager is Agnieszka" (any lower-case word after a
#: full stop may not: "a jr. developer", "9 a.m. today").
_CHAT_STOP = re.compile(r"\.[ \t]+(?=(?:omg|yay|wow|lol|ugh|ok|okay|haha|btw|anyway|also|so|just|"
                        r"finally|i|im|i'm|i've|my|our|we|we're|we've|he|she|they|it's|first|"
                        r"now|but|still|then)\b)")
#: "Big life update: I'm ...", "Quick update: we ...": a heading, then a first-person clause.
_HEADING = re.compile(r"^([^:]{1,40}):\s+((?:I|i|We|we)(?:'m|'ve|'ll|'d|'re|\s).*|(?:[Mm]y|[Oo]ur)\s.*)$",
                      re.DOTALL)
#: A heading before a colon and whatever follows it.
_ANY_HEADING = re.compile(r"^([^:]{1,60}):\s+(\S.*)$", re.DOTALL)


def _diary_after_heading(piece: str) -> re.Match[str] | None:
    """"quick life update since we last talked: moved to Austin in January, ...", "new job:
    started at Linzer Tafelbrau": a heading, then a diary-style clause whose "I" was dropped
    (:func:`with_subject` puts it back)."""
    headed = _ANY_HEADING.match(piece)
    if headed is None or headed.group(1).strip().lower() in _LABELS \
            or SOMEONE_ELSES.search(headed.group(1)) \
            or with_subject(headed.group(2)) == headed.group(2):
        return None  # "Tom's new job: started at X", "his news:": not the speaker's
    return headed


#: Words a heading after a clause is made of ("..., new job too:", "..., big news though:"),
#: besides the slots' nouns; not a list's last item ("We moved to Leeds, Bristol, Bath: ...").
_HEADING_WORDS = frozenset({"news", "update", "life", "thing", "things", "plus", "also"})


def _before_the_heading(said: str) -> list[str]:
    """What comes before a colon, as sentences: the heading alone ("new job:"), or a clause
    and then the heading that ends it after a comma ("We moved to Linz, new job too:")."""
    clause, comma, heading = said.rpartition(",")
    words = set(re.findall(r"[a-z]+", heading.lower()))
    if comma and len(heading.split()) <= 4 and len(clause.split()) >= 3 \
            and words & (_SLOT_WORDS | _HEADING_WORDS):
        return [f"{clause.strip()}.", f"{heading.strip()}:"]
    return [f"{said.strip()}:"]


#: "Ignore what I said about Philips, the company I joined is Mercado Libre": what follows
#: the disclaimer is a statement of its own (the parser would make it the disclaimer's).
_DISREGARD = re.compile(r"^((?:please\s+)?(?:ignore|forget|scratch|disregard)\s+what\s+i\s+"
                        r"(?:said|wrote|told\s+you)\s+about\s+[^,;:]+)[,;:]\s+(.+)$",
                        re.IGNORECASE | re.DOTALL)
#: "Sport-wise, I mostly do kickboxing": the aspect says nothing the clause does not, and the
#: parser takes "wise" for the subject.
_ASPECT = re.compile(r"(?:(?<=^)|(?<=[.!?]\s))[A-Za-z]+-wise,\s+")
_SLOT_WORDS = frozenset(w for noun in SLOT_NOUNS for w in noun.split()) | {"diet", "phones"}
#: Headings that belong to what follows them.
_LABELS = frozenset({"todo", "to-do", "to do", "note", "reminder", "remind me", "fyi"})
