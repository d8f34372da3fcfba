"""Facts held within another one's value: a job title ends with the job.

A job title or a manager belongs to one employer (``PredicateSpec.held_with``):
the one the subject worked for when it was said. When that job ends, the title is
no longer known to hold: "I left Acme" ends "Maya works as team lead", said while
at Acme, at that moment, and so does "I work at Figma now", unless the same
message states a title again ("I joined Figma as team lead"). A title or manager
said while no employer was known belongs to no job, and carries on.

:func:`endings` is pure over one subject's rebuilt timelines, so the outcome does
not depend on the order episodes arrived in: a title whose episode arrives after
the job change's is ended by the same rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from graphmem.models import Cardinality, Evidence, Fact, FactStatus
from graphmem.predicates import PredicateRegistry
from graphmem.temporal import timeline_key

_LIVE = (FactStatus.ACTIVE, FactStatus.FORGOTTEN)


def slots(registry: PredicateRegistry, keys: Iterable[str]) -> dict[str, list[str]]:
    """For each holding value among the timeline ``keys`` or held within one (a job; its
    title): the holding timeline's key and the keys of the timelines held within it, so
    both sides are loaded (and read by :func:`endings`) together."""
    held_by = registry.held_families()
    holder_of = {family: holder for holder, fams in held_by.items() for family in fams}
    found: dict[str, list[str]] = {}
    for key in keys:
        parts = key.rsplit("|", 3)
        scope, subject, family, per_object = parts if len(parts) == 4 else ("", "", "", "")
        holder = family if family in held_by else holder_of.get(family)
        if per_object == "*" and holder is not None:
            own = timeline_key(scope, subject, holder, Cardinality.ONE, "")
            found[own] = [timeline_key(scope, subject, f, Cardinality.ONE, "")
                          for f in held_by[holder]]
    return found


def endings(holding: Iterable[Fact], held: Iterable[Fact]) -> list[tuple[Fact, Evidence]]:
    """The held facts that end because the value they were held within ended, each with
    the evidence of that ending.

    A held fact belongs to the holding value current at its latest evidence (the latest
    moment a statement put it at: "my manager is Tom", said while at Acme, is Acme's; a
    title said again as the job changed, "same role though", is the new job's); one put
    where no value was known belongs to none and carries on. A value that held for no time (a slip corrected in
    words ends where it began) owns nothing. An ending at a moment the held slot was
    itself spoken about (a new title in the same message, an ending already recorded)
    ends nothing more.
    """
    facts = list(holding)
    live = [f for f in facts if f.status in _LIVE
            and (f.valid_until is None or f.valid_until > f.valid_from)]
    markers = [f for f in facts if f.status is FactStatus.RETRACTION]
    held_facts = list(held)
    spoken = {e.at for f in held_facts for e in f.evidence}
    out: list[tuple[Fact, Evidence]] = []
    for fact in held_facts:
        if fact.status is not FactStatus.ACTIVE:
            continue
        # put again at the job's change ("moved to Oakhurst, same role though"): the new one's
        said = max([fact.valid_from, *(e.at for e in fact.evidence)])
        owners = [f for f in live if f.valid_from <= said
                  and (f.valid_until is None or said < f.valid_until)]
        owner = max(owners, key=lambda f: f.valid_from, default=None)
        end = owner.valid_until if owner is not None else None
        if owner is None or end is None or end in spoken or (
                fact.valid_until is not None and fact.valid_until <= end):
            continue
        after = [f for f in live if f.valid_from == end]
        if any(f.object_id == owner.object_id for f in after):
            continue  # the same value again, split by something else
        cause = next(iter(after), None) or next(
            (m for m in markers if m.valid_from == end), None) or owner
        out.append((fact, evidence_at(cause, end)))
    return out


def evidence_at(fact: Fact, at: datetime) -> Evidence:
    """The fact's evidence from that moment, or its first source dated then."""
    said = next((e for e in fact.evidence if e.at == at), None)
    if said is not None:
        return said
    return Evidence(at=at, episode_id=fact.episode_ids[0] if fact.episode_ids else None)
