"""Job titles of several words, joined into one token before the parser sees them.

The small English model reads "lead" in "I'm the team lead" as the sentence's verb
("the team" leading something), so "I'm no longer the team lead" had no attribute
to read a title from, and "head of design" is a body part with a prepositional
phrase. Retagging after the parse cannot mend a tree, so :class:`TitleJoiner`
wraps the tokenizer: a title found in the raw text becomes one token, which the
parser then places as the noun it is ("I" -be-> "team lead"). The rules then
treat a joined title as an occupation (:func:`is_joined_title`).

The list is kept to titles whose parts the model misreads or which no single
word names; "engineering manager" or "lead engineer" parse well already.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

#: What a "... lead" leads: "team lead", "tech lead", "design lead".
LEAD_AREAS = (
    "team", "tech", "technical", "project", "product", "program", "design", "engineering",
    "data", "qa", "sales", "marketing", "research", "group", "squad", "dev", "frontend",
    "front-end", "backend", "back-end", "ux", "ui", "content", "support", "ops", "devops",
    "security", "platform", "infrastructure", "mobile", "web", "creative", "art", "shift",
    "store", "site", "clinical", "customer success", "growth", "operations",
)
#: What a "head of ...", "director of ..." or "VP of ..." is in charge of.
DEPARTMENTS = (
    "design", "engineering", "product", "marketing", "sales", "operations", "hr",
    "human resources", "research", "data", "growth", "finance", "people", "it", "security",
    "support", "content", "strategy", "partnerships", "communications", "legal", "platform",
    "infrastructure", "customer success", "talent", "recruiting", "brand", "analytics",
    "technology", "innovation", "sustainability", "business development", "ux", "development",
    "school", "department", "science", "mathematics", "english", "music", "art",
)


def _one_of(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+")
                    for w in sorted(words, key=len, reverse=True))


_TITLE = re.compile(
    rf"\b(?:(?:{_one_of(LEAD_AREAS)})\s+lead"
    rf"|(?:head|director|vp|svp|evp|(?:senior\s+)?vice\s+president)\s+of\s+(?:{_one_of(DEPARTMENTS)})"
    rf"|(?:senior\s+)?vice\s+president)\b",
    re.IGNORECASE,
)


def is_joined_title(token: Token) -> bool:
    """A token that :class:`TitleJoiner` made from a title of several words."""
    return " " in token.text and _TITLE.fullmatch(token.text) is not None


class TitleJoiner:
    """Wraps a spaCy tokenizer: each multi-word job title in the text becomes one token."""

    def __init__(self, tokenizer: Callable[[str], Doc]) -> None:
        self._tokenizer = tokenizer

    def __call__(self, text: str) -> Doc:
        doc = self._tokenizer(text)
        if " " not in text:
            return doc
        spans = [span for m in _TITLE.finditer(text)
                 if (span := doc.char_span(m.start(), m.end())) is not None and len(span) > 1]
        if spans:
            with doc.retokenize() as joining:
                for span in spans:
                    joining.merge(span)
        return doc
