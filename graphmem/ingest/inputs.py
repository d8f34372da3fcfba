"""What callers send in: an episode, or a structured fact."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from graphmem.jsonwalk import json_depth
from graphmem.models import (
    MAX_MESSAGES_PER_EPISODE,
    Category,
    Cardinality,
    Message,
    Scope,
    as_utc,
)

MAX_TEXT_CHARS = 100_000
#: How deep a JSON ``document`` may nest. Real documents stay far below it; a deeper one is
#: an attack on every recursive walk downstream (redaction, rendering, storage).
MAX_DOCUMENT_DEPTH = 64


class EpisodeInput(BaseModel):
    """A conversation window, a plain text, or a JSON document.

    ``reference_time`` defaults to the latest message timestamp (or now).
    ``episode_id`` is the client's idempotency key: sending it twice changes nothing.
    Without it, messages that all carry ids are their own key (:meth:`idempotency_key`).
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

    @field_validator("document")
    @classmethod
    def _shallow(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None and json_depth(value) > MAX_DOCUMENT_DEPTH:
            raise ValueError(f"document is nested deeper than {MAX_DOCUMENT_DEPTH} levels")
        return value

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

    def idempotency_key(self) -> str | None:
        """The key a re-post of this episode is recognised by: ``episode_id`` or, when every
        message has an id, a digest of the ids and what they say, so a client's retry of the
        same messages is a duplicate without any new field. (What they say counts too: a
        client that numbers each window's messages from 1 is not sending the same messages.)
        """
        if self.episode_id:
            return self.episode_id
        if not self.messages or any(m.id is None for m in self.messages):
            return None
        said = json.dumps([[m.id, m.speaker, m.content] for m in self.messages])
        return f"messages:{hashlib.sha256(said.encode()).hexdigest()[:32]}"

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
