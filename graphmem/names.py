"""Name normalisation: the rule for when two names name the same entity.

Entity resolution decides with it, and the stores index entities by it so a lookup
by name finds what resolution would; it is part of the model, not of either.

Company suffixes are one suffix. "ACME Inc", "Acme Corp." and "Acme GmbH"
normalise alike ("acme inc") and so name one organisation; "Acme" without a
suffix normalises to "acme" and stays apart, because a bare name may be the
product, the place or the person a company was named after. The two are joined
only by an alias (or by an extractor that knows better).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$", re.UNICODE)
_ARTICLE = re.compile(r"^(the|a|an)\s+", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+")
#: Legal-form suffixes, compared without dots or spaces ("S.A." -> "sa", "B. V." -> "bv").
LEGAL_SUFFIXES = frozenset({
    "inc", "incorporated", "corp", "corporation", "co", "company", "ltd", "limited", "llc", "llp",
    "lp", "plc", "gmbh", "ag", "kg", "sa", "sas", "sarl", "srl", "spa", "bv", "nv", "oy", "ab",
    "pty", "pte", "ltda", "aps",
})
#: The one suffix every legal form normalises to.
CANONICAL_SUFFIX = "inc"
_SUFFIX = re.compile(r"^(?P<core>.+?)(?:,?\s+&?\s*)(?P<suffix>(?:[a-z]\.?\s?){1,4}|[a-z]+)$")


def _plain(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).casefold().strip()
    text = _ARTICLE.sub("", text)
    text = _EDGE_PUNCT.sub("", text)
    return _SPACE.sub(" ", text)


def normalize_name(name: str) -> str:
    """Case-, width-, space- and legal-form-insensitive: " The  Acme Corp." -> "acme inc"."""
    text = core = _plain(name)
    while (match := _SUFFIX.match(core)) is not None:  # "Acme Co. Ltd" has two
        if re.sub(r"[.\s]", "", match.group("suffix")) not in LEGAL_SUFFIXES:
            break
        core = match.group("core").rstrip(",")
    return f"{core} {CANONICAL_SUFFIX}" if core and core != text else text


def legacy_name(name: str) -> str:
    """The form stores wrote before legal suffixes were unified, for finding older entities."""
    return _plain(name)


def is_word(text: str) -> bool:
    """Letters only ("mel", not "mel*" or "o'neil"): safe as a prefix in a store's name lookup,
    where GLOB and Lucene would read other characters as patterns."""
    return bool(_WORD.fullmatch(text))


def whole_words(names: Iterable[str]) -> re.Pattern[str] | None:
    """One case-insensitive pattern matching any of ``names`` as whole words (longest
    first), or None for no names: "Maria" in "maria and Marianne" once."""
    wanted = sorted({n for n in names if n}, key=len, reverse=True)
    if not wanted:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in wanted) + r")(?!\w)",
                      re.IGNORECASE)
