"""People who share a first name: which one a mention means, and why.

Two speakers in a group each mention an "Alex": Maria's colleague in Berlin
and Pedro's neighbour in Lyon. Merging them would let Lyon close Berlin. So a
bare first name (one word, a person) that arrives *with a relation from its
speaker* ("my neighbour Alex") is a new person when every stored Alex was
introduced by other people, each in another relation. Evidence links them
instead: the speaker spoke of that Alex before (``speaker``), or introduced
them in the same relation (``relation``). A name without a relation ("Alex
moved to Paris") goes to the Alex its speaker knows, else to the first.

An introduction is a fact whose object is the person and whose subject is
someone else ("Alex is Maria's colleague": ``KNOWS`` from Maria). Its relation
is the predicate with the relation's noun ("KNOWS:colleague"); a mention
introduces only when it names one ("my neighbour Alex", not "I met Alex").
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from graphmem.extract.base import SELF, Extraction
from graphmem.models import Entity, Episode, FactStatus, Resolved, Scope
from graphmem.store.base import GraphStore
from graphmem.names import normalize_name
from graphmem.temporal import TimeFilter

_FIRST_NAME = re.compile(r"^[^\W\d_]+(?:['-][^\W\d_]+)*$")
_RELATION_NOUN = re.compile(r"\bis\s+.+?'s\s+([\w -]+?)\.?$", re.IGNORECASE)
#: Introductions looked at per candidate set (a person is rarely introduced more often).
_INTRODUCTIONS = 200


def is_first_name(name: str) -> bool:
    """One word, no digits: "Alex", not "Alex Chen" (a full name is evidence enough)."""
    return bool(_FIRST_NAME.match(name.strip()))


def relation_of(predicate: str, text: str) -> str | None:
    """``KNOWS:colleague`` for "Alex is Maria's colleague."; None when no relation is named.

    Only a named relation introduces someone: "I met Sam" says nothing about which Sam.
    """
    noun = _RELATION_NOUN.search(text.strip())
    return f"{predicate}:{noun.group(1).lower()}" if noun else None


@dataclass
class NameContext:
    """Who spoke of a name in an episode, and how they are related to it, if they said."""

    speaker: str | None = None
    relation: str | None = None


def contexts(episode: Episode, extraction: Extraction, own_name: str) -> dict[str, NameContext]:
    """Normalised name -> its speaker and relation in this episode.

    ``own_name`` is who "I" is when a message has no speaker.
    """
    speakers = {m.id: m.speaker for m in episode.messages}
    out: dict[str, NameContext] = {}
    for fact in extraction.facts:
        speaker = speakers.get(fact.message_id) or own_name
        subject = speaker if fact.subject == SELF else fact.subject
        for name in (subject, fact.object):
            if name:
                out.setdefault(normalize_name(name), NameContext(speaker=speaker))
        if fact.object and normalize_name(subject) == normalize_name(speaker):
            found = out[normalize_name(fact.object)]
            found.relation = found.relation or relation_of(fact.predicate, fact.text)
    return out


def introductions(store: GraphStore, tenant: str, scope: Scope,
                  candidates: list[Entity]) -> dict[str, set[tuple[str, str]]]:
    """Candidate id -> the (introducer, relation) pairs stored about it."""
    ids = {c.id for c in candidates}
    out: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for fact in store.facts_about(tenant, scope.visible_keys, list(ids),
                                  TimeFilter(include_history=True), _INTRODUCTIONS,
                                  embeddings=False):
        if (fact.object_id in ids and fact.subject_id not in ids
                and fact.status is not FactStatus.RETRACTION):
            out[fact.object_id].add((normalize_name(fact.subject_name),
                                     relation_of(fact.predicate, fact.text) or fact.predicate))
    return out


def choose(store: GraphStore, tenant: str, scope: Scope, name: str, kind: str,
           mention: NameContext | None, candidates: list[Entity]) -> tuple[Entity | None, Resolved]:
    """The candidate a mention means (None: a new person) and the reason, for the record."""
    first = candidates[0]
    by_alias = normalize_name(first.name) != normalize_name(name)
    plain = Resolved(name=name, reason="alias" if by_alias else "name",
                     speaker=mention.speaker if mention else None)
    if kind != "person" or mention is None or mention.speaker is None:
        return first, plain
    relation = mention.relation if is_first_name(name) else None
    if len(candidates) == 1 and relation is None:
        return first, plain
    known = introductions(store, tenant, scope, candidates)
    speaker = normalize_name(mention.speaker)
    for candidate in candidates:
        if any(who == speaker for who, _ in known[candidate.id]):
            return candidate, plain.model_copy(update={
                "reason": "speaker", "detail": f"{mention.speaker} spoke of them before"})
    if relation is None:
        return first, plain
    for candidate in candidates:
        if any(rel == relation for _, rel in known[candidate.id]):
            return candidate, plain.model_copy(update={
                "reason": "relation", "detail": f"also introduced as {relation}"})
    if all(known[c.id] for c in candidates):
        others = sorted({f"{who} ({rel})" for c in candidates for who, rel in known[c.id]})
        return None, plain.model_copy(update={
            "detail": f"a new person: introduced as {relation}, unlike {', '.join(others)}"})
    return first, plain


def noted(entity: Entity, resolved: Resolved, *, keep: int = 50) -> Entity | None:
    """The entity with this kind of resolution recorded, or None if it already was."""
    same = [r for r in entity.resolutions if (r.reason, normalize_name(r.name), r.speaker)
            == (resolved.reason, normalize_name(resolved.name), resolved.speaker)]
    if same:
        return None
    return entity.model_copy(update={"resolutions": [*entity.resolutions, resolved][-keep:]})
