"""A scope's full-text ranking is its own, on both stores: how rare a word is counts within
the scope, and no other tenant's or user's writes move a tenant's results."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from graphmem.embed.base import Embedder
from graphmem.ingest.inputs import EpisodeInput
from graphmem.ingest.pipeline import Ingestor
from graphmem.models import Message, Scope
from graphmem.search.focus import focus_names
from graphmem.search.traverse import query_ngrams
from graphmem.store.base import ChannelPlan, GraphStore
from graphmem.store.text import BM25_B, BM25_K1
from graphmem.temporal import TimeFilter
from tests.ingest.helpers import ALICE, ScriptedExtractor, fact

NOW = datetime(2025, 1, 1, tzinfo=UTC)
BOB = Scope(user_id="bob")
QUESTION = "Did Alice walk the dog in the park?"


def _ingestor(store: GraphStore, embedder: Embedder) -> Ingestor:
    return Ingestor(store, ScriptedExtractor({}), embedder, clock=lambda: NOW)


def _alice(store: GraphStore, embedder: Embedder, tenant: str) -> None:
    """Alice's scope: "dog" in four turns and facts, "park" in one."""
    ingestor = _ingestor(store, embedder)
    ingestor.add_facts(tenant, [
        *(fact("OWNS", f"dog {i}", 1, text=f"Alice's dog number {i} sleeps a lot.")
          for i in range(4)),
        fact("LIKES", "the park", 2, text="Alice likes the city park."),
    ])
    ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=[
        *(Message(id=f"d{i}", speaker="Alice", content=f"My dog number {i} sleeps a lot.")
          for i in range(4)),
        Message(id="p", speaker="Alice", content="The city park opened again."),
    ]))


def _crowd(store: GraphStore, embedder: Embedder, tenant: str, scope: Scope) -> None:
    """Someone else's data, full of "park" and without "dog"."""
    ingestor = _ingestor(store, embedder)
    ingestor.add_facts(tenant, [fact("VISITED", f"park {i}", 1, scope=scope, subject="Zed",
                                     text=f"Zed visited park {i} near the big park.")
                                for i in range(30)])
    ingestor.ingest(tenant, EpisodeInput(scope=scope, messages=[
        Message(id=f"c{i}", speaker="Zed", content=f"Park {i} is a lovely park, the park of parks.")
        for i in range(30)]))


def _rankings(store: GraphStore, embedder: Embedder, tenant: str) -> dict[str, object]:
    keys = ALICE.visible_keys
    seeds = query_ngrams(QUESTION)
    hits = store.search_channels(tenant, ChannelPlan(
        scope_keys=keys, text=QUESTION, embedding=[float(x) for x in embedder.embed([QUESTION])[0]],
        time=TimeFilter(), limit=10, turn_limit=10, names=sorted({*focus_names(QUESTION), *seeds}),
        seed_names=seeds, name_text=QUESTION))

    def exact(items: list[tuple[str, float]]) -> list[tuple[str, float]]:
        return [(i, round(s, 9)) for i, s in items]

    return {
        "facts": exact([(h.id, h.score) for h in store.fulltext_facts(
            tenant, keys, QUESTION, TimeFilter(), 10)]),
        "turns": exact([(str(h.message_id), h.score) for h in store.fulltext_turns(
            tenant, keys, QUESTION, 10)]),
        "entities": exact([(h.id, h.score) for h in store.fulltext_entities(
            tenant, keys, "Alice dog park", 10)]),
        "one_call_bm25": exact([(h.id, h.score) for h in hits.bm25]),
        "one_call_turns": exact([(str(h.message_id), h.score) for h in hits.turns]),
    }


@pytest.mark.parametrize("where", ["another tenant", "another user of the tenant"])
def test_others_writes_never_move_a_scopes_ranking(store: GraphStore, embedder: Embedder,
                                                   tenant: str, where: str) -> None:
    _alice(store, embedder, tenant)
    before = _rankings(store, embedder, tenant)
    if where == "another tenant":
        _crowd(store, embedder, tenant + "-other", ALICE)  # the same user id, elsewhere
    else:
        _crowd(store, embedder, tenant, BOB)

    after = _rankings(store, embedder, tenant)

    assert after == before  # the same ids, in the same order, with the same scores
    assert before["turns"] and before["facts"] and before["one_call_turns"]


def test_the_word_rare_in_the_scope_weighs_most(store: GraphStore, embedder: Embedder,
                                                tenant: str) -> None:
    _alice(store, embedder, tenant)
    _crowd(store, embedder, tenant + "-other", ALICE)  # "park" everywhere but in Alice's scope

    turns = store.fulltext_turns(tenant, ALICE.visible_keys, "dog park", 10)
    facts = store.fulltext_facts(tenant, ALICE.visible_keys, "dog park", TimeFilter(), 10)

    assert turns[0].message_id == "p"  # one turn of five says "park", four say "dog"
    assert sorted(h.message_id or "" for h in turns) == ["d0", "d1", "d2", "d3", "p"]
    assert store.get_facts(tenant, [facts[0].id])[0].text == "Alice likes the city park."
    assert len(facts) == 5


def test_ties_go_to_what_was_said_first(store: GraphStore, embedder: Embedder,
                                        tenant: str) -> None:
    """Twelve turns equal for the query: in the order said, whatever rows they took
    (row numbers compared as text would put "10" before "9")."""
    names = ["Abe", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ian", "Joy", "Kai", "Lou"]
    ingestor = _ingestor(store, embedder)
    for name in names:  # one conversation each: no neighbours' words to tell them apart
        ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=[
            Message(id=name, speaker="Alice", content=f"Our dog {name} barked.")]))

    found = store.fulltext_turns(tenant, ALICE.visible_keys, "dog", 12)

    assert len({round(h.score, 9) for h in found}) == 1  # a twelve-way tie
    assert [h.message_id for h in found] == names


def test_a_word_in_most_of_the_scope_ranks_nothing(store: GraphStore, embedder: Embedder,
                                                   tenant: str) -> None:
    """Every turn carries its speaker's name: in Maya's 24 turns "Maya" tells nothing."""
    ingestor = _ingestor(store, embedder)
    for i in range(24):
        said = "My sister Lena visited." if i == 7 else f"Walked {i} miles today."
        ingestor.ingest(tenant, EpisodeInput(scope=ALICE, messages=[
            Message(id=f"m{i}", speaker="Maya", content=said)]))

    found = store.fulltext_turns(tenant, ALICE.visible_keys, "Maya sister", 10)

    assert [h.message_id for h in found] == ["m7"]


def test_a_common_word_leaves_the_mean_length_too(store: GraphStore, embedder: Embedder,
                                                  tenant: str) -> None:
    """"Maya" is in all of Maya's 24 facts, so it counts for nothing; the length the two
    kayak facts are measured against is their own mean, not that of all 24 (on both
    stores: the scores are BM25's, computed here by hand)."""
    texts = [f"Maya kayak trip {'on the long river ' * i}." if i in (3, 9)
             else f"Maya walked {i} miles{' and back' * (i % 5)}." for i in range(24)]
    _ingestor(store, embedder).add_facts(tenant, [
        fact("DID", f"thing {i}", 1, subject="Maya", text=text) for i, text in enumerate(texts)])

    found = store.fulltext_facts(tenant, ALICE.visible_keys, "Maya kayak", TimeFilter(), 10)

    kayak = [len(t) for t in texts if "kayak" in t]
    mean = sum(kayak) / len(kayak)
    idf = math.log(1 + (24 - 2 + 0.5) / (2 + 0.5))
    expected = sorted((idf * (BM25_K1 + 1) / (1 + BM25_K1 * (1 - BM25_B + BM25_B * n / mean))
                       for n in kayak), reverse=True)
    assert [h.score for h in found] == pytest.approx(expected, rel=1e-9)
