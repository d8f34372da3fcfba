"""The JSON shapes of the REST API: request bodies and the public views of library models.

Requests reuse the library's input models where one exists (an episode body
*is* an :class:`~graphmem.ingest.inputs.EpisodeInput` plus two flags) and
refuse unknown fields, so a misspelt option is an error rather than ignored.
Responses are views: a fact is shown as a "memory" with its scope spelt out
and without its embedding.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Discriminator, Field
from pydantic import StringConstraints, Tag, model_validator

from graphmem.ingest.inputs import EntityName, EpisodeInput, FactInput, check_interval
from graphmem.ingest.pipeline import IngestResult
from graphmem.manage.edits import CorrectionSince
from graphmem.manage.reads import MonthCount, Source
from graphmem.models import (
    Cardinality,
    Category,
    CleanText,
    Count,
    Entity,
    Episode,
    Fact,
    FactStatus,
    Flag,
    Message,
    Number,
    Resolved,
    SaidText,
    Scope,
    UtcDateTime,
    clean_text,
    not_blank,
    utcnow,
)
from graphmem.search.context import ContextRequest, ContextSection
from graphmem.search.models import SearchHit, SearchRequest
from graphmem.store.base import StoreStats

STRICT = ConfigDict(extra="forbid", allow_inf_nan=False)  # NaN and infinity are no numbers


# -- views ------------------------------------------------------------------------
class MemoryOut(BaseModel):
    """A fact as the API shows it."""

    id: str
    text: str
    subject: str
    subject_id: str
    predicate: str
    object: str
    object_id: str
    category: Category
    importance: float
    confidence: float
    status: FactStatus
    user_id: str | None = None
    group_id: str | None = None
    valid_from: UtcDateTime
    valid_until: UtcDateTime | None = None
    recorded_at: UtcDateTime
    expired_at: UtcDateTime | None = None
    superseded: bool = Field(description="it has ended: superseded, retracted or stated to end")
    superseded_by: str | None = None
    supersedes: list[str] = Field(default_factory=list)
    retracted_at: UtcDateTime | None = None
    sources: list[str] = Field(default_factory=list, description="client message ids")
    episode_ids: list[str] = Field(default_factory=list)
    access_count: int = 0

    @classmethod
    def of(cls, fact: Fact, now: datetime | None = None) -> MemoryOut:
        scope = Scope.from_key(fact.scope_key)
        now = now or utcnow()
        return cls(
            id=fact.id, text=fact.text, subject=fact.subject_name, subject_id=fact.subject_id,
            predicate=fact.predicate, object=fact.object_name, object_id=fact.object_id,
            category=fact.category, importance=fact.importance, confidence=fact.confidence,
            status=fact.status, user_id=scope.user_id, group_id=scope.group_id,
            valid_from=fact.valid_from, valid_until=fact.valid_until,
            recorded_at=fact.recorded_at, expired_at=fact.expired_at,
            superseded=fact.ended_by(now),
            superseded_by=fact.superseded_by, supersedes=fact.supersedes,
            retracted_at=fact.retraction.at if fact.retraction else None,
            sources=fact.message_ids, episode_ids=fact.episode_ids,
            access_count=fact.access_count,
        )


def memories(facts: list[Fact], at: datetime | None = None) -> list[MemoryOut]:
    """``facts`` as the API shows them; ``superseded`` says whether each had ended by ``at``
    (the view's instant: ``as_of``, else now)."""
    at = at or utcnow()
    return [MemoryOut.of(f, at) for f in facts]


class EntityOut(BaseModel):
    id: str
    name: str
    type: str
    aliases: list[str]
    summary: str
    user_id: str | None = None
    group_id: str | None = None
    created_at: UtcDateTime
    resolutions: list[Resolved] = Field(
        default_factory=list, description="why mentions were taken to be this entity")

    @classmethod
    def of(cls, entity: Entity) -> EntityOut:
        scope = Scope.from_key(entity.scope_key)
        return cls(id=entity.id, name=entity.name, type=entity.type, aliases=entity.aliases,
                   summary=entity.summary, user_id=scope.user_id, group_id=scope.group_id,
                   created_at=entity.created_at, resolutions=entity.resolutions)


class IngestOut(BaseModel):
    """What an ingestion did; ``stored`` is false for a temporary chat."""

    episode_id: str | None = None
    duplicate: bool = False
    stored: bool = True
    created: list[MemoryOut] = Field(default_factory=list)
    confirmed: list[MemoryOut] = Field(default_factory=list)
    superseded: list[MemoryOut] = Field(default_factory=list)
    retracted: list[MemoryOut] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)

    @classmethod
    def of(cls, result: IngestResult) -> IngestOut:
        return cls(episode_id=result.episode_id, duplicate=result.duplicate,
                   created=memories(result.created), confirmed=memories(result.confirmed),
                   superseded=memories(result.superseded), retracted=memories(result.retracted),
                   warnings=result.warnings)


class EpisodeOut(BaseModel):
    id: str
    episode_id: str | None = Field(None, description="the client's idempotency id")
    user_id: str | None = None
    group_id: str | None = None
    source: str
    messages: list[Message]
    content: str
    reference_time: UtcDateTime
    recorded_at: UtcDateTime
    expires_at: UtcDateTime | None = None
    session_id: str | None = None
    forgotten: bool = Field(False, description="cleared with its scope: kept, recalled by no "
                            "view until the clear is undone")
    memories: list[MemoryOut] = Field(default_factory=list)

    @classmethod
    def of(cls, episode: Episode, facts: list[Fact]) -> EpisodeOut:
        scope = Scope.from_key(episode.scope_key)
        return cls(id=episode.id, episode_id=episode.client_id, user_id=scope.user_id,
                   group_id=scope.group_id, source=episode.source, messages=episode.messages,
                   content=episode.content, reference_time=episode.reference_time,
                   recorded_at=episode.recorded_at, expires_at=episode.expires_at,
                   session_id=episode.session_id, forgotten=episode.forgotten,
                   memories=memories(facts))


class EpisodeDeleted(BaseModel):
    episode_id: str
    deleted: list[MemoryOut]
    reopened: list[MemoryOut]


class JobAccepted(BaseModel):
    job_id: str
    status: Literal["pending"] = "pending"


class JobError(BaseModel):
    status: int
    detail: str


class JobOut(BaseModel):
    job_id: str
    status: Literal["pending", "running", "done", "failed"]
    created_at: UtcDateTime
    finished_at: UtcDateTime | None = None
    result: IngestOut | None = None
    error: JobError | None = None


class MemoryList(BaseModel):
    memories: list[MemoryOut]
    limit: int
    offset: int


class MemoryDetail(BaseModel):
    memory: MemoryOut
    chain: list[MemoryOut] = Field(
        description="what it superseded and what superseded it, oldest first")
    sources: list[Source]


class Corrected(BaseModel):
    memory: MemoryOut
    superseded: MemoryOut | None = None


class StatsOut(BaseModel):
    stats: StoreStats
    facts_by_month: list[MonthCount]


class SearchOut(BaseModel):
    results: list[SearchHit]
    as_of: UtcDateTime | None = None
    window: tuple[UtcDateTime | None, UtcDateTime | None] | None = None


class ContextOut(BaseModel):
    prompt: str
    items: list[SearchHit]
    sections: list[ContextSection]
    tokens: int
    token_budget: int


class EntityHitOut(BaseModel):
    entity: EntityOut
    score: float
    channels: dict[str, int]


class EntitySearchOut(BaseModel):
    results: list[EntityHitOut]


class TimelineOut(BaseModel):
    entity: EntityOut
    memories: list[MemoryOut]


class NeighborsOut(BaseModel):
    entity: EntityOut
    entities: list[EntityOut]
    memories: list[MemoryOut]
    hops: dict[str, int]


class Health(BaseModel):
    status: Literal["ok", "ready"]


# -- requests -----------------------------------------------------------------------
class EpisodeBody(EpisodeInput):
    """An episode to remember: ``messages``, ``text`` or ``document`` (exactly one)."""

    model_config = STRICT

    run_async: Flag = Field(False, alias="async", description="answer 202 with a job id at once")
    temporary: Flag = Field(False, description="temporary chat: store and extract nothing")

    def to_input(self) -> EpisodeInput:
        return EpisodeInput.model_validate(self.model_dump(
            include=set(EpisodeInput.model_fields)))


class ExtractBody(EpisodeInput):
    """An episode to run through the extractor without storing anything."""

    model_config = STRICT


class RecentMessage(BaseModel):
    content: SaidText = Field(min_length=1, max_length=20_000)
    speaker: CleanText | None = Field(None, max_length=256)
    role: CleanText | None = Field(None, max_length=64)


def _recent_kind(value: Any) -> str | None:
    """Which form a ``recent_messages`` item takes, so that an error names that form's fault
    alone (not every form the item failed as)."""
    if isinstance(value, str):
        return "text"
    return "message" if isinstance(value, (dict, RecentMessage)) else None


#: An earlier message of the conversation: its text, or ``{content, speaker?, role?}``.
Recent = Annotated[
    Annotated[str, StringConstraints(min_length=1, max_length=20_000),
              AfterValidator(clean_text), AfterValidator(not_blank), Tag("text")]
    | Annotated[RecentMessage, Tag("message")],
    Discriminator(_recent_kind, custom_error_type="recent_message",
                  custom_error_message="is a message's text or an object with its content")]


class SearchBody(BaseModel):
    model_config = STRICT

    scope: Scope
    query: SaidText = Field(min_length=1, max_length=4000)
    as_of: UtcDateTime | None = None
    as_known_at: UtcDateTime | None = None
    include_history: Flag = False
    limit: Count = Field(default=10, ge=1, le=200)
    recent_messages: list[Recent] = Field(default_factory=list, max_length=20)
    categories: list[Category] | None = None
    min_score: Number | None = None
    include_turns: Flag = True
    rerank: Flag = False
    mmr: Flag = False
    temporary: Flag = Field(False, description="temporary chat: recall nothing")

    def to_request(self) -> SearchRequest:
        recent = [m if isinstance(m, str) else m.content for m in self.recent_messages]
        return SearchRequest.model_validate({
            **self.model_dump(exclude={"temporary", "recent_messages"}), "recent_messages": recent})


class AddMemoryBody(BaseModel):
    """A memory added by hand: a structured fact, or one sentence for the extractor."""

    model_config = STRICT

    scope: Scope
    subject: EntityName | None = Field(None, min_length=1, max_length=200)
    predicate: str | None = Field(None, pattern=r"^[A-Z][A-Z0-9_]{0,63}$")
    object: EntityName | None = Field(None, min_length=1, max_length=500)
    text: SaidText | None = Field(
        None, min_length=1, max_length=1000,
        description="with subject, predicate and object: the memory's wording; alone: one "
        "sentence the extractor reads")
    subject_type: CleanText = Field("person", max_length=64)
    object_type: CleanText = Field("concept", max_length=64)
    category: Category = Category.FACT
    importance: Number = Field(default=0.5, ge=0.0, le=1.0)
    confidence: Number = Field(default=0.9, ge=0.0, le=1.0)
    cardinality: Cardinality | None = None
    valid_from: UtcDateTime | None = None
    valid_until: UtcDateTime | None = None
    source_id: CleanText | None = Field(None, min_length=1, max_length=256)

    @model_validator(mode="after")
    def _shape(self) -> AddMemoryBody:
        check_interval(self.valid_from, self.valid_until)
        parts = [self.subject, self.predicate, self.object]
        if any(p is not None for p in parts) and not all(p is not None for p in parts):
            raise ValueError("a structured memory needs subject, predicate and object")
        if not any(parts) and not (self.text and self.text.strip()):
            raise ValueError("send subject, predicate and object, or a non-empty text")
        return self

    @property
    def structured(self) -> bool:
        return self.subject is not None

    def to_fact(self) -> FactInput:
        return FactInput.model_validate(self.model_dump(exclude_none=True))

    def to_episode(self) -> EpisodeInput:
        return EpisodeInput(scope=self.scope, text=self.text,
                            episode_id=self.source_id, reference_time=self.valid_from)


class PatchBody(BaseModel):
    """Change importance, or correct the content (which makes a new memory superseding this one)."""

    model_config = STRICT

    importance: Number | None = Field(None, ge=0.0, le=1.0)
    text: SaidText | None = Field(None, min_length=1, max_length=1000)
    object: EntityName | None = Field(None, min_length=1, max_length=500)
    category: Category | None = None
    since: CorrectionSince = Field(
        "start", description="with a new object: 'start' if the old value was wrong (the new "
        "one holds over the old one's whole interval), 'now' if it changed now")

    @model_validator(mode="after")
    def _something(self) -> PatchBody:
        if all(v is None for v in (self.importance, self.text, self.object, self.category)):
            raise ValueError("send at least one of importance, text, object, category")
        for name in ("text", "object"):
            value = getattr(self, name)
            if value is not None and not value.strip():
                raise ValueError(f"{name} is empty")
        return self

    @property
    def corrects(self) -> bool:
        return any(v is not None for v in (self.text, self.object, self.category))


class ContextBody(ContextRequest):
    model_config = STRICT


class ForgetBody(BaseModel):
    """Hard delete: a whole scope, or one entity, or one topic within it."""

    model_config = STRICT

    scope: Scope
    entity_id: CleanText | None = Field(None, min_length=1, max_length=256)
    topic: CleanText | None = Field(None, min_length=1, max_length=4000)
    min_score: Number | None = Field(None, ge=0.0, description="topic only: minimum fused score")
    delete_sources: Flag = Field(
        True, description="also delete the conversations the facts came from")
    dry_run: Flag = Field(False, description="say what would be deleted, delete nothing")
    whole_scope: Flag = Field(
        False, description="erase everything stored under the scope; required when neither "
        "entity_id nor topic is sent, so that a selector a client dropped or sent as null "
        "never erases a whole scope")

    @model_validator(mode="after")
    def _one_target(self) -> ForgetBody:
        targets = [name for name, given in (("entity_id", self.entity_id is not None),
                                            ("topic", self.topic is not None),
                                            ("whole_scope", self.whole_scope)) if given]
        if not targets:
            raise ValueError("send entity_id or topic, or whole_scope: true to erase everything "
                             "in the scope")
        if len(targets) > 1:
            raise ValueError(f"send one of entity_id, topic and whole_scope, not {' and '.join(targets)}")
        if self.topic is not None and not self.topic.strip():
            raise ValueError("topic is empty")
        return self
