"""The reminder contract on both stores: scheduled once, due in order, claimed exactly once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from graphmem.store.base import GraphStore, Reminder, WriteBatch

T0 = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)


def _reminder(tenant: str, todo_id: str, minutes: int) -> Reminder:
    return Reminder(tenant=tenant, scope_key="user:alice", todo_id=f"{tenant}-{todo_id}",
                    remind_at=T0 + timedelta(minutes=minutes))


def _due(store: GraphStore, tenant: str, until: datetime) -> list[str]:
    return [r.todo_id.removeprefix(f"{tenant}-")
            for r in store.due_reminders(until, 10_000) if r.tenant == tenant]


def test_reminders_come_due_in_order_and_are_claimed_once(store: GraphStore, tenant: str) -> None:
    store.write(tenant, WriteBatch(reminders=[_reminder(tenant, "late", 30),
                                              _reminder(tenant, "soon", 1),
                                              _reminder(tenant, "first", -5)]))
    other = tenant + "x"
    store.write(other, WriteBatch(reminders=[_reminder(other, "theirs", 0)]))

    assert _due(store, tenant, T0) == ["first"]
    assert _due(store, tenant, T0 + timedelta(minutes=1)) == ["first", "soon"]
    found = [r for r in store.due_reminders(T0, 10_000) if r.tenant == tenant]
    assert found[0].remind_at == T0 - timedelta(minutes=5) and found[0].scope_key == "user:alice"
    assert _due(store, other, T0) == ["theirs"]  # each reminder names its own tenant

    assert store.claim_reminder(tenant, f"{tenant}-first", T0) is True
    assert store.claim_reminder(tenant, f"{tenant}-first", T0) is False
    assert store.claim_reminder(other, f"{tenant}-soon", T0) is False  # not across tenants
    assert store.claim_reminder(tenant, f"{tenant}-missing", T0) is False
    assert _due(store, tenant, T0 + timedelta(hours=1)) == ["soon", "late"]

    # scheduling again never resets a sent reminder
    store.write(tenant, WriteBatch(reminders=[_reminder(tenant, "first", -5)]))
    assert _due(store, tenant, T0 + timedelta(hours=1)) == ["soon", "late"]
    # a deleted todo takes its reminder along
    store.write(tenant, WriteBatch(delete_fact_ids=[f"{tenant}-late"]))
    assert _due(store, tenant, T0 + timedelta(hours=1)) == ["soon"]


def test_racing_claims_have_one_winner(store: GraphStore, tenant: str) -> None:
    store.write(tenant, WriteBatch(reminders=[_reminder(tenant, f"r{i}", 0) for i in range(5)]))
    with ThreadPoolExecutor(max_workers=8) as pool:
        for i in range(5):
            wins = list(pool.map(lambda _: store.claim_reminder(tenant, f"{tenant}-r{i}", T0),
                                 range(8)))
            assert wins.count(True) == 1, wins
    assert _due(store, tenant, T0) == []


def test_deleting_a_scope_drops_its_reminders(store: GraphStore, tenant: str) -> None:
    store.write(tenant, WriteBatch(reminders=[_reminder(tenant, "a", 0)]))
    store.delete_scope(tenant, "user:alice")
    assert _due(store, tenant, T0) == []
