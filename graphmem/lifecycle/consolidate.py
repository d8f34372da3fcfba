"""Consolidation: merge near-duplicates, compress old rarely used memories, relate the rest.

* **Merge.** Two current facts with the same subject and predicate whose
  embeddings have cosine >= ``duplicate_similarity`` are one memory said two
  ways. The keeper (most evidence, then importance) takes the duplicate's
  evidence, so every source stays attached; the duplicate is archived with
  ``superseded_by`` pointing at the keeper.
* **Compress.** Old (not used for ``compress_after_days``), rarely used facts
  of one subject and category become one ``SUMMARY`` fact; the originals are
  archived, not destroyed, and the summary's ``DERIVED_FROM`` links are kept
  in the payload of the run's consolidation record (see
  :mod:`graphmem.lifecycle.records`), which :func:`derived_from` reads and
  :func:`expand_summary` undoes.
* **Relate.** :mod:`graphmem.lifecycle.relations` classifies the remaining
  same-subject pairs as supports / contradicts / refines (reported only).

Only facts that are alone in their timeline are merged or compressed:
archiving a fact that ends or follows another would change when that other
fact holds. Skipped pairs are reported.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Literal
from uuid import uuid4

import numpy as np
from pydantic import BaseModel, Field

from graphmem.errors import ConflictError, NotFoundError
from graphmem.ingest.normalise import merge_confidence
from graphmem.ingest.normalise import with_evidence
from graphmem.edit.changes import Change, fact_changes
from graphmem.lifecycle import records
from graphmem.lifecycle.policy import ConsolidationPolicy
from graphmem.lifecycle.relations import FactRelation, relations, similarity_matrix
from graphmem.memory import Memory
from graphmem.models import Category, Evidence, Fact, FactStatus, Scope
from graphmem.store.base import WriteBatch
from graphmem.temporal import TimeFilter

_SKIP_CATEGORIES = frozenset({Category.TODO})


class Merge(BaseModel):
    keeper_id: str
    duplicate_id: str
    similarity: float
    keeper_text: str
    duplicate_text: str


class Compression(BaseModel):
    summary_id: str
    summary_text: str
    subject: str
    category: Category
    original_ids: list[str]


class ConsolidationLog(BaseModel):
    """The payload of a consolidation record: what one run merged and compressed."""

    kind: Literal["consolidation"] = "consolidation"
    merges: list[Merge] = Field(default_factory=list)
    compressions: list[Compression] = Field(default_factory=list)


class ConsolidationReport(BaseModel):
    scope_key: str
    now: datetime
    merged: list[Merge] = Field(default_factory=list)
    compressed: list[Compression] = Field(default_factory=list)
    relations: list[FactRelation] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list)
    dry_run: bool = False

    @property
    def changed(self) -> int:
        return len(self.merged) + len(self.compressed)


def _alone(memory: Memory, tenant: str, facts: list[Fact]) -> set[str]:
    """Ids of the facts that are the only fact (of any status) of their timeline."""
    keys = sorted({f.timeline_key for f in facts})
    count: dict[str, int] = defaultdict(int)
    for fact in memory.store.facts_in_timelines(tenant, keys):
        count[fact.timeline_key] += 1
    return {f.id for f in facts if count[f.timeline_key] == 1}


def _keeper_order(fact: Fact) -> tuple[int, float, int, float]:
    return (len(fact.evidence), fact.importance, fact.access_count, -fact.recorded_at.timestamp())


def _find_merges(facts: list[Fact], alone: set[str], policy: ConsolidationPolicy,
                 report: ConsolidationReport) -> list[tuple[Fact, Fact, float]]:
    groups: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for fact in facts:
        groups[(fact.subject_id, fact.predicate)].append(fact)
    pairs: list[tuple[Fact, Fact, float]] = []
    for group in groups.values():
        if len(group) < 2:
            continue
        group.sort(key=_keeper_order, reverse=True)
        sims = similarity_matrix(group)
        absorbed: set[str] = set()
        keeping: set[str] = set()
        for i, j in np.argwhere(np.triu(sims >= policy.duplicate_similarity, k=1)):
            keeper, dup, sim = group[i], group[j], float(sims[i, j])
            if keeper.id in absorbed or dup.id in absorbed or dup.id in keeping:
                continue
            if keeper.id not in alone or dup.id not in alone:
                report.skipped.append(f"{dup.id} duplicates {keeper.id} but a timeline has "
                                      "history; left as it is")
                continue
            keeping.add(keeper.id)
            absorbed.add(dup.id)
            pairs.append((keeper, dup, sim))
    return pairs


def _merged(keeper: Fact, dups: list[Fact]) -> Fact:
    seen: set[tuple[object, ...]] = set()
    evidence: list[Evidence] = []
    for ev in [e for f in [keeper, *dups] for e in f.evidence]:
        key = (ev.at, ev.episode_id, tuple(ev.message_ids))
        if key not in seen:
            seen.add(key)
            evidence.append(ev)
    confidence = keeper.confidence
    for dup in dups:
        confidence = merge_confidence(confidence, dup.confidence)
    accessed = [f.last_accessed for f in [keeper, *dups] if f.last_accessed]
    return with_evidence(keeper, evidence).model_copy(update={
        "confidence": confidence, "importance": max(f.importance for f in [keeper, *dups]),
        "access_count": sum(f.access_count for f in [keeper, *dups]),
        "last_accessed": max(accessed) if accessed else None})


def _compression_groups(facts: list[Fact], alone: set[str], policy: ConsolidationPolicy,
                        now: datetime) -> list[list[Fact]]:
    cutoff = now - timedelta(days=policy.compress_after_days)
    groups: dict[tuple[str, Category], list[Fact]] = defaultdict(list)
    for fact in facts:
        if (fact.category in policy.compress_categories and fact.id in alone
                and fact.predicate != records.SUMMARY
                and fact.access_count <= policy.compress_max_accesses
                and records.last_use(fact, now) <= cutoff):
            groups[(fact.subject_id, fact.category)].append(fact)
    return [sorted(g, key=lambda f: (f.valid_from, f.id)) for g in groups.values()
            if len(g) >= policy.compress_min_group]


def summary_text(group: list[Fact]) -> str:
    """The deterministic text of a compressed group: when, then each original in order."""
    first, last = group[0].valid_from, group[-1].valid_from
    span = f"{first:%B %Y}" if (first.year, first.month) == (last.year, last.month) \
        else f"{first:%B %Y} to {last:%B %Y}"
    items = "; ".join(f.text.rstrip(". ") for f in group)
    return f"{group[0].subject_name}, {group[0].category.value} memories from {span}: {items}."


def consolidate(memory: Memory, tenant: str, scope: Scope, *,
                policy: ConsolidationPolicy = ConsolidationPolicy(),
                now: datetime | None = None, dry_run: bool = False) -> ConsolidationReport:
    """Merge, compress and relate the current memories stored under exactly ``scope``."""
    now = now or memory.clock()
    report = ConsolidationReport(scope_key=scope.key, now=now, dry_run=dry_run)
    with memory.edit(tenant, now=now) as edit:
        facts = [f for f in records.all_facts(memory, tenant, [scope.key], time=TimeFilter(as_of=now))
                 if f.status is FactStatus.ACTIVE and f.category not in _SKIP_CATEGORIES
                 and f.predicate not in records.LIFECYCLE_PREDICATES]
        alone = _alone(memory, tenant, facts)
        pairs = _find_merges(facts, alone, policy, report)
        by_keeper: dict[str, list[Fact]] = defaultdict(list)
        keepers: dict[str, Fact] = {}
        for keeper, dup, sim in pairs:
            by_keeper[keeper.id].append(dup)
            keepers[keeper.id] = keeper
            report.merged.append(Merge(keeper_id=keeper.id, duplicate_id=dup.id,
                                       similarity=round(sim, 4), keeper_text=keeper.text,
                                       duplicate_text=dup.text))
        gone = {d.id for dups in by_keeper.values() for d in dups}
        remaining = [f for f in facts if f.id not in gone]
        groups = _compression_groups(remaining, alone - set(keepers), policy, now) \
            if policy.compress else []
        writes: list[Fact] = []
        for keeper_id, dups in by_keeper.items():
            writes.append(_merged(keepers[keeper_id], dups))
            writes += [d.model_copy(update={"status": FactStatus.ARCHIVED,
                                            "superseded_by": keeper_id}) for d in dups]
        summaries: list[Fact] = []
        for group in groups:
            summary = _summary_fact(group, now)
            summaries.append(summary)
            report.compressed.append(Compression(
                summary_id=summary.id, summary_text=summary.text, subject=summary.subject_name,
                category=summary.category, original_ids=[f.id for f in group]))
            writes += [f.model_copy(update={"status": FactStatus.ARCHIVED,
                                            "superseded_by": summary.id}) for f in group]
        compressed = {f.id for g in groups for f in g}
        merged = {w.id: w for w in writes if w.id in keepers}
        after = [merged.get(f.id, f) for f in remaining if f.id not in compressed]
        report.relations = relations([*after, *summaries], related=policy.related_similarity,
                                     duplicate=policy.duplicate_similarity)
        if dry_run or not (pairs or groups):
            return report
        log = records.authored_episode(
            tenant, scope.key, kind="consolidation", key=f"{now.isoformat()}:{uuid4().hex}", at=now,
            payload=ConsolidationLog(merges=report.merged, compressions=report.compressed),
            lines=[("graphmem", f"Consolidation: merged {len(report.merged)} duplicate memories,"
                                f" compressed {len(report.compressed)} groups.")])
        summaries = [with_evidence(s, [*s.evidence, Evidence(at=now, episode_id=log.id)])
                     for s in summaries]
        edit.write(WriteBatch(episodes=[log], facts=[*writes, *summaries]))
        edit.record([
            *fact_changes("memory.updated", [w for w in writes if w.id in keepers],
                          episode_id=log.id),
            *fact_changes("memory.superseded", [w for w in writes if w.id not in keepers],
                          episode_id=log.id),
            *fact_changes("memory.created", summaries, episode_id=log.id)])
    return report


def _summary_fact(group: list[Fact], now: datetime) -> Fact:
    head = group[0]
    summary = Fact(
        tenant=head.tenant, scope_key=head.scope_key, subject_id=head.subject_id,
        subject_name=head.subject_name, predicate=records.SUMMARY, object_id=head.subject_id,
        object_name=head.subject_name, text=summary_text(group), category=head.category,
        importance=max(f.importance for f in group),
        confidence=min(f.confidence for f in group), valid_from=head.valid_from,
        recorded_at=now)
    summary = summary.model_copy(update={
        "timeline_key": f"{head.scope_key}|{head.subject_id}|{records.SUMMARY}|{summary.id}"})
    return with_evidence(summary, [e for f in group for e in f.evidence])


def _log_of(memory: Memory, tenant: str, summary: Fact) -> Compression | None:
    for episode_id in summary.episode_ids:
        episode = memory.store.get_episode(tenant, episode_id)
        if episode is None or not records.is_record(episode):
            continue
        log = records.payload_of(episode, ConsolidationLog)
        if log is not None:
            for item in log.compressions:
                if item.summary_id == summary.id:
                    return item
    return None


def derived_from(memory: Memory, tenant: str, summary_id: str) -> list[Fact]:
    """The archived originals a ``SUMMARY`` fact was compressed from (its DERIVED_FROM links)."""
    found = memory.store.get_facts(tenant, [summary_id])
    if not found or found[0].predicate != records.SUMMARY:
        raise NotFoundError(f"summary memory {summary_id!r} not found")
    item = _log_of(memory, tenant, found[0])
    if item is None:
        return []
    return [f.public() for f in memory.store.get_facts(tenant, item.original_ids)]


def expand_summary(memory: Memory, tenant: str, summary_id: str) -> list[Fact]:
    """Undo a compression: the originals come back and the summary fact is deleted."""
    with memory.edit(tenant) as edit:
        originals = derived_from(memory, tenant, summary_id)
        if not originals:
            raise ConflictError(f"no DERIVED_FROM record for {summary_id!r}; nothing to expand")
        stored = memory.store.get_facts(tenant, [f.id for f in originals])
        back = [f.model_copy(update={"status": FactStatus.ACTIVE, "superseded_by": None})
                for f in stored if f.status is FactStatus.ARCHIVED]
        edit.write(WriteBatch(facts=back, delete_fact_ids=[summary_id]))
        edit.record([*fact_changes("memory.restored", back),
                     Change(target=summary_id, kind="memory.deleted")])
    return [f.public() for f in back]
