"""The one-call channel read gives what the one-channel reads give, on both stores."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.embed.base import Embedder
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Message, Scope
from graphmem.search.channels import channels_by_parts
from graphmem.search.focus import focus_names
from graphmem.search.traverse import query_ngrams
from graphmem.store.base import ChannelHits, ChannelPlan, GraphStore
from graphmem.temporal import TimeFilter
from tests.ingest.helpers import ALICE, ScriptedExtractor, day, fact, said

NOW = datetime(2025, 1, 1, tzinfo=UTC)
BOB = Scope(user_id="bob")


@pytest.fixture
def seeded(store: GraphStore, embedder: Embedder, tenant: str) -> None:
    ingestor = Ingestor(store, ScriptedExtractor({
        "I moved to Lisbon with Maya Patel": [said("LIVES_IN", "Lisbon"),
                                              said("KNOWS", "Maya Patel")],
        "I work at Acme now": [said("WORKS_AT", "Acme")],
    }), embedder, clock=lambda: NOW)
    ingestor.add_facts(tenant, [
        fact("WORKS_AT", "Initech", 1, text="Alice works at Initech."),
        fact("LIKES", "hiking", 2, text="Alice likes hiking in the Alps."),
        fact("WORKS_AT", "Globex", 3, subject="Maya Patel", text="Maya Patel works at Globex."),
        fact("LIVES_IN", "Porto", 2, subject="Bob", scope=BOB, text="Bob lives in Porto."),
    ])
    for message in [
        Message(id="m1", speaker="Alice", content="I moved to Lisbon with Maya Patel",
                timestamp=day(4)),
        Message(id="m2", speaker="Alice", content="I work at Acme now", timestamp=day(5)),
        Message(id="m3", speaker="Bob", content="Lisbon is lovely in spring", timestamp=day(5)),
    ]:
        ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=[message]))


def plan(embedder: Embedder, question: str, time: TimeFilter, turn_limit: int = 20) -> ChannelPlan:
    seeds = query_ngrams(question)
    return ChannelPlan(scope_keys=ALICE.visible_keys, text=question,
                       embedding=[float(x) for x in embedder.embed([question])[0]], time=time,
                       limit=10, turn_limit=turn_limit,
                       names=sorted({*focus_names(question), *seeds}), seed_names=seeds,
                       name_text=question)


def comparable(hits: ChannelHits) -> dict[str, object]:
    """The hits, with scores rounded (BM25 and cosine are computed by different code)."""
    def scored(items: list[tuple[str, float]]) -> list[tuple[str, float]]:
        return [(i, round(s, 4)) for i, s in items]

    return {
        "entities": sorted(e.id for e in hits.entities),
        "named": [e.id for e in hits.named],
        "seeds": sorted(hits.seeds),
        "bm25": scored([(s.id, s.score) for s in hits.bm25]),
        "vector": scored([(s.id, s.score) for s in hits.vector]),
        "walked": [sorted(f.id for f in hop) for hop in hits.walked if hop],
        "similarity": sorted(scored(list(hits.similarity.items()))),
        "facts": sorted(f.model_dump_json() for f in hits.facts),
        "turns": [(t.episode_id, t.message_index, t.content, round(t.score, 4))
                  for t in hits.turns],
        "turns_vector": [(t.episode_id, t.message_index, t.content, round(t.score, 4))
                         for t in hits.turns_vector],
    }


@pytest.mark.parametrize("question", [
    "Where does Alice work?", "Who is Maya's employer?", "Lisbon", "hiking in the mountains",
    "what does Maya Patel do", "nothing matches xyzzy"])
@pytest.mark.parametrize("time", [TimeFilter(), TimeFilter(include_history=True),
                                  TimeFilter(as_of=day(2)), TimeFilter(as_known_at=day(4, 15))],
                         ids=["now", "history", "as_of", "as_known_at"])
def test_one_call_equals_the_channels(store: GraphStore, embedder: Embedder, tenant: str,
                                      seeded: None, question: str, time: TimeFilter) -> None:
    asked = plan(embedder, question, time)
    one = store.search_channels(tenant, asked)
    assert comparable(one) == comparable(channels_by_parts(store, tenant, asked))
    if question == "Where does Alice work?" and time == TimeFilter():  # not vacuous
        assert all((one.entities, one.seeds, one.bm25, one.vector, one.facts, one.turns,
                    one.turns_vector, one.similarity)) and len(one.walked[1]) > 0
    if question == "Who is Maya's employer?":  # no exact name: the BM25 names
        assert one.named


def test_one_call_through_the_vector_index(store: GraphStore, embedder: Embedder, tenant: str,
                                           seeded: None) -> None:
    """A scope too large for the exact ranking goes to the vector index in both reads."""
    if hasattr(store, "exact_scan_limit"):
        store.exact_scan_limit = 1
    asked = plan(embedder, "Where does Alice live?", TimeFilter())
    one, parts = store.search_channels(tenant, asked), channels_by_parts(store, tenant, asked)
    assert one.vector and comparable(one) == comparable(parts)


def test_without_turns_or_scope(store: GraphStore, embedder: Embedder, tenant: str,
                                seeded: None) -> None:
    asked = plan(embedder, "Lisbon", TimeFilter(), turn_limit=0)
    one = store.search_channels(tenant, asked)
    assert not one.turns and not one.turns_vector and one.bm25
    assert comparable(one) == comparable(channels_by_parts(store, tenant, asked))
    nowhere = asked.model_copy(update={"scope_keys": []})
    assert comparable(store.search_channels(tenant, nowhere)) == comparable(ChannelHits())


@pytest.mark.parametrize("share", [None, 0.3, 0.75, 1.0])
def test_one_call_with_the_vector_ranking_shared(store: GraphStore, embedder: Embedder,
                                                 tenant: str, seeded: None,
                                                 share: float | None) -> None:
    """On Neo4j a second transaction ranks part of each scope's vectors (``side_share``);
    whatever the part, the hits are those of the whole scope."""
    if hasattr(store, "side_share"):
        store.side_share = share
    for time in (TimeFilter(), TimeFilter(include_history=True)):
        asked = plan(embedder, "Where does Alice live?", time)
        one = store.search_channels(tenant, asked)
        assert one.vector and one.turns_vector
        assert comparable(one) == comparable(channels_by_parts(store, tenant, asked))
