"""What a search asks for and what it returns."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from graphmem.models import Category, CleanText, SaidText, Scope, UtcDateTime


class SearchRequest(BaseModel):
    scope: Scope
    query: SaidText = Field(min_length=1, max_length=4000)
    as_of: UtcDateTime | None = None
    as_known_at: UtcDateTime | None = None
    include_history: bool = False
    categories: list[Category] | None = None
    limit: int = Field(default=10, ge=1, le=200)
    min_score: float | None = None
    recent_messages: list[CleanText] = Field(default_factory=list, max_length=20)
    include_turns: bool = True
    rerank: bool = False
    mmr: bool = False


class SearchHit(BaseModel):
    """One result, explained: where it was found, when it holds, where it came from."""

    kind: Literal["fact", "turn"]
    id: str
    text: str
    score: float
    channels: dict[str, int] = Field(default_factory=dict, description="channel -> 1-based rank")
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    category: Category | None = None
    valid_from: UtcDateTime | None = None
    valid_until: UtcDateTime | None = None
    superseded: bool = False
    superseded_by: str | None = None
    retraction: bool = Field(default=False, description=(
        "the hit says a value stopped holding ('Maya no longer follows a vegan diet.'): "
        "subject, predicate and object name what ended"))
    sources: list[str] = Field(default_factory=list, description="client message ids")
    episode_ids: list[str] = Field(default_factory=list)
    importance: float | None = None
    speaker: str | None = None
    role: str | None = Field(default=None, description="a turn's role: user, assistant...")


class SearchResponse(BaseModel):
    results: list[SearchHit]
    as_of: UtcDateTime | None = None
    window: tuple[UtcDateTime | None, UtcDateTime | None] | None = Field(
        default=None, description="the time window a time expression in the query narrowed to")
