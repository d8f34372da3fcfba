"""Placing a correction: which fact "Actually it was Lisbon, not Porto" mends.

:mod:`graphmem.extract.rules.contrast` reads a correction off a sentence (the
right value, and the wrong one when it is named); this module finds the slot the
wrong value was said in, earlier in the episode or in a stored fact, and turns
the correction into a fact for the right value and a retraction of the wrong one.
A slip said in the same episode never held: it is dropped and the right value
holds from when the slip was said. Kept apart from the extractor, which reads
facts off sentences and only hands its corrections here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from graphmem.extract.base import SELF, CandidateFact, ExtractedFact
from graphmem.extract.rules.clause import Finding
from graphmem.extract.rules.contrast import Correction
from graphmem.extract.rules.lexicon import object_type
from graphmem.extract.rules.parties import Party
from graphmem.extract.rules.slots import SLOT_TYPES, value_slot

#: Turns a finding into a fact said in the sentence being read.
FactMaker = Callable[[Finding], ExtractedFact]

#: Words that say a slip was the speaker's own: it corrects none of anyone else's facts.
_OWN_SLIP = re.compile(r"\bi\s+(?:meant|said|wrote|typed|mean)\b|\btypo\b|\bautocorrect",
                       re.IGNORECASE)
#: The kinds of slot value a name not tagged as a place may be.
_NAMED_KINDS = frozenset({"organization", "product", "person"})
_Said = TypeVar("_Said", ExtractedFact, CandidateFact)


def place(facts: list[ExtractedFact], candidates: list[CandidateFact], fix: Correction,
          sentence: str, speaker: str, make: FactMaker,
          towns: frozenset[str] = frozenset()) -> tuple[list[ExtractedFact], bool]:
    """"Actually it was Lisbon, not Porto": the slot Porto was said in, earlier in the
    episode or in a stored fact, gets Lisbon, and Porto is closed. Returns the facts and
    whether the slot was found.

    A value said earlier in the same episode was a slip: it is dropped, and the
    right value holds from when the wrong one was said. "Sorry, I meant Lisbon"
    names no wrong value: it is the one said last in a slot Lisbon can fill; ``towns`` are
    the place names the gazetteer knows (lower case), a home whatever the tagger said.
    """
    named = fix.wrong or _last_said(facts, candidates, fix, speaker, towns)
    if named is None or named.lower() == fix.right.lower():
        return facts, False
    earlier = _naming([f for f in facts if f.action == "assert"], named)
    if earlier:
        # every slot the slip was said in ("I mostly code in Erlang": used and main language)
        slips = {(f.subject, f.predicate): f for f in earlier}
        facts = [f for f in facts if not any(f is slip for slip in earlier)]
        said: list[tuple[str, str, str, str, ExtractedFact | None]] = [
            (f.subject, f.predicate, f.object, f.object_type, f) for f in slips.values()]
    else:
        stored = _naming(candidates, named)
        # the speaker's own value first: another person may have said the same one
        own = [c for c in stored if said_by(c, speaker)]
        if not stored:
            return facts, False
        # the speaker's every slot the slip was stored in; else the last person's who said
        # it, unless the speaker says the slip was their own ("I meant", "typo")
        if not own and _OWN_SLIP.search(sentence):
            return facts, False
        chosen = own or [c for c in stored if c.subject == stored[-1].subject]
        said = [(SELF if c.own and speaker == SELF else c.subject,  # "I", whatever name
                 c.predicate, c.object, "concept", None)
                for c in {c.predicate: c for c in chosen}.values()]
    for subject, predicate, wrong, kind, prior in said:
        right = _mended(wrong, named, fix.right)
        party = Party(subject, "person", subject == speaker)
        fixed = make(Finding(party, predicate, right, kind, timing="none"))
        if prior is not None:
            fixed = fixed.model_copy(update={"valid_from": prior.valid_from,
                                             "message_id": prior.message_id})
        undone = make(Finding(party, predicate, wrong, kind, "retract", timing="none"))
        # a slip: the wrong value never held, the right one holds from when it was said
        facts = [*facts, fixed.model_copy(update={"corrects": True}),
                 undone.model_copy(update={"corrects": True})]
    return facts, True


def unplaced_value(fix: Correction, speaker: str, make: FactMaker) -> list[ExtractedFact]:
    """A correction no slot was found for still states its right value when the value's own
    words name a slot ("took up vloleyball! ... sorry, i meant volleyball not vloleyball":
    the slip was never read as a sport, but volleyball is one): the speaker's, from when
    it was said."""
    slot = value_slot(fix.right, fix.head)
    if slot is None:
        return []
    party = Party(speaker, "person", True)
    return [make(Finding(party, slot, fix.right, SLOT_TYPES[slot], timing="none"))]


def fill_retractions(facts: list[ExtractedFact], candidates: list[CandidateFact]
                     ) -> list[ExtractedFact]:
    """"I quit my job" names no employer: use the one stored fact it can only mean."""
    out = []
    for f in facts:
        if f.action == "retract" and not f.object:
            matches = [c for c in candidates
                       if c.subject.lower() == f.subject.lower() and c.predicate == f.predicate]
            if len(matches) == 1:
                f = f.model_copy(update={"object": matches[0].object})
        out.append(f)
    return out


def _naming(said: list[_Said], slip: str) -> list[_Said]:
    """The values said that a slip names: the slip itself, else the values it is a whole
    word of ("wait i wrote Civic? meant Accord" of "Honda Civic")."""
    same = [f for f in said if f.object.lower() == slip.lower()]
    if same:
        return same
    part = re.compile(rf"(?<!\S){re.escape(slip)}(?!\S)", re.IGNORECASE)
    return [f for f in said if part.search(f.object)]


def _mended(value: str, slip: str, right: str) -> str:
    """The value a correction leaves: the right one, or, where the slip was a word of a
    longer value and the right one a single word, that value with the word replaced
    ("Honda Civic", "Civic", "Accord" -> "Honda Accord")."""
    if value.lower() == slip.lower() or len(right.split()) > 1:
        return right
    part = re.compile(rf"(?<!\S){re.escape(slip)}(?!\S)", re.IGNORECASE)
    return part.sub(lambda _: right, value, count=1)


def said_by(candidate: CandidateFact, speaker: str) -> bool:
    """Whether a stored fact is the speaker's own."""
    return candidate.own if speaker == SELF else candidate.subject.lower() == speaker.lower()


def _fillable(fix: Correction, towns: frozenset[str]) -> list[set[str]]:
    """The one-valued slots the right value of a correction can fill, most likely first: by
    its own words ("a Honda" is a car, "vegan" a diet), else a place's slot for a place and a
    person's for a person ("Actually it was Tom" never makes Tom an employer). The tagger's
    other kinds for a name said alone are guesses ("Globex" a product, "Acme" nothing), so
    any other name may be an employer, a car or a person, but not a home; a town the
    gazetteer knows is a home ("Sorry, I meant York", York tagged a person; a firm named after
    a town, "Sorry, I meant Halifax" after "I work at Lloyds", is not read: "My sister lives
    in Leeds. Sorry, I meant York" had made York the user's employer). A name the tagger took
    for a town that the gazetteer does not know may fill any of these, the one said last
    ("*Spotify" after "I'm a backend dev at Soptify")."""
    slot = value_slot(fix.right, fix.head)
    if slot is not None:
        return [{slot}]
    kind = "place" if fix.right.lower() in towns else object_type(fix.head)
    kinds = {kind} if kind in ("place", "person") else _NAMED_KINDS
    if kind == "place" and towns and fix.right.lower() not in towns:
        kinds = {*_NAMED_KINDS, "place"}  # the tagger's town the gazetteer does not know: "Spotify"
    return [{predicate for predicate, typ in SLOT_TYPES.items() if typ in kinds}]


def _last_said(facts: list[ExtractedFact], candidates: list[CandidateFact], fix: Correction,
               speaker: str, towns: frozenset[str]) -> str | None:
    """The value a correction that names none replaces: the speaker's own value said last,
    earlier in the episode or else stored, in a slot the right value can fill (the most
    likely kind of slot that holds one)."""
    kinds = _fillable(fix, towns)
    for slots in kinds:  # the episode's own words first: "I work at Lloyds. Sorry, I meant..."
        said = [f for f in facts if f.action == "assert" and f.predicate in slots
                and f.subject == speaker and f.object]
        if said:
            return said[-1].object
    for slots in kinds:
        own = [c for c in candidates if c.predicate in slots and c.object
               and said_by(c, speaker)]
        if own:
            return max(own, key=lambda c: c.valid_from).object
    return None
