"""Name normalisation shared by the stores and entity resolution."""

from __future__ import annotations

import re
import unicodedata

_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$", re.UNICODE)
_ARTICLE = re.compile(r"^(the|a|an)\s+", re.IGNORECASE)


def normalize_name(name: str) -> str:
    """Case-, width- and space-insensitive form of a name: " The  Acme Corp." -> "acme corp"."""
    text = unicodedata.normalize("NFKC", name).casefold().strip()
    text = _ARTICLE.sub("", text)
    text = _EDGE_PUNCT.sub("", text)
    return _SPACE.sub(" ", text)
