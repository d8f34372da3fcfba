"""Names people shorten when they end what they name: "sold the Focus" is the "Ford Focus",
"given up the watercolours" is "watercolour painting"."""

from __future__ import annotations

from collections.abc import Sequence


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


def begun_by(short: str, names: Sequence[str]) -> int | None:
    """The index of the one name in ``names`` that begins with the words of ``short`` (and
    goes on), as people name a firm by its first words: "first month at Halvorsen done" for
    "Halvorsen Analytics"; None when no name or more than one does.

    >>> begun_by("Halvorsen", ["Halvorsen Analytics", "Oslo"])
    0
    >>> begun_by("Halvorsen", ["Halvorsen"]), begun_by("Acme", ["Acme Labs", "Acme Foods"])
    (None, None)
    """
    start = short.casefold().strip()
    begun = [i for i, name in enumerate(names) if name.casefold().startswith(start + " ")]
    return begun[0] if start and len(begun) == 1 else None


def _singular(name: str) -> str:
    """``name`` in lower case with each word's plural "s" dropped ("watercolours" ->
    "watercolour"; not "glass" or "bus")."""
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us"))
                    else w for w in name.casefold().split() if w not in ("the", "my"))
