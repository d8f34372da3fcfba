"""The JSON shapes of the lifecycle routes: maintenance, profile, summaries, todos, Markdown.

Responses are the library's own models (a :class:`~graphmem.lifecycle.todos.Todo`,
a :class:`~graphmem.lifecycle.maintenance.MaintenanceReport`), wrapped in an
object when they are a list, like the rest of the API. Request bodies refuse
unknown fields and read naive timestamps as UTC.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from api.schemas import STRICT
from graphmem.lifecycle.policy import MAX_PURGE_DAYS
from graphmem.lifecycle.profile import Profile
from graphmem.lifecycle.summaries import SessionSummary
from graphmem.lifecycle.todos import Todo
from graphmem.ingest.inputs import EntityName
from graphmem.models import CleanText, Count, Flag, Scope, UtcDateTime


# -- requests -----------------------------------------------------------------------
class MaintenanceBody(BaseModel):
    """Run every lifecycle job for one scope (see ``graphmem maintain``)."""

    model_config = STRICT

    scope: Scope
    dry_run: Flag = Field(False, description="report what would change, change nothing")
    purge_after_days: Count | None = Field(
        None, ge=0, le=MAX_PURGE_DAYS,
        description="hard-delete memories forgotten by decay for longer than this")


class ProfileRefreshBody(BaseModel):
    model_config = STRICT

    scope: Scope
    force: Flag = Field(True, description="rewrite even if not due (5 new summaries, 7 days)")
    dry_run: Flag = False


class TodoBody(BaseModel):
    """A todo added directly; ``creator`` and ``assignee`` default to the scope's owner."""

    model_config = STRICT

    scope: Scope
    description: EntityName = Field(min_length=1, max_length=1000)
    due: UtcDateTime | None = None
    remind_at: UtcDateTime | None = None
    assignee: EntityName | None = Field(None, min_length=1, max_length=200)
    creator: EntityName | None = Field(None, min_length=1, max_length=200)


class ImportBody(BaseModel):
    """An edited memory.md (or learnings.md) to apply to a scope."""

    model_config = STRICT

    scope: Scope
    markdown: CleanText = Field(max_length=2_000_000)
    learnings: Flag = Field(False, description="the file is learnings.md: lessons and skills only")
    dry_run: Flag = Field(False, description="report what would change, change nothing")
    allow_mass_retraction: Flag = Field(
        False, description="allow retracting more than half of the scope's current memories")


# -- responses ----------------------------------------------------------------------
class ProfileHistory(BaseModel):
    versions: list[Profile] = Field(description="every version, oldest first")


class SummaryList(BaseModel):
    summaries: list[SessionSummary] = Field(description="newest first")


class SummaryResult(BaseModel):
    session_id: str
    summary: SessionSummary | None = Field(
        description="null when the session has too little substance to summarise")


class TodoList(BaseModel):
    todos: list[Todo] = Field(description="soonest due first, undated ones last")
