"""Entity resolution: map the names an extractor found to stored entities.

Rules, strictest first:

1. an exact normalised name or alias match in a visible scope always merges
   (a peer misses these when name embeddings score under its threshold);
2. otherwise a fuzzy or embedding candidate merges only above a strict
   threshold, only with the same entity type, and never when the names look
   like identifiers that differ in their digits (SR-2023-052 vs SR-2023-053);
3. otherwise a new entity is created in the episode's scope.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from graphmem.embed.base import Embedder
from graphmem.models import Entity, Scope
from graphmem.store.base import GraphStore
from graphmem.store.names import normalize_name

_DIGITS = re.compile(r"\d+")

#: Below these, a candidate never merges.
FUZZY_THRESHOLD = 0.92
EMBEDDING_THRESHOLD = 0.93


def digits_conflict(a: str, b: str) -> bool:
    """True when two names carry different numbers: they name different things."""
    return _DIGITS.findall(a) != _DIGITS.findall(b)


@dataclass
class NameRequest:
    name: str
    type: str = "concept"
    aliases: list[str] = field(default_factory=list)


@dataclass
class Resolution:
    by_name: dict[str, Entity]  # normalised name -> entity
    created: list[Entity]
    updated: list[Entity]

    def get(self, name: str) -> Entity | None:
        return self.by_name.get(normalize_name(name))


class EntityResolver:
    def __init__(self, store: GraphStore, embedder: Embedder | None) -> None:
        self.store = store
        self.embedder = embedder

    def resolve(self, tenant: str, scope: Scope, requests: list[NameRequest], *,
                create: bool = True) -> Resolution:
        wanted: dict[str, NameRequest] = {}
        for req in requests:
            norm = normalize_name(req.name)
            if norm and norm not in wanted:
                wanted[norm] = req
        found = self.store.find_entities(tenant, scope.visible_keys, list(wanted))
        by_name: dict[str, Entity] = {}
        for ent in _most_specific_first(found, scope):
            for alias in [ent.name, *ent.aliases]:
                by_name.setdefault(normalize_name(alias), ent)
        result = Resolution(by_name={n: by_name[n] for n in wanted if n in by_name},
                            created=[], updated=[])
        missing = [n for n in wanted if n not in result.by_name]
        if not missing:
            return result
        vectors = self.embedder.embed([wanted[n].name for n in missing]) if self.embedder else None
        for i, norm in enumerate(missing):
            req = wanted[norm]
            match = self._candidate(tenant, scope, req, None if vectors is None else
                                    [float(x) for x in vectors[i]])
            if match is not None:
                merged = match.model_copy(update={"aliases": [*match.aliases, req.name]})
                result.by_name[norm] = merged
                result.updated.append(merged)
            elif create:
                ent = Entity(tenant=tenant, scope_key=scope.key, name=req.name.strip(),
                             type=req.type, aliases=list(dict.fromkeys(req.aliases)),
                             embedding=None if vectors is None else [float(x) for x in vectors[i]])
                result.by_name[norm] = ent
                result.created.append(ent)
        return result

    def _candidate(self, tenant: str, scope: Scope, req: NameRequest,
                   vector: list[float] | None) -> Entity | None:
        """The best near match among the name's nearest neighbours, if any is close enough.

        Candidates come from the entity vector index (cheap, and names that are
        spelled alike embed alike); each must then pass the fuzzy-spelling or
        the embedding threshold, the type check and the digits guard.
        """
        if vector is None:
            return None
        hits = {h.id: h.score for h in self.store.vector_entities(tenant, scope.visible_keys,
                                                                    vector, 5)}
        norm = normalize_name(req.name)
        best: tuple[float, Entity] | None = None
        for ent in self.store.get_entities(tenant, list(hits)):
            if ent.type != req.type or digits_conflict(ent.name, req.name):
                continue
            fuzzy = SequenceMatcher(None, normalize_name(ent.name), norm).ratio()
            cosine = hits[ent.id]
            score = max(fuzzy if fuzzy >= FUZZY_THRESHOLD else 0.0,
                        cosine if cosine >= EMBEDDING_THRESHOLD else 0.0)
            if score > 0 and (best is None or score > best[0]):
                best = (score, ent)
        return None if best is None else best[1]


def _most_specific_first(entities: list[Entity], scope: Scope) -> list[Entity]:
    order = {key: i for i, key in enumerate(scope.visible_keys)}
    return sorted(entities, key=lambda e: (order.get(e.scope_key, 99), e.created_at))
