"""Names people shorten when they end what they name: "sold the Focus" is the "Ford Focus",
"given up the watercolours" is "watercolour painting"."""

from __future__ import annotations


def shortened(short: str, full: str) -> bool:
    """Whether ``short`` is ``full`` with words left off its start or end, as people shorten
    what they own: "Focus" for "Ford Focus", "Pixel" for "Pixel 8", and what they do:
    "the watercolours" for "watercolour painting" (a plural is its singular here).

    >>> shortened("the watercolours", "watercolour painting"), shortened("Focus", "Ford Focus")
    (True, True)
    >>> shortened("Ford", "Ford")
    False
    """
    said, named = _singular(short).split(), _singular(full).split()
    return 0 < len(said) < len(named) and (named[:len(said)] == said
                                            or named[-len(said):] == said)


def _singular(name: str) -> str:
    """``name`` in lower case with each word's plural "s" dropped ("watercolours" ->
    "watercolour"; not "glass" or "bus")."""
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us"))
                    else w for w in name.casefold().split() if w not in ("the", "my"))
