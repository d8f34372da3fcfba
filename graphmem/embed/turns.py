"""Vectors for an episode's turns, for the raw-turn search channel."""

from __future__ import annotations

from graphmem.embed.base import Embedder, with_neighbours
from graphmem.models import Episode, episode_turns

#: How much of its neighbours' vectors a turn's vector holds (embed.base.with_neighbours).
TURN_NEIGHBOUR_WEIGHT = 0.5


def turn_vectors(embedder: Embedder, episodes: list[Episode]) -> dict[str, list[list[float]]]:
    """Each episode's turn vectors, pooled with their neighbours: a short reply ("yes, that
    one") is found by what it answered."""
    texts = {e.id: episode_turns(e) for e in episodes}
    flat = [t for ts in texts.values() for t in ts]
    if not flat:
        return {}
    matrix = embedder.embed(flat)
    out, offset = {}, 0
    for episode_id, own in texts.items():
        rows = matrix[offset: offset + len(own)]
        out[episode_id] = with_neighbours(rows, TURN_NEIGHBOUR_WEIGHT).tolist()
        offset += len(own)
    return out
