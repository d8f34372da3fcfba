"""Session summaries: what a finished conversation was about, kept and searchable.

A session (episodes sharing a ``session_id``) that ends with substance — more
than ``min_messages`` messages and not small talk — gets a summary: the
narrative, topics, the user's intent, the emotional tone, key facts and what
is still unresolved.

Each summary is stored twice over, on purpose:

* a record episode (``graphmem:session:<session id>``, see
  :mod:`graphmem.lifecycle.records`) holds the structured
  :class:`SessionSummary` as its payload;
* a ``SESSION_SUMMARY`` fact (category ``context``) about the user, whose text
  is the narrative, is embedded and indexed like any memory, so search finds it;
  its evidence is the record episode.

Summarising is idempotent: an unchanged session keeps its summary; a session
that grew is summarised again in place (same record, same fact).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from graphmem.errors import GraphMemError, NotFoundError
from graphmem.edit.changes import fact_changes
from graphmem.lifecycle import records
from graphmem.lifecycle.policy import SummaryPolicy
from graphmem.lifecycle.writer import (
    DigestFact,
    SessionDigest,
    SummaryDraft,
    TemplateWriter,
    Writer,
    content_words,
)
from graphmem.memory import Memory
from graphmem.models import Category, Episode, Evidence, Fact, FactStatus, Message, Scope, new_id
from graphmem.speakers import speaker_name
from graphmem.store.base import WriteBatch
from graphmem.temporal import TimeFilter

RECORD_KIND = "session"


class SessionSummary(BaseModel):
    kind: Literal["session_summary"] = "session_summary"
    session_id: str
    scope_key: str
    started_at: datetime
    ended_at: datetime
    message_count: int
    summary: str
    topics: list[str] = Field(default_factory=list)
    intent: str = ""
    tone: str = "neutral"
    key_facts: list[str] = Field(default_factory=list)
    unresolved: list[str] = Field(default_factory=list)
    episode_ids: list[str] = Field(default_factory=list)
    fact_id: str | None = None
    written_by: str = "template"


def session_episodes(memory: Memory, tenant: str, scope: Scope, session_id: str) -> list[Episode]:
    """The conversation episodes of a session stored under ``scope``, oldest first."""
    found = [e for e in records.all_episodes(memory, tenant, [scope.key])
             if e.session_id == session_id and not records.is_record(e)]
    return sorted(found, key=lambda e: (e.reference_time, e.recorded_at, e.id))


def _messages(episodes: list[Episode]) -> list[Message]:
    out: list[Message] = []
    for episode in episodes:
        out += episode.messages or [Message(role="user", content=episode.content,
                                            timestamp=episode.reference_time)]
    return out


def has_substance(messages: list[Message], facts: list[Fact],
                  policy: SummaryPolicy = SummaryPolicy()) -> bool:
    """More than ``min_messages`` messages, and facts or enough words beyond small talk."""
    if len(messages) <= policy.min_messages:
        return False
    words = [w for m in messages if m.role == "user" for w in content_words(m.content)]
    return bool(facts) or len(words) >= policy.min_content_words


def _session_facts(memory: Memory, tenant: str, episodes: list[Episode]) -> list[Fact]:
    found: dict[str, Fact] = {}
    for episode in episodes:
        for fact in memory.store.facts_of_episode(tenant, episode.id):
            if fact.status in (FactStatus.ACTIVE, FactStatus.FORGOTTEN):
                found.setdefault(fact.id, fact)
    return sorted(found.values(), key=lambda f: (f.valid_from, f.id))


def get_summary(memory: Memory, tenant: str, scope: Scope, session_id: str) -> SessionSummary | None:
    record = records.find_record(memory, tenant, scope.key, RECORD_KIND, session_id)
    return None if record is None else records.payload_of(record, SessionSummary)


def summarize_session(memory: Memory, tenant: str, scope: Scope, session_id: str, *,
                      writer: Writer | None = None, policy: SummaryPolicy = SummaryPolicy(),
                      owner: str | None = None) -> SessionSummary | None:
    """Summarise a session; None when it has no substance. Idempotent (see the module docs)."""
    episodes = session_episodes(memory, tenant, scope, session_id)
    if not episodes:
        raise NotFoundError(f"session {session_id!r} has no episodes in {scope.key}")
    writer = writer or TemplateWriter()
    with memory.edit(tenant) as edit:
        messages = _messages(episodes)
        facts = _session_facts(memory, tenant, episodes)
        if not has_substance(messages, facts, policy):
            return None
        record = records.find_record(memory, tenant, scope.key, RECORD_KIND, session_id)
        before = records.payload_of(record, SessionSummary) if record else None
        ids = [e.id for e in episodes]
        if before is not None and before.episode_ids == ids and _kept(memory, tenant, before):
            return before
        entity, new_entities = records.owner_entity(
            memory, edit, scope, owner or speaker_name(messages))
        digest = SessionDigest(
            session_id=session_id, owner=entity.name, started_at=_started(episodes, messages),
            ended_at=episodes[-1].reference_time, messages=messages,
            facts=[DigestFact(text=f.text, category=f.category, predicate=f.predicate,
                              subject=f.subject_name, object=f.object_name,
                              importance=f.importance) for f in facts])
        draft, written_by = _draft(writer, digest, policy)
        summary = SessionSummary(
            session_id=session_id, scope_key=scope.key, started_at=digest.started_at,
            ended_at=digest.ended_at, message_count=len(messages), summary=draft.summary,
            topics=draft.topics, intent=draft.intent, tone=draft.tone, key_facts=draft.key_facts,
            unresolved=draft.unresolved, episode_ids=ids, written_by=written_by)
        episode_id = record.id if record else new_id("ep")
        fact = _summary_fact(memory, tenant, episode_id, entity.id, entity.name, summary,
                             edit.now)
        summary.fact_id = fact.id
        episode = records.authored_episode(
            tenant, scope.key, kind=RECORD_KIND, key=session_id, session_id=session_id,
            at=digest.ended_at, episode_id=episode_id, payload=summary,
            lines=[("graphmem", f"Summary of session {session_id}.")])
        edit.write(WriteBatch(episodes=[episode], entities=new_entities, facts=[fact]))
        edit.record(fact_changes("memory.created", [fact], episode_id=episode.id))
    return summary


def _draft(writer: Writer, digest: SessionDigest,
           policy: SummaryPolicy) -> tuple[SummaryDraft, str]:
    """The writer's draft, or the template's when the writer fails (an LLM that is down)."""
    options = {"max_topics": policy.max_topics, "max_key_facts": policy.max_key_facts,
               "max_unresolved": policy.max_unresolved}
    try:
        return writer.summarize(digest, **options), writer.name
    except GraphMemError:
        fallback = TemplateWriter()
        return fallback.summarize(digest, **options), fallback.name


def _kept(memory: Memory, tenant: str, summary: SessionSummary) -> bool:
    """Whether a summary's searchable fact is still there and not forgotten.

    Asking for a summary again brings back one that decay (or a user) had forgotten.
    """
    found = memory.store.get_facts(tenant, [summary.fact_id or ""], embeddings=False)
    return bool(found) and found[0].status is FactStatus.ACTIVE


def _started(episodes: list[Episode], messages: list[Message]) -> datetime:
    """When the session began: its first message's time (an episode's time is its last)."""
    stamps = [m.timestamp for m in messages if m.timestamp is not None]
    return min([*stamps, episodes[0].reference_time])


def _summary_fact(memory: Memory, tenant: str, episode_id: str, owner_id: str, owner_name: str,
                  summary: SessionSummary, now: datetime) -> Fact:
    """The searchable summary: valid from the session's end, recorded when it is written.

    Decay measures a memory's age from when it was recorded (or last used), so
    a summary of a session imported from last year is new, not a year old.
    """
    existing = [f for f in memory.store.facts_of_episode(tenant, episode_id)
                if f.predicate == records.SESSION_SUMMARY]
    base = existing[0] if existing else Fact(
        tenant=tenant, scope_key=summary.scope_key, subject_id=owner_id, subject_name=owner_name,
        predicate=records.SESSION_SUMMARY, object_id=owner_id, object_name=owner_name, text="",
        category=Category.CONTEXT, importance=0.4, confidence=0.9,
        timeline_key=f"{summary.scope_key}|{owner_id}|{records.SESSION_SUMMARY}|{summary.session_id}",
        valid_from=summary.ended_at, recorded_at=now)
    return base.model_copy(update={
        "text": summary.summary, "valid_from": summary.ended_at, "embedding": None,
        "recorded_at": now, "status": FactStatus.ACTIVE,
        "evidence": [Evidence(at=summary.ended_at, episode_id=episode_id)],
        "episode_ids": [episode_id]})


def latest_summaries(memory: Memory, tenant: str, scope: Scope, n: int = 3, *,
                     now: datetime | None = None) -> list[SessionSummary]:
    """The ``n`` most recent summaries visible in ``scope`` (forgotten ones excluded), newest first."""
    if n <= 0:
        return []
    now = now or memory.clock()
    facts = [f for f in records.all_facts(memory, tenant, scope.visible_keys,
                                          time=TimeFilter(as_of=now), categories=[Category.CONTEXT])
             if f.predicate == records.SESSION_SUMMARY]
    out: list[SessionSummary] = []
    for fact in sorted(facts, key=lambda f: (f.valid_from, f.id), reverse=True):
        for episode_id in fact.episode_ids:
            episode = memory.store.get_episode(tenant, episode_id)
            summary = records.payload_of(episode, SessionSummary) if episode else None
            if summary is not None:
                out.append(summary)
                break
        if len(out) == n:
            break
    return out


def ended_sessions(memory: Memory, tenant: str, scope: Scope, *, now: datetime | None = None,
                   policy: SummaryPolicy = SummaryPolicy()) -> list[str]:
    """Sessions idle for ``policy.idle_after`` whose summary is missing or older than the session."""
    now = now or memory.clock()
    last: dict[str, datetime] = {}
    members: dict[str, list[str]] = {}
    summarised: dict[str, list[str]] = {}
    for episode in records.all_episodes(memory, tenant, [scope.key]):
        if episode.session_id is None:
            continue
        if records.is_record(episode):
            summary = records.payload_of(episode, SessionSummary)
            if summary is not None:
                summarised[summary.session_id] = summary.episode_ids
            continue
        members.setdefault(episode.session_id, []).append(episode.id)
        last[episode.session_id] = max(last.get(episode.session_id, episode.reference_time),
                                       episode.reference_time)
    return sorted(s for s, ended in last.items() if now - ended >= policy.idle_after
                  and sorted(summarised.get(s, [])) != sorted(members[s]))
