"""One maintenance run does every job, keeps what expiry must keep, and is idempotent."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from graphmem.embed.base import Embedder
from graphmem.extract.rules import RuleExtractor
from graphmem.edit.audit import AuditLog
from graphmem.edit.publish import EventSink
from graphmem.lifecycle.maintenance import maintain
from graphmem.lifecycle.profile import current_profile
from graphmem.lifecycle.summaries import get_summary
from graphmem.lifecycle.todos import list_todos
from graphmem.memory import Memory
from graphmem.models import Category
from graphmem.store.base import GraphStore, WriteBatch
from tests.lifecycle.conftest import ALICE, START, Clock
from tests.lifecycle.helpers import add, by_status, chat


def test_maintenance_before_and_after(store: GraphStore, rules: RuleExtractor, embedder: Embedder,
                                      tenant: str, clock: Clock, tmp_path: Path) -> None:
    memory = Memory(store, rules, embedder, clock=clock, episode_retention=timedelta(days=7))
    audit = AuditLog(tmp_path / "audit.jsonl")
    memory.attach(EventSink(audit=audit))  # the one audit trail
    first = chat(memory, tenant, "I work at Acme.", "Nice.",
                 "Can you help me plan a trip to Lisbon?", "Sure: Alfama first.", session="s1")
    kept = chat(memory, tenant, "Remind me to send the report on Friday.", "Will do.",
                session="s2")
    episode = memory.get_episode(tenant, kept.episode_id or "")
    memory.store.write(tenant, WriteBatch(episodes=[episode.model_copy(update={"pinned": True})]))
    add(memory, tenant, "HAS_VISITED", "Porto", text="Alice visited Porto.",
        category=Category.EVENT)
    acme = next(f for f in first.created if f.object_name == "Acme")

    clock.advance(days=8)
    report = maintain(memory, tenant, [ALICE])
    [scope] = report.scopes
    assert scope.summarized_sessions == ["s1"]  # summarised before its episode expired
    assert report.expired_episodes == [first.episode_id]
    assert memory.store.get_episode(tenant, first.episode_id or "") is None
    assert memory.store.get_episode(tenant, kept.episode_id or "") is not None  # pinned
    fact = memory.store.get_facts(tenant, [acme.id])[0]
    assert fact.episode_ids == [first.episode_id]  # the fact stays, with its provenance id
    summary = get_summary(memory, tenant, ALICE, "s1")
    assert summary is not None and summary.episode_ids == [first.episode_id]
    assert scope.profile is not None and scope.profile.reason == "first profile"
    assert current_profile(memory, tenant, ALICE).version == 1
    assert [e.action for e in audit.entries()] == ["expire_episode"]

    assert maintain(memory, tenant, [ALICE]).changed == 0  # idempotent

    clock.advance(days=200)
    before = by_status(memory, tenant)
    report = maintain(memory, tenant, [ALICE])
    [scope] = report.scopes
    forgotten = sorted(c.text for c in scope.decay.forgotten)
    # the closed (expired) todo, the event and the old session summary; not the core fact
    assert forgotten[0].startswith("Alice needs to send the report")
    assert forgotten[1] == "Alice visited Porto."
    assert forgotten[2].startswith("Session on 2025-03-03: Alice talked about Acme.")
    assert len(scope.expired_todos) == 1
    assert [f.text for f in memory.history(tenant, ALICE, "Alice", "TODO_EXPIRED")] == [
        "Alice never did (expired): send the report."]
    assert list_todos(memory, tenant, ALICE) == []  # closed long ago: decayed out of recall
    after = by_status(memory, tenant)
    assert before["Alice visited Porto."] == "active" and after["Alice visited Porto."] == "forgotten"
    assert after["Alice works at Acme."] == "active"  # core memory
    assert scope.profile is not None and scope.profile.reason.startswith("older than 7 days")
    assert maintain(memory, tenant, [ALICE]).changed == 0
    assert START < clock.now
