"""What the MCP tools return: small pydantic views a model can read at a glance.

The library's :class:`~graphmem.models.Fact` carries an embedding, evidence and
timeline keys a model has no use for; a :class:`MemoryView` keeps what an
assistant reasons with (the sentence, its parts, when it holds, what replaced it).
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from graphmem.ingest.pipeline import IngestResult
from graphmem.lifecycle.todos import Todo
from graphmem.models import Category, Entity, Fact, FactStatus
from graphmem.search.models import SearchHit


class MemoryView(BaseModel):
    """One remembered fact."""

    id: str = Field(description="pass it to forget_memory / restore_memory")
    text: str
    subject: str
    predicate: str
    object: str
    category: Category
    status: FactStatus = Field(description="active, or forgotten (hidden but restorable)")
    importance: float
    scope: str = Field(description="whose memory: user:<id>, group:<id> or member:<group>:<user>")
    valid_from: datetime
    valid_until: datetime | None = Field(None, description="when it stopped holding, if it has")
    superseded: bool = Field(description="true when it no longer holds")
    superseded_by: str | None = Field(None, description="the id of the memory that replaced it")
    supersedes: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, fact: Fact, now: datetime) -> MemoryView:
        return cls(id=fact.id, text=fact.text, subject=fact.subject_name,
                   predicate=fact.predicate, object=fact.object_name, category=fact.category,
                   status=fact.status, importance=fact.importance, scope=fact.scope_key,
                   valid_from=fact.valid_from, valid_until=fact.valid_until,
                   superseded=fact.ended_by(now),
                   superseded_by=fact.superseded_by, supersedes=fact.supersedes)


def views(facts: list[Fact], now: datetime) -> list[MemoryView]:
    return [MemoryView.of(f, now) for f in facts]


class Remembered(BaseModel):
    """What storing an episode or a memory changed."""

    episode_id: str | None = None
    duplicate: bool = Field(False, description="the episode id was seen before: nothing changed")
    created: list[MemoryView] = Field(default_factory=list)
    confirmed: list[MemoryView] = Field(default_factory=list)
    superseded: list[MemoryView] = Field(
        default_factory=list, description="older memories this one replaced (kept as history)")
    retracted: list[MemoryView] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, result: IngestResult, now: datetime) -> Remembered:
        return cls(episode_id=result.episode_id, duplicate=result.duplicate,
                   created=views(result.created, now), confirmed=views(result.confirmed, now),
                   superseded=views(result.superseded, now),
                   retracted=views(result.retracted, now), warnings=result.warnings)


class SearchResults(BaseModel):
    results: list[SearchHit]
    as_of: datetime | None = Field(None, description="the time the search answered for")


class ContextBlock(BaseModel):
    prompt: str = Field(description="Markdown to put in the system prompt as-is")
    tokens: int
    token_budget: int


class EntityTimeline(BaseModel):
    id: str
    name: str
    type: str
    aliases: list[str]
    summary: str
    timeline: list[MemoryView] = Field(
        description="every memory about it, oldest first, past and forgotten ones included")

    @classmethod
    def of(cls, entity: Entity, facts: list[Fact], now: datetime) -> EntityTimeline:
        return cls(id=entity.id, name=entity.name, type=entity.type, aliases=entity.aliases,
                   summary=entity.summary, timeline=views(facts, now))


class MemoryPage(BaseModel):
    memories: list[MemoryView]
    limit: int
    offset: int


class TodoList(BaseModel):
    todos: list[Todo]
