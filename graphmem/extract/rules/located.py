"""Where a parsed sentence begins in the message it came from.

Rules that look back past their sentence (the name a "he" follows, the slip a correction
owns up to in the sentence before) need the message's text before it. The sentence as
parsed may be mended ("He's" read as "He is", a slip of the keyboard put right), so it is
found by its first words, not by its whole text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Span

#: How many of the sentence's first words locate it.
_OPENING_WORDS = 3


def text_before(message: str, sent: Span) -> str:
    """The message's text before ``sent`` ("" when it cannot be found)."""
    words = [t.text for t in sent if not t.is_punct][:_OPENING_WORDS]
    while words:
        pattern = r"(?<!\w)" + r"\W*".join(re.escape(w) for w in words) + r"(?!\w)"
        found = re.search(pattern, message)
        if found is not None:
            return message[:found.start()]
        words = words[:-1]  # a word the mending changed ("He is" for "He's")
    return ""
