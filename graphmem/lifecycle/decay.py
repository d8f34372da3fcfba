"""Forgetting by relevance: memories nobody uses fade, then leave recall (softly).

``relevance = exp(-rate * days since last use) * (1 + ln(1 + access count)) * importance``
where the rate follows the category's lifetime (see
:mod:`graphmem.lifecycle.policy`); core memories never decay. Below
``forget_below`` a memory is *forgotten*: status ``forgotten``, hidden from
recall, still listed by :func:`forgotten` and brought back by :func:`restore`.
Below ``demote_below`` its importance is lowered so that its relevance drops
to ``demote_to`` (0.15 by default); a memory already at or under that level
keeps its importance.

:func:`decay` is idempotent: lowering is a clamp, so lowering again changes
nothing, and it never takes relevance below the forgetting threshold, so a
second run at the same time finds nothing to do. (Lowering every memory of the
band on every run would compound: each run would push it towards forgetting,
and the result would depend on how often maintenance runs.) Memories forgotten by decay for
longer than ``purge_after_days`` can be hard-deleted.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from pydantic import BaseModel, Field

from graphmem.edit.changes import fact_changes
from graphmem.edit.unit import Edit
from graphmem.lifecycle import records
from graphmem.lifecycle.policy import DecayPolicy
from graphmem.lifecycle.todos import pending_todo_ids
from graphmem.manage.edits import restore_fact
from graphmem.memory import Memory
from graphmem.models import Category, Evidence, Fact, FactStatus, Scope, new_id
from graphmem.store.base import WriteBatch

#: Never decays whatever its category: the profile is always carried.
NEVER_DECAYS = frozenset({records.PROFILE})


class MemoryChange(BaseModel):
    id: str
    text: str
    category: Category
    relevance: float
    importance_before: float
    importance_after: float
    status_before: FactStatus
    status_after: FactStatus


class DecayReport(BaseModel):
    scope_key: str
    now: datetime
    scanned: int = 0
    forgotten: list[MemoryChange] = Field(default_factory=list)
    demoted: list[MemoryChange] = Field(default_factory=list)
    purged: list[MemoryChange] = Field(default_factory=list)
    dry_run: bool = False

    @property
    def changed(self) -> int:
        return len(self.forgotten) + len(self.demoted) + len(self.purged)


def _parts(fact: Fact, now: datetime, rate: float) -> tuple[float, float]:
    """(time factor, usage factor) of the relevance formula."""
    days = max((now - records.last_use(fact, now)).total_seconds() / 86_400, 0.0)
    return math.exp(-rate * days), 1.0 + math.log1p(fact.access_count)


def relevance(fact: Fact, now: datetime, policy: DecayPolicy = DecayPolicy()) -> float | None:
    """The fact's relevance at ``now``, or None for a memory that never decays.

    >>> relevance(fact_unused_for_100_days_importance_half, now)  # doctest: +SKIP
    0.1839...
    """
    rate = policy.rate(fact.category)
    if rate is None or fact.predicate in NEVER_DECAYS:
        return None
    time_factor, usage = _parts(fact, now, rate)
    return time_factor * usage * fact.importance


def forgotten_since(fact: Fact, policy: DecayPolicy = DecayPolicy()) -> datetime | None:
    """When decay took the fact below the forgetting threshold (None: never, or forgotten by hand).

    Solving the formula for the crossing keeps this a pure function of the
    stored fields, so no extra timestamp is needed.
    """
    rate = policy.rate(fact.category)
    if rate is None or policy.forget_below <= 0:
        return None
    strength = (1.0 + math.log1p(fact.access_count)) * fact.importance
    start = records.last_use(fact, datetime.max.replace(tzinfo=fact.recorded_at.tzinfo))
    if strength <= policy.forget_below:
        return start
    return start + timedelta(days=math.log(strength / policy.forget_below) / rate)


def _change(fact: Fact, r: float, after: Fact) -> MemoryChange:
    return MemoryChange(id=fact.id, text=fact.text, category=fact.category, relevance=round(r, 4),
                        importance_before=fact.importance, importance_after=after.importance,
                        status_before=fact.status, status_after=after.status)


def decay(memory: Memory, tenant: str, scope: Scope, *, policy: DecayPolicy = DecayPolicy(),
          now: datetime | None = None, dry_run: bool = False) -> DecayReport:
    """Forget and demote the memories stored under exactly ``scope``; report what changed.

    Forgetting and purging are audited (``forget``/``purge``, detail ``decay``).
    """
    now = now or memory.clock()
    report = DecayReport(scope_key=scope.key, now=now, dry_run=dry_run)
    with memory.edit(tenant, now=now) as edit:
        facts = records.all_facts(memory, tenant, [scope.key])
        spared = pending_todo_ids(facts)
        updates: list[Fact] = []
        for fact in facts:
            if fact.status is not FactStatus.ACTIVE or fact.id in spared:
                continue
            report.scanned += 1
            r = relevance(fact, now, policy)
            if r is None:
                continue
            if r < policy.forget_below:
                after = fact.model_copy(update={"status": FactStatus.FORGOTTEN})
                report.forgotten.append(_change(fact, r, after))
                updates.append(after)
            elif r < policy.demote_below:
                time_factor, usage = _parts(fact, now, policy.rate(fact.category) or 0.0)
                target = round(min(1.0, policy.demote_to / (time_factor * usage)), 4)
                if target < round(fact.importance, 4):
                    after = fact.model_copy(update={"importance": target})
                    report.demoted.append(_change(fact, r, after))
                    updates.append(after)
        if not dry_run:
            forgotten = {c.id for c in report.forgotten}
            edit.write(WriteBatch(facts=updates))
            edit.record([
                *fact_changes("memory.forgotten", [f for f in updates if f.id in forgotten],
                              audit="forget", detail="decay"),
                *fact_changes("memory.updated", [f for f in updates if f.id not in forgotten])])
    if policy.purge_after_days is not None:
        with memory.edit(tenant, now=now) as edit:
            report.purged = _purge(edit, facts, policy, dry_run)
    return report


def _purge(edit: Edit, facts: list[Fact], policy: DecayPolicy,
           dry_run: bool) -> list[MemoryChange]:
    """Hard-delete long-forgotten facts without reshaping the rest of their timelines.

    A deleted fact that ended its predecessor leaves an anonymous retraction
    marker (no text, no object) at its start, so the predecessor stays closed
    where it was; retraction markers that copied the deleted fact go with it.
    """
    now = edit.now
    limit = timedelta(days=policy.purge_after_days or 0)
    doomed = {f.id: f for f in facts if f.status is FactStatus.FORGOTTEN
              and (since := forgotten_since(f, policy)) is not None and now - since >= limit}
    if not doomed:
        return []
    changes = [_change(f, relevance(f, now, policy) or 0.0, f) for f in doomed.values()]
    if dry_run:
        return changes
    editor = edit.timeline()
    editor.load_facts(list(doomed.values()))
    timeline = edit.store.facts_in_timelines(edit.tenant,
                                             sorted({f.timeline_key for f in doomed.values()}))
    drop = set(doomed)
    for fact in doomed.values():
        same = [t for t in timeline if t.timeline_key == fact.timeline_key and t.id not in doomed]
        live = [t for t in same if t.status in (FactStatus.ACTIVE, FactStatus.FORGOTTEN)]
        if not any(t.object_id == fact.object_id for t in live):
            drop |= {t.id for t in same if t.status is FactStatus.RETRACTION
                     and t.object_id == fact.object_id}
        if any(t.valid_from < fact.valid_from for t in live):
            editor.replace(fact.model_copy(update={
                "id": new_id("fact"), "status": FactStatus.RETRACTION, "text": "",
                "object_id": "", "object_name": "", "embedding": None, "supersedes": [],
                "superseded_by": None, "retraction": None, "valid_until": None,
                "stated_until": None, "expired_at": None, "episode_ids": [], "message_ids": [],
                "evidence": [Evidence(at=fact.valid_from)]}))
    for fid in drop:
        editor.drop(fid)
    outcome = editor.finish()
    deleted = drop | set(outcome.deleted_ids)
    edit.write(WriteBatch(
        facts=[f for f in outcome.changed if f.id not in deleted], delete_fact_ids=sorted(deleted)))
    edit.record(fact_changes("memory.deleted", list(doomed.values()), audit="purge",
                             detail=f"forgotten > {policy.purge_after_days} days"))
    return changes


def forgotten(memory: Memory, tenant: str, scope: Scope) -> list[Fact]:
    """The memories forgotten in ``scope``: hidden from recall, listed here, restorable."""
    return [f.public() for f in records.all_facts(memory, tenant, [scope.key])
            if f.status is FactStatus.FORGOTTEN]


def restore(memory: Memory, tenant: str, fact_id: str, *, scope: Scope | None = None,
            policy: DecayPolicy = DecayPolicy(), now: datetime | None = None) -> Fact:
    """Bring a forgotten memory back (:func:`graphmem.manage.edits.restore_fact`, with the
    policy's ``restore_importance``): restoring counts as a use, so decay starts over."""
    return restore_fact(memory, tenant, fact_id, scope, importance=policy.restore_importance,
                        now=now)
