"""SearchEngine.prepare asks the store to prepare exactly the plan a search would send."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from graphmem.embed.base import Embedder
from graphmem.models import Scope
from graphmem.search.engine import SearchEngine
from graphmem.search.models import SearchRequest
from graphmem.store.base import ChannelHits, ChannelPlan, GraphStore

ASKED = datetime(2026, 3, 1, 12, tzinfo=UTC)


@pytest.fixture
def engine(store: GraphStore, embedder: Embedder) -> Iterator[SearchEngine]:
    eng = SearchEngine(store, embedder, clock=lambda: ASKED)
    yield eng
    eng.close()


@pytest.mark.parametrize("request_", [
    SearchRequest(scope=Scope(user_id="maya"), query="Where does Maya work?"),
    SearchRequest(scope=Scope(user_id="maya"), query="what did I eat in January?",
                  as_of=datetime(2025, 6, 1, tzinfo=UTC), include_turns=False, limit=30),
    SearchRequest(scope=Scope(user_id="maya", group_id="team"), query="Maya's car",
                  as_known_at=datetime(2025, 6, 1, tzinfo=UTC), include_history=True,
                  recent_messages=["we talked about cars", "and bikes"]),
], ids=["default", "window-and-as-of", "known-at-group"])
def test_the_prepared_plan_is_the_one_the_search_sends(
        engine: SearchEngine, store: GraphStore, request_: SearchRequest,
        monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[ChannelPlan] = []
    prepared: list[tuple[str, list[ChannelPlan], int]] = []
    real = store.search_channels

    def search_channels(tenant: str, plan: ChannelPlan) -> ChannelHits:
        searched.append(plan)
        return real(tenant, plan)

    def prepare_searches(tenant: str, plans: list[ChannelPlan], *, parallel: int = 1) -> None:
        prepared.append((tenant, plans, parallel))

    monkeypatch.setattr(store, "search_channels", search_channels)
    monkeypatch.setattr(store, "prepare_searches", prepare_searches)
    engine.search("nobody", request_)
    engine.prepare("warm", [request_], parallel=2)
    assert prepared == [("warm", searched, 2)]
    assert searched[0].time.include_history == (request_.include_history
                                                or "January" in request_.query)
