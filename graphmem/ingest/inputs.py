"""What callers send in: an episode, or a structured fact."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, model_validator

from graphmem.models import (
    MAX_MESSAGES_PER_EPISODE,
    Category,
    Cardinality,
    CleanText,
    Episode,
    Message,
    Scope,
    UtcDateTime,
)
from graphmem.names import normalize_name

MAX_TEXT_CHARS = 100_000
#: How deeply a JSON document may nest: real documents stay far below, and every
#: walk over one (redaction, rendering) must stay far from Python's recursion limit.
MAX_DOCUMENT_DEPTH = 64


def _names_something(value: str) -> str:
    if not normalize_name(value):
        raise ValueError("has no words: nothing is left once spaces and punctuation are removed")
    return value


#: A subject or object name (or a todo's description, which becomes one): clean text
#: that still names something once normalised.
EntityName = Annotated[CleanText, AfterValidator(_names_something)]


def check_interval(valid_from: datetime | None, valid_until: datetime | None) -> None:
    """Refuse an interval that ends before it starts (``valid_until`` names the problem)."""
    if valid_from is not None and valid_until is not None and valid_until <= valid_from:
        raise ValueError("valid_until must be after valid_from")


def document_depth(value: Any) -> int:
    """How deeply a JSON value nests (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_DOCUMENT_DEPTH:
            break
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, depth + 1) for child in children)
    return deepest


class EpisodeInput(BaseModel):
    """A conversation window, a plain text, or a JSON document.

    ``reference_time`` defaults to the latest message timestamp (or now).
    ``episode_id`` is the client's idempotency key: sending it twice changes nothing.
    Without it, messages that all carry ids are their own key (:meth:`idempotency_key`).
    """

    scope: Scope
    messages: list[Message] = Field(default_factory=list, max_length=MAX_MESSAGES_PER_EPISODE)
    text: CleanText | None = Field(default=None, max_length=MAX_TEXT_CHARS)
    document: dict[str, Any] | None = None
    reference_time: UtcDateTime | None = None
    episode_id: CleanText | None = Field(default=None, min_length=1, max_length=256)
    session_id: CleanText | None = Field(default=None, min_length=1, max_length=256)

    @model_validator(mode="after")
    def _one_kind(self) -> EpisodeInput:
        kinds = sum(bool(x) for x in (self.messages, self.text, self.document))
        if kinds != 1:
            # "text": "" is given, and empty: say so, not only that something is missing
            empty = [name for name in ("messages", "text", "document")
                     if name in self.model_fields_set and not getattr(self, name)]
            said = f"{' and '.join(empty)} {'is' if len(empty) == 1 else 'are'} empty; " \
                if kinds == 0 and empty else ""
            raise ValueError(f"{said}an episode needs exactly one of: messages, text, document")
        if self.text is not None and not self.text.strip():
            raise ValueError("episode text is empty")
        ids = [m.id for m in self.messages if m.id is not None]
        if len(ids) != len(set(ids)):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"duplicate message ids in one episode: {', '.join(dupes)}")
        if self.document is not None and document_depth(self.document) > MAX_DOCUMENT_DEPTH:
            raise ValueError(f"document nests deeper than {MAX_DOCUMENT_DEPTH} levels")
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

    def to_episode(self, tenant: str, now: datetime, *,
                   retention: timedelta | None = None) -> Episode:
        """The episode to store: messages get ids (``<episode id>:<i>``) where the client sent
        none, and the reference time defaults to the latest message timestamp, else ``now``."""
        episode = Episode(tenant=tenant, scope_key=self.scope.key, source=self.source(),
                          content=self.rendered(), reference_time=now, recorded_at=now,
                          client_id=self.idempotency_key(), session_id=self.session_id)
        messages = [m if m.id else m.model_copy(update={"id": f"{episode.id}:{i}"})
                    for i, m in enumerate(self.messages)]
        stamps = [m.timestamp for m in messages if m.timestamp is not None]
        return episode.model_copy(update={
            "messages": messages, "reference_time": self.reference_time or max(stamps, default=now),
            "expires_at": now + retention if retention else None})


class FactInput(BaseModel):
    """A structured fact added directly, with no extraction at all."""

    scope: Scope
    subject: EntityName = Field(min_length=1, max_length=200)
    predicate: str = Field(pattern=r"^[A-Z][A-Z0-9_]{0,63}$")
    object: EntityName = Field(min_length=1, max_length=500)
    subject_type: CleanText = Field(default="person", max_length=64)
    object_type: CleanText = Field(default="concept", max_length=64)
    text: CleanText | None = Field(default=None, max_length=1000)
    category: Category = Category.FACT
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    confidence: float = Field(default=0.9, ge=0.0, le=1.0)
    cardinality: Cardinality | None = None
    valid_from: UtcDateTime | None = None
    valid_until: UtcDateTime | None = None
    source_id: CleanText | None = Field(default=None, min_length=1, max_length=256)

    @model_validator(mode="after")
    def _interval(self) -> FactInput:
        check_interval(self.valid_from, self.valid_until)
        return self
