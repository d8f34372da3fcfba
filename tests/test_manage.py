"""Bulk soft changes of :mod:`graphmem.manage`: "clear all memories" and its undo, on both stores."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem.embed.base import Embedder
from graphmem.manage import forget_fact, forget_scope, get_fact, restore_facts
from graphmem.memory import Memory
from graphmem.ingest.inputs import EpisodeInput
from graphmem.models import FactStatus, Message, Scope
from graphmem.search.models import SearchRequest
from graphmem.store.base import GraphStore
from tests.ingest.helpers import ALICE, ScriptedExtractor, fact

BOB = Scope(user_id="bob")


@pytest.fixture
def memory(store: GraphStore, embedder: Embedder) -> Iterator[Memory]:
    mem = Memory(store, ScriptedExtractor({}), embedder)
    yield mem
    mem.engine.close()


def _add(memory: Memory, tenant: str, *facts: tuple[str, str, int], scope: Scope = ALICE) -> list[str]:
    result = memory.add_facts(tenant, [fact(p, o, m, scope=scope) for p, o, m in facts])
    return [f.id for f in result.created]


def test_clearing_a_scope_forgets_its_active_facts_and_undo_restores_exactly_those(
        memory: Memory, tenant: str) -> None:
    tea, hiking, lisbon = _add(memory, tenant, ("LIKES", "tea", 1), ("LIKES", "hiking", 2),
                               ("LIVES_IN", "Lisbon", 3))
    [bobs] = _add(memory, tenant, ("LIKES", "chess", 1), scope=BOB)
    forget_fact(memory, tenant, tea)  # forgotten before the clear: must stay forgotten

    cleared = forget_scope(memory, tenant, ALICE)

    assert sorted(f.id for f in cleared.facts) == sorted([hiking, lisbon])
    assert all(f.status is FactStatus.FORGOTTEN and f.embedding is None for f in cleared.facts)
    assert get_fact(memory, tenant, lisbon).status is FactStatus.FORGOTTEN
    assert get_fact(memory, tenant, bobs).status is FactStatus.ACTIVE  # another scope

    restored = restore_facts(memory, tenant, [f.id for f in cleared.facts], ALICE)

    assert sorted(f.id for f in restored) == sorted([hiking, lisbon])
    assert get_fact(memory, tenant, hiking).status is FactStatus.ACTIVE
    assert get_fact(memory, tenant, tea).status is FactStatus.FORGOTTEN
    assert restore_facts(memory, tenant, [hiking, lisbon], ALICE) == []  # a retried undo


def test_restore_skips_facts_outside_the_scope_and_other_tenants(memory: Memory,
                                                                 tenant: str) -> None:
    [bobs] = _add(memory, tenant, ("LIKES", "chess", 1), scope=BOB)
    forget_scope(memory, tenant, BOB)

    assert restore_facts(memory, tenant, [bobs], ALICE) == []
    assert restore_facts(memory, tenant + "x", [bobs]) == []
    assert get_fact(memory, tenant, bobs).status is FactStatus.FORGOTTEN
    assert forget_scope(memory, tenant, ALICE).facts == []


def test_a_cleared_scope_recalls_no_turn_until_the_undo(memory: Memory, tenant: str) -> None:
    """A turn no fact came from ("I don't eat meat.") is forgotten with the scope, kept."""
    said = memory.add_episode(tenant, EpisodeInput(scope=ALICE, messages=[
        Message(speaker="Alice", content="I don't eat meat, and pizza night is Friday.")]))
    memory.add_episode(tenant, EpisodeInput(scope=BOB, messages=[
        Message(speaker="Bob", content="Pizza night is Friday for me too.")]))
    vector = [float(x) for x in memory.embedder.embed(["pizza night"])[0]]

    def recalled(scope: Scope) -> tuple[list[str], list[str]]:
        keys = scope.visible_keys
        return ([h.content for h in memory.store.fulltext_turns(tenant, keys, "pizza night", 5)],
                [h.content for h in memory.store.vector_turns(tenant, keys, vector, 5)])

    assert recalled(ALICE) == (["I don't eat meat, and pizza night is Friday."],) * 2

    cleared = forget_scope(memory, tenant, ALICE)

    assert cleared.episode_ids == [said.episode_id]
    assert recalled(ALICE) == ([], [])
    assert recalled(BOB)[0] == ["Pizza night is Friday for me too."]  # another scope's stay
    kept = memory.store.get_episode(tenant, str(said.episode_id))
    assert kept is not None and kept.forgotten  # kept, for the undo
    search = memory.search(tenant, SearchRequest(scope=ALICE, query="Does Alice eat meat?"))
    assert search.results == []

    restore_facts(memory, tenant, [], ALICE, cleared.episode_ids)

    assert recalled(ALICE) == (["I don't eat meat, and pizza night is Friday."],) * 2
    assert forget_scope(memory, tenant, ALICE).episode_ids == [said.episode_id]
    assert forget_scope(memory, tenant, ALICE).episode_ids == []  # nothing left to clear
