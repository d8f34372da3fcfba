"""How two facts about the same subject relate: supports, contradicts, refines.

A deterministic classifier, so consolidation reports the same relations on
every run and on both stores:

* **contradicts**: opposite sentiment on the same or a similar object
  ("likes spicy food" / "dislikes spicy dishes"), or the same predicate with
  one statement negated and the other not;
* **refines**: the same predicate, and one object names everything the other
  does and more ("hiking" / "hiking in the Alps"): the longer one refines;
* **supports**: similar statements (cosine at least ``related``) of the same
  polarity that are not duplicates.
"""

from __future__ import annotations

import re
from enum import StrEnum

import numpy as np
from pydantic import BaseModel

from graphmem.models import Fact

POSITIVE = frozenset({"LIKES", "LOVES", "PREFERS", "ENJOYS", "WANTS", "FAVORITE"})
NEGATIVE = frozenset({"DISLIKES", "HATES", "AVOIDS"})
_NEGATION = re.compile(r"\b(?:not|never|no longer|n't|cannot|doesn't|don't|isn't|won't)\b", re.I)
_WORD = re.compile(r"\w+", re.UNICODE)
_STOP = frozenset({"the", "a", "an", "of", "in", "on", "at", "to", "for", "and", "with"})


class RelationKind(StrEnum):
    SUPPORTS = "supports"
    CONTRADICTS = "contradicts"
    REFINES = "refines"


class FactRelation(BaseModel):
    """``source`` <kind> ``target``; for ``refines`` the source is the more specific fact."""

    source_id: str
    target_id: str
    kind: RelationKind
    similarity: float
    reason: str


def _polarity(fact: Fact) -> int:
    return 1 if fact.predicate in POSITIVE else -1 if fact.predicate in NEGATIVE else 0


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.casefold()) if w not in _STOP}


def classify(a: Fact, b: Fact, similarity: float, *, related: float = 0.85) -> FactRelation | None:
    """The relation between two facts of one subject, or None when they are unrelated."""
    if a.subject_id != b.subject_id or a.id == b.id:
        return None
    sim = round(similarity, 4)
    pa, pb = _polarity(a), _polarity(b)
    same_thing = a.object_id == b.object_id or similarity >= related
    if pa * pb < 0 and same_thing:
        return FactRelation(source_id=a.id, target_id=b.id, kind=RelationKind.CONTRADICTS,
                            similarity=sim, reason=f"{a.predicate} vs {b.predicate}")
    negated_a, negated_b = bool(_NEGATION.search(a.text)), bool(_NEGATION.search(b.text))
    if a.predicate == b.predicate and negated_a != negated_b and similarity >= related:
        return FactRelation(source_id=a.id, target_id=b.id, kind=RelationKind.CONTRADICTS,
                            similarity=sim, reason="one statement is negated")
    wa, wb = _words(a.object_name), _words(b.object_name)
    if a.predicate == b.predicate and wa and wb and wa != wb and (wa < wb or wb < wa):
        specific, general = (b, a) if wa < wb else (a, b)
        return FactRelation(source_id=specific.id, target_id=general.id, kind=RelationKind.REFINES,
                            similarity=sim, reason=f"{specific.object_name!r} narrows "
                                                   f"{general.object_name!r}")
    if similarity >= related and pa * pb >= 0:
        return FactRelation(source_id=a.id, target_id=b.id, kind=RelationKind.SUPPORTS,
                            similarity=sim, reason="similar statements")
    return None


def similarity_matrix(facts: list[Fact]) -> np.ndarray:
    """Pairwise cosine of the facts' embeddings (rows without one are zero)."""
    dims = {len(f.embedding) for f in facts if f.embedding}
    dim = dims.pop() if len(dims) == 1 else 0
    rows = np.zeros((len(facts), dim), dtype=np.float32)
    for i, fact in enumerate(facts):
        if dim and fact.embedding and len(fact.embedding) == dim:
            rows[i] = fact.embedding
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    unit = rows / np.maximum(norms, np.float32(1e-12))
    sims: np.ndarray = unit @ unit.T
    return sims


def relations(facts: list[Fact], *, related: float = 0.85, duplicate: float = 0.95,
              refine_floor: float = 0.5) -> list[FactRelation]:
    """Relations between same-subject facts that are not duplicates.

    Only candidate pairs are classified (similar, same object, or same
    predicate and at least ``refine_floor`` similar), found with one matrix
    product per subject, so a subject with thousands of facts stays cheap.
    """
    by_subject: dict[str, list[Fact]] = {}
    for fact in sorted(facts, key=lambda f: (f.valid_from, f.id)):
        by_subject.setdefault(fact.subject_id, []).append(fact)
    out: list[FactRelation] = []
    for group in by_subject.values():
        if len(group) < 2:
            continue
        sims = similarity_matrix(group)
        predicates = np.array([f.predicate for f in group])
        objects = np.array([f.object_id for f in group])
        same_predicate = predicates[:, None] == predicates[None, :]
        candidates = ((sims >= related) | (objects[:, None] == objects[None, :])
                      | (same_predicate & (sims >= refine_floor)))
        for i, j in np.argwhere(np.triu(candidates, k=1)):
            a, b, sim = group[i], group[j], float(sims[i, j])
            if sim >= duplicate and a.predicate == b.predicate:
                continue
            found = classify(a, b, sim, related=related)
            if found is not None:
                out.append(found)
    return out
