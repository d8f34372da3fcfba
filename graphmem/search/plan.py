"""What one search asks of the store: its channel plan, read from the request.

Kept apart from the engine (which fuses what the channels found) so that a search and the
start-up warm-up (:meth:`graphmem.search.engine.SearchEngine.prepare`) build the same plan
from one request.
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from graphmem.embed.base import Embedder
from graphmem.models import as_utc
from graphmem.search.focus import NAME_CANDIDATES, focus_names
from graphmem.search.models import SearchRequest
from graphmem.search.timeq import Window, query_window
from graphmem.search.traverse import query_ngrams
from graphmem.store.base import ChannelPlan
from graphmem.temporal import TimeFilter


class PlannedSearch(NamedTuple):
    """A search's channel plan, with its time filter, the window its question names
    ("in January"), the channels' depth and the query's vector."""

    plan: ChannelPlan
    time: TimeFilter
    window: Window | None
    depth: int
    vector: list[float]


def planned(request: SearchRequest, now: datetime, embedder: Embedder,
            channel_depth: int) -> PlannedSearch:
    """What ``request``, asked at ``now``, asks of the store, and what fusion needs of it:
    at least ``channel_depth`` candidates per channel, three times the hits asked for."""
    text = " ".join([request.query, *request.recent_messages[-3:]])
    # "in January", "last summer": counted back from the moment asked about
    window = query_window(request.query, as_utc(request.as_of) if request.as_of else now)
    time = TimeFilter(as_of=as_utc(request.as_of) if request.as_of else None,
                      as_known_at=as_utc(request.as_known_at) if request.as_known_at else None,
                      include_history=request.include_history or window is not None)
    depth = max(channel_depth, request.limit * 3)
    vector = [float(x) for x in embedder.embed([text])[0]]
    return PlannedSearch(channel_plan(request, text, vector, time, depth), time, window, depth,
                         vector)


def channel_plan(request: SearchRequest, text: str, vector: list[float], time: TimeFilter,
                 depth: int) -> ChannelPlan:
    """What a search asks of its channels: ``depth`` facts per fact channel, twice as many
    turns per turn channel, and the names the question may use, looked up once for the
    focus and for the walk's seeds."""
    seed_names = query_ngrams(request.query)
    return ChannelPlan(
        scope_keys=request.scope.visible_keys, text=text, embedding=vector, time=time,
        limit=depth, turn_limit=2 * depth if request.include_turns else 0,
        names=sorted({*focus_names(request.query), *seed_names}), seed_names=seed_names,
        name_text=request.query, name_limit=NAME_CANDIDATES)
