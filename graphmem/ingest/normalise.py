"""Normalising a timeline before it is rebuilt.

A fact's evidence may straddle a different value said in between ("Acme" in
January and March, "Globex" in February): the fact is split there. Adjacent runs
of one value are then merged into one fact. Both follow from the facts and the
retraction markers alone, so a timeline normalises the same whatever order its
statements arrived in (see :mod:`graphmem.ingest.apply`).
"""

from __future__ import annotations

from graphmem.models import Evidence, Fact, FactStatus, new_id


def with_evidence(fact: Fact, evidence: list[Evidence]) -> Fact:
    """A copy whose provenance and start follow from ``evidence``."""
    episode_ids = list(dict.fromkeys(e.episode_id for e in evidence if e.episode_id))
    message_ids = list(dict.fromkeys(m for e in evidence for m in e.message_ids))
    start = min((e.at for e in evidence), default=fact.valid_from)
    return fact.model_copy(update={"evidence": evidence, "episode_ids": episode_ids,
                                   "message_ids": message_ids, "valid_from": start})


def value_of(fact: Fact) -> tuple[str, str]:
    """What a fact says its subject has: two facts with the same value restate each other."""
    return (fact.predicate, fact.object_id)


def _live(timeline: dict[str, Fact]) -> list[Fact]:
    return sorted((f for f in timeline.values()
                   if f.status in (FactStatus.ACTIVE, FactStatus.FORGOTTEN)),
                  key=lambda f: (f.valid_from, f.recorded_at, f.id))


def normalise(timeline: dict[str, Fact]) -> list[str]:
    """Split facts whose evidence straddles another value; merge adjacent equal runs.

    Splitting repeats until nothing changes (each split leaves a fact with
    fewer evidence items, so it ends). Mutates ``timeline``; returns the ids
    of facts merged away.
    """
    markers = [f for f in timeline.values() if f.status is FactStatus.RETRACTION]
    while _split_once(timeline, markers):
        pass
    return _merge_adjacent(timeline, markers)


def _split_once(timeline: dict[str, Fact], markers: list[Fact]) -> bool:
    facts = _live(timeline)
    for fact in facts:
        borders = sorted({o.valid_from for o in facts if value_of(o) != value_of(fact)}
                         | {m.valid_from for m in markers
                            if not m.object_id or m.object_id == fact.object_id})
        borders = [b for b in borders if b > fact.valid_from]
        groups: list[list[Evidence]] = [[] for _ in range(len(borders) + 1)]
        for ev in fact.evidence:
            groups[sum(1 for b in borders if ev.at >= b)].append(ev)
        groups = [g for g in groups if g]
        if len(groups) < 2:
            continue
        timeline[fact.id] = with_evidence(fact, groups[0])
        for group in groups[1:]:
            part = with_evidence(fact.model_copy(update={"id": new_id("fact"), "embedding": None}),
                                 group)
            timeline[part.id] = part
        return True
    return False


def _merge_adjacent(timeline: dict[str, Fact], markers: list[Fact]) -> list[str]:
    facts = _live(timeline)
    merged_away: list[str] = []
    if not facts:
        return merged_away
    keep = facts[0]
    for fact in facts[1:]:
        between = any(keep.valid_from < m.valid_from <= fact.valid_from
                      and (not m.object_id or m.object_id == fact.object_id) for m in markers)
        if (value_of(fact) == value_of(keep) and not between and keep.stated_until is None
                and keep.evidence and fact.evidence):
            keep = with_evidence(keep, [*keep.evidence, *fact.evidence])
            timeline[keep.id] = keep
            del timeline[fact.id]
            merged_away.append(fact.id)
        else:
            keep = fact
    return merged_away


def restated_by(fact: Fact, evidence: Evidence) -> bool:
    """Whether ``evidence`` names a source (messages) the fact already holds as evidence."""
    return bool(evidence.message_ids) and any(
        e.episode_id == evidence.episode_id and e.message_ids == evidence.message_ids
        for e in fact.evidence)


def merge_confidence(a: float, b: float) -> float:
    """Independent confirmations raise confidence: 1 - (1-a)(1-b), capped below certainty."""
    return round(min(0.99, 1 - (1 - a) * (1 - b)), 4)
