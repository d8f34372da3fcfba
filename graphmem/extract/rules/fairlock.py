"""A lock granted in the order it was asked for.

The parser is shared by every request of a process and is taken in turns
(:class:`~graphmem.extract.rules.extractor.RuleExtractor`). A large import parses in
chunks, releasing the parser between them; with :class:`threading.Lock` the importing
thread takes it back at once, before a waiting request's thread has woken, and a one-line
episode waited for the whole import (504 after the API's timeout). Granted in turn, it
waits for one chunk.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class FairLock:
    """A mutex whose waiters are served first come, first served (a ticket lock).

    >>> lock = FairLock()
    >>> with lock.held():
    ...     pass
    """

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._next_ticket = 0
        self._serving = 0

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the lock for the ``with`` block, after everyone who asked earlier."""
        with self._changed:
            ticket = self._next_ticket
            self._next_ticket += 1
            self._changed.wait_for(lambda: self._serving == ticket)
        try:
            yield
        finally:
            with self._changed:
                self._serving += 1
                self._changed.notify_all()
