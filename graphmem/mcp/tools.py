"""The MCP tools: each one a thin call into :class:`~graphmem.memory.Memory` and
:mod:`graphmem.manage`, with typed arguments and a typed result.

A tool's docstring is what the model reads to decide when to call it, so it says
what the tool is for and when to use it, not how it works. Every tool takes an
optional ``user_id``/``group_id``; without them the caller's default scope (the
``--user`` of ``graphmem mcp``, or the ``X-Graphmem-User-Id`` header over HTTP) is
used. The tenant never comes from the model: ``caller_of`` reads it from the
connection (the API key over HTTP, the configuration over stdio), so a model
cannot ask for another tenant's memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import pydantic
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from graphmem import errors, manage
from graphmem.ingest.inputs import EpisodeInput, FactInput
from graphmem.lifecycle.context import layered_context
from graphmem.lifecycle.todos import Todo, TodoStatus, close_todo, list_todos
from graphmem.mcp.views import (
    ContextBlock,
    EntityTimeline,
    MemoryPage,
    MemoryView,
    Remembered,
    SearchResults,
    TodoList,
    views,
)
from graphmem.memory import Memory
from graphmem.models import Category, FactStatus, Message, Scope, UtcDateTime
from graphmem.search.context import ContextRequest
from graphmem.search.models import SearchRequest
from graphmem.store.base import FactQuery
from graphmem.temporal import TimeFilter

Ctx = Context[Any, Any]


@dataclass(frozen=True)
class Caller:
    """Who is calling: the tenant, and whose memory a call means when it names no one."""

    tenant: str
    scope: Scope | None = None


#: Reads the caller off the request context (never off the arguments); raises if it cannot.
CallerOf = Callable[[Ctx], Caller]

#: Library errors whose message helps the model correct its call.
SHOWN = (errors.ValidationError, errors.NotFoundError, errors.ConflictError, errors.ScopeError)

UserId = Annotated[str | None, Field(
    description="the user whose memory this is; leave out to use the default user")]
GroupId = Annotated[str | None, Field(
    description="a group (team, family) whose shared memory this is; with user_id: that "
                "member's memory inside the group")]
MemoryId = Annotated[str, Field(min_length=1, max_length=256,
                                description="a memory id from search_memory or list_memories")]


def field_errors(err: pydantic.ValidationError) -> str:
    """One line per bad field, named the way the caller sent it."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: "
                     f"{str(e['msg']).removeprefix('Value error, ')}" for e in err.errors())


@contextmanager
def shown(error: type[Exception] = ToolError) -> Iterator[None]:
    """Turn the errors a caller can act on into ``error`` with a readable message.

    Anything else (a store failure) propagates: the SDK logs it and tells the
    model only that the call failed, so no path or hostname leaks into a chat.
    """
    try:
        yield
    except errors.StoreUnavailableError as err:
        raise error("the memory store is unavailable; retry later") from err
    except SHOWN as err:
        raise error(str(err)) from err
    except pydantic.ValidationError as err:
        raise error(field_errors(err)) from err


class MemoryTools:
    """The tools of one MCP server, bound to one memory and one way of finding the caller."""

    def __init__(self, memory: Memory, caller_of: CallerOf) -> None:
        self.memory = memory
        self.caller_of = caller_of

    # -- helpers ------------------------------------------------------------------------
    def scope(self, ctx: Ctx, user_id: str | None, group_id: str | None) -> tuple[str, Scope]:
        """The tenant, and the scope the model named, else the caller's default (one is
        required)."""
        caller = self.caller_of(ctx)
        if user_id is None and group_id is None:
            if caller.scope is None:
                raise errors.ValidationError(
                    "user_id or group_id is required: say whose memory this is")
            return caller.tenant, caller.scope
        return caller.tenant, Scope(user_id=user_id, group_id=group_id)

    def _limit_to(self, ctx: Ctx, user_id: str | None,
                  group_id: str | None) -> tuple[str, Scope | None]:
        """For calls by id: a named or default scope confines them; none means the tenant."""
        caller = self.caller_of(ctx)
        if user_id is None and group_id is None:
            return caller.tenant, caller.scope
        return caller.tenant, Scope(user_id=user_id, group_id=group_id)

    # -- writing ------------------------------------------------------------------------
    def add_episode(
        self,
        messages: Annotated[list[Message], Field(min_length=1, max_length=500, description=(
            "the new turns, oldest first; role is user or assistant, speaker the person's "
            "name, timestamp when it was said (ISO 8601)"))],
        ctx: Ctx,
        user_id: UserId = None,
        group_id: GroupId = None,
        session_id: Annotated[str | None, Field(max_length=256, description=(
            "the conversation's id, to group its episodes"))] = None,
        episode_id: Annotated[str | None, Field(max_length=256, description=(
            "your id for these turns: sending the same id again changes nothing"))] = None,
    ) -> Remembered:
        """Remember what was just said. Call this after each exchange with the user (or at
        the end of a conversation) with the new messages: graphmem extracts the facts,
        preferences, goals and todos in them, and a change ("I left Acme and joined
        Globex") supersedes the old fact, which stays in the history. The result lists
        the memories created, confirmed and superseded."""
        with shown():
            tenant, scope = self.scope(ctx, user_id, group_id)
            data = EpisodeInput(scope=scope, messages=messages,
                                session_id=session_id, episode_id=episode_id)
            result = self.memory.add_episode(tenant, data)
        return Remembered.of(result, self.memory.clock())

    def add_memory(
        self,
        subject: Annotated[str, Field(min_length=1, max_length=200, description=(
            "who or what it is about, by name (e.g. the user's name)"))],
        predicate: Annotated[str, Field(min_length=1, max_length=64, description=(
            "the relation, e.g. WORKS_AT, LIVES_IN, JOB_TITLE, LIKES, DISLIKES, "
            "PREFERS, HAS_GOAL; spaces become underscores"))],
        object: Annotated[str, Field(min_length=1, max_length=500, description="the value")],
        ctx: Ctx,
        text: Annotated[str | None, Field(max_length=1000, description=(
            "the memory as one sentence; made from the parts when left out"))] = None,
        category: Category = Category.FACT,
        importance: Annotated[float, Field(ge=0.0, le=1.0)] = 0.5,
        valid_from: Annotated[UtcDateTime | None, Field(description=(
            "when it started to hold (default: now)"))] = None,
        user_id: UserId = None,
        group_id: GroupId = None,
    ) -> Remembered:
        """Store one fact exactly as given, without extraction. Use it when the user asks
        you to remember something specific ("remember that I'm vegetarian"). A new value
        for a one-at-a-time relation (WORKS_AT, LIVES_IN, JOB_TITLE...) supersedes the
        current one, which stays in the history."""
        with shown():
            tenant, scope = self.scope(ctx, user_id, group_id)
            fact = FactInput(scope=scope, subject=subject,
                             predicate="_".join(predicate.upper().replace("-", " ").split()),
                             object=object, text=text, category=category,
                             importance=importance, valid_from=valid_from)
            result = self.memory.add_facts(tenant, [fact])
        return Remembered.of(result, self.memory.clock())

    def forget_memory(self, memory_id: MemoryId, ctx: Ctx, user_id: UserId = None,
                      group_id: GroupId = None) -> MemoryView:
        """Forget one memory when the user asks you to, or when it is wrong. It is hidden
        from search and lists but kept: restore_memory brings it back."""
        return self._set_status(ctx, memory_id, user_id, group_id, forget=True)

    def restore_memory(self, memory_id: MemoryId, ctx: Ctx, user_id: UserId = None,
                       group_id: GroupId = None) -> MemoryView:
        """Bring back a memory that forget_memory hid (list_memories with
        status=forgotten shows them)."""
        return self._set_status(ctx, memory_id, user_id, group_id, forget=False)

    def _set_status(self, ctx: Ctx, memory_id: str, user_id: str | None, group_id: str | None,
                    *, forget: bool) -> MemoryView:
        change = manage.forget_fact if forget else manage.restore_fact
        with shown():
            tenant, limit = self._limit_to(ctx, user_id, group_id)
            fact = change(self.memory, tenant, memory_id, limit)
        return MemoryView.of(fact, self.memory.clock())

    def complete_todo(
        self,
        todo_id: Annotated[str, Field(min_length=1, max_length=256,
                                      description="a todo id from list_todos")],
        ctx: Ctx,
        cancel: Annotated[bool, Field(description="cancelled rather than done")] = False,
        user_id: UserId = None,
        group_id: GroupId = None,
    ) -> Todo:
        """Mark a pending todo done when the user says they did it (or cancelled, with
        cancel=true, when they drop it)."""
        status = TodoStatus.CANCELLED if cancel else TodoStatus.COMPLETED
        with shown():
            tenant, limit = self._limit_to(ctx, user_id, group_id)
            return close_todo(self.memory, tenant, todo_id, status=status, scope=limit)

    # -- reading ------------------------------------------------------------------------
    def search_memory(
        self,
        query: Annotated[str, Field(min_length=1, max_length=4000, description=(
            "a question or keywords, e.g. 'where does Alice work?'"))],
        ctx: Ctx,
        as_of: Annotated[UtcDateTime | None, Field(description=(
            "answer for this past moment (ISO 8601) instead of now"))] = None,
        include_history: Annotated[bool, Field(description=(
            "also return memories that no longer hold (superseded or ended)"))] = False,
        limit: Annotated[int, Field(ge=1, le=50)] = 10,
        user_id: UserId = None,
        group_id: GroupId = None,
    ) -> SearchResults:
        """Look something up in memory before answering a question about the user, their
        people, plans or past conversations. Each result says when it holds
        (valid_from/valid_until) and whether it was superseded; use as_of for "where did
        I work in 2022?" and include_history for "where have I worked?"."""
        with shown():
            tenant, scope = self.scope(ctx, user_id, group_id)
            request = SearchRequest(scope=scope, query=query, as_of=as_of,
                                    include_history=include_history, limit=limit)
            found = self.memory.search(tenant, request)
        return SearchResults(results=found.results, as_of=found.as_of)

    def get_context(
        self,
        message: Annotated[str, Field(min_length=1, max_length=4000, description=(
            "the user's latest message"))],
        ctx: Ctx,
        token_budget: Annotated[int, Field(ge=50, le=100_000, description=(
            "the most tokens the block may use"))] = 1500,
        recent_messages: Annotated[list[str] | None, Field(max_length=20, description=(
            "a few earlier turns, to resolve 'it' and 'that'"))] = None,
        user_id: UserId = None,
        group_id: GroupId = None,
    ) -> ContextBlock:
        """Get what you should remember while answering this message, as a ready-made
        Markdown block within a token budget: the user's profile, their latest sessions,
        then the most relevant memories. Call it at the start of a conversation and
        whenever the topic changes; put the prompt in your context."""
        with shown():
            tenant, scope = self.scope(ctx, user_id, group_id)
            request = ContextRequest(scope=scope, message=message,
                                     recent_messages=recent_messages or [],
                                     token_budget=token_budget)
            built = layered_context(self.memory, tenant, request)
        return ContextBlock(prompt=built.prompt, tokens=built.tokens,
                            token_budget=built.token_budget)

    def get_entity(
        self,
        ctx: Ctx,
        name: Annotated[str | None, Field(max_length=500, description=(
            "a person, place, organisation or thing by name"))] = None,
        entity_id: Annotated[str | None, Field(max_length=256)] = None,
        user_id: UserId = None,
        group_id: GroupId = None,
    ) -> EntityTimeline:
        """Everything known about one person, place or thing, as a timeline, oldest first,
        with past and forgotten memories marked. Use it for "tell me about Bob" or to see
        how something changed over time."""
        with shown():
            tenant, limit = self._limit_to(ctx, user_id, group_id)
            if entity_id is None:
                if not name or not name.strip():
                    raise errors.ValidationError("name or entity_id is required")
                _, scope = self.scope(ctx, user_id, group_id)
                hits = manage.search_entities(self.memory, tenant, scope, name, limit=5)
                # by name only: the nearest meaning of an unknown name is another entity
                named = [h for h in hits if "bm25" in h.channels]
                if not named:
                    raise errors.NotFoundError(f"nothing is known about {name!r}")
                entity_id = named[0].entity.id
            entity = manage.get_entity(self.memory, tenant, entity_id, limit)
            facts = manage.entity_timeline(self.memory, tenant, entity_id, limit)
        return EntityTimeline.of(entity, facts, self.memory.clock())

    def list_memories(
        self,
        ctx: Ctx,
        category: Category | None = None,
        status: Annotated[Literal["active", "forgotten"] | None, Field(description=(
            "forgotten: the memories forget_memory hid"))] = None,
        text: Annotated[str | None, Field(max_length=500, description=(
            "only memories whose text contains this"))] = None,
        include_history: Annotated[bool, Field(description=(
            "also memories that no longer hold"))] = False,
        valid_at: Annotated[UtcDateTime | None, Field(description=(
            "only memories that held at this time"))] = None,
        limit: Annotated[int, Field(ge=1, le=200)] = 50,
        offset: Annotated[int, Field(ge=0)] = 0,
        user_id: UserId = None,
        group_id: GroupId = None,
    ) -> MemoryPage:
        """Browse stored memories, newest first, by category (preference, fact, goal,
        lesson...) or status. Use it when the user asks what you remember about them;
        to answer a question, search_memory ranks better."""
        with shown():
            tenant, scope = self.scope(ctx, user_id, group_id)
            query = FactQuery(
                scope_keys=scope.visible_keys,
                categories=[category] if category else None,
                statuses=[FactStatus(status)] if status else None, text_contains=text,
                limit=limit, offset=offset,
                time=TimeFilter(as_of=valid_at, include_history=include_history))
            facts = self.memory.list_facts(tenant, query)
        return MemoryPage(memories=views(facts, self.memory.clock()), limit=limit, offset=offset)

    def list_todos(self, ctx: Ctx, status: TodoStatus | None = None,
                   reminder_due: Annotated[bool | None, Field(
                       description="true: only the reminders whose time has come")] = None,
                   user_id: UserId = None, group_id: GroupId = None) -> TodoList:
        """The user's todos and reminders, soonest due first; overdue ones are marked, and
        reminder_due ones are those to remind the user of now. Check them when the user asks
        what they have to do, and with reminder_due=true at the start of a conversation."""
        with shown():
            tenant, scope = self.scope(ctx, user_id, group_id)
            found = list_todos(self.memory, tenant, scope, status=status)
        return TodoList(todos=[t for t in found
                               if reminder_due is None or t.reminder_due is reminder_due])

    @property
    def writes(self) -> list[Callable[..., Any]]:
        return [self.add_episode, self.add_memory, self.forget_memory, self.restore_memory,
                self.complete_todo]

    @property
    def reads(self) -> list[Callable[..., Any]]:
        return [self.search_memory, self.get_context, self.get_entity, self.list_memories,
                self.list_todos]
