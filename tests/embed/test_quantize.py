"""The int8-compute embedding model: derived from the verified file, kept whole, run one
text at a time. Real onnxruntime, real model; each test keeps its copies in a temp folder."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import numpy as np
import pytest

from graphmem.embed import quantize
from graphmem.embed.onnx import MODEL_SHA256, OnnxEmbedder
from graphmem.errors import EmbeddingError

TEXTS = ["I love React", "Caroline went to the LGBTQ support group on 7 May 2023.", "",
         "Melanie painted a sunrise over the lake last year, and she is proud of it.",
         "我喜欢编程", "ok"]


@pytest.fixture(scope="module")
def int8_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One derivation for the module's tests that only read the copy."""
    return tmp_path_factory.mktemp("int8-cache")


def _kept(cache: Path) -> Path:
    return cache / quantize.cache_name(MODEL_SHA256)


def test_int8_names_its_vectors_and_runs_one_text_on_one_thread(int8_cache: Path) -> None:
    int8 = OnnxEmbedder(precision="int8", cache_dir=int8_cache)
    assert int8.name == "all-MiniLM-L6-v2-onnx-int8-compute" != OnnxEmbedder().name
    assert (int8.batch_size, int8.intra_op_threads) == (1, 1)
    with pytest.raises(ValueError, match="one text at a time"):
        OnnxEmbedder(precision="int8", batch_size=8)
    with pytest.raises(ValueError, match="batch_size"):
        OnnxEmbedder(precision="int8", batch_size=0)


def test_a_text_s_vector_does_not_depend_on_its_neighbours(int8_cache: Path) -> None:
    int8 = OnnxEmbedder(precision="int8", cache_dir=int8_cache)
    alone = np.stack([int8.embed([text])[0] for text in TEXTS])
    np.testing.assert_array_equal(int8.embed(TEXTS), alone)
    np.testing.assert_array_equal(int8.embed(list(reversed(TEXTS))), alone[::-1])
    np.testing.assert_allclose(np.linalg.norm(alone, axis=1), 1.0, atol=1e-5)


def test_int8_vectors_agree_with_float32(int8_cache: Path) -> None:
    texts = [t for t in TEXTS if t] + [
        "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
        "Melanie: Hey Caroline! Good to see you! I'm swamped with the kids & work.",
        "I started a new job at Siemens as a data engineer last month."]
    int8 = OnnxEmbedder(precision="int8", cache_dir=int8_cache).embed(texts)
    float32 = OnnxEmbedder().embed(texts)
    cosines = (int8 * float32).sum(axis=1)
    assert cosines.min() > 0.97, cosines
    assert not np.array_equal(int8, float32)  # really two precisions


def test_products_run_on_int8_kernels_but_the_down_projections(int8_cache: Path) -> None:
    onnx = pytest.importorskip("onnx")
    OnnxEmbedder(precision="int8", cache_dir=int8_cache).load()
    graph = onnx.load(str(_kept(int8_cache))).graph
    weights = {w.name: tuple(w.dims) for w in graph.initializer}
    kinds = [n.op_type for n in graph.node]
    float_products = [weights[n.input[1]] for n in graph.node
                      if n.op_type == "MatMul" and n.input[1] in weights]
    assert kinds.count("MatMulInteger") == 30  # 6 layers x (Q, K, V, output, FFN up)
    assert float_products == [(1536, 384)] * 6  # each layer's FFN down projection


def test_derived_once_then_read_from_the_cache(tmp_path: Path) -> None:
    first = OnnxEmbedder(precision="int8", cache_dir=tmp_path).embed(["hello"])
    kept = _kept(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [kept.name, kept.name + ".sha256"]
    assert MODEL_SHA256[:16] in kept.name and f"recipe{quantize.RECIPE}" in kept.name
    assert (tmp_path / (kept.name + ".sha256")).read_text() == hashlib.sha256(
        kept.read_bytes()).hexdigest()
    stamp = kept.stat().st_mtime_ns
    again = OnnxEmbedder(precision="int8", cache_dir=tmp_path).embed(["hello"])
    np.testing.assert_array_equal(again, first)
    assert kept.stat().st_mtime_ns == stamp  # read, not derived again


@pytest.mark.parametrize("damage", ["garbage", "no hash file", "another hash"])
def test_a_copy_that_does_not_match_its_hash_is_derived_again(tmp_path: Path, int8_cache: Path,
                                                              damage: str) -> None:
    good = OnnxEmbedder(precision="int8", cache_dir=int8_cache).embed(["hello"])
    kept, digest = _kept(tmp_path), tmp_path / (_kept(tmp_path).name + ".sha256")
    kept.write_bytes(b"not a model" if damage == "garbage" else _kept(int8_cache).read_bytes())
    if damage == "garbage":
        digest.write_text(hashlib.sha256(b"something else").hexdigest())
    elif damage == "another hash":
        digest.write_text("0" * 64)
    vectors = OnnxEmbedder(precision="int8", cache_dir=tmp_path).embed(["hello"])
    np.testing.assert_array_equal(vectors, good)
    assert digest.read_text() == hashlib.sha256(kept.read_bytes()).hexdigest()  # mended


def test_an_unwritable_cache_still_embeds(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would go")
    vectors = OnnxEmbedder(precision="int8", cache_dir=blocked / "models").embed(["hello"])
    assert vectors.shape == (1, 384)
    assert list(tmp_path.iterdir()) == [blocked]


def test_a_failed_keep_leaves_no_part_file(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(quantize.os, "replace", refuse)
    vectors = OnnxEmbedder(precision="int8", cache_dir=tmp_path).embed(["hello"])
    assert vectors.shape == (1, 384)
    assert list(tmp_path.iterdir()) == []  # neither the copy nor a half-written .part


def test_without_the_onnx_package_it_says_what_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "onnx", None)  # import onnx now fails
    with pytest.raises(EmbeddingError, match=r"needs the onnx package: pip install 'graphmem\[int8\]'"):
        OnnxEmbedder(precision="int8", cache_dir=tmp_path).load()
    OnnxEmbedder().embed(["float32 needs no onnx"])


def test_deriving_leaves_the_application_s_logging_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import logging

    root = logging.getLogger()
    # an application that configured no logging: the quantiser's logging.warning() would
    # otherwise install a stderr handler on the root logger for good (basicConfig)
    monkeypatch.setattr(root, "handlers", [])
    filters = list(root.filters)
    OnnxEmbedder(precision="int8", cache_dir=tmp_path).load()
    assert root.handlers == [] and root.filters == filters
    assert "pre-processing" not in capsys.readouterr().err
