"""Turn resolved statements into timeline changes.

A :class:`TimelineEditor` holds the timelines an episode touches, loaded from
the store once. Statements are applied one by one (assert: confirm an equal
fact or add a new one; retract: close the matching fact), then every touched
timeline is rebuilt by :func:`graphmem.temporal.rebuild_timeline`. Only those
timelines can change, so nothing unrelated is ever invalidated.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from graphmem.models import Cardinality, Category, Fact, FactStatus, Retraction
from graphmem.predicates import PredicateRegistry
from graphmem.store.base import GraphStore
from graphmem.temporal import rebuild_timeline, timeline_key


@dataclass
class Statement:
    """One resolved statement, ready to apply."""

    scope_key: str
    subject_id: str
    subject_name: str
    predicate: str
    object_id: str
    object_name: str
    text: str
    category: Category
    importance: float
    confidence: float
    cardinality: str | None
    valid_from: datetime
    stated_until: datetime | None
    episode_id: str | None
    message_ids: list[str]
    retract: bool = False


@dataclass
class Outcome:
    created: list[Fact] = field(default_factory=list)
    confirmed: list[Fact] = field(default_factory=list)
    superseded: list[Fact] = field(default_factory=list)
    retracted: list[Fact] = field(default_factory=list)
    reopened: list[Fact] = field(default_factory=list)
    changed: list[Fact] = field(default_factory=list)  # everything to write
    unmatched_retractions: list[str] = field(default_factory=list)


def merge_confidence(a: float, b: float) -> float:
    """Independent confirmations raise confidence: 1 - (1-a)(1-b), capped below certainty."""
    return round(min(0.99, 1 - (1 - a) * (1 - b)), 4)


class TimelineEditor:
    def __init__(self, store: GraphStore, tenant: str, registry: PredicateRegistry,
                 now: datetime) -> None:
        self.store = store
        self.tenant = tenant
        self.registry = registry
        self.now = now
        self._timelines: dict[str, dict[str, Fact]] = {}
        self._before: dict[str, Fact] = {}
        self._created: list[Fact] = []
        self._confirmed: dict[str, Fact] = {}
        self._retracted: dict[str, Fact] = {}
        self._unmatched: list[str] = []

    def key_of(self, st: Statement) -> str:
        spec = self.registry.spec(st.predicate, _cardinality(st.cardinality))
        return timeline_key(st.scope_key, st.subject_id, spec.family, spec.cardinality,
                            st.object_id)

    def load(self, statements: list[Statement]) -> None:
        keys = [k for k in dict.fromkeys(self.key_of(s) for s in statements)
                if k not in self._timelines]
        for key in keys:
            self._timelines[key] = {}
        for fact in self.store.facts_in_timelines(self.tenant, keys):
            self._timelines[fact.timeline_key][fact.id] = fact
            self._before[fact.id] = fact

    def load_facts(self, facts: list[Fact]) -> None:
        """Load the whole timelines of these facts (used by deletions and edits)."""
        keys = [k for k in dict.fromkeys(f.timeline_key for f in facts) if k not in self._timelines]
        for key in keys:
            self._timelines[key] = {}
        for fact in self.store.facts_in_timelines(self.tenant, keys):
            self._timelines[fact.timeline_key][fact.id] = fact
            self._before[fact.id] = fact

    def apply(self, st: Statement) -> None:
        key = self.key_of(st)
        if key not in self._timelines:
            self.load([st])
        if st.retract:
            self._retract(key, st)
        else:
            self._assert(key, st)

    def replace(self, fact: Fact) -> None:
        """Put an edited copy of a loaded fact back into its timeline."""
        self._timelines.setdefault(fact.timeline_key, {})[fact.id] = fact

    def drop(self, fact_id: str) -> None:
        for timeline in self._timelines.values():
            timeline.pop(fact_id, None)

    def confirm(self, fact_id: str, episode_id: str) -> None:
        """Record that an episode restated a loaded fact."""
        fact = self._find(fact_id)
        if fact is not None:
            merged = fact.model_copy(update={"episode_ids": _union(fact.episode_ids, [episode_id])})
            self.replace(merged)
            self._confirmed[fact_id] = merged

    def retract_fact(self, fact_id: str, at: datetime, episode_id: str) -> None:
        """Close a loaded fact at ``at`` with no replacement."""
        fact = self._find(fact_id)
        if fact is not None and fact.retraction is None and fact.valid_from <= at:
            closed = fact.model_copy(update={"retraction": Retraction(at=at, episode_id=episode_id)})
            self.replace(closed)
            self._retracted[fact_id] = closed

    def _find(self, fact_id: str) -> Fact | None:
        for timeline in self._timelines.values():
            if fact_id in timeline:
                return timeline[fact_id]
        return None

    def _assert(self, key: str, st: Statement) -> None:
        timeline = self._timelines[key]
        same = _same_value_at(timeline.values(), st)
        if same is not None:
            merged = same.model_copy(update={
                "episode_ids": _union(same.episode_ids, [st.episode_id] if st.episode_id else []),
                "message_ids": _union(same.message_ids, st.message_ids),
                "confidence": merge_confidence(same.confidence, st.confidence),
                "importance": max(same.importance, st.importance),
                "valid_from": min(same.valid_from, st.valid_from),
                "status": FactStatus.ACTIVE if same.status is FactStatus.FORGOTTEN else same.status,
            })
            timeline[same.id] = merged
            if same.id not in {f.id for f in self._created}:
                self._confirmed[same.id] = merged
            return
        spec = self.registry.spec(st.predicate, _cardinality(st.cardinality))
        fact = Fact(
            tenant=self.tenant, scope_key=st.scope_key, subject_id=st.subject_id,
            subject_name=st.subject_name, predicate=st.predicate, object_id=st.object_id,
            object_name=st.object_name, text=st.text, category=st.category,
            importance=st.importance, confidence=st.confidence, cardinality=spec.cardinality,
            timeline_key=key, valid_from=st.valid_from, stated_until=st.stated_until,
            recorded_at=self.now, episode_ids=[st.episode_id] if st.episode_id else [],
            message_ids=list(st.message_ids),
        )
        timeline[fact.id] = fact
        self._created.append(fact)

    def _retract(self, key: str, st: Statement) -> None:
        timeline = self._timelines[key]
        targets = [f for f in timeline.values()
                   if f.status is not FactStatus.ARCHIVED and f.retraction is None
                   and f.valid_from <= st.valid_from
                   and (f.valid_until is None or st.valid_from < f.valid_until)
                   and (not st.object_id or f.object_id == st.object_id)]
        if not targets:
            self._unmatched.append(st.text)
            return
        for fact in targets:
            closed = fact.model_copy(update={"retraction": Retraction(
                at=st.valid_from, episode_id=st.episode_id, message_ids=list(st.message_ids))})
            timeline[fact.id] = closed
            self._retracted[fact.id] = closed

    def finish(self) -> Outcome:
        """Rebuild every touched timeline and say what changed."""
        out = Outcome()
        latest: dict[str, Fact] = {}
        for timeline in self._timelines.values():
            for fact in timeline.values():
                latest[fact.id] = fact
            for fact in rebuild_timeline(timeline.values(), self.now):
                latest[fact.id] = fact
                timeline[fact.id] = fact
        created_ids = {f.id for f in self._created}
        for fid, fact in latest.items():
            before = self._before.get(fid)
            if before is None or before != fact:
                out.changed.append(fact)
            if fid in created_ids:
                out.created.append(fact)
            elif fid in self._confirmed:
                out.confirmed.append(fact)
            if fid in self._retracted:
                out.retracted.append(fact)
            elif fact.superseded_by and (before is None or before.superseded_by != fact.superseded_by):
                out.superseded.append(fact)
            if before is not None and before.valid_until is not None and fact.valid_until is None:
                out.reopened.append(fact)
        out.unmatched_retractions = list(self._unmatched)
        return out


def _cardinality(value: str | None) -> Cardinality | None:
    return None if value is None else Cardinality(value)


def _same_value_at(facts: Iterable[Fact], st: Statement) -> Fact | None:
    """The fact with the same value that holds at the statement's time, or starts next."""
    candidates = [f for f in facts if f.status is not FactStatus.ARCHIVED and f.retraction is None]
    candidates.sort(key=lambda f: (f.valid_from, f.recorded_at))
    holding = [f for f in candidates if f.valid_from <= st.valid_from
               and (f.valid_until is None or st.valid_from < f.valid_until)]
    if holding and (holding[-1].predicate, holding[-1].object_id) == (st.predicate, st.object_id):
        return holding[-1]
    later = [f for f in candidates if f.valid_from > st.valid_from]
    if later and (later[0].predicate, later[0].object_id) == (st.predicate, st.object_id):
        return later[0]
    return None


def _union(a: list[str], b: list[str]) -> list[str]:
    return list(dict.fromkeys([*a, *b]))
