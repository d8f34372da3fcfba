"""What raw turns may still say: turns inherit the validity of the facts drawn from them.

A raw turn has no end of its own, but the facts extracted from it do. "I drive
a Subaru" stays in the conversation forever; once "I now drive a Tesla"
superseded it, the turn no longer tells what is true. So in a view without
history, a turn whose every fact was overtaken by the view's time (superseded,
or retracted; a retraction marker itself holds nothing) is stale, and recall
leaves it out. A fact that simply ran its stated course (last week's trip)
was not overtaken: its turn still tells what happened. Turns from which
nothing was extracted, most of a conversation, stay, and with
``include_history`` every turn stays.

The same link lets a fact stand for its turns: a turn that a found fact came
from goes, and the fact, the clean statement of what the turn said, takes the
turn's place if the turn ranked better.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from graphmem.models import Fact, FactStatus
from graphmem.search.models import SearchHit
from graphmem.store.base import TurnHit
from graphmem.temporal import TimeFilter

#: A turn lends its score to its fact only if it ranked this well itself in a turn channel:
#: a fact must not climb to the top on the strength of weakly matched messages.
ABSORB_MAX_RANK = 10

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
    """Whether a later statement had ended the fact by the view's time."""
    if fact.status is FactStatus.RETRACTION:
        return fact.valid_from <= time.at(now)
    ended_by = fact.superseded_by is not None or fact.retraction is not None
    return ended_by and not time.matches(fact, now) and fact.valid_from <= time.at(now)


def is_stale(turn: TurnHit, by_turn: dict[Source, list[Fact]], time: TimeFilter,
             now: datetime) -> bool:
    """A turn whose every fact was overtaken in the view (never in a history view)."""
    if time.include_history:
        return False
    facts = by_turn.get(turn_source(turn), [])
    return bool(facts) and all(overtaken(f, time, now) for f in facts)


def absorb_turns(hits: dict[str, SearchHit], turns: dict[str, TurnHit]) -> None:
    """Each found turn that a found fact came from gives way to that fact.

    The fact keeps its sources, so nothing is lost and the context holds no
    duplicate. It takes the turn's score when the turn scored higher and ranked
    within :data:`ABSORB_MAX_RANK` of a turn channel; scores are never added up.
    """
    by_source: dict[Source, SearchHit] = {}
    for hit in hits.values():
        if hit.kind == "fact":
            for episode_id in hit.episode_ids:
                for message_id in hit.sources or [""]:
                    best = by_source.get((episode_id, message_id))
                    if best is None or hit.score > best.score:
                        by_source[(episode_id, message_id)] = hit
    for key, turn in turns.items():
        found = hits.get(key)
        fact = by_source.get(turn_source(turn))
        if found is None or fact is None:
            continue
        if min(found.channels.values(), default=ABSORB_MAX_RANK + 1) <= ABSORB_MAX_RANK:
            fact.score = max(fact.score, found.score)
            for channel, rank in found.channels.items():
                fact.channels.setdefault(channel, rank)
        del hits[key]
