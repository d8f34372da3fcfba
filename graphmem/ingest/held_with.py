"""Facts held within another one's value: a job title ends with the job.

A job title or a manager belongs to one employer (``PredicateSpec.held_with``).
When the subject's employer changes or ends, a title learned before is no longer
known to hold: "I left Acme" ends "Maya works as team lead" at that moment, and
so does "I work at Figma now", unless the same message states a title again
("I joined Figma as team lead"). A first employer is no change: a title said
before any employer was known carries on.

Both functions are pure over one subject's rebuilt timelines, so the outcome does
not depend on the order episodes arrived in: a title whose episode arrives after
the job change's is ended by the same rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from graphmem.models import Evidence, Fact, FactStatus

_LIVE = (FactStatus.ACTIVE, FactStatus.FORGOTTEN)


def changes(holding: Iterable[Fact]) -> list[tuple[datetime, Evidence]]:
    """Where a held value ended or gave way to another, with the evidence that said so.

    A value that held for no time (a slip corrected in words ends where it began)
    is not one: the value before it, if any, gave way to the right one.
    """
    facts = list(holding)
    live = [f for f in facts if f.status in _LIVE
            and (f.valid_until is None or f.valid_until > f.valid_from)]
    markers = [f for f in facts if f.status is FactStatus.RETRACTION]
    out: list[tuple[datetime, Evidence]] = []
    for fact in live:
        end = fact.valid_until
        if end is None:
            continue
        after = [f for f in live if f.valid_from == end]
        if any(f.object_id == fact.object_id for f in after):
            continue  # the same value again, split by something else
        cause = next(iter(after), None) or next(
            (m for m in markers if m.valid_from == end), None) or fact
        out.append((end, evidence_at(cause, end)))
    return sorted(out, key=lambda change: change[0])


def endings(held: Iterable[Fact], changed: list[tuple[datetime, Evidence]],
            ) -> list[tuple[Fact, Evidence]]:
    """The held facts a change ends, each with the first change inside its interval.

    A change at a moment the held slot was itself spoken about (a new title in the
    same message, or an ending already recorded) ends nothing more.
    """
    facts = list(held)
    spoken = {e.at for f in facts for e in f.evidence}
    out: list[tuple[Fact, Evidence]] = []
    for fact in facts:
        if fact.status is not FactStatus.ACTIVE:
            continue
        first = next((ev for at, ev in changed if fact.valid_from < at
                      and (fact.valid_until is None or at < fact.valid_until)), None)
        if first is not None and first.at not in spoken:
            out.append((fact, first))
    return out


def evidence_at(fact: Fact, at: datetime) -> Evidence:
    """The fact's evidence from that moment, or its first source dated then."""
    said = next((e for e in fact.evidence if e.at == at), None)
    if said is not None:
        return said
    return Evidence(at=at, episode_id=fact.episode_ids[0] if fact.episode_ids else None)
