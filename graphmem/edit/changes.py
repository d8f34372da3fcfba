"""What an edit hands on after its store commit: the changes, and who hears of them.

A :class:`Change` is one thing that happened to one memory (or one episode,
or one refused request): the event a live subscriber sees (``kind``) and the
line the audit trail keeps (``audit``), either or both. An edit collects
them while it runs and passes them to its :class:`ChangeSink` only once the
store has committed, so nobody ever hears of a change that did not happen.

The library does not know who listens: the REST app plugs in a sink that
publishes to its event bus and appends to its audit log
(:class:`graphmem.edit.publish.EventSink`); a bare :class:`~graphmem.memory.Memory`
has none and changes go unheard.
"""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Literal, Protocol

from pydantic import BaseModel

from graphmem.edit.audit import Action
from graphmem.models import Fact

ChangeKind = Literal[
    "memory.created", "memory.updated", "memory.superseded", "memory.forgotten",
    "memory.restored", "memory.deleted", "todo.completed", "todo.cancelled", "todo.expired",
]


class Change(BaseModel):
    """One change to one target: an event (``kind``), an audit line (``audit``), or both.

    ``fact`` travels without its embedding; the audit trail keeps ``target``
    (an id; empty for a change of a whole scope, like an export) and never the
    fact's content.
    """

    target: str
    kind: ChangeKind | None = None
    audit: Action | None = None
    scope_key: str | None = None
    episode_id: str | None = None
    fact: Fact | None = None
    detail: str = ""
    actor: str = "graphmem"


class ChangeSink(Protocol):
    """Hears what an edit committed; called after the store commit, under the edit lock
    (so changes arrive in commit order) and never for an edit that failed."""

    def committed(self, tenant: str, at: datetime, changes: list[Change]) -> None: ...


class Sinks:
    """The sinks one :class:`~graphmem.memory.Memory` hands its changes to.

    An app that holds the memory attaches its own sink for as long as it runs;
    a sink that raises fails the call that made the change (the store has
    committed by then, as an audit log that cannot be written must be noticed).
    """

    def __init__(self, sinks: list[ChangeSink] | None = None) -> None:
        self._sinks: list[ChangeSink] = list(sinks or [])
        self._lock = threading.Lock()

    def attach(self, sink: ChangeSink) -> None:
        with self._lock:
            self._sinks.append(sink)

    def detach(self, sink: ChangeSink) -> None:
        with self._lock:
            if sink in self._sinks:
                self._sinks.remove(sink)

    def committed(self, tenant: str, at: datetime, changes: list[Change]) -> None:
        if not changes:
            return
        with self._lock:
            targets = list(self._sinks)
        for sink in targets:
            sink.committed(tenant, at, changes)


def fact_changes(kind: ChangeKind, facts: list[Fact], *, audit: Action | None = None,
                 episode_id: str | None = None, detail: str = "") -> list[Change]:
    """One change per fact, each carrying the fact without its embedding."""
    return [Change(target=f.id, kind=kind, audit=audit, scope_key=f.scope_key,
                   episode_id=episode_id, fact=f.public(), detail=detail) for f in facts]
