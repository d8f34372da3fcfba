"""Entity resolution: map the names an extractor found to stored entities.

Rules, strictest first:

1. an exact normalised name or alias match in a visible scope merges, except
   that a bare first name introduced by another speaker in another relation is
   a new person (see :mod:`graphmem.ingest.people`, which also picks among
   several people of one name);
2. otherwise a fuzzy or embedding candidate merges only above a strict
   threshold, only with the same entity type, and never when the names look
   like identifiers that differ in their digits (SR-2023-052 vs SR-2023-053);
3. otherwise a new entity is created in the episode's scope. Its name's version
   is read before the lookup and checked by the write, so two processes cannot
   both create it (:func:`graphmem.temporal.name_key`).

Each merge is recorded on the entity (:class:`~graphmem.models.Resolved`, one
entry per kind of reason), so a wrong one can be explained and split.
"""

from __future__ import annotations

import re
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Literal

from graphmem.embed.base import Embedder
from graphmem.ingest.people import NameContext, choose, noted
from graphmem.models import Entity, Resolved, Scope
from graphmem.names import legacy_name, normalize_name
from graphmem.store.base import GraphStore, ScoredEntity
from graphmem.temporal import name_key

_DIGITS = re.compile(r"\d+")

#: Below these, a candidate never merges.
FUZZY_THRESHOLD = 0.92
EMBEDDING_THRESHOLD = 0.93
#: Scopes resolved at once by :meth:`EntityResolver.resolve_many` on a server store.
RESOLVE_WORKERS = 4


def digits_conflict(a: str, b: str) -> bool:
    """True when two names carry different numbers: they name different things."""
    return _DIGITS.findall(a) != _DIGITS.findall(b)


@dataclass
class NameRequest:
    name: str
    type: str = "concept"
    aliases: list[str] = field(default_factory=list)
    context: NameContext | None = None  # who spoke of it, and in what relation


@dataclass
class Resolution:
    by_name: dict[str, Entity]  # normalised name -> entity
    created: list[Entity]
    updated: list[Entity]
    #: The version (read before the lookup) of each created entity's name key
    #: (:func:`~graphmem.temporal.name_key`): the batch that writes the entity carries
    #: them, so a process that created the same name meanwhile makes the write stale.
    claims: dict[str, int] = field(default_factory=dict)

    def get(self, name: str) -> Entity | None:
        return self.by_name.get(normalize_name(name))


class EntityResolver:
    def __init__(self, store: GraphStore, embedder: Embedder | None) -> None:
        self.store = store
        self.embedder = embedder

    def resolve_many(self, tenant: str, asks: list[tuple[Scope, list[NameRequest]]], *,
                     create: bool = True) -> list[Resolution]:
        """:meth:`resolve` for several scopes, side by side on a store whose reads gain from
        it (each scope's names are resolved on their own, so the results do not change)."""
        if len(asks) < 2 or not self.store.parallel_reads:
            return [self.resolve(tenant, scope, requests, create=create)
                    for scope, requests in asks]
        with ThreadPoolExecutor(max_workers=min(len(asks), RESOLVE_WORKERS),
                                thread_name_prefix="graphmem-resolve") as pool:
            return list(pool.map(lambda ask: self.resolve(tenant, ask[0], ask[1], create=create),
                                 asks))

    def resolve(self, tenant: str, scope: Scope, requests: list[NameRequest], *,
                create: bool = True) -> Resolution:
        wanted: dict[str, NameRequest] = {}
        for req in requests:
            norm = normalize_name(req.name)
            if norm and norm not in wanted:
                wanted[norm] = req
        lookup = list(dict.fromkeys([*wanted, *(legacy_name(r.name) for r in wanted.values())]))
        keys = {norm: name_key(scope.key, norm) for norm in wanted}
        seen = self.store.timeline_versions(tenant, list(keys.values())) if create else {}
        candidates: dict[str, list[Entity]] = defaultdict(list)
        for ent in _most_specific_first(
                self.store.find_entities(tenant, scope.visible_keys, lookup), scope):
            for norm in dict.fromkeys(normalize_name(a) for a in [ent.name, *ent.aliases]):
                if norm in wanted:
                    candidates[norm].append(ent)
        result = Resolution(by_name={}, created=[], updated=[])
        distinct: set[str] = set()
        for norm, found in candidates.items():
            req = wanted[norm]
            chosen, why = choose(self.store, tenant, scope, req.name, req.type, req.context, found)
            if chosen is None:
                distinct.add(norm)
            else:
                _note(result, norm, chosen, why)
        missing = [n for n in wanted if n not in result.by_name]
        if not missing:
            return result
        vectors = ([[float(x) for x in v] for v in self.embedder.embed(
            [wanted[n].name for n in missing])] if self.embedder else None)
        near = self._candidates(tenant, scope, [wanted[n] for n in missing], vectors,
                                [n in distinct for n in missing])
        for i, norm in enumerate(missing):
            req = wanted[norm]
            close = near[i]
            if close is not None:
                match, why = close
                _note(result, norm, match.model_copy(update={"aliases": [*match.aliases, req.name]}),
                      why, changed=True)
            elif create:
                ent = Entity(tenant=tenant, scope_key=scope.key, name=req.name.strip(),
                             type=req.type, aliases=list(dict.fromkeys(req.aliases)),
                             embedding=None if vectors is None else vectors[i])
                result.by_name[norm] = ent
                result.created.append(ent)
                result.claims[keys[norm]] = seen[keys[norm]]
        return result

    def _candidates(self, tenant: str, scope: Scope, requests: list[NameRequest],
                    vectors: list[list[float]] | None,
                    skip: list[bool]) -> list[tuple[Entity, Resolved] | None]:
        """Each name's best near match, if any is close enough (see :func:`best_match`);
        the nearest neighbours of every name are read in one store call."""
        if vectors is None:
            return [None] * len(requests)
        asked = [i for i, skipped in enumerate(skip) if not skipped]
        nearest = self.store.nearest_entities(tenant, scope.visible_keys,
                                              [vectors[i] for i in asked], 5)
        found: list[tuple[Entity, Resolved] | None] = [None] * len(requests)
        for i, hits in zip(asked, nearest, strict=True):
            found[i] = best_match(requests[i], hits)
        return found


def best_match(req: NameRequest, hits: list[ScoredEntity]) -> tuple[Entity, Resolved] | None:
    """The best of a name's nearest neighbours (best first), if one is close enough.

    Candidates come from the entity vector index (cheap, and names that are
    spelled alike embed alike); each must then pass the fuzzy-spelling or
    the embedding threshold, the type check and the digits guard.
    """
    norm = normalize_name(req.name)
    best: tuple[float, Entity, Resolved] | None = None
    speaker = req.context.speaker if req.context else None
    for hit in hits:
        ent = hit.entity
        if ent.type != req.type or digits_conflict(ent.name, req.name):
            continue
        fuzzy = SequenceMatcher(None, normalize_name(ent.name), norm).ratio()
        cosine = hit.score
        kind: Literal["fuzzy", "embedding"] = (
            "fuzzy" if fuzzy >= FUZZY_THRESHOLD and fuzzy >= cosine else "embedding")
        score = max(fuzzy if fuzzy >= FUZZY_THRESHOLD else 0.0,
                    cosine if cosine >= EMBEDDING_THRESHOLD else 0.0)
        if score > 0 and (best is None or score > best[0]):
            best = (score, ent, Resolved(name=req.name, reason=kind, speaker=speaker,
                                         detail=f"{kind} {score:.2f} to {ent.name}"))
    return None if best is None else (best[1], best[2])


def _note(result: Resolution, norm: str, entity: Entity, why: Resolved, *,
          changed: bool = False) -> None:
    """Use ``entity`` for ``norm`` and record why; a changed entity is written back."""
    earlier = next((e for e in result.updated if e.id == entity.id), None)
    if earlier is not None:  # a second name of an entity this request already changed
        entity = earlier.model_copy(update={
            "aliases": list(dict.fromkeys([*earlier.aliases, *entity.aliases]))})
    recorded = noted(entity, why)
    entity = recorded or entity
    if recorded is not None or changed or earlier is not None:
        result.updated = [e for e in result.updated if e.id != entity.id] + [entity]
    result.by_name.update({k: entity for k, e in result.by_name.items() if e.id == entity.id})
    result.by_name[norm] = entity


def _most_specific_first(entities: list[Entity], scope: Scope) -> list[Entity]:
    order = {key: i for i, key in enumerate(scope.visible_keys)}
    return sorted(entities, key=lambda e: (order.get(e.scope_key, 99), e.created_at))
