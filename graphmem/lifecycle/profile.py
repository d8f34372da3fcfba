"""The profile narrative: a few paragraphs about the user, always carried in the context.

Built from the current facts per category; where a fact superseded an older
one the narrative keeps the trace ("Alice used to work at Acme, moved to
Globex in March 2024"): new information wins, history stays visible.

A user's profile is about the user. Their memory holds what they said of
other people too ("Sam lives in Rome"), and with many such facts those would
fill the paragraphs that the user's own home, job and allergy belong in. So
the user's own facts come first, most important first; other people appear
only as the user's relations, on one line ("Maya's relations: sister
Melanie, partner Tom."); facts about things (a lesson about Docker) follow.
A group's profile keeps its members' facts: they are the group's.

Versions are ``PROFILE`` facts (category ``context``) about the user, in one
timeline: each version ends where the next one starts, so
:func:`profile_history` is the timeline and the current version is the one
that holds now. Versions carry no evidence, which keeps the timeline rules
from ever merging two of them. A new user has no version: an empty profile.

:func:`refresh_profile` writes a new version after ``after_summaries`` new
session summaries, when the current one is older than ``after``, or on
demand; a version identical to the current one is never written.
"""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel

from graphmem.errors import GraphMemError
from graphmem.edit.changes import fact_changes
from graphmem.extract.rules.parties import KIN
from graphmem.lifecycle import records
from graphmem.lifecycle.policy import ProfilePolicy
from graphmem.lifecycle.summaries import latest_summaries
from graphmem.lifecycle.writer import (SUBJECT_TOPICS, ProfileDigest, ProfileSection,
                                       TemplateWriter, Writer)
from graphmem.memory import Memory
from graphmem.models import Cardinality, Category, Entity, Fact, FactStatus, Scope
from graphmem.store.base import WriteBatch
from graphmem.temporal import TimeFilter, rebuild_timeline, timeline_key

#: Paragraphs, in order, and the categories each one is written from.
SECTIONS: tuple[tuple[str, tuple[Category, ...]], ...] = (
    ("About {owner}", (Category.PERSON, Category.FACT)),
    ("Preferences", (Category.PREFERENCE,)),
    ("Skills and lessons", (Category.SKILL, Category.LESSON)),
    ("Goals and plans", (Category.GOAL,)),
    ("Recently", (Category.EVENT, Category.CONTEXT)),
)
#: How a trace reads: predicate -> (verb for "used to ...", how the change is said).
_TRACE = {
    "WORKS_AT": ("work at", "moved to"), "LIVES_IN": ("live in", "moved to"),
    "STUDIES_AT": ("study at", "moved to"), "JOB_TITLE": ("work as", "became"),
    "USES_FRAMEWORK": ("use", "switched to"), "DRIVES": ("drive", "switched to"),
    "MARRIED_TO": ("be married to", "married"),
    "RELATIONSHIP_STATUS": ("be", "became"), "FAVORITE": ("favour", "switched to"),
}

#: Entity types that are people: in a user's profile, only as the user's relations.
PEOPLE = frozenset({"person"})
#: Where a fact stands in its paragraph: the user's own first, then their relations, then
#: facts about things.
_OWN, _RELATION, _THING = 0, 1, 2
_WORD = re.compile(r"[\w'’-]+")


class Profile(BaseModel):
    scope_key: str
    owner: str
    text: str = ""
    version: int = 0
    generated_at: datetime | None = None
    fact_id: str | None = None


class ProfileRefresh(BaseModel):
    profile: Profile
    changed: bool
    reason: str


def _key(scope: Scope, owner_id: str) -> str:
    return timeline_key(scope.key, owner_id, records.PROFILE, Cardinality.ONE, owner_id)


def _versions(memory: Memory, tenant: str, scope: Scope, owner: Entity) -> list[Fact]:
    found = memory.store.facts_in_timelines(tenant, [_key(scope, owner.id)])
    return sorted((f for f in found if f.status is FactStatus.ACTIVE),
                  key=lambda f: (f.valid_from, f.recorded_at, f.id))


def _as_profile(scope: Scope, owner: Entity, fact: Fact, version: int) -> Profile:
    return Profile(scope_key=scope.key, owner=owner.name, text=fact.text, version=version,
                   generated_at=fact.valid_from, fact_id=fact.id)


def profile_history(memory: Memory, tenant: str, scope: Scope, *,
                    owner: str | None = None) -> list[Profile]:
    """Every version, oldest first (version 1 first)."""
    entity = records.find_owner(memory, tenant, scope, owner)
    if entity is None:
        return []
    return [_as_profile(scope, entity, f, i + 1)
            for i, f in enumerate(_versions(memory, tenant, scope, entity))]


def current_profile(memory: Memory, tenant: str, scope: Scope, *,
                    owner: str | None = None) -> Profile:
    """The latest version, or an empty profile (version 0) for a user with none yet."""
    history = profile_history(memory, tenant, scope, owner=owner)
    if history:
        return history[-1]
    name = owner or records.owner_name(memory, tenant, scope)
    return Profile(scope_key=scope.key, owner=name or scope.user_id or scope.group_id or "")


def profile_or_draft(memory: Memory, tenant: str, scope: Scope, *,
                     owner: str | None = None) -> Profile:
    """The latest version; for a user with none written yet (the first is written by
    maintenance or a refresh), a draft from what memory holds now, not stored (version 0):
    an assistant reading the profile to greet the user should not hear "nothing is known"
    of someone with memories."""
    current = current_profile(memory, tenant, scope, owner=owner)
    if current.text:
        return current
    entity = records.find_owner(memory, tenant, scope, owner)
    if entity is None:
        return current
    digest = profile_digest(memory, tenant, scope, entity, now=memory.clock())
    if not any(s.sentences for s in digest.sections):
        return current
    return current.model_copy(update={"text": TemplateWriter().write_profile(digest)})


def _never_held(fact: Fact) -> bool:
    """A slip corrected in words ends where it began ("Actually it was Lisbon, not Porto"):
    the user never lived in Porto, so no "used to" names it."""
    return fact.valid_until is not None and fact.valid_until <= fact.valid_from


def _trace(fact: Fact, old: Fact) -> str:
    verb, change = _TRACE.get(fact.predicate, (None, None))
    when = f"{fact.valid_from:%B %Y}"
    if verb is None or change is None:
        return f"{fact.text.rstrip('.')} (before {when}: {old.object_name})."
    return (f"{fact.subject_name} used to {verb} {old.object_name}, {change} "
            f"{fact.object_name} in {when}.")


def _kin_word(fact: Fact) -> str | None:
    """The word a relation's own text calls the other person by ("sister" in "Melanie is
    Maya's sister."), if it is one of the extractor's kin words for the fact's predicate."""
    words = (w.lower() for w in _WORD.findall(fact.text))
    return next((w for w in words if KIN.get(w) == fact.predicate), None)


class _Placer:
    """Where each fact of a user's memory stands in the profile about ``owner``."""

    def __init__(self, memory: Memory, tenant: str, owner: Entity, facts: list[Fact]) -> None:
        ids = sorted({i for f in facts for i in (f.subject_id, f.object_id) if i})
        self.owner = owner
        self.people = {e.id for e in memory.store.get_entities(tenant, ids)
                       if e.type in PEOPLE and e.id != owner.id}
        self.personal = owner.type in PEOPLE

    def rank(self, fact: Fact) -> int | None:
        """The user's own fact, a relation to them, a fact about a thing; None for a
        fact about someone else, which the profile of a person leaves out."""
        if not self.personal:
            return _OWN
        ends = {fact.subject_id, fact.object_id}
        if self.owner.id in ends:
            return _RELATION if ends & self.people else _OWN
        if fact.predicate in SUBJECT_TOPICS:  # "Lesson for Docker": the user's, about a topic
            return _THING
        return None if fact.subject_id in self.people else _THING

    def other(self, fact: Fact) -> str:
        """The other person's name in a relation to the owner."""
        return fact.object_name if fact.subject_id == self.owner.id else fact.subject_name


def _paragraph(facts: list[Fact], placer: _Placer, olds: dict[str, Fact], limit: int) -> list[str]:
    """One paragraph's sentences, at most ``limit``: the user's own facts, most important
    first, then their relations on one line ("Maya's relations: sister Melanie.", at most
    ``limit`` people, so that a long address book cannot outgrow the paragraph), then facts
    about things."""
    placed = [(rank, f) for f in facts if (rank := placer.rank(f)) is not None]
    placed.sort(key=lambda p: (p[0], -p[1].importance, -p[1].valid_from.timestamp(), p[1].id))
    lines: list[tuple[int, str]] = []
    kin: list[str] = []
    for rank, fact in placed:
        old = next((o for i in fact.supersedes if (o := olds.get(i)) is not None
                    and not _never_held(o)), None)
        word = _kin_word(fact) if rank == _RELATION and old is None else None
        if word is not None:
            kin.append(f"{word} {placer.other(fact)}")
        else:
            lines.append((rank, _trace(fact, old) if old else fact.text))
    if kin:
        lines.append((_RELATION, f"{placer.owner.name}'s relations: {', '.join(kin[:limit])}."))
        lines.sort(key=lambda line: line[0])  # stable: each rank keeps its order
    return [text for _, text in lines[:limit]]


def profile_digest(memory: Memory, tenant: str, scope: Scope, owner: Entity, *,
                   now: datetime, policy: ProfilePolicy = ProfilePolicy(),
                   previous: str | None = None) -> ProfileDigest:
    """The current facts of ``scope`` as profile sentences, grouped into sections."""
    facts = [f for f in records.all_facts(memory, tenant, [scope.key], time=TimeFilter(as_of=now))
             if f.status is FactStatus.ACTIVE and f.category is not Category.TODO
             and f.predicate not in records.LIFECYCLE_PREDICATES]
    olds = {f.id: f for f in memory.store.get_facts(
        tenant, sorted({i for f in facts for i in f.supersedes}))}
    placer = _Placer(memory, tenant, owner, facts)
    sections = [ProfileSection(title=title.format(owner=owner.name), sentences=_paragraph(
        [f for f in facts if f.category in categories], placer, olds,
        policy.max_sentences_per_paragraph)) for title, categories in SECTIONS]
    return ProfileDigest(owner=owner.name, sections=sections, previous=previous)


def profile_due(memory: Memory, tenant: str, scope: Scope, *, now: datetime | None = None,
                policy: ProfilePolicy = ProfilePolicy(), owner: str | None = None) -> str | None:
    """Why the profile should be rewritten now ("first profile", "5 new summaries", ...), or None."""
    now = now or memory.clock()
    current = current_profile(memory, tenant, scope, owner=owner)
    if current.generated_at is None:
        return "first profile"
    newer = [s for s in latest_summaries(memory, tenant, scope, policy.after_summaries, now=now)
             if s.ended_at > current.generated_at]
    if len(newer) >= policy.after_summaries:
        return f"{len(newer)} new session summaries"
    if now - current.generated_at >= policy.after:
        return f"older than {policy.after.days} days"
    return None


def refresh_profile(memory: Memory, tenant: str, scope: Scope, *, writer: Writer | None = None,
                    policy: ProfilePolicy = ProfilePolicy(), now: datetime | None = None,
                    force: bool = False, owner: str | None = None,
                    dry_run: bool = False) -> ProfileRefresh:
    """Write a new profile version when one is due (or ``force``) and it says something new."""
    now = now or memory.clock()
    reason = "on demand" if force else profile_due(memory, tenant, scope, now=now, policy=policy,
                                                   owner=owner)
    current = current_profile(memory, tenant, scope, owner=owner)
    if reason is None:
        return ProfileRefresh(profile=current, changed=False, reason="not due")
    writer = writer or TemplateWriter()
    with memory.edit(tenant, now=now) as edit:
        entity, new_entities = records.owner_entity(memory, edit, scope, owner)
        digest = profile_digest(memory, tenant, scope, entity, now=now, policy=policy,
                                previous=current.text or None)
        if not any(s.sentences for s in digest.sections):
            return ProfileRefresh(profile=current, changed=False, reason="nothing known yet")
        try:
            text = writer.write_profile(digest).strip()
        except GraphMemError:
            text = TemplateWriter().write_profile(digest)
        if text == current.text:
            return ProfileRefresh(profile=current, changed=False, reason=f"{reason}; unchanged")
        versions = _versions(memory, tenant, scope, entity)
        if dry_run:
            draft = Profile(scope_key=scope.key, owner=entity.name, text=text,
                            version=len(versions) + 1, generated_at=now)
            return ProfileRefresh(profile=draft, changed=True, reason=reason)
        fact = Fact(tenant=tenant, scope_key=scope.key, subject_id=entity.id,
                    subject_name=entity.name, predicate=records.PROFILE, object_id=entity.id,
                    object_name=entity.name, text=text, category=Category.CONTEXT,
                    importance=0.3, confidence=0.9, cardinality=Cardinality.ONE,
                    timeline_key=_key(scope, entity.id), valid_from=now, recorded_at=now)
        changed = {f.id: f for f in rebuild_timeline([*versions, fact], now)}
        changed.setdefault(fact.id, fact)
        edit.write(WriteBatch(entities=new_entities, facts=list(changed.values())))
        written = changed[fact.id]
        edit.record([*fact_changes("memory.created", [written]),
                     *fact_changes("memory.superseded",
                                   [f for f in changed.values() if f.id != fact.id])])
    return ProfileRefresh(profile=_as_profile(scope, entity, written, len(versions) + 1),
                          changed=True, reason=reason)
