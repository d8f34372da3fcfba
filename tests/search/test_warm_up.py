"""SearchEngine.warm_up: every time view searched once, in a tenant of its own, leaving no trace."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem.embed.base import Embedder
from graphmem.search.engine import WARM_UP_TENANT, SearchEngine
from graphmem.store.base import ChannelHits, ChannelPlan, GraphStore
from graphmem.temporal import TimeFilter


@pytest.fixture
def engine(store: GraphStore, embedder: Embedder) -> Iterator[SearchEngine]:
    eng = SearchEngine(store, embedder)
    yield eng
    eng.close()


def test_each_time_view_is_searched_once_in_the_warm_up_tenant_only(
        engine: SearchEngine, store: GraphStore, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, TimeFilter]] = []
    real = store.search_channels

    def recorded(tenant: str, plan: ChannelPlan) -> ChannelHits:
        seen.append((tenant, plan.time))
        return real(tenant, plan)

    monkeypatch.setattr(store, "search_channels", recorded)
    engine.warm_up()
    assert {tenant for tenant, _ in seen} == {WARM_UP_TENANT}
    views = {(t.as_of is not None, t.include_history, t.as_known_at is not None) for _, t in seen}
    assert views == {(False, False, False), (True, False, False), (False, True, False),
                     (False, False, True)}
    assert store.scope_keys(WARM_UP_TENANT) == []
