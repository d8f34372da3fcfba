"""The sink an application attaches to its memory: live events and the one audit trail.

Every committed change becomes an :class:`~graphmem.events.Event` on the
application's :class:`~graphmem.events.EventBus` (what ``/v1/events``
streams) and, when it is one worth auditing (something lost, restored,
imported, exported or refused), a line in the JSONL
:class:`~graphmem.edit.audit.AuditLog`. Changes of one edit that share an
action, scope and reason share a line; each target is named in exactly one.

>>> memory.attach(EventSink(bus, AuditLog(settings.audit_log)))  # doctest: +SKIP
"""

from __future__ import annotations

from datetime import datetime

from graphmem.edit.audit import AuditEntry, AuditLog
from graphmem.edit.changes import Change
from graphmem.events import EventBus, event_of


class EventSink:
    """Publishes each change to ``bus`` and audits it in ``audit``; either may be None.

    ``actor`` names who made the changes in the audit trail when it is not graphmem
    itself (the CLI passes ``"cli"``).
    """

    def __init__(self, bus: EventBus | None = None, audit: AuditLog | None = None, *,
                 actor: str | None = None) -> None:
        self.bus = bus
        self.audit = audit
        self.actor = actor

    def committed(self, tenant: str, at: datetime, changes: list[Change]) -> None:
        if self.audit is not None:
            if self.actor is not None:
                changes = [c.model_copy(update={"actor": self.actor}) for c in changes]
            self.audit.record_many(audit_entries(tenant, at, changes))
        if self.bus is not None:
            self.bus.publish_all(tenant, [e for c in changes if (e := event_of(c, at)) is not None])


def audit_entries(tenant: str, at: datetime, changes: list[Change]) -> list[AuditEntry]:
    """One entry per (action, scope, reason, actor) of ``changes``, naming each target once."""
    grouped: dict[tuple[str, str | None, str, str], AuditEntry] = {}
    for change in changes:
        if change.audit is None:
            continue
        key = (change.audit, change.scope_key, change.detail, change.actor)
        entry = grouped.setdefault(key, AuditEntry(
            at=at, tenant=tenant, action=change.audit, scope_key=change.scope_key,
            actor=change.actor, detail=change.detail))
        if change.target and change.target not in entry.targets:
            entry.targets.append(change.target)
    return list(grouped.values())
