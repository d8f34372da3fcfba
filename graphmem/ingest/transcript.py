"""A text that is a pasted transcript ("Sam: ...", "Bob: ..."), read as who said what.

A ``text`` episode is one author's words, so "I" in it is the scope's user. A
transcript pasted as text is not: each line's "I" is the name before its
colon. Reading it as messages gives each line to its speaker, instead of
crediting everyone's first-person lines to the user. The stored episode stays
the text as sent; only the extractor reads the lines.

>>> transcript_lines("Sam: I moved to Trondheim.\\nBob: I live in Paris.")
[('Sam', 'I moved to Trondheim.'), ('Bob', 'I live in Paris.')]
>>> transcript_lines("Note: buy milk. I live in Oslo.") is None
True
"""

from __future__ import annotations

import re

#: "Name: words", a name of up to three capitalised words.
_LINE = re.compile(r"^\s*([A-Z][\w.'-]{0,30}(?: [A-Z][\w.'-]{0,30}){0,2}):\s+(\S.*)$")
#: Labels that start a line like a speaker but are not one.
_LABELS = frozenset({"note", "notes", "update", "todo", "summary", "re", "subject", "ps",
                     "tip", "warning", "edit", "tl;dr", "example", "answer", "question"})
#: A transcript has at least this many speaker lines (one "Note: ..." is not one).
MIN_SPEAKER_LINES = 2


def transcript_lines(text: str) -> list[tuple[str, str]] | None:
    """``(speaker, words)`` per turn when every line is a speaker's turn or continues the
    one before, with at least two turns; None when the text is not a transcript."""
    turns: list[tuple[str, str]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        match = _LINE.match(line)
        if match and match.group(1).lower() not in _LABELS:
            turns.append((match.group(1), match.group(2).strip()))
        elif turns:  # a turn that runs over several lines
            speaker, words = turns[-1]
            turns[-1] = (speaker, f"{words} {line.strip()}")
        else:
            return None
    return turns if len(turns) >= MIN_SPEAKER_LINES else None
