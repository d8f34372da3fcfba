"""What callers send in: an episode, or a structured fact."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from graphmem.models import (
    MAX_MESSAGES_PER_EPISODE,
    Category,
    Cardinality,
    Message,
    Scope,
    as_utc,
)

MAX_TEXT_CHARS = 100_000


class EpisodeInput(BaseModel):
    """A conversation window, a plain text, or a JSON document.

    ``reference_time`` defaults to the latest message timestamp (or now).
    ``episode_id`` is the client's idempotency key: sending it twice changes nothing.
    """

    scope: Scope
    messages: list[Message] = Field(default_factory=list, max_length=MAX_MESSAGES_PER_EPISODE)
    text: str | None = Field(default=None, max_length=MAX_TEXT_CHARS)
    document: dict[str, Any] | None = None
    reference_time: datetime | None = None
    episode_id: str | None = Field(default=None, max_length=256)
    session_id: str | None = Field(default=None, max_length=256)

    @field_validator("reference_time")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc(value)

    @model_validator(mode="after")
    def _one_kind(self) -> EpisodeInput:
        kinds = sum(bool(x) for x in (self.messages, self.text, self.document))
        if kinds != 1:
            raise ValueError("an episode needs exactly one of: messages, text, document")
        if self.text is not None and not self.text.strip():
            raise ValueError("episode text is empty")
        if self.text is not None and ("\ufffd" in self.text or "\x00" in self.text):
            raise ValueError("episode text has broken encoding (U+FFFD or NUL)")
        ids = [m.id for m in self.messages if m.id is not None]
        if len(ids) != len(set(ids)):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"duplicate message ids in one episode: {', '.join(dupes)}")
        if self.document is not None and len(json.dumps(self.document)) > MAX_TEXT_CHARS:
            raise ValueError(f"document is larger than {MAX_TEXT_CHARS} characters as JSON")
        return self

    def source(self) -> Literal["messages", "text", "json"]:
        return "messages" if self.messages else "text" if self.text is not None else "json"

    def rendered(self) -> str:
        """The episode as one text, for storage and for extractors of plain text."""
        if self.messages:
            return "\n".join(f"{m.speaker or m.role}: {m.content}" for m in self.messages)
        if self.text is not None:
            return self.text
        return json.dumps(self.document, ensure_ascii=False, sort_keys=True)


class FactInput(BaseModel):
    """A structured fact added directly, with no extraction at all."""

    scope: Scope
    subject: str = Field(min_length=1, max_length=200)
    predicate: str = Field(pattern=r"^[A-Z][A-Z0-9_]{0,63}$")
    object: str = Field(min_length=1, max_length=500)
    subject_type: str = "person"
    object_type: str = "concept"
    text: str | None = Field(default=None, max_length=1000)
    category: Category = Category.FACT
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    confidence: float = Field(default=0.9, ge=0.0, le=1.0)
    cardinality: Cardinality | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    source_id: str | None = Field(default=None, max_length=256)

    @field_validator("valid_from", "valid_until")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc(value)

    @model_validator(mode="after")
    def _interval(self) -> FactInput:
        if self.valid_from and self.valid_until and self.valid_until <= self.valid_from:
            raise ValueError("valid_until must be after valid_from")
        return self
