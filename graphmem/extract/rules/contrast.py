"""Contrastive negation: "I work at Hooli, not Initech" states Hooli and denies Initech,
as "I use Neovim now instead of Emacs" denies Emacs.

The "not" of such a sentence negates the phrase after it, not the clause: the
parser hangs it on the first value, the preposition or the verb, and the
denied value becomes an apposition or a coordinated object that the verb rules
would read as a second value. :func:`denied` finds the phrases a sentence
denies this way, :func:`contrastive` tells a clause's rules which "not" is not
theirs, and :func:`deny` turns every finding whose object lies in a denied
phrase into a retraction, so the denied value is closed, never asserted.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from graphmem.extract.rules.located import text_before
from graphmem.extract.rules.shorthand import SLOT_LABELS

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

    from graphmem.extract.rules.clause import Finding

#: What may stand before the "not": "X, not Y", "X but not Y", "X and not Y".
_BEFORE = frozenset({",", "but", "and", ";"})
#: "not only X but Y", "not even", "not that it matters": not a denied value.
_NOT_A_VALUE = frozenset({"only", "just", "even", "that", "because", "since", "so", "yet",
                          "anymore", "really", "sure", "quite", "too", "exactly", "always",
                          "much", "many", "all", "everything", "to"})
#: Where a denied phrase ends.
_STOP = frozenset({",", ";", ".", "!", "?", "but", "and", "or", "because", "since", "so", "as",
                   "though", "although", "--", "-", "—", "anymore"})


def contrastive(token: Token) -> bool:
    """Whether ``token`` is the "not" of "X, not Y" (or the "no" of "X, no longer Y"): it
    denies Y, not the clause."""
    if not (token.lower_ == "not" or _no_longer(token)) or token.i == token.sent.start:
        return False
    before = token.doc[token.i - 1]
    if before.pos_ in ("PROPN", "NOUN", "ADJ") and _CUE.search(token.sent.text):
        before = token  # "oops, it's Turin not Helsinki": a correction needs no comma
    elif before.lower_ not in _BEFORE or before.i == token.sent.start:
        return False
    if before.lower_ in ("but", "and") and (before.i - 1 < token.sent.start or not any(
            t.pos_ in ("NOUN", "PROPN", "ADJ", "NUM") for t in token.doc[token.sent.start:before.i])):
        return False
    phrase = _phrase_after(token)
    if len(phrase) == 1 and phrase[0].lower_ not in _NOT_A_VALUE and phrase[0].pos_ != "AUX" \
            and (phrase[0].tag_ == "VBG" or phrase[0].lemma_.lower() == phrase[0].lower_):
        # "I meant squash, not cycling": an activity named by its gerund; "vegan these days,
        # not keto anymore": a value the tagger took for a verb
        return True
    return bool(phrase) and phrase[0].lower_ not in _NOT_A_VALUE and not any(
        t.pos_ in ("VERB", "AUX") for t in phrase) and any(
        t.pos_ in ("NOUN", "PROPN", "ADJ", "NUM") for t in phrase)


def _no_longer(token: Token) -> bool:
    """The "no" of "no longer"."""
    return token.lower_ == "no" and token.i + 1 < token.sent.end \
        and token.doc[token.i + 1].lower_ == "longer"


def _phrase_after(token: Token) -> list[Token]:
    out: list[Token] = []
    start = token.i + (2 if _no_longer(token) else 1)  # after "no longer", its value
    for t in token.doc[start: token.sent.end]:
        if t.lower_ in _STOP and not _joining(t):
            break
        out.append(t)
    return out


def _joining(token: Token) -> bool:
    """A hyphen inside a word ("low-FODMAP" split by the tokenizer), not a dash between
    phrases."""
    return token.text == "-" and token.i > token.sent.start and token.i + 1 < token.sent.end \
        and not token.doc[token.i - 1].whitespace_ and not token.whitespace_


#: "Neovim instead of Emacs", "tea rather than coffee": the second word starts the denial.
_INSTEAD = {"of": "instead", "than": "rather"}


def _instead(token: Token) -> bool:
    """Whether ``token`` is the "of" of "instead of Y" (or "than" of "rather than Y")
    before a value, not an action ("instead of going")."""
    before = _INSTEAD.get(token.lower_)
    if before is None or token.i == token.sent.start or token.doc[token.i - 1].lower_ != before:
        return False
    phrase = _phrase_after(token)
    if phrase and phrase[0].lower_ in _DOING:  # "instead of playing handball": handball
        phrase = phrase[1:]
    return bool(phrase) and not any(t.pos_ in ("VERB", "AUX") for t in phrase) and any(
        t.pos_ in ("NOUN", "PROPN", "NUM") for t in phrase)


def denied(sent: Span) -> list[list[Token]]:
    """The phrases ``sent`` denies by contrast ("not Initech", "not in Porto",
    "instead of Emacs")."""
    return [_phrase_after(t) for t in sent if contrastive(t) or _instead(t)]


def deny(findings: list[Finding], sent: Span) -> list[Finding]:
    """Findings whose object is a denied phrase become retractions ("not Initech").

    A denied value no rule read ("I live in Lisbon, not Porto": the parser leaves
    Porto hanging) is retracted in the slot of the sentence's one stated value.
    """
    denials = denied(sent)
    phrases = [f" {' '.join(''.join(t.text_with_ws for t in p).lower().split())} "
               for p in denials]
    if not phrases:
        return findings
    read = [False] * len(phrases)
    for f in findings:
        obj = " " + " ".join(f.obj.lower().split()) + " "
        hits = [i for i, p in enumerate(phrases) if f.obj and obj in p]
        for i in hits:
            read[i] = True
        if hits and f.action == "assert":
            f.action, f.statement = "retract", None
    stated = list({(f.subject.name, f.predicate, f.obj.lower()): f for f in findings
                   if f.obj and f.action == "assert"}.values())
    # one value, said of one subject or several ("Geoffrey and I live in Wells, not Bath")
    if len({(f.predicate, f.obj.lower()) for f in stated}) == 1:
        findings += [replace(f, obj=value, action="retract", statement=None) for f in stated
                     for words, seen in zip(denials, read, strict=True)
                     if not seen and (value := _value(words))]
    return findings


# The cues of a correction, shared by the patterns below so that each is written once:
#: a speaker owning up to a mistake: "my bad", "my mistake";
_OWNED_UP = r"my\s+(?:bad|mistake)"
#: a mistake named as one: "typo", "correction", "small fix";
_NAMED_FIX = r"typo|corrections?|(?:small|quick)\s+fix|fix"
#: words said wrongly: "mixed up my words", "ignore what I said".
_MIXED_UP = (r"(?:i\s+)?mixed\s+up\s+my\s+words|(?:i\s+)?got\s+my\s+words\s+mixed\s+up"
             r"|(?:ignore|forget|disregard)\s+what\s+i\s+said")
#: Words a correction opens with: "Sorry, ...", "Actually, ...", "Oops, ...".
_CUE_WORDS = (rf"(?:actually|sorry|correction|oops|(?:no,?\s+)?wait|{_OWNED_UP}"
              r"|let\s+me\s+(?:correct|fix)\s+(?:that|myself)|i\s+got\s+that\s+wrong"
              r"|i\s+confused\s+(?:the\s+terms|them|the\s+two)|to\s+be\s+clear"
              # "Mixed up my words earlier, it's powerlifting", "Ignore what I said about
              # Scala; it's Python that I use"
              rf"|(?:{_MIXED_UP})(?:\s+earlier|\s+about\s+[^\s,;]+)?)")
_POINTING = r"(?:it|that|this)(?:'s|\s+(?:is|was))"
#: What a sentence read by :func:`correction` looks like, for the sentence gate: "it was
#: Lisbon, not Porto", "I meant Lisbon, not Porto", "Sorry, I meant Lisbon", "Sorry, I mean
#: Lisbon", "Actually it was Lisbon".
CORRECTION = re.compile(rf"\b(?:{_POINTING}|i\s+meant)\s+[^,]+,?\s*not\s"
                        rf"|^\W*(?:(?:{_CUE_WORDS}|no)\W+)*i\s+meant\s"
                        rf"|^\W*(?:(?:{_CUE_WORDS}|no)\W+)+(?:i\s+mean|{_POINTING})\s"
                        rf"|^\W*(?:{_CUE_WORDS}\W+)+[^.!?]*\bnot\s"
                        r"|\bi\s+said\s+[^.!?]+?(?:,|\bbut\b)\s*(?:it's|it\s+is|it\s+was|i\s+meant)\s"
                        rf"|^\W*(?:{_NAMED_FIX}|autocorrect)\b",
                        re.IGNORECASE)
#: "Typo earlier: Dart, not Python", "Small fix: Seattle, not São Paulo", "Autocorrect changed
#: it, I'm in São Paulo, not Amsterdam", "lol correction: the company is X, not Y": a cue (after
#: chat's interjections), then the right value and the wrong one.
_FRAGMENT = re.compile(
    r"^\W*(?:(?:lol|lmao|haha|oops|whoops|ugh|ok|okay|so|um|oh|ah)\W+)*"
    rf"(?:sorry,?\s+)?(?:{_NAMED_FIX}|autocorrect[^,:;]*|{_MIXED_UP})"
    r"(?:\s+(?:earlier|in\s+my\s+last\s+message))?"
    # the value's label may be any one word: "correction: the compayn is X, not Y"
    r"\s*[,:;\-\u2013\u2014]\s*(?:it's\s+|it\s+is\s+|i\s+meant\s+|the\s+(?:[\w-]+|"
    + SLOT_LABELS + r")\s+is\s+|"
    r"i'm\s+(?:in|at|on|into)\s+|i\s+(?:live|work)\s+(?:in|at)\s+)?(?:an?\s+|the\s+)?"
    r"(?P<right>[^,;]+?),?\s+not\s+(?:an?\s+|the\s+)?(?P<wrong>[^,.;!?]+)", re.IGNORECASE)
#: "iPhone SE, not Xperia 1 V! I always mix up the model names", "lol fencing, not squash,
#: completely different sport": the right value and the wrong one alone, at the start of a
#: message (after chat's interjections): the fragment without its cue. It corrects only where
#: the wrong value was said before (the caller places it, :func:`correction`).
_BARE = re.compile(
    r"^\W*(?:(?:lol|lmao|haha|oops|whoops|ugh|ok|okay|um|oh|ah|no|nah|nope|hmm)\W+)*"
    r"(?:(?:it's|it\s+is)\s+)?(?:an?\s+|the\s+)?(?P<right>[^,;.!?]+?),\s*not\s+(?:an?\s+|the\s+)?"
    r"(?P<wrong>[^,.;!?]+?)\s*(?:[,.;!?]|$)", re.IGNORECASE)
#: What a sentence :data:`_BARE` may read looks like, for the sentence gate only (it is no
#: correction until the caller finds the wrong value said before).
BARE_CORRECTION = re.compile(r"^\W*(?:(?:lol|ugh|oops|ok|okay|oh|no|nah)\W+)*[^,;.!?]{1,40},\s*not\s",
                             re.IGNORECASE)
#: "I said vegan but it's vegetarian", "oops, I said golf, it's kickboxing": the wrong value
#: said again, then the right one.
_SAID_WRONG = re.compile(
    r"\bi\s+said\s+(?:an?\s+|the\s+)?(?P<wrong>[^,.!?]+?)\s*(?:,\s*|\s+but\s+)(?:and\s+)?"
    r"(?:it's|it\s+is|it\s+was|i\s+meant)\s+(?:actually\s+|really\s+)?(?:an?\s+|the\s+)?"
    r"(?P<right>[^,.!?]+?)\s*(?:[,.!?]|$)", re.IGNORECASE)
#: "I meant Rust, not Go": the plain form of a correction, read by its words where its
#: parse fails ("Go" a verb); a value ends at the sentence's stop, a dot inside it stays.
_MEANT_NOT = re.compile(
    r"\bi\s+meant\s+(?:an?\s+|the\s+)?(?P<right>[^,;.!?]+?),?\s+not\s+(?:an?\s+|the\s+)?"
    r"(?P<wrong>(?:[^,;.!?]|\.(?=\w))+)", re.IGNORECASE)
#: A speaker taking back what they said: "Scratch that, I never signed with them", "Forget
#: what I said about Leeds". What the sentence says corrects (the slot's value never held).
#: Not "Forget that, I quit Acme" or "Ignore that": mostly a change of subject.
TAKEN_BACK = re.compile(r"^\W*(?:(?:oh|ok|okay|sorry|wait|no|actually)\W+)*(?:(?:scratch|strike)"
                        r"\s+that|(?:scratch|strike|forget|ignore|disregard)\s+what\s+i\s+"
                        r"(?:just\s+)?(?:said|wrote|told\s+you))\b", re.IGNORECASE)
_TAKEN_BACK_ABOUT = re.compile(r"\b(?:scratch|strike|forget|ignore|disregard)\s+what\s+i\s+"
                               r"(?:just\s+)?(?:said|wrote|told\s+you)\s+about\s+(?:my\s+|the\s+)?"
                               r"(?P<wrong>[^,;:.!?]+?)(?:\s+(?:earlier|before|yesterday|today|"
                               r"last\s+\w+|the\s+other\s+day))?\s*(?:[,;:.!?-]|$)",
                               re.IGNORECASE)


def taken_back_before(message: str, sent: Span) -> str | None:
    """What the sentence just before ``sent`` took back: "Philips" after "Ignore what I said
    about Philips", "" after "Scratch that"; None when it took nothing back."""
    previous = _LAST_SENTENCE.search(text_before(message, sent).rstrip())
    if previous is None or TAKEN_BACK.search(previous.group(0).strip()) is None:
        return None
    about = _TAKEN_BACK_ABOUT.search(previous.group(0))
    return about["wrong"].strip() if about else ""


#: A denial that a value ever held, said as the sentence's statement: "I never worked at
#: Brightwater", "we've never lived in Leeds", "Scratch that, I never signed with them". Its
#: endings correct: the value never held (not "held until now"). Not a never that explains
#: something else ("I never got on with my boss, so I quit Acme", "I never worked at a
#: startup before joining Acme", "I never had a car until I moved to Leeds").
NEVER_HELD = re.compile(r"^\W*(?:(?:oh|ok|okay|sorry|wait|no|actually|honestly|scratch\s+that|"
                        r"(?:just\s+)?to\s+(?:be\s+)?clear(?:ify)?|for\s+the\s+record)\W+)*"
                        r"(?:i|we)(?:\s+have|'ve|\s+had|'d)?\s+never\s+(?:actually\s+|really\s+|"
                        r"even\s+|ever\s+)?(?:worked|lived|studied|owned|drove|driven|dated|signed|"
                        r"played|joined)\b(?![^.!?]*\b(?:before|until|till)\b)", re.IGNORECASE)
#: A contrast said as a correction: "Sorry, I live in Lisbon, not Porto", "Actually, my car
#: is a Honda, not a Toyota". The denied value was a slip, like one :data:`CORRECTION` reads.
CORRECTING = re.compile(rf"^\W*{_CUE_WORDS}\b[^.!?]*,\s*not\s", re.IGNORECASE)
#: A speaker owning up to a slip of their own, in words a cue at the start of a sentence
#: does not cover: "I beg your pardon, I misspoke.", "I must correct myself:", "Forgive me, I
#: made an error earlier.", "I gave the wrong town." A contrast in the same message ("We live
#: in Wells, not Bath") then corrects the slip (:func:`owned_slip`). "I made a mistake moving
#: to Bath" owns no slip of the tongue: a mistake counts only when it was in what was said.
SLIP_OWNED = re.compile(
    r"\b(?:mis-?spoke|misspoken|misstated|correct\s+myself|slip\s+of\s+the\s+(?:tongue|pen)"
    r"|(?:gave|said|wrote|typed|told)\s+(?:you\s+)?the\s+wrong\s+\w+(?=\s*(?:[.!?,:;]|$)"
    r"|\s+(?:earlier|before|just\s+now|by\s+mistake)\b)"
    r"|(?:made|make)\s+(?:a|an)\s+(?:mistake|error|slip)\s+(?:earlier|before|just\s+now"
    r"|in\s+(?:my|what\s+i)|when\s+i\s+(?:said|told|wrote|mentioned))"
    r"|i\s+should\s+(?:clarify|have\s+said))\b", re.IGNORECASE)


def owned_slip(message: str, sent: Span) -> bool:
    """Whether ``sent`` corrects a slip owned up to in it or in the sentence just before
    (:data:`SLIP_OWNED`: "I beg your pardon, I misspoke. We live in Wells, not Bath"), by
    denying a value by contrast ("Wells, not Bath", "Wells rather than Bath"). A slip owned
    further back is about something else ("My son typed the wrong password. ... I work at
    Hooli now, not Initech" is a change)."""
    if not denied(sent):
        return False
    if SLIP_OWNED.search(sent.text):
        return True
    previous = _LAST_SENTENCE.search(text_before(message, sent).rstrip())
    return previous is not None and SLIP_OWNED.search(previous.group(0)) is not None


def after_correction_heading(message: str, sent: Span) -> bool:
    """Whether ``sent`` follows a heading that says a correction comes: "Correction about
    earlier: I'm not a customs broker, I'm a compliance officer" (the heading is split off
    as a sentence of its own, so the cue is not in ``sent``)."""
    previous = _LAST_SENTENCE.search(text_before(message, sent).rstrip())
    heading = previous.group(0).strip() if previous is not None else ""
    return heading.endswith(":") and _CORRECTION_HEADING.search(heading) is not None


#: A heading that announces a correction: "Correction about earlier:", "small fix:".
_CORRECTION_HEADING = re.compile(rf"\b(?:{_NAMED_FIX}|correcting|{_OWNED_UP}|i\s+misspoke)\b",
                                 re.IGNORECASE)


#: The last sentence of a text.
_LAST_SENTENCE = re.compile(r"[^.!?]*[.!?:]*$")


#: Cues that own a slip of the tongue, after which a value in lower case is the right one.
_SLIP_CUE = re.compile(rf"^\W*(?i:{_MIXED_UP}|typo|i\s+meant|correction|{_OWNED_UP})")
#: A sentence that opens as a correction.
_CUE = re.compile(rf"^\W*{_CUE_WORDS}\b", re.IGNORECASE)
#: Subjects of a correction that points back at a value said before: "it was Lisbon".
_POINTERS = frozenset({"it", "that", "this"})
#: Gerunds that only say how a value is had: "instead of playing handball".
_DOING = frozenset({"playing", "doing", "eating", "using", "writing", "driving", "coding",
                    "practising", "practicing"})
_FILLER = frozenset({"a", "an", "the", "in", "at", "to", "for", "with", "from", "on", "my", "our",
                     *_DOING})


@dataclass(frozen=True)
class Correction:
    """What a correction names no slot for: the right value (and its head word, whose kind
    tells the slot apart when the wrong value goes unsaid) and the wrong value, if said."""

    right: str
    wrong: str | None
    head: Token


def correction(sent: Span, known: Callable[[str], bool] | None = None, *,
               cued: bool = False) -> Correction | None:
    """The correction in "Actually it was Lisbon, not Porto", "I meant Lisbon, not Porto",
    or, naming no wrong value, "Sorry, I meant Lisbon" and "Actually it was Lisbon".

    Such a sentence names no slot: the slot is that of the wrong value, said
    before, which only the caller can look up. Without a wrong value the right
    one must be a name ("I meant it", "it was great" correct nothing) and the
    sentence must read as a correction: "I meant X", or a cue before "it was X". A value
    in lower case counts as a name when ``known`` knows it ("Mixed up my words earlier,
    it's powerlifting"), and a cue may point at it in a cleft ("Ignore what I said about
    Scala; it's Python that I use"); ``cued`` says the sentence before took something back.
    """
    return _said_wrong(sent) or _fragment(sent) or _parsed(sent, known, cued) \
        or _meant_not(sent) or _bare(sent)


def _parsed(sent: Span, known: Callable[[str], bool] | None = None,
            cue_before: bool = False) -> Correction | None:
    """The correction :func:`correction` describes, read from the sentence's parse."""
    root = sent.root
    if root.lemma_ not in ("be", "mean"):  # "oops, it's Turin not Helsinki, I was thinking..."
        root = next((c for c in root.children if c.dep_ in ("ccomp", "parataxis")
                     and c.i < root.i and c.lemma_ in ("be", "mean")), root)
    subjects = {c.lower_ for c in root.children if c.dep_ == "nsubj"}
    cued = cue_before or _CUE.search(sent.text) is not None
    # "Let me correct that - the city is Dubai, not Valencia": cued, and naming the wrong value
    pointing = root.lemma_ == "be" and (bool(subjects & _POINTERS) or cued and bool(subjects)
                                        and bool(denied(sent)))
    meaning = root.lemma_ == "mean" and bool(subjects & {"i", "we"})
    if not (pointing or meaning):
        return None
    denying = denied(sent)
    in_denial = {t.i for p in denying for t in p}
    values = [c for c in root.children if c.dep_ in ("attr", "dobj", "acomp")
              and c.i not in in_denial]
    denials = [_value(p) for p in denying]
    if len(values) != 1 or len(denials) > 1 or (denials and not denials[0]):
        return None
    value = values[0]
    right = _value([t for t in value.subtree if t.i <= value.i] + _model_number(value))
    if not right or any(c.dep_ in ("relcl", "acl") and not (cued and _said_by_me(c))
                        for c in value.children):
        return None  # "it was Tom who told me": a cleft, not a correction
    if denials:
        wrong = denials[0]
        return Correction(right, wrong, value) if right.lower() != wrong.lower() else None
    # a value in lower case only after words that own a slip ("Mixed up my words earlier,
    # it's powerlifting"), not any cue ("Sorry, it's netball tonight so I can't")
    named = value.pos_ == "PROPN" or (value.text[:1].isupper() and value.i != sent.start) \
        or (cue_before or _SLIP_CUE.search(sent.text) is not None) and known is not None \
        and known(right)
    return Correction(right, None, value) if named and (meaning or cued) else None


def _model_number(value: Token) -> list[Token]:
    """The number that ends a model's name ("Pixel 7", "Galaxy S23 Ultra" is whole already)."""
    if value.i + 1 >= value.sent.end:
        return []
    after = value.doc[value.i + 1]
    numbered = after.head.i == value.i and after.dep_ in ("nummod", "appos") \
        and any(c.isdigit() for c in after.text)
    return [after] if numbered else []


def _said_by_me(clause: Token) -> bool:
    """A relative clause the speaker is the subject of: "(it's Python) that I use"."""
    return any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in clause.children)


def _fragment(sent: Span) -> Correction | None:
    """"Typo earlier: Dart, not Python" (see :data:`_FRAGMENT`)."""
    return _matched(_FRAGMENT, sent, max_words=4)


def _bare(sent: Span) -> Correction | None:
    """"iPhone SE, not Xperia 1 V!" (see :data:`_BARE`): two short values, the message's first
    words."""
    said = _matched(_BARE, sent, max_words=4)
    return None if said is None or sent.start_char > 0 or len((said.wrong or "").split()) > 4 \
        or said.right.lower() in _POINTERS else said


def _meant_not(sent: Span) -> Correction | None:
    """"Sorry, I meant Rust, not Go" when the parser reads a value as a verb ("not Go")
    or a word of the sentence (see :data:`_MEANT_NOT`); a pronoun corrects nothing."""
    said = _matched(_MEANT_NOT, sent, max_words=4)
    return None if said is None or said.right.lower() in _POINTERS else said


def _said_wrong(sent: Span) -> Correction | None:
    """"oops, I said vegan but it's vegetarian", "I said golf, it's kickboxing"."""
    return _matched(_SAID_WRONG, sent)


def _matched(pattern: re.Pattern[str], sent: Span, max_words: int | None = None,
             ) -> Correction | None:
    """The correction ``pattern`` finds in ``sent`` (its ``right`` and ``wrong`` groups), if
    the two values differ and the right one is at most ``max_words`` long."""
    match = pattern.search(sent.text)
    if match is None:
        return None
    start = sent.start_char
    right = sent.doc.char_span(start + match.start("right"), start + match.end("right"),
                               alignment_mode="expand")
    value, wrong = match["right"].strip(), match["wrong"].strip()
    if right is None or not wrong or value.lower() == wrong.lower() \
            or (max_words is not None and len(value.split()) > max_words):
        return None
    return Correction(value, wrong, right.root)


def _value(tokens: list[Token]) -> str:
    words = list(tokens)
    while words and words[0].lower_ in _FILLER:
        words.pop(0)
    return "".join(t.text_with_ws for t in words).strip()
