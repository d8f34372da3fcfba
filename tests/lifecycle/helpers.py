"""Small builders shared by the lifecycle tests."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.ingest.inputs import EpisodeInput, FactInput
from graphmem.ingest.pipeline import IngestResult
from graphmem.memory import Memory
from graphmem.models import Cardinality, Category, Fact, FactStatus, Message, Scope
from graphmem.store.base import FactQuery
from graphmem.temporal import TimeFilter
from tests.lifecycle.conftest import ALICE


def chat(memory: Memory, tenant: str, *turns: str, session: str | None = None,
         scope: Scope = ALICE, at: datetime | None = None) -> IngestResult:
    """Alice and the assistant take turns; Alice speaks first."""
    when = at or memory.clock()
    messages = [Message(role="user" if i % 2 == 0 else "assistant",
                        speaker="Alice" if i % 2 == 0 else "assistant", content=t, timestamp=when)
                for i, t in enumerate(turns)]
    return memory.add_episode(tenant, EpisodeInput(scope=scope, messages=messages,
                                                   session_id=session))


def add(memory: Memory, tenant: str, predicate: str, obj: str, *, text: str,
        category: Category = Category.FACT, importance: float = 0.5, subject: str = "Alice",
        scope: Scope = ALICE, valid_from: datetime | None = None,
        cardinality: Cardinality | None = None) -> Fact:
    result = memory.add_facts(tenant, [FactInput(
        scope=scope, subject=subject, predicate=predicate, object=obj, text=text,
        category=category, importance=importance, valid_from=valid_from,
        cardinality=cardinality)])
    return [*result.created, *result.confirmed][0]


def by_status(memory: Memory, tenant: str, scope: Scope = ALICE) -> dict[str, str]:
    """text -> status of every listable fact in the scope (archived ones are not listable)."""
    facts = memory.store.list_facts(tenant, FactQuery(
        scope_keys=[scope.key], limit=10_000,
        time=TimeFilter(as_of=datetime(9999, 1, 1, tzinfo=UTC), include_history=True,
                        include_forgotten=True)))
    return {f.text: f.status.value for f in facts}


def stored(memory: Memory, tenant: str, fact_id: str) -> Fact:
    return memory.store.get_facts(tenant, [fact_id])[0]


def current_texts(memory: Memory, tenant: str, scope: Scope = ALICE) -> list[str]:
    facts = memory.store.list_facts(tenant, FactQuery(
        scope_keys=[scope.key], limit=10_000, time=TimeFilter(as_of=memory.clock())))
    return sorted(f.text for f in facts if f.status is FactStatus.ACTIVE)
