"""Entity resolution: map the names an extractor found to stored entities.

Rules, strictest first:

1. an exact normalised name or alias match in a visible scope merges, except
   that a bare first name introduced by another speaker in another relation is
   a new person (see :mod:`graphmem.ingest.people`, which also picks among
   several people of one name);
2. otherwise a person's short form ("Mel") goes to the one known person it
   can stand for ("Melanie"), and a full name to the one person known by its
   short form (see :mod:`graphmem.ingest.short_forms`), kept as an alias;
3. otherwise a fuzzy or embedding candidate merges only above a strict
   threshold, only with the same entity type, and never when the names look
   like identifiers that differ in their digits (SR-2023-052 vs SR-2023-053);
4. otherwise a new entity is created in the episode's scope. Its name's version
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
from graphmem.ingest.people import NameContext, choose, introductions, noted
from graphmem.kin import kin_word, related_people
from graphmem.ingest.short_forms import CANDIDATE_LIMIT, ShortForms, first_names
from graphmem.ingest.short_forms import other_relation, other_surname, words
from graphmem.models import Entity, Resolved, Scope
from graphmem.names import is_word, legacy_name, normalize_name
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
    def __init__(self, store: GraphStore, embedder: Embedder | None,
                 short_forms: ShortForms | None = None) -> None:
        """``short_forms``: the nickname table (default: the English dataset, read once here)."""
        self.store = store
        self.embedder = embedder
        self.short_forms = short_forms or ShortForms.english()

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
        self._by_short_form(tenant, scope, wanted, result,
                            [n for n in wanted if n not in result.by_name and n not in distinct])
        self._by_relation(tenant, scope, wanted, result,
                          [n for n in wanted if n not in result.by_name and n not in distinct])
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
        if create:
            self._short_forms_in_batch(tenant, scope, wanted, result, keys)
        return result

    def _short_forms_in_batch(self, tenant: str, scope: Scope, wanted: dict[str, NameRequest],
                              result: Resolution, keys: dict[str, str]) -> None:
        """"My sister Melanie lives in Paris. Mel just got a job at Microsoft", both new:
        a short form and the one person of the batch it can stand for are one new person
        (not when a known person could be meant too, nor when the two were introduced in
        different relations, "my sister Melanie" and "my friend Mel")."""
        for norm in list(result.by_name):
            req, said, short = wanted[norm], words(wanted[norm].name), result.by_name[norm]
            if short.id not in {e.id for e in result.created} or req.type != "person" or \
                    len(said) != 1 or \
                    said[0] not in self.short_forms.full_names:
                continue
            full = [e for e in result.created if e.id != short.id and e.type == "person" and any(
                self.short_forms.stands_for(said[0], f) for f in first_names(e))]
            if len(full) != 1 or self._mentioned_in_other_relations(wanted, result,
                                                                     {full[0].id, short.id}):
                continue
            # only now the store: a known person it could mean as well leaves it apart
            meant = self._people_meant(tenant, scope, said[0],
                                       _batch_people(wanted, result, norm))
            if meant is None or set(meant) != {full[0].id}:
                continue
            merged = full[0].model_copy(update={"aliases": [*full[0].aliases, req.name.strip()]})
            result.created = [merged if e.id == merged.id else e for e in result.created
                              if e.id != short.id]
            result.by_name.update({n: merged for n, e in result.by_name.items()
                                   if e.id in (merged.id, short.id)})
            result.claims.pop(keys[norm], None)

    @staticmethod
    def _mentioned_in_other_relations(wanted: dict[str, NameRequest], result: Resolution,
                                      ids: set[str]) -> bool:
        """Whether the names of these entities came in different relations ("my sister
        Melanie", "my friend Mel")."""
        contexts = [wanted[n].context for n, e in result.by_name.items() if e.id in ids]
        return len({c.relation for c in contexts if c is not None and c.relation}) > 1

    def _by_short_form(self, tenant: str, scope: Scope, wanted: dict[str, NameRequest],
                       result: Resolution, names: list[str]) -> None:
        """Resolve each new person name of ``names`` that is a short form of one known
        person, or the full name of one ("Mel" / "Melanie"); the name becomes an alias."""
        for norm in names:
            req = wanted[norm]
            if req.type != "person" or not is_word(words(req.name)[0]):
                continue
            others = _batch_people(wanted, result, norm)
            found = (self._full_name_for(tenant, scope, req, others)
                     or self._short_name_for(tenant, scope, req, others))
            if found is not None:
                match, why = found
                _note(result, norm, match.model_copy(update={
                    "aliases": [*match.aliases, req.name.strip()]}), why, changed=True)

    def _by_relation(self, tenant: str, scope: Scope, wanted: dict[str, NameRequest],
                     result: Resolution, names: list[str]) -> None:
        """"Maya's mum" (the rules' name for a relative said by relation: "my mum moved to
        Cardiff") is the one person Maya's current facts name so ("Jean is Maya's mum"); the
        name becomes an alias. Otherwise a second, nameless mum would hold the news."""
        for norm in names:
            req = wanted[norm]
            said = _RELATIVE_NAME.match(req.name.strip())
            word = kin_word(said["kin"]) if said is not None else None
            if req.type != "person" or said is None or word is None:
                continue
            owners = [e for e in self.store.find_entities(
                tenant, scope.visible_keys, [normalize_name(said["owner"])]) if e.type == "person"]
            people = related_people(self.store, tenant, scope, owners, word) if owners else []
            if len(people) == 1:
                match = people[0]
                _note(result, norm, match.model_copy(update={
                    "aliases": [*match.aliases, req.name.strip()]}),
                    Resolved(name=req.name, reason="relation", detail=(
                        f"{said['owner']}'s {word} is {match.name}")), changed=True)

    def _people_meant(self, tenant: str, scope: Scope, short: str,
                      others: dict[str, set[str]]) -> dict[str, Entity | None] | None:
        """Everyone the one-word ``short`` could mean: known persons by id, and the other
        new names of this batch (None); None when too many to say."""
        forms = self.short_forms
        found = self.store.find_entities_by_prefix(tenant, scope.visible_keys,
                                                   forms.prefixes(short), CANDIDATE_LIMIT)
        if len(found) >= CANDIDATE_LIMIT:
            return None
        meant: dict[str, Entity | None] = {
            e.id: e for e in found if e.type == "person"
            and any(forms.could_mean(short, first) for first in first_names(e))}
        meant.update({key: None for key, firsts in others.items() if key not in meant
                      and any(forms.could_mean(short, first) for first in firsts)})
        return meant

    def _full_name_for(self, tenant: str, scope: Scope, req: NameRequest,
                       others: dict[str, set[str]]) -> tuple[Entity, Resolved] | None:
        """The one known person whose first name the one-word ``req`` is a short form of."""
        said = words(req.name)
        if len(said) != 1 or said[0] not in self.short_forms.full_names:
            return None
        meant = self._people_meant(tenant, scope, said[0], others)
        if meant is None or len(meant) != 1:
            return None
        match = next(iter(meant.values()))
        if match is None or not any(self.short_forms.stands_for(said[0], first)
                                    for first in first_names(match)):
            return None  # a new name of this batch, or "Mel" beside "Mel Gibson" alone
        if self._introduced_otherwise(tenant, scope, req, match):
            return None
        return match, _why(req, f"short form of {match.name}")

    def _short_name_for(self, tenant: str, scope: Scope, req: NameRequest,
                        others: dict[str, set[str]]) -> tuple[Entity, Resolved] | None:
        """The one known person named only by a short form of ``req``'s first name, when
        that short form could mean no one else known ("Mel" before "Melanie")."""
        first = words(req.name)[0]
        shorts = self.short_forms.short_forms_of(first)
        if not shorts:
            return None
        known = {e.id: e for e in self.store.find_entities(tenant, scope.visible_keys, shorts)
                 if e.type == "person" and _short_names(e, first, self.short_forms)}
        if len(known) != 1:
            return None
        match = next(iter(known.values()))
        for short in _short_names(match, first, self.short_forms):
            meant = self._people_meant(tenant, scope, short, others)
            if meant is None or set(meant) != {match.id}:
                return None
        if other_surname(match, req.name) or self._introduced_otherwise(tenant, scope, req,
                                                                         match):
            return None
        return match, _why(req, f"full name of {match.name}")

    def _introduced_otherwise(self, tenant: str, scope: Scope, req: NameRequest,
                              match: Entity) -> bool:
        """Whether ``match`` was introduced, but never in the mention's relation; or, for a
        mention in no relation, only by other speakers: Tadeo's "I work under Tomasz" is
        not Bianca's brother Tom."""
        context = req.context or NameContext()
        introduced = introductions(self.store, tenant, scope, [match])[match.id]
        if context.relation is None:
            speaker = normalize_name(context.speaker) if context.speaker else None
            return bool(speaker and introduced and all(who != speaker for who, _ in introduced))
        return other_relation(context.relation, introduced)

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


#: The name the rule extractor gives a relative said by relation: "Maya's mum".
_RELATIVE_NAME = re.compile(r"^(?P<owner>.+)'s (?P<kin>[a-z-]+)$")


def _why(req: NameRequest, detail: str) -> Resolved:
    return Resolved(name=req.name, reason="nickname",
                    speaker=req.context.speaker if req.context else None, detail=detail)


def _short_names(entity: Entity, first: str, forms: ShortForms) -> list[str]:
    """The entity's one-word names that are short forms of ``first``."""
    return [w[0] for n in [entity.name, *entity.aliases]
            if len(w := words(n)) == 1 and forms.stands_for(w[0], first)]


def _batch_people(wanted: dict[str, NameRequest], result: Resolution,
                  norm: str) -> dict[str, set[str]]:
    """The other persons this batch names, each as the id of the entity it resolved to
    (or its own name while new) with its first names: they count when a short form
    is ambiguous ("Mel" in an episode that also introduces a new Melissa)."""
    out: dict[str, set[str]] = {}
    for other, req in wanted.items():
        if other == norm or req.type != "person":
            continue
        entity = result.by_name.get(other)
        if entity is not None:
            out[entity.id] = first_names(entity)
        elif said := words(req.name):
            out[f"new:{other}"] = {said[0]}
    return out


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
