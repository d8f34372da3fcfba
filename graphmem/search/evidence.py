"""What raw turns may still say: turns inherit the validity of the facts drawn from them.

A raw turn has no end of its own, but the facts extracted from it do. "I drive
a Subaru" stays in the conversation forever; once "I now drive a Tesla"
superseded it, the turn no longer tells what is true. So in a view without
history, a turn whose every fact was overtaken by the view's time is stale, and
recall leaves it out. Overtaken means: superseded or retracted; a retraction
marker itself (a slot's retraction answers through the slot channel, see
:mod:`graphmem.search.slots`); a plan whose time ran out ("I might move to
Rome next year", two years on); and, in every view, a fact the user forgot.
A turn that holds several facts stays while any of them still speaks for it
("I live in Madrid and I drive a Fiat Panda" after the car was forgotten),
except for a question about the slot of the fact that went: the slot channel
hides it there. A fact that simply ran its stated course (last week's trip) was
not overtaken: its turn still tells what happened. Turns from which nothing was
extracted, most of a conversation, stay, save a negation that a later fact
about the same speaker and thing contradicts ("I don't have a dog", or "I don't
have any pets", before "Maya has a dog named Rex"): that is a retraction the extractor had nothing to
retract for, and a later fact overtakes it. With ``include_history`` every turn
stays but those whose facts were all forgotten.

The same link lets a fact stand for its turns: a turn that a found fact came
from goes, and the fact, the clean statement of what the turn said, takes the
turn's place if the turn ranked better.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime

from graphmem.models import Fact, FactStatus
from graphmem.names import normalize_name, whole_words
from graphmem.predicates import PredicateRegistry
from graphmem.search.models import SearchHit
from graphmem.store.base import TurnHit
from graphmem.temporal import TimeFilter

#: A turn lends its score to its fact only if it ranked this well itself in a turn channel:
#: a fact must not climb to the top on the strength of weakly matched messages.
ABSORB_MAX_RANK = 10

#: Predicates of intentions: once their time has passed, they no longer tell what is true.
INTENTIONS = frozenset({"PLANS"})
#: Words that negate what follows them ("I don't have a dog", "I have no car").
NEGATIONS = frozenset({"not", "no", "never", "don't", "doesn't", "didn't", "haven't", "hasn't",
                       "can't", "cannot", "won't", "isn't", "wasn't", "aren't", "ain't"})
#: How the speaker says "I" right before a negation ("I don't", "I'm not", "I have no").
_SELF = frozenset({"i", "i'm", "i've", "i'd", "i'll", "we", "we're", "we've"})
#: Words after a negation that say what it is about; the rest of a long turn is not.
NEGATED_WORDS = 5
#: Words two statements may share without being about the same thing.
_FUNCTION_WORDS = NEGATIONS | _SELF | frozenset({
    "me", "my", "mine", "our", "you", "he", "she", "they", "it", "a", "an", "the", "and", "or",
    "but", "to", "of", "in", "on", "at", "for", "with", "is", "am", "are", "was", "were", "be",
    "been", "do", "does", "did", "have", "has", "had", "any", "some", "named", "called", "now",
    "really", "just", "that", "this", "so", "very", "too", "also", "longer", "anymore", "more",
    "even", "ever", "yet", "got", "get", "gonna", "going", "want", "think", "know", "like"})
_SENTENCES = re.compile(r"[.!?;]+")
_WORDS = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

Source = tuple[str, str]  # (episode id, client message id or "")


def sources_of(fact: Fact) -> list[Source]:
    """The turns a fact was drawn from, as (episode id, message id) keys."""
    messages = fact.message_ids or [""]
    return [(episode, message) for episode in fact.episode_ids for message in messages]


def turn_source(turn: TurnHit) -> Source:
    return (turn.episode_id, turn.message_id or "")


def facts_by_turn(facts: Iterable[Fact]) -> dict[Source, list[Fact]]:
    by_turn: dict[Source, list[Fact]] = {}
    for fact in facts:
        for source in sources_of(fact):
            by_turn.setdefault(source, []).append(fact)
    return by_turn


def overtaken(fact: Fact, time: TimeFilter, now: datetime) -> bool:
    """Whether the fact no longer speaks for its turn in the view: forgotten (in any
    view), or, without history, ended by a later statement or an intention run out."""
    if fact.status is FactStatus.FORGOTTEN and not time.include_forgotten:
        return True
    if time.include_history or fact.valid_from > time.at(now):
        return False
    if fact.status is FactStatus.RETRACTION:
        return True
    ended_by = (fact.superseded_by is not None or fact.retraction is not None
                or fact.predicate in INTENTIONS)
    return ended_by and not time.matches(fact, now)


def is_stale(turn: TurnHit, by_turn: dict[Source, list[Fact]], time: TimeFilter,
             now: datetime) -> bool:
    """A turn whose every fact was overtaken in the view (see :func:`overtaken`)."""
    facts = by_turn.get(turn_source(turn), [])
    return bool(facts) and all(overtaken(f, time, now) for f in facts)


def said_later(turn: TurnHit, time: TimeFilter, now: datetime) -> bool:
    """A turn dated after the moment the view looks at: a message dated ahead of when it
    arrived (a client's clock, a typo such as 2099) is, like its facts, not yet said today."""
    return turn.timestamp is not None and turn.timestamp > time.at(now)


def contradicted(turn: TurnHit, facts: Iterable[Fact], time: TimeFilter, now: datetime,
                 registry: PredicateRegistry | None = None) -> bool:
    """A turn whose speaker denied something ("I don't have a dog.") that a later fact about
    them, valid in the view, states ("Maya has a dog named Rex."). Only a turn from which
    nothing was extracted: the extractor had nothing to retract. Never in a history view.

    With ``registry``, a fact also states what its slot's description names: "Maya has a
    dog named Rex." is one of "a person's pets", so it overtakes "I don't have any pets"."""
    if time.include_history or turn.timestamp is None or not turn.speaker:
        return False
    denied = _denied(turn.content)
    if not denied:
        return False
    speaker = {normalize_name(w) for w in turn.speaker.split()}
    denied -= speaker
    at = time.at(now)
    for fact in facts:
        if not turn.timestamp < fact.valid_from <= at:
            continue
        if not {normalize_name(w) for w in fact.subject_name.split()} & speaker:
            continue
        if denied & _words(fact.text):
            return True
        if registry is not None and denied & slot_words(registry, fact.predicate):
            return True
    return False


#: Words of every slot's description that name no slot ("the city a person lives in").
_DESCRIPTION_WORDS = frozenset({"person", "person's", "people", "regularly", "uses", "most",
                                "whether", "where", "what", "who", "which", "comes", "from"})


def slot_words(registry: PredicateRegistry, predicate: str) -> set[str]:
    """The words naming the slot a predicate fills, from its description ("a person's pets":
    pet, pets)."""
    return _words(registry.spec(predicate).description) - _DESCRIPTION_WORDS


def _denied(text: str) -> set[str]:
    """The content words right after each "I ... not" of a text."""
    found: set[str] = set()
    for sentence in _SENTENCES.split(text.lower().replace("’", "'")):
        words = _WORDS.findall(sentence)
        for i, word in enumerate(words):
            if word in NEGATIONS and _SELF & set(words[max(0, i - 2):i]):
                found |= _stems(words[i + 1:i + 1 + NEGATED_WORDS]) - _FUNCTION_WORDS
    return found


def _words(text: str) -> set[str]:
    return _stems(_WORDS.findall(text.lower().replace("’", "'"))) - _FUNCTION_WORDS


def _stems(words: list[str]) -> set[str]:
    return {*words, *(w[:-1] for w in words if w.endswith("s") and len(w) > 3)}


def absorb_turns(hits: dict[str, SearchHit], turns: dict[str, TurnHit], query: str = "",
                 drawn: dict[Source, list[Fact]] | None = None,
                 registry: PredicateRegistry | None = None,
                 asked_of: Callable[[TurnHit], bool] | None = None) -> None:
    """Each found turn that a found fact came from gives way to that fact, unless the turn
    says something the question asks about that the extractor read nowhere in it: in none
    of the facts drawn from it (``drawn``: found or not, current or ended), their words or
    the words of their slots (``registry``: a sport fact reads "play", a pet fact "pets").
    That exception holds for the turns of the person asked about (``asked_of``); another
    person's turn gives way to its facts, which the focus rules then judge as theirs. The
    engine gives no ``query`` for a question that asks for a slot: the slot's facts answer it.

    The fact keeps its sources, so nothing is lost and the context holds no
    duplicate. It takes the turn's score when the turn scored higher and ranked
    within :data:`ABSORB_MAX_RANK` of a turn channel; scores are never added up.
    A turn of several statements of which the extractor read one ("I do drink way too
    much coffee on shifts. Oh and our cat Miso...") stays for "Does Maria drink coffee?":
    the cat fact, standing in its place, would answer with the wrong statement.
    """
    by_source: dict[Source, SearchHit] = {}
    texts: dict[Source, list[str]] = {}  # the texts of the found facts drawn from each turn
    for hit in hits.values():
        if hit.kind == "fact":
            for episode_id in hit.episode_ids:
                for message_id in hit.sources or [""]:
                    best = by_source.get((episode_id, message_id))
                    if best is None or hit.score > best.score:
                        by_source[(episode_id, message_id)] = hit
                    texts.setdefault((episode_id, message_id), []).append(hit.text)

    def read(source: Source) -> set[str]:
        """The words the extractor read in a turn (only asked of a turn that may stay)."""
        words = {w for text in texts.get(source, []) for w in _words(text)}
        for drawn_fact in (drawn or {}).get(source, []):
            words |= _words(drawn_fact.text)
            if registry is not None:
                words |= slot_words(registry, drawn_fact.predicate)
        return words

    asked = _words(query)
    for key, turn in turns.items():
        found = hits.get(key)
        fact = by_source.get(turn_source(turn))
        if found is None or fact is None:
            continue
        if asked and (asked_of is None or asked_of(turn)) \
                and (wanted := asked & _words(turn.content)) and wanted - read(turn_source(turn)):
            continue  # the turn answers what its facts do not
        if min(found.channels.values(), default=ABSORB_MAX_RANK + 1) <= ABSORB_MAX_RANK:
            fact.score = max(fact.score, found.score)
            for channel, rank in found.channels.items():
                fact.channels.setdefault(channel, rank)
        del hits[key]


#: How a sentence opens when it muses rather than tells: a wish, a plan being weighed, a
#: hypothesis ("thinking about applying to Lumora", "hypothetically, is paleo expensive?").
_MUSING = re.compile(
    r"^(?:(?:lol|haha|hmm|ok|so|hey|also|btw|ugh|honestly)\W+)*"
    r"(?:hypothetically|thinking (?:about|of)|planning to|considering|maybe|what if|if i\b|"
    r"if only|imagine|one day|someday|some day|i wish|wishlist|my wishlist|i might|"
    r"wondering|not sure (?:if|whether)|should i\b)", re.IGNORECASE)


#: What a sentence says when it speaks of the past or of what never was: "did rowing in high
#: school, ages ago", "never done cricket in my life", "used to do squash at uni".
_RECALLING = re.compile(
    r"\b(?:never|used\s+to|back\s+(?:in|at|when|then)|in\s+(?:high\s+)?school|at\s+uni(?:versity)?"
    r"|in\s+college|as\s+a\s+(?:kid|child|teen(?:ager)?|student)|(?:years|ages|decades)\s+ago"
    r"|grew\s+up|growing\s+up|when\s+i\s+was\s+(?:young|little|a\s+kid|a\s+student)"
    r"|first\s+job\s+ever)\b", re.IGNORECASE)


def only_asks_or_muses(text: str, *, or_recalls: bool = False) -> bool:
    """Whether every sentence of a turn asks ("is boxing good cardio?") or muses ("thinking
    about applying to Lumora Games"), or with ``or_recalls`` speaks of the past or of what
    never was ("did rowing in high school, ages ago"): it names values without saying any is
    the speaker's now. (A caller passes ``or_recalls`` for a turn no fact was read from: one
    whose facts were read says in them what it told.)

    >>> only_asks_or_muses("what are the rules of badminton?")
    True
    >>> only_asks_or_muses("What should I eat before playing squash? I train most mornings.")
    False
    >>> only_asks_or_muses("never done cricket in my life", or_recalls=True)
    True
    >>> only_asks_or_muses("never done cricket in my life")
    False
    """
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]
    return bool(sentences) and all(
        s.rstrip(" )\"'\u2019").endswith("?") or _MUSING.match(s)
        or or_recalls and _RECALLING.search(s) for s in sentences)


def lost_values(ended: Iterable[Fact], markers: Iterable[Fact], at: datetime) -> dict[str, datetime]:
    """The values a slot had lost by ``at`` to a retraction, in lower case, each with when it
    lost them: its facts a retraction ended by then, and values retracted by then that it
    never held as a fact ("stopped playing hockey" with no hockey said before as a sport).
    Not a value another replaced: what replaced it answers, and a turn that names the old
    one may hold a correction the extractor missed ("Toronto?? meant Chicago")."""
    lost: dict[str, datetime] = {}
    ends = [(f.object_name, f.valid_until) for f in ended
            if f.valid_until is not None and f.valid_until <= at and f.retraction is not None
            and f.superseded_by is None and f.status is not FactStatus.FORGOTTEN]
    ends += [(m.object_name, m.valid_from) for m in markers if m.valid_from <= at]
    for name, when in ends:
        if name:
            lost[name.lower()] = max(lost.get(name.lower(), when), when)
    return lost


def names_only_lost(turn: TurnHit, lost: dict[str, datetime], held: Iterable[str]) -> bool:
    """Whether a turn names a value the slot lost, said while the value still held or before
    ("amateur hockey league season just finished", two years before "stopped playing
    hockey"), and none the slot holds: for a question about the slot, in a view without
    history, it no longer tells the answer. The turn that ended the value, or a later
    one, is not such a turn: it may name what came next."""
    if turn.timestamp is None:
        return False
    holding = whole_words(held)
    if holding is not None and holding.search(turn.content):
        return False
    gone = whole_words(value for value, when in lost.items() if turn.timestamp < when)
    return gone is not None and gone.search(turn.content) is not None
