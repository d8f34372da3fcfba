"""Remembering a broken LLM endpoint for a while.

When an endpoint is down (refused connections, timeouts, 5xx, a wrong key
or model), every episode would otherwise spend its full retry budget
finding that out again, and log it again. A :class:`Circuit` opens on such
a failure: for ``cooldown`` seconds episodes go straight to the fallback
without a request, and the cause is logged once, when it opens. The first
episode after the cooldown tries the endpoint again (half-open); a success
closes the circuit, a failure opens it for another cooldown.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Circuit:
    """Open (skip the endpoint) or closed; thread-safe.

    >>> clock = iter([0.0, 10.0, 61.0]).__next__
    >>> circuit = Circuit(60.0, clock=clock)
    >>> circuit.trip("connection refused")   # opened now: the caller logs the cause
    True
    >>> circuit.open_reason()                # t=10: still open
    'connection refused'
    >>> circuit.open_reason() is None        # t=61: try again
    True
    """

    def __init__(self, cooldown: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if cooldown < 0:
            raise ValueError(f"cooldown must be >= 0 seconds, got {cooldown}")
        self.cooldown = cooldown
        self._clock = clock
        self._lock = threading.Lock()
        self._reason: str | None = None
        self._until = 0.0

    def open_reason(self) -> str | None:
        """Why the endpoint is being skipped, or None when it may be tried."""
        with self._lock:
            if self._reason is None or self._clock() >= self._until:
                return None
            return self._reason

    def trip(self, reason: str) -> bool:
        """Open (or re-open) for one cooldown; True when it was not open already."""
        with self._lock:
            now = self._clock()
            was_open = self._reason is not None and now < self._until
            self._reason, self._until = reason, now + self.cooldown
            return not was_open

    def close(self) -> None:
        """The endpoint answered: stop skipping it."""
        with self._lock:
            self._reason = None
