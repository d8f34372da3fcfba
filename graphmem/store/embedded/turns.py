"""Raw turns as search hits, for the embedded store's two turn channels.

A turn channel ranks turns by key (full text in SQLite, vectors in memory); a hit
needs the turn's words, speaker and time, which live in its episode's document.
This module turns ranked ``(episode id, index, score)`` rows into
:class:`~graphmem.store.base.TurnHit` s, reading each episode once, and reads
deeper while a time view hides some, so a channel still returns ``limit`` hits.
It knows nothing of SQL or locks: the store hands it the ranking and the
episode reader.
"""

from __future__ import annotations

from collections.abc import Callable

from graphmem.models import Episode
from graphmem.store.base import TurnHit
from graphmem.temporal import TimeFilter

#: Ranked turns: (episode id, message index, score), best first.
Ranked = list[tuple[str, int, float]]


def visible_turns(ranked: Callable[[int], Ranked], episode: Callable[[str], Episode | None],
                  limit: int, time: TimeFilter | None) -> list[TurnHit]:
    """The best ``limit`` turns that ``time`` sees: ``ranked(depth)`` gives the top ``depth``
    turns, read four times deeper while filtering drops some; ``episode`` reads one."""
    depth = limit
    while True:
        rows = ranked(depth)
        hits = turn_hits(rows, episode)
        if time is not None:
            hits = [h for h in hits if time.sees_statement(h.timestamp, h.recorded_at)]
        if len(hits) >= limit or len(rows) < depth:
            return hits[:limit]
        depth *= 4


def turn_hits(ranked: Ranked, episode: Callable[[str], Episode | None]) -> list[TurnHit]:
    """The hits of ranked turns, in their order; a turn whose episode is gone, or forgotten
    by its user, is skipped."""
    episodes: dict[str, Episode | None] = {}
    hits: list[TurnHit] = []
    for episode_id, idx, score in ranked:
        if episode_id not in episodes:
            episodes[episode_id] = episode(episode_id)
        hits.extend(_turn_hit(episodes[episode_id], idx, score))
    return hits


def split_turn_key(key: str) -> tuple[str, int]:
    """``"<episode id>:<index>"`` (the turn vector index's key) as its two parts."""
    episode_id, _, idx = key.rpartition(":")
    return episode_id, int(idx)


def _turn_hit(episode: Episode | None, idx: int, score: float) -> list[TurnHit]:
    if episode is None or episode.forgotten:
        return []
    if episode.messages:
        if idx >= len(episode.messages):
            return []
        m = episode.messages[idx]
        return [TurnHit(episode_id=episode.id, message_index=idx, message_id=m.id,
                        role=m.role, speaker=m.speaker, content=m.content,
                        timestamp=m.timestamp or episode.reference_time, score=score,
                        recorded_at=episode.recorded_at)]
    return [TurnHit(episode_id=episode.id, message_index=0, message_id=None, speaker=None,
                    content=episode.content, timestamp=episode.reference_time, score=score,
                    recorded_at=episode.recorded_at)]
