"""The parser's lock is granted in the order asked for."""

from __future__ import annotations

import threading
import time

from graphmem.extract.rules.fairlock import FairLock


def test_waiters_are_served_in_the_order_they_asked() -> None:
    lock = FairLock()
    served: list[int] = []
    threads = []
    with lock.held():
        for i in range(6):
            thread = threading.Thread(target=lambda i=i: _take(lock, served, i))
            thread.start()
            threads.append(thread)
            _until(lambda i=i: lock._next_ticket == i + 2)  # thread i holds its ticket
    for thread in threads:
        thread.join(timeout=10)
    assert served == list(range(6))


def test_a_holder_that_asks_again_goes_behind_the_waiter() -> None:
    """What a lock that is taken back at once cannot do: the waiter gets its turn."""
    lock = FairLock()
    order: list[str] = []
    first_held = threading.Event()

    def importer() -> None:
        for chunk in range(3):
            with lock.held():
                order.append(f"import {chunk}")
                if chunk == 0:
                    first_held.set()
                    _until(lambda: lock._next_ticket == 2)  # the waiter has asked

    thread = threading.Thread(target=importer)
    thread.start()
    first_held.wait(timeout=10)
    with lock.held():
        order.append("short")
    thread.join(timeout=10)
    assert order == ["import 0", "short", "import 1", "import 2"]


def test_an_error_inside_releases_the_lock() -> None:
    lock = FairLock()
    try:
        with lock.held():
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    with lock.held():  # would wait forever if the turn had not passed
        pass


def _take(lock: FairLock, served: list[int], i: int) -> None:
    with lock.held():
        served.append(i)


def _until(condition: object, within_s: float = 10.0) -> None:
    deadline = time.monotonic() + within_s
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise TimeoutError("the condition never held")
        time.sleep(0.001)
