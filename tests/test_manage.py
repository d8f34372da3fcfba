"""Bulk soft changes of :mod:`graphmem.manage`: "clear all memories" and its undo, on both stores."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem.embed.base import Embedder
from graphmem.manage import forget_fact, forget_scope, get_fact, restore_facts
from graphmem.memory import Memory
from graphmem.models import FactStatus, Scope
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

    assert sorted(f.id for f in cleared) == sorted([hiking, lisbon])
    assert all(f.status is FactStatus.FORGOTTEN and f.embedding is None for f in cleared)
    assert get_fact(memory, tenant, lisbon).status is FactStatus.FORGOTTEN
    assert get_fact(memory, tenant, bobs).status is FactStatus.ACTIVE  # another scope

    restored = restore_facts(memory, tenant, [f.id for f in cleared], ALICE)

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
    assert forget_scope(memory, tenant, ALICE) == []
