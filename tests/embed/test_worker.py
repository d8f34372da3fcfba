"""The embedder in a child process: the same vectors as in-process, small calls kept here,
a dead child replaced, load and call errors reported, no child left behind. Real child
processes, the real model."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from graphmem.embed.base import Vectors
from graphmem.embed.hashed import HashEmbedder
from graphmem.embed.onnx import OnnxEmbedder
from graphmem.embed.worker import WorkerEmbedder
from graphmem.errors import EmbeddingError

TURNS = [f"Turn {i}: I moved to Berlin in {1990 + i} and started at Siemens" for i in range(12)]


class FailsOnBoom(HashEmbedder):
    """Loads, then refuses a call holding the text "boom" (a per-call error in the child)."""

    def embed(self, texts: Sequence[str]) -> Vectors:
        if "boom" in texts:
            raise RuntimeError("cannot embed boom")
        return super().embed(texts)


def _gone(pid: int, within_s: float = 10.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@pytest.fixture()
def worker(tmp_path: Path) -> Iterator[WorkerEmbedder]:
    embedder = WorkerEmbedder(OnnxEmbedder(precision="int8", cache_dir=tmp_path))
    yield embedder
    embedder.close()


def test_large_calls_run_in_the_child_with_the_in_process_vectors(
        worker: WorkerEmbedder) -> None:
    assert worker.name == "all-MiniLM-L6-v2-onnx-int8-compute" and worker.dimension == 384
    small = worker.embed(TURNS[:3])
    assert worker.child_pid is None  # fewer than min_texts: here
    apart = worker.embed(TURNS)
    assert worker.child_pid is not None and worker.child_pid != os.getpid()
    here = worker.inner.embed(TURNS)
    assert apart.dtype == np.float32 and apart.shape == (len(TURNS), 384)
    np.testing.assert_array_equal(apart, here)
    np.testing.assert_array_equal(small, here[:3])


def test_the_float32_embedder_agrees_too() -> None:
    worker = WorkerEmbedder(OnnxEmbedder(), min_texts=1)
    try:
        np.testing.assert_allclose(worker.embed(TURNS), OnnxEmbedder().embed(TURNS),
                                   atol=1e-6)
        assert worker.child_pid is not None
    finally:
        worker.close()


def test_a_killed_child_is_replaced_and_the_call_answers(worker: WorkerEmbedder) -> None:
    first = worker.embed(TURNS)
    pid = worker.child_pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)  # a zombie until the next call finds the pipe closed
    np.testing.assert_array_equal(worker.embed(TURNS), first)
    assert worker.child_pid not in (None, pid)


def test_close_stops_the_child_and_a_later_call_starts_another(worker: WorkerEmbedder) -> None:
    worker.embed(TURNS)
    pid = worker.child_pid
    assert pid is not None
    worker.close()
    assert worker.child_pid is None and _gone(pid)
    worker.close()  # idempotent
    worker.embed(TURNS)
    assert worker.child_pid not in (None, pid)


def test_a_model_the_child_cannot_load_is_an_embedding_error(tmp_path: Path) -> None:
    broken = tmp_path / "model.onnx"
    broken.write_bytes(b"not a model")
    worker = WorkerEmbedder(OnnxEmbedder(model_path=broken), min_texts=1)
    with pytest.raises(EmbeddingError, match="could not load its model: ModelIntegrityError"):
        worker.embed(TURNS)
    assert worker.child_pid is None


def test_a_call_the_child_refuses_is_an_embedding_error_and_the_child_stays() -> None:
    worker = WorkerEmbedder(FailsOnBoom(dimension=16), min_texts=2)
    try:
        worker.embed(["a", "b"])
        pid = worker.child_pid
        with pytest.raises(EmbeddingError, match="RuntimeError: cannot embed boom"):
            worker.embed(["a", "boom"])
        np.testing.assert_array_equal(worker.embed(["a", "b"]),
                                      FailsOnBoom(dimension=16).embed(["a", "b"]))
        assert worker.child_pid == pid
    finally:
        worker.close()


def test_the_child_never_outlives_its_parent(tmp_path: Path) -> None:
    """A parent killed outright (no finaliser runs) closes the child's input: it exits."""
    script = (
        "import os, sys\n"
        "from graphmem.embed.hashed import HashEmbedder\n"
        "from graphmem.embed.worker import WorkerEmbedder\n"
        "worker = WorkerEmbedder(HashEmbedder(), min_texts=1)\n"
        "worker.embed(['a', 'b'])\n"
        "print(worker.child_pid, flush=True)\n"
        "os.kill(os.getpid(), 9)\n")
    parent = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=60, check=False)
    assert parent.returncode == -signal.SIGKILL, parent.stderr
    assert _gone(int(parent.stdout.strip()))


def test_an_onnx_embedder_pickles_as_its_settings(tmp_path: Path) -> None:
    original = OnnxEmbedder(precision="int8", cache_dir=tmp_path, max_length=64)
    original.embed(["loaded here"])
    copy = pickle.loads(pickle.dumps(original))
    assert copy._model is None and copy._lock is not original._lock
    assert (copy.precision, copy.cache_dir, copy.max_length, copy.name) == (
        "int8", tmp_path, 64, original.name)
    np.testing.assert_array_equal(copy.embed(TURNS[:2]), original.embed(TURNS[:2]))


def test_min_texts_must_be_positive() -> None:
    with pytest.raises(ValueError, match="min_texts"):
        WorkerEmbedder(HashEmbedder(), min_texts=0)
