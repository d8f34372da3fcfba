"""Reading ``GET /v1/events`` over real HTTP: an endless SSE stream needs a real server (the
in-process test client waits for a response to end)."""

from __future__ import annotations

import json
import queue
import threading
from typing import Any, Protocol

import httpx


class Served(Protocol):
    url: str


class EventReader:
    """Reads an SSE stream on a thread, one parsed event at a time."""

    def __init__(self, server: Served, key: str) -> None:
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.status: int | None = None
        self._client = httpx.Client(base_url=server.url, headers={"X-API-Key": key},
                                    timeout=httpx.Timeout(10.0, read=None))
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        first = self.next()
        assert first["event"] == "ready", first

    def _read(self) -> None:
        try:
            with self._client.stream("GET", "/v1/events") as response:
                self.status = response.status_code
                event: dict[str, Any] = {}
                for line in response.iter_lines():
                    if line.startswith(":"):
                        continue
                    if not line:
                        if event:
                            self.events.put(event)
                        event = {}
                        continue
                    field, _, value = line.partition(":")
                    event[field] = value.strip()
        except Exception:  # the stream ends when the test closes the client
            pass

    def next(self, timeout: float = 15.0) -> dict[str, Any]:
        event = self.events.get(timeout=timeout)
        if "data" in event:
            event["data"] = json.loads(event["data"])
        return event

    def close(self) -> None:
        self._client.close()
        self._thread.join(timeout=5)
