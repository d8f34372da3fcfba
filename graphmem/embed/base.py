"""The embedder interface, and the few helpers every embedder shares.

Search compares vectors by dot product, so every embedder returns float32
rows scaled to unit length: the dot product then *is* the cosine, and
vectors from one model can be compared without knowing where they came from.
``name`` identifies the vector space (the embedding cache's key): two embedders with the
same name must return comparable vectors.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from graphmem.errors import EmbeddingError, ModelIntegrityError

#: An (n, dimension) float32 matrix whose rows have unit L2 norm.
Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    """Turns texts into unit vectors of a fixed ``dimension``."""

    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts`` in order; an empty sequence gives shape ``(0, dimension)``."""
        ...


def embed_one(embedder: Embedder, text: str) -> list[float]:
    """Embed a single text, as a plain list (the form stores and JSON want).

    >>> embed_one(embedder, "I moved to Berlin")[:2]  # doctest: +SKIP
    [0.013, -0.094]
    """
    return [float(x) for x in embedder.embed([text])[0]]


def clean_texts(texts: Sequence[str]) -> list[str]:
    """Validate ``texts`` and make each one encodable as UTF-8.

    A bare string is rejected: it is a ``Sequence[str]`` of characters, and
    embedding ``"hello"`` as five one-letter texts is a silent bug. Lone
    surrogates (which JSON can smuggle in as ``"\\udc80"``) become ``?``,
    because tokenizers and HTTP bodies cannot carry them.
    """
    if isinstance(texts, str):
        raise TypeError("embed() takes a sequence of texts, not one str; use embed_one()")
    out = list(texts)
    for i, text in enumerate(out):
        if not isinstance(text, str):
            raise TypeError(f"texts[{i}] is {type(text).__name__}, not str")
        out[i] = utf8_safe(text)
    return out


def utf8_safe(text: str) -> str:
    """``text`` itself, or a copy with unencodable code points replaced by ``?``."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def normalize_rows(matrix: npt.NDArray[np.floating]) -> Vectors:
    """Scale each row to unit length; an all-zero row stays zero rather than NaN."""
    rows = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    unit: Vectors = rows / np.maximum(norms, np.float32(1e-12))
    return unit


def read_verified(path: Path, expected_sha256: str) -> bytes:
    """Read a model file and check its sha256 before anything parses it.

    The bytes that were hashed are the bytes returned, so the file cannot be
    swapped between the check and the load. A model file is code in all but
    name: a tampered or corrupted one must never run.
    """
    try:
        data = path.read_bytes()
    except OSError as err:
        raise EmbeddingError(f"cannot read model file {path}: {err}") from err
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_sha256.lower():
        raise ModelIntegrityError(
            f"{path} does not match its pinned sha256: expected {expected_sha256}, got {actual}. "
            "The file is corrupted, tampered with or from another package version; reinstall it."
        )
    return data


def package_file(package: str, relative: str, install: str) -> Path:
    """Locate a data file shipped inside an installed Python package.

    The package is found with ``importlib.util.find_spec`` rather than
    imported (as ``importlib.resources.files`` would): only its data is
    needed, and its ``__init__`` is not covered by the pinned hashes.
    ``install`` is the command that fixes a missing package; it goes into
    the error message so the user does not have to look it up.
    """
    from importlib.util import find_spec

    spec = find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingError(f"the package {package!r} is not installed; run: {install}")
    path = Path(next(iter(spec.submodule_search_locations))) / relative
    if not path.is_file():
        raise EmbeddingError(f"{relative} is missing from the package {package!r}; reinstall it: {install}")
    return path


def with_neighbours(rows: Vectors, weight: float) -> Vectors:
    """Each row plus ``weight`` times the rows just before and after it, rescaled.

    A turn's vector then also points towards what the conversation was about
    around it, at no extra model call. Measured on LoCoMo (bench/locomo_recall.py)
    weight 0.5 gave the best fused recall of 0.3, 0.5 and 0.7.
    """
    pooled = np.array(rows, dtype=np.float32, copy=True)
    if len(rows) > 1:
        pooled[1:] += weight * rows[:-1]
        pooled[:-1] += weight * rows[1:]
    return normalize_rows(pooled)
