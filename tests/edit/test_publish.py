"""graphmem.edit.publish: the one audit trail names each audited change exactly once, ids only,
and every change becomes one event. On both stores."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from graphmem.edit.audit import AuditLog
from graphmem.edit.changes import Change
from graphmem.edit.publish import EventSink, audit_entries
from graphmem.embed.base import Embedder
from graphmem.events import EventBus
from graphmem.extract.rules import RuleExtractor
from graphmem.ingest.inputs import EpisodeInput, FactInput
from graphmem.lifecycle.portability import export_scope
from graphmem.manage import erase_entity, forget_fact, forget_scope, restore_fact, restore_facts
from graphmem.memory import Memory
from graphmem.models import Message, Scope
from graphmem.store.base import GraphStore

ALICE = Scope(user_id="alice")
AT = datetime(2025, 1, 1, tzinfo=UTC)


class Heard:
    def __init__(self) -> None:
        self.changes: list[Change] = []

    def committed(self, tenant: str, at: datetime, changes: list[Change]) -> None:
        self.changes += changes


def test_each_change_is_audited_exactly_once(store: GraphStore, embedder: Embedder,
                                             tmp_path: Path) -> None:
    tenant = f"audit{uuid.uuid4().hex[:12]}"
    audit, heard = AuditLog(tmp_path / "audit.jsonl"), Heard()
    memory = Memory(store, RuleExtractor(), embedder, sinks=[EventSink(audit=audit), heard])
    try:
        added = memory.add_facts(tenant, [
            FactInput(scope=ALICE, subject="Alice", predicate="LIKES", object=o)
            for o in ("pizza", "tea", "jazz")]).created
        said = memory.add_episode(tenant, EpisodeInput(scope=ALICE, messages=[
            Message(speaker="Alice", content="I work at Acme.")]))
        pizza, tea, jazz = added
        forget_fact(memory, tenant, pizza.id)
        restore_fact(memory, tenant, pizza.id)
        memory.delete_episode(tenant, said.episode_id or "")
        erase_entity(memory, tenant, ALICE, jazz.object_id)
        cleared = forget_scope(memory, tenant, ALICE)
        restore_facts(memory, tenant, [f.id for f in cleared.facts], ALICE, cleared.episode_ids)
        export_scope(memory, tenant, ALICE)
    finally:
        memory.engine.close()

    lines = audit.entries()
    assert [e.action for e in lines] == [
        "forget", "restore", "delete_episode", "erase", "forget", "restore", "export"]
    named = Counter((e.action, t) for e in lines for t in e.targets)
    audited = Counter((c.audit, c.target) for c in heard.changes if c.audit and c.target)
    assert named == audited  # one mention per audited change, no more, no fewer
    assert named[("forget", pizza.id)] == 2  # forgotten alone, then with the whole scope
    assert ("erase", jazz.id) in named and ("erase", jazz.object_id) in named
    for line in lines:
        assert len(line.targets) == len(set(line.targets))
    assert {e.tenant for e in lines} == {tenant} and {e.scope_key for e in lines} == {ALICE.key}
    text = audit.path.read_text()
    assert "pizza" not in text and "jazz" not in text and "Acme" not in text  # ids, not content
    assert named[("forget", tea.id)] == named[("restore", tea.id)] == 1  # only with the scope


def test_events_and_grouping_of_one_edit() -> None:
    changes = [Change(target="f1", kind="memory.forgotten", audit="forget", scope_key="user:a",
                      detail="decay"),
               Change(target="f2", kind="memory.forgotten", audit="forget", scope_key="user:a",
                      detail="decay"),
               Change(target="f3", kind="memory.updated", scope_key="user:a"),
               Change(target="ep1", audit="expire_episode")]
    [forget, expired] = audit_entries("t", AT, changes)
    assert (forget.action, forget.targets, forget.detail) == ("forget", ["f1", "f2"], "decay")
    assert (expired.action, expired.targets, expired.scope_key) == ("expire_episode", ["ep1"], None)

    async def published() -> list[tuple[str, str]]:
        bus = EventBus()
        subscription = bus.subscribe("t")
        EventSink(bus).committed("t", AT, changes)
        await asyncio.sleep(0)
        return [(e.type, e.memory_id) for e in [subscription.queue.get_nowait()
                                                for _ in range(subscription.queue.qsize())]]

    assert asyncio.run(published()) == [("memory.forgotten", "f1"), ("memory.forgotten", "f2"),
                                        ("memory.updated", "f3")]
