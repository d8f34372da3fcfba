"""Plumbing shared by the lifecycle modules: scans, the owner entity, graphmem-authored records.

What graphmem writes on its own account (a session summary, a todo added
through the API, a consolidation log) has a *source episode* like anything a
user said, so provenance, deletion and export treat it like every other
memory. Such an episode is authored by graphmem:

* it is pinned (it never expires) and its ``client_id`` is
  ``graphmem:<kind>:<key>``, so :meth:`GraphStore.find_episode` finds it
  directly and writing it twice is idempotent;
* its ``messages`` hold the readable text, which the stores index for the
  raw-turn channel;
* its ``content`` holds the structured payload as JSON. Stores index
  ``content`` only for episodes without messages, so the JSON is kept, never
  searched.

Every write in this package is one edit of the write path
(:meth:`graphmem.memory.Memory.edit`): locked, one batch, announced to the sinks.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Literal, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from graphmem.edit.unit import Edit
from graphmem.ingest.resolve import NameRequest
from graphmem import scan
from graphmem.scan import EVERYTHING
from graphmem.speakers import known_speaker
from graphmem.memory import Memory
from graphmem.models import RECORD_PREFIX, Category, Entity, Episode, Fact, Message, Scope
from graphmem.temporal import TimeFilter

#: Predicates of the facts the lifecycle writes about its own work.
PROFILE = "PROFILE"
SESSION_SUMMARY = "SESSION_SUMMARY"
SUMMARY = "SUMMARY"
#: Facts no user wrote and no lifecycle step (decay, consolidation, memory.md) may touch.
LIFECYCLE_PREDICATES = frozenset({PROFILE, SESSION_SUMMARY})

M = TypeVar("M", bound=BaseModel)
Role = Literal["user", "assistant", "system", "tool"]


def all_facts(memory: Memory, tenant: str, scope_keys: list[str], *,
              time: TimeFilter = EVERYTHING, categories: list[Category] | None = None,
              entity_id: str | None = None) -> list[Fact]:
    """Every fact the filter lets through (archived ones never do), newest first, with vectors."""
    return scan.all_facts(memory.store, tenant, scope_keys, time=time, categories=categories,
                          entity_id=entity_id)


def all_episodes(memory: Memory, tenant: str, scope_keys: list[str]) -> list[Episode]:
    """Every episode of the scopes, newest first."""
    return scan.all_episodes(memory.store, tenant, scope_keys)


#: How many recent episodes name the user when no name is given.


def owner_name(memory: Memory, tenant: str, scope: Scope) -> str | None:
    """The name a user scope's person goes by (see :func:`graphmem.speakers.known_speaker`).

    A user id (``u7``) is an account, not a name; summaries and the profile
    speak of the person, and the rule extractor files "I ..." under the
    speaker's name, so the owner entity is the one their facts are about.
    """
    return known_speaker(memory.store, tenant, scope)


def _owner_request(memory: Memory, tenant: str, scope: Scope, name: str | None) -> NameRequest:
    name = name or owner_name(memory, tenant, scope)
    return NameRequest(name or scope.user_id or scope.group_id or "user",
                       "person" if scope.user_id else "group")


def owner_entity(memory: Memory, edit: Edit, scope: Scope,
                 name: str | None = None) -> tuple[Entity, list[Entity]]:
    """The entity a scope's memory is about, and the entities to write if it is new.

    It is the entity named ``name`` or, by default, the name the user speaks
    under (:func:`owner_name`), else the scope's user (or group) id; the rule extractor names the speaker's own entity by the speaker, so a
    user ``alice`` who speaks as "Alice" resolves to the same entity.
    """
    request = _owner_request(memory, edit.tenant, scope, name)
    resolution = edit.resolve(scope, [request])
    entity = resolution.get(request.name)
    if entity is None:  # pragma: no cover - resolve() creates what it does not find
        raise LookupError(request.name)
    return entity, [*resolution.created, *resolution.updated]


def find_owner(memory: Memory, tenant: str, scope: Scope, name: str | None = None) -> Entity | None:
    """:func:`owner_entity` without creating anything: None for a user graphmem has never met."""
    request = _owner_request(memory, tenant, scope, name)
    return memory.resolve(tenant, scope, [request], create=False).get(request.name)


def record_key(kind: str, key: str) -> str:
    return f"{RECORD_PREFIX}{kind}:{key}"


def is_record(episode: Episode) -> bool:
    return episode.is_record


def authored_episode(tenant: str, scope_key: str, *, kind: str, key: str,
                     lines: list[tuple[str, str]], payload: BaseModel, at: datetime,
                     role: Role = "system", session_id: str | None = None,
                     episode_id: str | None = None) -> Episode:
    """A record episode: ``lines`` are ``(speaker, text)`` messages, ``payload`` its JSON content."""
    episode = Episode(tenant=tenant, scope_key=scope_key, source="messages",
                      content=payload.model_dump_json(), reference_time=at, recorded_at=at,
                      client_id=record_key(kind, key), pinned=True, session_id=session_id)
    if episode_id is not None:
        episode = episode.model_copy(update={"id": episode_id})
    messages = [Message(id=f"{episode.id}:{i}", role=role, speaker=speaker, content=text,
                        timestamp=at)
                for i, (speaker, text) in enumerate(lines) if text.strip()]
    return episode.model_copy(update={"messages": messages})


def find_record(memory: Memory, tenant: str, scope_key: str, kind: str,
                key: str) -> Episode | None:
    return memory.store.find_episode(tenant, scope_key, record_key(kind, key))


def payload_of(episode: Episode, model: type[M]) -> M | None:
    """The structured payload of a record episode, or None if it holds another kind."""
    try:
        return model.model_validate_json(episode.content)
    except PydanticValidationError:
        return None


def last_use(fact: Fact, now: datetime) -> datetime:
    """When a memory was last recorded, restated or recalled (never later than ``now``)."""
    said = [e.at for e in fact.evidence if e.at <= now]
    moments = [fact.recorded_at, *said, *([fact.last_accessed] if fact.last_accessed else [])]
    return min(max(moments), now)
