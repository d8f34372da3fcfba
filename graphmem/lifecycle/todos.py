"""Todos and reminders, kept in the temporal graph like every other memory.

A todo is a ``TODO`` fact (category ``todo``): extracted from conversation
("remind me to call mom tomorrow") or added with :func:`add_todo`. Its due
time is the fact's ``stated_until``. Closing it appends a status fact
(``TODO_DONE``, ``TODO_CANCELLED`` or ``TODO_EXPIRED``) to the same timeline,
so the usual timeline rules end the todo where it was closed and the history
reads "pending from May 2 until May 3, then done". A retraction ("I don't
need to call mom any more") counts as cancelled.

A todo added through the API has a source episode authored by its creator
(see :mod:`graphmem.lifecycle.records`) whose payload keeps the creator and
the reminder time; an extracted todo's creator is the speaker of the message
it came from, and it is reminded at its due time (minus
``TodoPolicy.remind_before``).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from enum import StrEnum
from typing import Literal
from uuid import uuid4

from pydantic import BaseModel, Field

from graphmem.errors import ConflictError, NotFoundError, ValidationError
from graphmem.edit.changes import Change, ChangeKind, fact_changes
from graphmem.ingest.apply import Statement
from graphmem.ingest.resolve import NameRequest
from graphmem.lifecycle import records
from graphmem.lifecycle.policy import TodoPolicy
from graphmem.lifecycle.todo_match import says_done
from graphmem.memory import Memory
from graphmem.models import Category, Episode, Evidence, Fact, FactStatus, Scope, UtcDateTime
from graphmem.store.base import Reminder, WriteBatch
from graphmem.temporal import TimeFilter
from graphmem.edit.unit import decided_again_on_conflict

TODO = "TODO"


class TodoStatus(StrEnum):
    PENDING = "pending"
    COMPLETED = "completed"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


STATUS_PREDICATES = {TodoStatus.COMPLETED: "TODO_DONE", TodoStatus.CANCELLED: "TODO_CANCELLED",
                     TodoStatus.EXPIRED: "TODO_EXPIRED"}
_BY_PREDICATE = {p: s for s, p in STATUS_PREDICATES.items()}
_EVENTS: dict[TodoStatus, ChangeKind] = {
    TodoStatus.COMPLETED: "todo.completed", TodoStatus.CANCELLED: "todo.cancelled",
    TodoStatus.EXPIRED: "todo.expired"}
_VERBS = {TodoStatus.COMPLETED: "has done", TodoStatus.CANCELLED: "cancelled",
          TodoStatus.EXPIRED: "never did (expired)"}


class Todo(BaseModel):
    id: str = Field(description="the id of the TODO fact")
    scope_key: str
    description: str
    text: str
    due: UtcDateTime | None = None
    remind_at: UtcDateTime | None = None
    creator: str | None = None
    assignee: str
    status: TodoStatus
    created_at: UtcDateTime
    closed_at: UtcDateTime | None = None
    overdue: bool = False
    reminder_due: bool = Field(False, description="pending, and its reminder time has come")
    episode_ids: list[str] = Field(default_factory=list)


class TodoPayload(BaseModel):
    """The payload of the source episode of a todo added directly."""

    kind: Literal["todo"] = "todo"
    description: str
    assignee: str
    creator: str
    due: UtcDateTime | None = None
    remind_at: UtcDateTime | None = None


class _State(BaseModel):
    fact: Fact
    status: TodoStatus = TodoStatus.PENDING
    closed_at: UtcDateTime | None = None


def _states(facts: list[Fact]) -> list[_State]:
    """Walk each todo timeline in order: a TODO opens a todo, a status fact closes it."""
    timelines: dict[str, list[Fact]] = defaultdict(list)
    for fact in facts:
        if fact.category is Category.TODO and fact.status is not FactStatus.RETRACTION:
            timelines[fact.timeline_key].append(fact)
    out: list[_State] = []
    for timeline in timelines.values():
        open_: _State | None = None
        # a todo closed the moment it was made: the opening comes first whatever the ids
        for fact in sorted(timeline, key=lambda f: (f.valid_from, f.recorded_at,
                                                    f.predicate != TODO, f.id)):
            if fact.predicate == TODO:
                open_ = _State(fact=fact)
                if fact.retraction is not None:
                    open_.status, open_.closed_at = TodoStatus.CANCELLED, fact.retraction.at
                out.append(open_)
            elif fact.predicate in _BY_PREDICATE and open_ is not None:
                if open_.status is TodoStatus.PENDING:
                    open_.status, open_.closed_at = _BY_PREDICATE[fact.predicate], fact.valid_from
    return out


def pending_todo_ids(facts: list[Fact]) -> set[str]:
    """Ids of the TODO facts among ``facts`` that are still pending (decay spares them)."""
    return {s.fact.id for s in _states(facts) if s.status is TodoStatus.PENDING}


def _todo_facts(memory: Memory, tenant: str, scope: Scope, now: datetime) -> list[Fact]:
    return records.all_facts(memory, tenant, scope.visible_keys,
                             time=TimeFilter(as_of=now, include_history=True),
                             categories=[Category.TODO])


def _creator_and_reminder(memory: Memory, tenant: str, fact: Fact,
                          policy: TodoPolicy) -> tuple[str | None, datetime | None]:
    remind = fact.stated_until - policy.remind_before if fact.stated_until else None
    for evidence in fact.evidence:
        if evidence.episode_id is None:
            continue
        episode = memory.store.get_episode(tenant, evidence.episode_id)
        if episode is None:
            continue
        if records.is_record(episode):
            payload = records.payload_of(episode, TodoPayload)
            if payload is not None:
                return payload.creator, payload.remind_at or remind
        speakers = [m.speaker for m in episode.messages if m.id in evidence.message_ids]
        if speakers and speakers[0]:
            return speakers[0], remind
    return None, remind


def _todo(memory: Memory, tenant: str, state: _State, now: datetime,
          policy: TodoPolicy) -> Todo:
    fact = state.fact
    creator, remind = _creator_and_reminder(memory, tenant, fact, policy)
    due = fact.stated_until
    return Todo(id=fact.id, scope_key=fact.scope_key, description=fact.object_name,
                text=fact.text, due=due, remind_at=remind, creator=creator or fact.subject_name,
                assignee=fact.subject_name, status=state.status, created_at=fact.valid_from,
                closed_at=state.closed_at, episode_ids=list(fact.episode_ids),
                overdue=state.status is TodoStatus.PENDING and due is not None and due < now,
                reminder_due=state.status is TodoStatus.PENDING and remind is not None
                and remind <= now)


def get_todo(memory: Memory, tenant: str, todo_id: str, *, now: datetime | None = None,
             policy: TodoPolicy = TodoPolicy()) -> Todo | None:
    """One todo by the id of its ``TODO`` fact, with its status now; None if there is none."""
    now = now or memory.clock()
    found = memory.store.get_facts(tenant, [todo_id], embeddings=False)
    if not found or found[0].predicate != TODO:
        return None
    timeline = memory.store.facts_in_timelines(tenant, [found[0].timeline_key])
    state = next((s for s in _states(timeline) if s.fact.id == todo_id), None)
    return None if state is None else _todo(memory, tenant, state, now, policy)


def list_todos(memory: Memory, tenant: str, scope: Scope, *,
               status: TodoStatus | None = None, now: datetime | None = None,
               policy: TodoPolicy = TodoPolicy()) -> list[Todo]:
    """Todos visible in ``scope``, soonest due first (undated ones last)."""
    now = now or memory.clock()
    todos = [_todo(memory, tenant, s, now, policy)
             for s in _states(_todo_facts(memory, tenant, scope, now))
             if status is None or s.status is status]
    far = datetime.max.replace(tzinfo=now.tzinfo)
    return sorted(todos, key=lambda t: (t.due or far, t.created_at, t.id))


def overdue_todos(memory: Memory, tenant: str, scope: Scope, *,
                  now: datetime | None = None) -> list[Todo]:
    return [t for t in list_todos(memory, tenant, scope, status=TodoStatus.PENDING, now=now)
            if t.overdue]


def due_todos(memory: Memory, tenant: str, scope: Scope, *, until: datetime,
              now: datetime | None = None, policy: TodoPolicy = TodoPolicy()) -> list[Todo]:
    """Pending todos due by ``until`` or whose reminder time has come (overdue ones included)."""
    now = now or memory.clock()
    return [t for t in list_todos(memory, tenant, scope, status=TodoStatus.PENDING, now=now,
                                  policy=policy)
            if (t.due is not None and t.due <= until)
            or (t.remind_at is not None and t.remind_at <= now)]


@decided_again_on_conflict
def add_todo(memory: Memory, tenant: str, scope: Scope, description: str, *,
             due: datetime | None = None, remind_at: datetime | None = None,
             creator: str | None = None, assignee: str | None = None,
             now: datetime | None = None) -> Todo:
    """Add a todo directly; its source episode records who asked for it and when to remind.

    >>> add_todo(memory, "acme", Scope(user_id="alice"), "send the report",  # doctest: +SKIP
    ...          due=friday_5pm, creator="Bob")
    """
    description = " ".join(description.split()).rstrip(".")
    if not description:
        raise ValidationError("a todo needs a description")
    now = now or memory.clock()
    if due is not None and due <= now:
        raise ValidationError(f"the due time {due.isoformat()} is not in the future")
    if remind_at is not None and remind_at <= now:
        raise ValidationError(f"remind_at {remind_at.isoformat()} is not in the future")
    if remind_at is not None and due is not None and remind_at > due:
        raise ValidationError(f"remind_at {remind_at.isoformat()} is after the due time "
                              f"{due.isoformat()}")
    owner = scope.user_id or scope.group_id or "user"
    who, by = assignee or owner, creator or owner
    with memory.edit(tenant, now=now) as edit:
        payload = TodoPayload(description=description, assignee=who, creator=by, due=due,
                              remind_at=remind_at)
        when = f" by {due:%Y-%m-%d %H:%M}" if due else ""
        episode = records.authored_episode(
            tenant, scope.key, kind="todo", key=uuid4().hex, role="user", at=now,
            lines=[(by, f"Todo for {who}: {description}{when}.")], payload=payload)
        resolution = edit.resolve(scope, [NameRequest(who, "person"),
                                          NameRequest(description, "task")])
        subject, task = resolution.get(who), resolution.get(description)
        if subject is None or task is None:  # pragma: no cover - resolve() creates both
            raise ValidationError(f"cannot resolve {who!r} or {description!r}")
        editor = edit.timeline()
        editor.apply(Statement(
            scope_key=scope.key, subject_id=subject.id, subject_name=subject.name, predicate=TODO,
            object_id=task.id, object_name=task.name,
            text=f"{subject.name} needs to {description}{when}.", category=Category.TODO,
            importance=0.7, confidence=0.9, cardinality=None, valid_from=now, stated_until=due,
            episode_id=episode.id, message_ids=[m.id for m in episode.messages if m.id]))
        outcome = editor.finish()
        fact = next(f for f in [*outcome.created, *outcome.confirmed] if f.object_id == task.id)
        reminder = remind_at or due
        edit.write(WriteBatch(
            episodes=[episode], entities=[*resolution.created, *resolution.updated],
            facts=[f for f in outcome.changed if f.id not in set(outcome.deleted_ids)],
            delete_fact_ids=outcome.deleted_ids,
            reminders=[Reminder(tenant=tenant, scope_key=fact.scope_key, todo_id=fact.id,
                                remind_at=reminder)] if reminder else []))
        edit.record(fact_changes("memory.created", [fact], episode_id=episode.id))
    return _todo(memory, tenant, _State(fact=fact), now, TodoPolicy())


@decided_again_on_conflict
def close_todo(memory: Memory, tenant: str, todo_id: str, *,
               status: TodoStatus = TodoStatus.COMPLETED, scope: Scope | None = None,
               now: datetime | None = None, at: datetime | None = None,
               source: Episode | None = None, message_ids: list[str] | None = None) -> Todo:
    """Mark a pending todo completed, cancelled or expired.

    ``at`` is when that happened (default: ``now``); ``source`` and
    ``message_ids`` say where it was said ("I sent the report"). Announced as
    ``todo.completed``, ``todo.cancelled`` or ``todo.expired``; a cancellation
    is audited as a retraction.
    """
    if status is TodoStatus.PENDING:
        raise ValidationError("a todo is closed as completed, cancelled or expired")
    now = now or memory.clock()
    with memory.edit(tenant, now=now) as edit:
        found = memory.store.get_facts(tenant, [todo_id])
        if (not found or found[0].predicate != TODO
                or (scope is not None and found[0].scope_key not in scope.visible_keys)):
            raise NotFoundError(f"todo {todo_id!r} not found")
        fact = found[0]
        timeline = memory.store.facts_in_timelines(tenant, [fact.timeline_key])
        state = next((s for s in _states(timeline) if s.fact.id == todo_id), None)
        if state is None or state.status is not TodoStatus.PENDING:
            raise ConflictError(f"todo {todo_id!r} is {state.status.value if state else 'gone'}")
        when = max(at or now, fact.valid_from)
        message_ids = list(message_ids or [])
        closing = Fact(
            tenant=tenant, scope_key=fact.scope_key, subject_id=fact.subject_id,
            subject_name=fact.subject_name, predicate=STATUS_PREDICATES[status],
            object_id=fact.object_id, object_name=fact.object_name,
            text=f"{fact.subject_name} {_VERBS[status]}: {fact.object_name}.",
            category=Category.TODO, importance=fact.importance, confidence=0.9,
            cardinality=fact.cardinality, timeline_key=fact.timeline_key, valid_from=when,
            recorded_at=now,
            evidence=[Evidence(at=when, episode_id=source.id if source else None,
                               message_ids=message_ids)],
            episode_ids=[source.id] if source else [], message_ids=message_ids)
        editor = edit.timeline()
        editor.load_facts([fact])
        editor.replace(closing)
        outcome = editor.finish()
        changed = [f for f in outcome.changed if f.id not in set(outcome.deleted_ids)]
        edit.write(WriteBatch(facts=changed, delete_fact_ids=outcome.deleted_ids))
        closed = next((f for f in changed if f.id == todo_id), fact)
        edit.record([Change(target=todo_id, kind=_EVENTS[status], scope_key=fact.scope_key,
                            episode_id=source.id if source else None, fact=closed.public(),
                            audit="retract" if status is TodoStatus.CANCELLED else None,
                            detail="todo cancelled" if status is TodoStatus.CANCELLED else "")])
    return _todo(memory, tenant, _State(fact=fact, status=status, closed_at=when), now,
                 TodoPolicy())


def expire_overdue(memory: Memory, tenant: str, scope: Scope, *, now: datetime | None = None,
                   policy: TodoPolicy = TodoPolicy(), dry_run: bool = False) -> list[Todo]:
    """Close pending todos overdue for longer than ``policy.expire_after`` as expired."""
    now = now or memory.clock()
    stale = [t for t in overdue_todos(memory, tenant, scope, now=now)
             if t.scope_key == scope.key and t.due is not None and now - t.due > policy.expire_after]
    if dry_run:
        return stale
    return [close_todo(memory, tenant, t.id, status=TodoStatus.EXPIRED, now=now) for t in stale]


def complete_from_episode(memory: Memory, tenant: str, episode_id: str, *,
                          now: datetime | None = None) -> list[Todo]:
    """Close the pending todos an episode's user messages report as done ("I sent the report")."""
    episode = memory.get_episode(tenant, episode_id)
    scope = Scope.from_key(episode.scope_key)
    closed: list[Todo] = []
    for todo in list_todos(memory, tenant, scope, status=TodoStatus.PENDING,
                           now=episode.reference_time):
        said = _reports_done(episode, todo)
        if (said is not None and todo.scope_key == episode.scope_key
                and todo.created_at <= episode.reference_time and episode.id not in todo.episode_ids):
            closed.append(close_todo(memory, tenant, todo.id, now=now, at=episode.reference_time,
                                     source=episode, message_ids=said))
    return closed


def complete_by_conversation(memory: Memory, tenant: str, scope: Scope, *,
                             now: datetime | None = None) -> list[Todo]:
    """Close pending todos that a later conversation reported as done (maintenance's sweep)."""
    now = now or memory.clock()
    pending = [t for t in list_todos(memory, tenant, scope, status=TodoStatus.PENDING, now=now)
               if t.scope_key == scope.key]
    if not pending:
        return []
    oldest = min(t.created_at for t in pending)
    episodes = sorted((e for e in records.all_episodes(memory, tenant, [scope.key])
                       if e.reference_time > oldest and not records.is_record(e)),
                      key=lambda e: (e.reference_time, e.id))
    closed: list[Todo] = []
    for todo in pending:
        for episode in episodes:
            if episode.reference_time <= todo.created_at or episode.id in todo.episode_ids:
                continue
            said = _reports_done(episode, todo)
            if said is not None:
                closed.append(close_todo(memory, tenant, todo.id, now=now,
                                         at=episode.reference_time, source=episode,
                                         message_ids=said))
                break
    return closed


def _reports_done(episode: Episode, todo: Todo) -> list[str] | None:
    """The ids of the user messages saying the todo is done, or None if none does."""
    if not episode.messages:
        return [] if says_done(todo.description, episode.content) else None
    said = [m.id or "" for m in episode.messages
            if m.role == "user" and says_done(todo.description, m.content)]
    return said or None
