"""RetryQueue: durable, one entry per episode, safe across threads and instances."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from graphmem.errors import StoreError
from graphmem.extract.llm.queue import MAX_REASON_CHARS, RetryQueue

T0 = datetime(2024, 5, 1, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def test_enqueue_pending_done(tmp_path: Path) -> None:
    queue = RetryQueue(tmp_path / "retry.db", clock=Clock())
    first = queue.enqueue("acme", "ep_1", "LLM timed out")
    second = queue.enqueue("acme", "ep_2", "rate limited")

    pending = queue.pending()
    assert [(q.id, q.tenant, q.episode_id, q.reason, q.attempts) for q in pending] == [
        (first, "acme", "ep_1", "LLM timed out", 1), (second, "acme", "ep_2", "rate limited", 1)]
    assert pending[0].first_failed_at == T0 + timedelta(minutes=1)

    assert queue.done(first) is True
    assert [q.episode_id for q in queue.pending()] == ["ep_2"]
    assert queue.done(first) is False  # idempotent: a worker may finish twice


def test_a_second_failure_counts_an_attempt_and_keeps_one_entry(tmp_path: Path) -> None:
    queue = RetryQueue(tmp_path / "retry.db", clock=Clock())
    first = queue.enqueue("acme", "ep_1", "timeout")
    again = queue.enqueue("acme", "ep_1", "500")

    [entry] = queue.pending()
    assert again == first == entry.id
    assert (entry.attempts, entry.reason) == (2, "500")
    assert entry.last_failed_at > entry.first_failed_at


def test_tenants_are_separate_entries(tmp_path: Path) -> None:
    queue = RetryQueue(tmp_path / "retry.db")
    queue.enqueue("acme", "ep_1", "x")
    queue.enqueue("globex", "ep_1", "x")
    assert sorted(q.tenant for q in queue.pending()) == ["acme", "globex"]


def test_entries_survive_a_new_instance(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "retry.db"  # the directory is created
    RetryQueue(path).enqueue("acme", "ep_1", "down")
    assert [q.episode_id for q in RetryQueue(path).pending()] == ["ep_1"]


def test_pending_limit_and_order(tmp_path: Path) -> None:
    queue = RetryQueue(tmp_path / "retry.db")
    for i in range(5):
        queue.enqueue("acme", f"ep_{i}", "x")
    assert [q.episode_id for q in queue.pending(limit=2)] == ["ep_0", "ep_1"]


def test_long_reasons_are_cut(tmp_path: Path) -> None:
    queue = RetryQueue(tmp_path / "retry.db")
    queue.enqueue("acme", "ep_1", "x" * (MAX_REASON_CHARS * 2))
    assert len(queue.pending()[0].reason) == MAX_REASON_CHARS


def test_concurrent_enqueues_lose_nothing(tmp_path: Path) -> None:
    queue = RetryQueue(tmp_path / "retry.db", timeout=30.0)
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(10):
                queue.enqueue("acme", f"ep_{n}_{i}", "x")
                queue.enqueue("acme", f"ep_{n}_{i}", "y")
        except BaseException as err:  # surfaced below, not lost in the thread
            errors.append(err)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert errors == []
    pending = queue.pending()
    assert len(pending) == 40 and {q.attempts for q in pending} == {2}


def test_a_failed_operation_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "retry.db"
    queue = RetryQueue(path)
    queue.enqueue("acme", "ep_1", "x")
    with sqlite3.connect(path) as conn:  # a later schema that rejects a reason this long
        conn.execute("CREATE TRIGGER no_long BEFORE UPDATE ON llm_retry "
                     "WHEN length(NEW.reason) > 3 BEGIN SELECT RAISE(ABORT, 'too long'); END")
    conn.close()

    with pytest.raises(StoreError, match=r"retry queue .* failed: too long"):
        queue.enqueue("acme", "ep_1", "much too long")

    [entry] = queue.pending()
    assert (entry.reason, entry.attempts) == ("x", 1)


def test_an_unusable_path_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreError, match=r"cannot open the LLM retry queue"):
        RetryQueue(blocker / "retry.db").pending()


def test_repr_names_the_file(tmp_path: Path) -> None:
    assert "retry.db" in repr(RetryQueue(tmp_path / "retry.db"))
