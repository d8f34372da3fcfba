"""graphmem.events: the per-tenant bus behind GET /v1/events (the stream itself is
tested over real HTTP in test_server.py)."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime

from graphmem.events import Event, EventBus, events_for
from graphmem.ingest.pipeline import IngestResult
from graphmem.models import Fact


def event(memory_id: str) -> Event:
    return Event(type="memory.created", memory_id=memory_id)


def a_fact(fact_id: str) -> Fact:
    return Fact(id=fact_id, tenant="t", scope_key="user:a", subject_id="e1", subject_name="A",
                predicate="LIKES", object_id="e2", object_name="B", text="A likes B.",
                valid_from=datetime(2024, 1, 1, tzinfo=UTC), embedding=[0.1, 0.2])


def test_subscribers_get_only_their_tenants_events_even_from_threads() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        bus = EventBus()
        sub_a, sub_b = bus.subscribe("a"), bus.subscribe("b")
        worker = threading.Thread(target=lambda: [bus.publish("a", event("1")),
                                                  bus.publish("b", event("2")),
                                                  bus.publish("a", event("3"))])
        worker.start()
        worker.join()
        got_a = [(await asyncio.wait_for(anext(sub_a), 1)).memory_id for _ in range(2)]
        got_b = [(await asyncio.wait_for(anext(sub_b), 1)).memory_id]
        assert sub_a.queue.empty() and sub_b.queue.empty()
        sub_a.close()
        sub_b.close()
        assert bus.subscriber_count("a") == bus.subscriber_count("b") == 0
        return got_a, got_b

    assert asyncio.run(scenario()) == (["1", "3"], ["2"])


def test_a_slow_subscriber_loses_its_oldest_events() -> None:
    async def scenario() -> list[str]:
        bus = EventBus(max_queue=2)
        sub = bus.subscribe("a")
        for i in range(4):
            bus.publish("a", event(str(i)))
        await asyncio.sleep(0)  # let the scheduled deliveries run
        assert sub.dropped == 2
        return [(await anext(sub)).memory_id for _ in range(2)]

    assert asyncio.run(scenario()) == ["2", "3"]


def test_publish_without_subscribers_or_after_the_loop_closed() -> None:
    bus = EventBus()
    bus.publish("nobody", event("1"))

    async def subscribe() -> None:
        bus.subscribe("a")  # never closed: its loop ends with asyncio.run

    asyncio.run(subscribe())
    bus.publish("a", event("2"))
    assert bus.subscriber_count("a") == 0


def test_events_for_an_ingestion() -> None:
    result = IngestResult(episode_id="ep1", created=[a_fact("f1")], confirmed=[a_fact("f2")],
                          superseded=[a_fact("f3")], deleted=[a_fact("f4")])
    events = events_for(result)
    assert [(e.type, e.memory_id) for e in events] == [
        ("memory.created", "f1"), ("memory.updated", "f2"), ("memory.superseded", "f3"),
        ("memory.deleted", "f4")]
    assert all(e.episode_id == "ep1" and e.memory and e.memory.embedding is None for e in events)
