"""Which structured-output mode an endpoint accepts, learned once and remembered.

OpenAI-compatible servers differ in what ``response_format`` they take:
OpenAI, vLLM, Ollama and llama.cpp's ``llama-server`` take a strict
``json_schema``; llama-cpp-python's server refuses it (with a *500* naming
``response_format``) but takes ``json_object``; some servers take neither.
:class:`FormatNegotiator` walks the ladder ``json_schema`` -> ``json_object``
(schema in the prompt) -> ``prompt`` (plain JSON asked for in the prompt) on
a refusal that names the response format, whatever its status code, and
stays on the rung that worked. A configured mode other than ``auto`` is
never stepped down from: the operator asked for it, so a refusal is an error.
"""

from __future__ import annotations

import threading
from typing import Literal, get_args

#: What ``GRAPHMEM_LLM_RESPONSE_FORMAT`` may say.
FormatMode = Literal["auto", "json_schema", "json_object", "prompt"]
#: A rung of the ladder: what one request actually asks for.
Format = Literal["json_schema", "json_object", "prompt"]
LADDER: tuple[Format, ...] = get_args(Format)

#: Words by which a refusal names the response format (lower case).
_NAMES_THE_FORMAT = ("response_format", "response format", "json_schema", "json_object",
                     "structured output", "guided_json", "grammar")


def names_the_format(status: int, message: str) -> bool:
    """True when an error answer is a refusal of the ``response_format`` asked for.

    Any 4xx or 5xx counts (llama-cpp-python answers 500), except 429 and the
    gateway errors, which say nothing about the request.

    >>> names_the_format(500, "response_format.type: Input should be 'text' or 'json_object'")
    True
    >>> names_the_format(503, "model is loading")
    False
    """
    if status < 400 or status in (429, 502, 503, 504):
        return False
    text = message.lower()
    return any(word in text for word in _NAMES_THE_FORMAT)


class FormatNegotiator:
    """The response format to ask one endpoint for.

    >>> negotiator = FormatNegotiator("auto")
    >>> negotiator.current
    'json_schema'
    >>> negotiator.refused("json_schema")
    'json_object'
    >>> negotiator.refused("json_schema")  # a second thread's late refusal: no extra step
    'json_object'
    >>> FormatNegotiator("json_schema").refused("json_schema") is None
    True

    Until one request in the current format has succeeded, :attr:`probing`
    is a lock the extractor holds around its request, so concurrent episodes
    do not each discover the refusal; afterwards it is never taken.
    """

    def __init__(self, mode: FormatMode = "auto") -> None:
        if mode not in ("auto", *LADDER):
            raise ValueError(f"response format must be auto, {', '.join(LADDER)}; got {mode!r}")
        self.mode: FormatMode = mode
        self._current: Format = "json_schema" if mode == "auto" else mode
        self._settled = mode != "auto"
        self._lock = threading.Lock()
        self.probing = threading.Lock()

    @property
    def current(self) -> Format:
        with self._lock:
            return self._current

    @property
    def settled(self) -> bool:
        """True once the endpoint has answered a request in :attr:`current` (or it was configured)."""
        with self._lock:
            return self._settled

    def accepted(self, used: Format) -> None:
        """A request in ``used`` was answered: stay on it."""
        with self._lock:
            if used == self._current:
                self._settled = True

    def refused(self, used: Format) -> Format | None:
        """``used`` was refused: the format to use from now on, or None when there is none left.

        None when the mode was configured (never stepped down from) or
        ``used`` is already plain prompting.
        """
        with self._lock:
            if self.mode != "auto":
                return None
            if used != self._current:  # another request already stepped down past it
                return self._current
            rung = LADDER.index(used)
            if rung + 1 == len(LADDER):
                return None
            self._current = LADDER[rung + 1]
            return self._current
