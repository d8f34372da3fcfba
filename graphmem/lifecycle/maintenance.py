"""One maintenance run: every lifecycle job, in the order that keeps information.

1. summarise sessions that ended (before their raw episodes can expire);
2. delete expired raw episodes (not pinned) — the episode rows only: facts
   keep their provenance ids (unlike ``Ingestor.delete_episode``, which
   deletes what only that episode said);
3. close todos reported done in later conversation, expire long-overdue ones;
4. decay: demote and forget;
5. consolidation: merge duplicates, compress old groups;
6. refresh the profile when it is due.

Each step is idempotent, so the run is: a second run at the same time changes
nothing. Run it from cron (``graphmem maintain``) or the API.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from graphmem.lifecycle import todos
from graphmem.edit.changes import Change
from graphmem.lifecycle.consolidate import ConsolidationReport, consolidate
from graphmem.lifecycle.decay import DecayReport, decay
from graphmem.lifecycle.policy import LifecyclePolicy
from graphmem.lifecycle.profile import ProfileRefresh, refresh_profile
from graphmem.lifecycle.summaries import ended_sessions, summarize_session
from graphmem.lifecycle.writer import Writer
from graphmem.memory import Memory
from graphmem.models import Scope
from graphmem.store.base import WriteBatch


class ScopeReport(BaseModel):
    scope_key: str
    summarized_sessions: list[str] = Field(default_factory=list)
    completed_todos: list[str] = Field(default_factory=list)
    expired_todos: list[str] = Field(default_factory=list)
    decay: DecayReport
    consolidation: ConsolidationReport
    profile: ProfileRefresh | None = None


class MaintenanceReport(BaseModel):
    tenant: str
    ran_at: datetime
    dry_run: bool = False
    expired_episodes: list[str] = Field(default_factory=list)
    scopes: list[ScopeReport] = Field(default_factory=list)

    @property
    def changed(self) -> int:
        return len(self.expired_episodes) + sum(
            len(s.summarized_sessions) + len(s.completed_todos) + len(s.expired_todos)
            + s.decay.changed + s.consolidation.changed + int(bool(s.profile and s.profile.changed))
            for s in self.scopes)


def expire_episodes(memory: Memory, tenant: str, *, scopes: list[Scope] | None = None,
                    now: datetime | None = None, dry_run: bool = False) -> list[str]:
    """Delete expired, unpinned raw episodes; the facts they asserted stay, ids and all.

    Audited as ``expire_episode``; no memory event (no memory changed).
    """
    now = now or memory.clock()
    keys = None if scopes is None else {s.key for s in scopes}
    with memory.edit(tenant, now=now) as edit:
        ids = memory.store.expired_episode_ids(tenant, now)
        if keys is not None:
            ids = [i for i in ids if (e := memory.store.get_episode(tenant, i)) is not None
                   and e.scope_key in keys]
        ids = sorted(ids)
        if not dry_run:
            edit.write(WriteBatch(delete_episode_ids=ids))
            edit.record([Change(target=i, audit="expire_episode") for i in ids])
    return ids


def maintain(memory: Memory, tenant: str, scopes: list[Scope], *,
             policy: LifecyclePolicy = LifecyclePolicy(), now: datetime | None = None,
             writer: Writer | None = None, dry_run: bool = False) -> MaintenanceReport:
    """Run every lifecycle job for ``scopes`` (episode expiry covers the tenant if none given)."""
    now = now or memory.clock()
    report = MaintenanceReport(tenant=tenant, ran_at=now, dry_run=dry_run)
    summarized: dict[str, list[str]] = {}
    for scope in scopes:
        done: list[str] = []
        if not dry_run:
            for session in ended_sessions(memory, tenant, scope, now=now, policy=policy.summaries):
                if summarize_session(memory, tenant, scope, session, writer=writer,
                                     policy=policy.summaries) is not None:
                    done.append(session)
        summarized[scope.key] = done
    report.expired_episodes = expire_episodes(memory, tenant, scopes=scopes or None, now=now,
                                              dry_run=dry_run)
    for scope in scopes:
        completed = [] if dry_run else todos.complete_by_conversation(memory, tenant, scope, now=now)
        expired = todos.expire_overdue(memory, tenant, scope, now=now, policy=policy.todos,
                                       dry_run=dry_run)
        report.scopes.append(ScopeReport(
            scope_key=scope.key, summarized_sessions=summarized[scope.key],
            completed_todos=[t.id for t in completed], expired_todos=[t.id for t in expired],
            decay=decay(memory, tenant, scope, policy=policy.decay, now=now, dry_run=dry_run),
            consolidation=consolidate(memory, tenant, scope, policy=policy.consolidation, now=now,
                                      dry_run=dry_run),
            profile=refresh_profile(memory, tenant, scope, writer=writer, policy=policy.profile,
                                    now=now, dry_run=dry_run)))
    return report
