"""Servers the tests start as child processes: started, awaited, always stopped."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import httpx
import pytest


@contextmanager
def served(command: list[str], log_path: Path, ready_url: str, timeout: float,
           **popen: object) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` (output to ``log_path``) until ``ready_url`` answers 200; stop it after.

    Fails the test, with the log's tail, when the process exits or is not ready in time.
    """
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,  # type: ignore[call-overload]
                                   **popen)
    try:
        _wait_ready(process, ready_url, log_path, timeout)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_ready(process: subprocess.Popen[bytes], url: str, log_path: Path,
                timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"{process.args!r} exited with {process.returncode}:\n{tail(log_path)}",
                        pytrace=False)
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    pytest.fail(f"{process.args!r} was not ready within {timeout:g}s:\n{tail(log_path)}",
                pytrace=False)


def tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def unavailable(message: str) -> NoReturn:
    """Fail when ``CI`` is true (a CI run must prove every path), skip the test elsewhere."""
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)
