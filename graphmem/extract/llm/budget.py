"""How many tokens an answer may take, and how a grammar keeps it within that.

Every request carries ``max_tokens``: a grammar-constrained small model can
otherwise generate until its context is full (minutes on a CPU). The budget
grows with the episode's size. Where the server turns the schema into a
grammar (llama.cpp's ``json_object`` with a ``schema``), the arrays are capped
too, so a well-formed answer fits its budget instead of being cut off.
"""

from __future__ import annotations

from graphmem.extract.base import CandidateFact
from graphmem.models import Episode

#: Output tokens an answer may take: a floor for the envelope, a share per input token
#: (facts restate the episode), and room for a decision per candidate.
BUDGET_FLOOR = 512
BUDGET_PER_INPUT_TOKEN = 1.5
BUDGET_PER_CANDIDATE = 48


def answer_budget(episode: Episode, candidates: list[CandidateFact], cap: int) -> int:
    """``max_tokens`` for one episode: grows with its size, never above ``cap``.

    Input tokens are estimated at four characters each.

    >>> from datetime import UTC, datetime
    >>> when = datetime(2024, 1, 1, tzinfo=UTC)
    >>> answer_budget(Episode(tenant="t", scope_key="u", content="x" * 400, reference_time=when),
    ...               [], 4096)
    662
    """
    tokens_in = len(episode.content) / 4
    budget = BUDGET_FLOOR + BUDGET_PER_INPUT_TOKEN * tokens_in + BUDGET_PER_CANDIDATE * len(candidates)
    return max(1, min(cap, int(budget)))


#: What one item of each answer array takes, roughly, in tokens, and the share of the
#: budget each array may use; the envelope (keys, brackets, language) takes the rest.
ITEM_TOKENS = {"entities": 24, "facts": 150, "decisions": 32}
SHARES = {"entities": 0.25, "facts": 0.6, "decisions": 0.15}
ENVELOPE_TOKENS = 24


def item_caps(budget: int, candidates: int) -> dict[str, int]:
    """How many entities, facts and decisions fit in ``budget`` tokens.

    >>> item_caps(4096, 3)
    {'entities': 42, 'facts': 16, 'decisions': 3}
    >>> item_caps(48, 5)  # room for the envelope only: an empty, well-formed answer
    {'entities': 0, 'facts': 0, 'decisions': 0}
    """
    room = max(0, budget - ENVELOPE_TOKENS)
    caps = {name: int(room * SHARES[name]) // tokens for name, tokens in ITEM_TOKENS.items()}
    caps["decisions"] = min(caps["decisions"], candidates)
    return caps
