"""Plans a new fact carries out: "I'm moving to Exeter" ends once "I live in Exeter" holds.

A plan is a fact of its own (``PLANS``, "move to Exeter"), with no end date of its own:
without this, the plan and the home it led to both stayed current ("Margaret is planning
a move to Exeter" beside "Margaret lives in Exeter", seen by a new user). A plan is carried
out by the fact it names: a move to a town by living there, a job at a firm by working there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from types import MappingProxyType

from graphmem.models import Fact

#: For a predicate, how a plan of it reads with ``{}`` for the value.
_PLANNED_AS = MappingProxyType({
    "LIVES_IN": r"(?:move|moving|relocate|relocating|go|going|head|heading)(?:\s+back)?\s+to\s+{}",
    "WORKS_AT": r"(?:join|joining|start|starting|work|working)\s+(?:at\s+|for\s+)?{}",
})


def carries_out(predicate: str, value: str, plan: str) -> bool:
    """Whether holding ``predicate`` ``value`` carries out the plan ``plan``.

    >>> carries_out("LIVES_IN", "Exeter", "move to Exeter")
    True
    >>> carries_out("LIVES_IN", "Exeter", "move to Bristol")
    False
    >>> carries_out("WORKS_AT", "Stripe", "join Stripe")
    True
    >>> carries_out("LIVES_IN", "Austin", "move to Austin for the Datadog office")
    True
    >>> carries_out("LIVES_IN", "Austin", "move to Austinville")
    False
    >>> carries_out("LIVES_IN", "Paris", "go to Paris for a weekend")
    False
    """
    pattern = _PLANNED_AS.get(predicate)
    if pattern is None or not value.strip():
        return False
    # a move or a job may say why or when after its value; a trip ("go to Paris for a
    # weekend") is carried out by going, not by living there
    tail = "" if _TRIP.match(plan.strip()) else _WHY_OR_WHEN
    return re.fullmatch(pattern.format(re.escape(value.strip())) + tail, plan.strip(),
                        re.IGNORECASE) is not None


#: What a plan may say after its value: why, with whom or when ("move to Austin for the
#: Datadog office" was left current after the move).
_WHY_OR_WHEN = (r"(?:\s+(?:for|with|in|on|at|by|next|this|after|before|because|as|so|to)\b.*)?")
#: Plans worded as going somewhere, which may be a trip.
_TRIP = re.compile(r"(?:go|going|head|heading)\b", re.IGNORECASE)


def planned_predicates() -> frozenset[str]:
    """The predicates whose facts can carry a plan out."""
    return frozenset(_PLANNED_AS)


def carried_out(predicate: str, value: str, at: datetime, plans: Iterable[Fact]) -> list[Fact]:
    """The plans, begun by ``at``, that holding ``predicate`` ``value`` from then carries out."""
    return [p for p in plans if p.valid_from <= at and carries_out(predicate, value, p.object_name)]
