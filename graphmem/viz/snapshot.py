"""What a drawing shows: one scope's facts (history included) and their entities."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import networkx as nx
from pydantic import BaseModel

from graphmem.models import Entity, Fact, Scope, UtcDateTime, as_utc
from graphmem.store.base import FactQuery
from graphmem.temporal import TimeFilter
from graphmem.viz.style import FactState

if TYPE_CHECKING:
    from graphmem.memory import Memory


class GraphSnapshot(BaseModel):
    """The facts of one scope (history included) and their entities, as of ``at``."""

    entities: list[Entity]
    facts: list[Fact]
    at: UtcDateTime

    def entity(self, entity_id: str) -> Entity | None:
        return next((e for e in self.entities if e.id == entity_id), None)


def snapshot(memory: Memory, tenant: str, scope: Scope, *, as_of: datetime | None = None,
             include_history: bool = True, limit: int = 10_000) -> GraphSnapshot:
    """Read what to draw: the scope's facts valid at ``as_of`` (default: the memory's now),
    plus, with ``include_history``, those superseded, retracted or ended before it."""
    at = memory.clock() if as_of is None else as_utc(as_of)  # naive is UTC, as everywhere
    facts = memory.list_facts(tenant, FactQuery(
        scope_keys=scope.visible_keys, limit=limit,
        time=TimeFilter(as_of=at, include_history=include_history)))
    ids = sorted({i for f in facts for i in (f.subject_id, f.object_id)})
    entities = [e.public() for e in memory.store.get_entities(tenant, ids)]
    return GraphSnapshot(entities=sorted(entities, key=lambda e: e.name), facts=facts, at=at)


def fact_state(fact: Fact, at: datetime) -> FactState:
    """Whether ``fact`` holds at ``at``, and if not, why it stopped."""
    if fact.valid_until is None or at < fact.valid_until:
        return "current"
    if fact.superseded_by:
        return "superseded"
    return "retracted" if fact.retraction is not None else "ended"


def to_networkx(shot: GraphSnapshot) -> nx.MultiDiGraph:
    """Entities as nodes, facts as edges keyed by fact id, with what the drawings need."""
    graph = nx.MultiDiGraph()
    for entity in shot.entities:
        graph.add_node(entity.id, name=entity.name, type=entity.type)
    for fact in shot.facts:
        for end, name in ((fact.subject_id, fact.subject_name), (fact.object_id, fact.object_name)):
            if end not in graph:  # an entity the store no longer has: draw it by name
                graph.add_node(end, name=name, type="concept")
        graph.add_edge(fact.subject_id, fact.object_id, key=fact.id, predicate=fact.predicate,
                       category=fact.category, state=fact_state(fact, shot.at), text=fact.text,
                       valid_from=fact.valid_from, valid_until=fact.valid_until)
    return graph
