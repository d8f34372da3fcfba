"""An embedder run in a child process, for the large calls: an ingested episode's turns.

Why a process: the int8 embedder runs one text per onnxruntime call (its activations are
quantised per input), and each call returns to Python and waits for the interpreter's lock.
During ingestion the rules extractor holds that lock beside it, so an episode's ~21 turns
took 195 ms alone and 560 ms beside a busy Python thread. In a child process the calls never
wait: LoCoMo ingest measured 97.7 turns/s against 76.4 with the int8 embedder in a thread,
and 60.0 against 32-46 on Neo4j (2 conversations, Intel 2-core machine, session 32). The
float32 embedder runs batches of 8 on two threads and releases the lock for long stretches:
in a child it measured slower (43-47 against 52.5 turns/s on Neo4j), so it stays in-process
(``graphmem.factory``).

Small calls (a query, an episode's few fact texts and names) run in this process, on a copy
of the same embedder: a round trip costs more than they do, and a search must not queue
behind an import's thousand turns. Both sides compute the same vectors (tested).

The child is ``python -m graphmem.embed.worker``, started with :mod:`subprocess` rather than
:mod:`multiprocessing`: a spawned ``multiprocessing`` child imports the parent's main
script again, and would run an unguarded script's writes a second time. It reads requests
on its stdin and exits when that closes, so it never outlives its parent.

The wire: frames of a 4-byte big-endian length and a payload. The first frame is the
pickled embedder (its settings: :meth:`OnnxEmbedder.__getstate__`); the child answers with
``{"name", "dimension"}`` once its model has loaded, or ``{"error"}``. Then each request is a
JSON list of texts, and each answer ``V`` and float32 rows, or ``E`` and a message.
"""

from __future__ import annotations

import json
import os
import pickle
import struct
import subprocess
import sys
import threading
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

import graphmem
from graphmem.embed.base import Embedder, Vectors, clean_texts
from graphmem.errors import EmbeddingError

#: Calls with fewer texts than this run in this process (a single-message episode's turn, a
#: query, a commit's few names); an episode of a conversation sends ~20 turns.
MIN_TEXTS = 8
#: How long a child may take to load its model and answer that it is ready.
START_TIMEOUT_S = 120.0
_LENGTH = struct.Struct(">I")


class WorkerEmbedder:
    """``inner``'s vectors, computed in a child process for calls of ``min_texts`` or more.

    >>> embedder = WorkerEmbedder(OnnxEmbedder(precision="int8"))  # doctest: +SKIP
    >>> embedder.embed(turns)  # in the child; a one-text query runs here  # doctest: +SKIP

    ``inner`` must pickle as its settings (the child builds its own copy). The child starts
    at the first large call, is started again once if it dies mid-call (embedding has no
    side effects, so the retry is safe), and stops with :meth:`close` or when this object
    is collected. Calls to the child are serialised; calls that stay here are not.
    """

    def __init__(self, inner: Embedder, *, min_texts: int = MIN_TEXTS,
                 start_timeout_s: float = START_TIMEOUT_S) -> None:
        if min_texts < 1:
            raise ValueError(f"min_texts must be >= 1, got {min_texts}")
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        self.min_texts = min_texts
        self.start_timeout_s = start_timeout_s
        self._child: _Child | None = None
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts`` as ``inner`` would; large calls in the child process."""
        items = clean_texts(texts)
        if len(items) < self.min_texts:
            return self.inner.embed(items)
        with self._lock:
            try:
                return self._started().embed(items)
            except _ChildGone:
                self._stop_child()
            try:  # once more, on a new child
                return self._started().embed(items)
            except _ChildGone as err:
                self._stop_child()
                raise EmbeddingError(f"the embedding process stopped twice: {err}") from err

    def close(self) -> None:
        """Stop the child process (idempotent); a later large call starts another."""
        with self._lock:
            self._stop_child()

    @property
    def child_pid(self) -> int | None:
        """The running child's process id, or None (for operators and tests)."""
        child = self._child
        return None if child is None else child.pid

    def _started(self) -> _Child:
        if self._child is None:
            self._child = _Child.start(self.inner, self.start_timeout_s)
        return self._child

    def _stop_child(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.stop()


class _ChildGone(Exception):
    """The child closed its pipe mid-call (killed, or crashed)."""


class _Child:
    """One running ``python -m graphmem.embed.worker`` and its pipes."""

    def __init__(self, process: subprocess.Popen[bytes], dimension: int) -> None:
        self.process = process
        self.dimension = dimension
        self.pid = process.pid
        self._finalizer = weakref.finalize(self, _stop_process, process)

    @classmethod
    def start(cls, inner: Embedder, timeout_s: float) -> _Child:
        # The child imports the graphmem this process runs, wherever it was imported from.
        source = str(Path(graphmem.__file__).resolve().parent.parent)
        path = os.pathsep.join(p for p in (source, os.environ.get("PYTHONPATH")) if p)
        process = subprocess.Popen(
            [sys.executable, "-m", "graphmem.embed.worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": path})
        child = cls(process, inner.dimension)
        ready = threading.Timer(timeout_s, process.kill)  # a stuck load closes the pipe
        ready.start()
        try:
            child._send(pickle.dumps(inner))
            answer = json.loads(child._receive())
        except _ChildGone as err:
            child.stop()
            raise EmbeddingError(f"the embedding process did not start: {err}") from err
        finally:
            ready.cancel()
        if "error" in answer:
            child.stop()
            raise EmbeddingError(f"the embedding process could not load its model: "
                                 f"{answer['error']}")
        if (answer["name"], answer["dimension"]) != (inner.name, inner.dimension):
            child.stop()
            raise EmbeddingError(f"the embedding process loaded {answer['name']} "
                                 f"({answer['dimension']}), not {inner.name}")
        return child

    def embed(self, texts: list[str]) -> Vectors:
        self._send(json.dumps(texts).encode())
        answer = self._receive()
        if answer[:1] == b"E":
            raise EmbeddingError(answer[1:].decode(errors="replace"))
        rows = np.frombuffer(answer[1:], dtype=np.float32).copy()
        if rows.size != len(texts) * self.dimension:
            raise EmbeddingError(f"the embedding process answered {rows.size} numbers for "
                                 f"{len(texts)} texts of {self.dimension}")
        return rows.reshape(len(texts), self.dimension)

    def stop(self) -> None:
        self._finalizer()

    def _send(self, payload: bytes) -> None:
        pipe = self.process.stdin
        if pipe is None:  # pragma: no cover - Popen was given stdin=PIPE
            raise _ChildGone("no pipe to the child")
        try:
            _write_frame(pipe, payload)
        except (BrokenPipeError, ValueError, OSError) as err:
            raise _ChildGone(f"exit code {self.process.poll()}") from err

    def _receive(self) -> bytes:
        pipe = self.process.stdout
        if pipe is None:  # pragma: no cover - Popen was given stdout=PIPE
            raise _ChildGone("no pipe from the child")
        frame = _read_frame(pipe)
        if frame is None:
            raise _ChildGone(f"exit code {self.process.wait()}")
        return frame


def _stop_process(process: subprocess.Popen[bytes]) -> None:
    """Close the child's input (it exits at the end of its current call); kill it if it
    has not exited within a few seconds."""
    for pipe in (process.stdin, process.stdout):
        try:
            if pipe is not None:
                pipe.close()
        except OSError:
            pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _write_frame(pipe: IO[bytes], payload: bytes) -> None:
    pipe.write(_LENGTH.pack(len(payload)) + payload)
    pipe.flush()


def _read_frame(pipe: IO[bytes]) -> bytes | None:
    """The next frame, or None at the end of the stream (a frame cut short is the end)."""
    head = pipe.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    (size,) = _LENGTH.unpack(head)
    payload = pipe.read(size)
    return payload if len(payload) == size else None


def serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """The child's loop: build the embedder from the first frame, then answer each request,
    until ``requests`` ends."""
    first = _read_frame(requests)
    if first is None:
        return
    try:
        embedder: Any = pickle.loads(first)  # from the parent, over its own pipe
        embedder.embed(["graphmem warms up"])
    except Exception as err:  # any failure to load is reported to the parent, not raised
        _write_frame(answers, json.dumps({"error": f"{type(err).__name__}: {err}"}).encode())
        return
    _write_frame(answers, json.dumps({"name": embedder.name,
                                      "dimension": embedder.dimension}).encode())
    while (request := _read_frame(requests)) is not None:
        try:
            rows = np.ascontiguousarray(embedder.embed(json.loads(request)), dtype=np.float32)
        except Exception as err:  # reported per call: the parent raises EmbeddingError
            _write_frame(answers, b"E" + f"{type(err).__name__}: {err}".encode())
            continue
        _write_frame(answers, b"V" + rows.tobytes())


def main() -> None:
    """Serve the parent over the process's stdin and stdout. Whatever a library prints goes
    to stderr: stdout carries only frames."""
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
