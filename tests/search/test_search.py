"""Search through one code path on both stores: channels, fusion, time semantics."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from graphmem.embed.base import Embedder
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Category, Message, Scope
from graphmem.search import access as access_module
from graphmem.search.engine import SearchEngine
from graphmem.search.models import SearchRequest
from graphmem.store.base import GraphStore
from tests.ingest.helpers import ALICE, ScriptedExtractor, day, fact

NOW = datetime(2025, 1, 1, tzinfo=UTC)


@pytest.fixture
def engine(store: GraphStore, embedder: Embedder) -> Iterator[SearchEngine]:
    engine = SearchEngine(store, embedder, clock=lambda: NOW)
    yield engine
    engine.close()


@pytest.fixture
def seeded(store: GraphStore, embedder: Embedder, tenant: str) -> Ingestor:
    ingestor = Ingestor(store, ScriptedExtractor({}), embedder, clock=lambda: NOW)
    ingestor.add_facts(tenant, [
        fact("USES_FRAMEWORK", "Vue", 1, text="Alice uses Vue 3 for the frontend.",
             category=Category.PREFERENCE),
        fact("LIVES_IN", "Berlin", 1, text="Alice lives in Berlin."),
        fact("LIKES", "hiking", 2, text="Alice likes hiking in the Alps."),
        fact("HAS_PET", "Max", 2, text="Alice has a dog named Max."),
    ])
    ingestor.add_facts(tenant, [
        fact("USES_FRAMEWORK", "React", 6, text="Alice switched to React for the frontend.",
             category=Category.PREFERENCE)])
    return ingestor


def texts(engine: SearchEngine, tenant: str, query: str, **kw: object) -> list[str]:
    request = SearchRequest(scope=ALICE, query=query, include_turns=False, **kw)  # type: ignore[arg-type]
    return [h.text for h in engine.search(tenant, request).results]


def test_current_by_default(engine: SearchEngine, seeded: Ingestor, tenant: str) -> None:
    found = texts(engine, tenant, "which frontend framework does Alice use?")
    assert found[0] == "Alice switched to React for the frontend."
    assert "Alice uses Vue 3 for the frontend." not in found


def test_as_of_returns_what_was_valid_then(engine: SearchEngine, seeded: Ingestor,
                                           tenant: str) -> None:
    found = texts(engine, tenant, "frontend framework", as_of=day(3))
    assert "Alice uses Vue 3 for the frontend." in found
    assert "Alice switched to React for the frontend." not in found


def test_history_marks_superseded_facts(engine: SearchEngine, seeded: Ingestor,
                                        tenant: str) -> None:
    request = SearchRequest(scope=ALICE, query="frontend framework", include_history=True,
                            include_turns=False)
    hits = {h.text: h for h in engine.search(tenant, request).results}
    vue = hits["Alice uses Vue 3 for the frontend."]
    assert vue.superseded and vue.valid_until == day(6) and vue.superseded_by is not None
    assert not hits["Alice switched to React for the frontend."].superseded


def test_every_result_explains_itself(engine: SearchEngine, seeded: Ingestor, tenant: str) -> None:
    [top, *_] = engine.search(tenant, SearchRequest(scope=ALICE, query="dog named Max",
                                                    include_turns=False)).results
    assert top.text == "Alice has a dog named Max."
    assert "bm25" in top.channels and "vector" in top.channels
    assert top.valid_from == day(2)


def test_graph_channel_walks_from_named_entities(engine: SearchEngine, seeded: Ingestor,
                                                 tenant: str) -> None:
    hits = engine.search(tenant, SearchRequest(scope=ALICE, query="Max", include_turns=False,
                                               limit=20)).results
    graph_found = {h.text for h in hits if "graph" in h.channels}
    assert "Alice has a dog named Max." in graph_found


def test_time_expression_in_query_narrows_the_window(engine: SearchEngine, seeded: Ingestor,
                                                     tenant: str) -> None:
    response = engine.search(tenant, SearchRequest(
        scope=ALICE, query="frontend framework in March 2024", include_turns=False))
    found = [h.text for h in response.results]
    assert response.window == (day(3), day(4))
    assert "Alice uses Vue 3 for the frontend." in found
    assert "Alice switched to React for the frontend." not in found


def test_categories_filter(engine: SearchEngine, seeded: Ingestor, tenant: str) -> None:
    found = texts(engine, tenant, "Alice", categories=[Category.PREFERENCE], limit=20)
    assert found == ["Alice switched to React for the frontend."]


def test_raw_turns_are_searchable_with_their_message_ids(
    store: GraphStore, embedder: Embedder, engine: SearchEngine, tenant: str
) -> None:
    ingestor = Ingestor(store, ScriptedExtractor({}), embedder, clock=lambda: NOW)
    ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=[
        Message(id="D1:1", speaker="Alice", content="The sourdough starter is named Bubbles.",
                timestamp=day(2)),
        Message(id="D1:2", speaker="Bob", content="Cute name!", timestamp=day(2)),
    ]))
    [hit, *_] = engine.search(tenant, SearchRequest(scope=ALICE, query="sourdough starter")).results
    assert hit.kind == "turn" and hit.sources == ["D1:1"] and hit.speaker == "Alice"


def test_a_turn_dated_ahead_is_not_said_yet(store: GraphStore, embedder: Embedder,
                                            engine: SearchEngine, tenant: str) -> None:
    """A message dated after it arrived (a typo such as 2099): no view of today shows it,
    as none shows its facts; a view of a moment after its date does."""
    ingestor = Ingestor(store, ScriptedExtractor({}), embedder, clock=lambda: NOW)
    ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=[
        Message(id="a1", speaker="Alice", content="The sourdough starter is named Bubbles.",
                timestamp=day(2)),
        Message(id="f1", speaker="Alice", content="The sourdough starter is named Crumbs.",
                timestamp=datetime(2099, 1, 1, tzinfo=UTC))]))

    def said(**view: object) -> list[str]:
        return [h.sources[0] for h in engine.search(tenant, SearchRequest(
            scope=ALICE, query="sourdough starter named", **view)).results if h.kind == "turn"]

    assert said() == ["a1"]
    assert said(include_history=True) == ["a1"]
    assert sorted(said(as_of=datetime(2099, 6, 1, tzinfo=UTC))) == ["a1", "f1"]


def test_scopes_and_tenants_do_not_leak(store: GraphStore, embedder: Embedder,
                                        engine: SearchEngine, tenant: str) -> None:
    ingestor = Ingestor(store, ScriptedExtractor({}), embedder, clock=lambda: NOW)
    team, bob = Scope(group_id="team"), Scope(user_id="bob")
    ingestor.add_facts(tenant, [
        fact("LIKES", "sushi", 1, text="Alice likes sushi."),
        fact("PROJECT_USES", "Nuxt", 1, scope=team, subject="project", subject_type="project",
             text="The project uses Nuxt."),
        fact("LIKES", "pizza", 1, scope=bob, subject="Bob", text="Bob likes pizza."),
        fact("LIKES", "ramen", 1, scope=Scope(user_id="alice", group_id="team"),
             text="Alice likes ramen at team lunches."),
    ])
    ingestor.add_facts("other-tenant", [fact("LIKES", "sushi", 1, text="Alice likes sushi a lot.")])

    def seen(scope: Scope, t: str = tenant) -> set[str]:
        request = SearchRequest(scope=scope, query="likes uses food project", limit=50,
                                include_turns=False)
        return {h.text for h in engine.search(t, request).results}

    member = seen(Scope(user_id="alice", group_id="team"))
    assert member == {"Alice likes sushi.", "The project uses Nuxt.",
                      "Alice likes ramen at team lunches."}
    assert seen(ALICE) == {"Alice likes sushi."}
    assert seen(bob) == {"Bob likes pizza."}
    assert seen(ALICE, "other-tenant") == {"Alice likes sushi a lot."}


def test_chinese_facts_are_found_by_chinese_queries(store: GraphStore, embedder: Embedder,
                                                     engine: SearchEngine, tenant: str) -> None:
    ingestor = Ingestor(store, ScriptedExtractor({}), embedder, clock=lambda: NOW)
    ingestor.add_facts(tenant, [
        fact("PREFERRED_NAME", "王总", 1, subject="小王", text="用户希望被称为王总，不要叫小王。"),
        fact("LIKES", "咖啡", 1, subject="小王", text="用户喜欢喝咖啡。"),
    ])
    hits = engine.search(tenant, SearchRequest(scope=ALICE, query="咖啡", include_turns=False)).results
    assert hits[0].text == "用户喜欢喝咖啡。"
    assert "bm25" in hits[0].channels


def test_access_statistics_are_counted_off_the_hot_path(store: GraphStore, engine: SearchEngine,
                                                        seeded: Ingestor, tenant: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # they wait this long to be written together, unless flushed: longer than any search here
    monkeypatch.setattr(access_module, "ACCESS_FLUSH_SECONDS", 120)
    request = SearchRequest(scope=ALICE, query="dog named Max", include_turns=False, limit=1)
    [hit] = engine.search(tenant, request).results
    engine.search(tenant, request)
    assert store.get_facts(tenant, [hit.id])[0].access_count == 0  # not written inline

    engine.flush()

    [fact] = store.get_facts(tenant, [hit.id])
    assert fact.access_count == 2 and fact.last_accessed == NOW
