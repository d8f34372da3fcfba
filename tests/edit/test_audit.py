"""The audit log: append-only JSON lines, ids only, refused requests become ScopeErrors."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.errors import ScopeError
from graphmem.edit.audit import AuditEntry, AuditLog
from tests.lifecycle.conftest import START


def test_entries_append_and_filter(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "logs" / "audit.jsonl")
    assert log.entries() == []
    log.record(AuditEntry(at=START, tenant="a", action="forget", scope_key="user:alice",
                          targets=["fact_1"]))
    log.record_many([AuditEntry(at=START, tenant="b", action="expire_episode", targets=["ep_1"]),
                     AuditEntry(at=START, tenant="a", action="purge", targets=["fact_2"])])
    log.record_many([])
    lines = (tmp_path / "logs" / "audit.jsonl").read_text().splitlines()
    assert len(lines) == 3  # one JSON object per line, nothing rewritten
    assert [e.action for e in AuditLog(log.path).entries(tenant="a")] == ["forget", "purge"]
    assert [e.targets for e in log.entries(action="expire_episode")] == [["ep_1"]]


def test_refused_cross_scope_request_is_logged(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.jsonl")
    with pytest.raises(ScopeError, match="fact_9 is outside scope user:bob"):
        raise log.refuse(at=START, tenant="a", scope_key="user:bob", target="fact_9",
                         reason="belongs to user:alice", actor="api-key-3")
    [entry] = log.entries()
    assert (entry.action, entry.actor, entry.detail) == ("refused", "api-key-3",
                                                        "belongs to user:alice")
