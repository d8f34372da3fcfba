"""An append-only audit log of what memory lost and who was refused.

Deletions, forgets (by a user or by decay), restores, hard deletions and
refused cross-scope requests each become one JSON line in a file the caller
chooses. JSON Lines because appending a line is the whole write protocol: no
schema to migrate, nothing ever rewritten, and ``grep``/``jq`` read it.

An entry names ids, never content: the log must not become a second copy of
what the user asked to forget.

>>> log = AuditLog(Path("audit.jsonl"))                                # doctest: +SKIP
>>> log.record(AuditEntry(at=now, tenant="acme", action="forget",  # doctest: +SKIP
...                         targets=["fact_1"]))
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from graphmem.errors import ScopeError, StoreError

Action = Literal["forget", "restore", "purge", "expire_episode", "delete_episode", "retract",
                 "erase", "refused", "export", "import"]


class AuditEntry(BaseModel):
    at: datetime
    tenant: str
    action: Action
    scope_key: str | None = None
    targets: list[str] = Field(default_factory=list)
    actor: str = "graphmem"
    detail: str = ""


class AuditLog:
    """One JSONL file; safe to share between the threads of one process."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()

    def record(self, entry: AuditEntry) -> None:
        self.record_many([entry])

    def record_many(self, entries: Iterable[AuditEntry]) -> None:
        """Append the entries and make them durable before returning."""
        lines = "".join(e.model_dump_json() + "\n" for e in entries)
        if not lines:
            return
        with self._lock:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with self.path.open("a", encoding="utf-8") as handle:
                    handle.write(lines)
                    handle.flush()
                    os.fsync(handle.fileno())
            except OSError as err:
                raise StoreError(f"cannot append to the audit log {self.path}: {err}") from err

    def entries(self, *, tenant: str | None = None,
                action: Action | None = None) -> list[AuditEntry]:
        """The entries so far, oldest first, optionally of one tenant or action."""
        if not self.path.exists():
            return []
        out: list[AuditEntry] = []
        with self.path.open(encoding="utf-8") as handle:
            for line in handle:
                if not line.strip():
                    continue
                entry = AuditEntry.model_validate(json.loads(line))
                if (tenant is None or entry.tenant == tenant) and (
                        action is None or entry.action == action):
                    out.append(entry)
        return out

    def refuse(self, *, at: datetime, tenant: str, scope_key: str, target: str,
               reason: str, actor: str = "graphmem") -> ScopeError:
        """Log a refused cross-scope request and return the error to raise.

        >>> raise log.refuse(at=now, tenant=t, scope_key="user:bob",           # doctest: +SKIP
        ...                  target="fact_9", reason="belongs to user:alice")
        """
        self.record(AuditEntry(at=at, tenant=tenant, action="refused", scope_key=scope_key,
                               targets=[target], actor=actor, detail=reason))
        return ScopeError(f"{target} is outside scope {scope_key}: {reason}")


def note(audit: AuditLog | None, entries: list[AuditEntry]) -> None:
    """Record ``entries`` if there is a log (every lifecycle function takes an optional one)."""
    if audit is not None and entries:
        audit.record_many(entries)
