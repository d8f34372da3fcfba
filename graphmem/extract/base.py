"""The extractor interface and what every extractor returns.

An extractor reads one episode and says which entities it mentions and which
facts it states, retracts or reaffirms. It never touches the store: entity
resolution and the timeline rules run afterwards in the ingestion pipeline, so
every extractor gets the same temporal semantics.
"""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, Field

from graphmem.models import Cardinality, Category, Episode, UtcDateTime

#: The speaker's own entity is named by the speaker; "SELF" is used when unknown.
SELF = "SELF"


class ExtractedEntity(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    type: str = "concept"  # person, organization, place, product, technology, event, concept...
    aliases: list[str] = Field(default_factory=list)


class ExtractedFact(BaseModel):
    """One statement found in an episode.

    ``subject``/``object`` are entity names as written (the speaker's name for
    "I"). ``predicate`` is an UPPER_SNAKE identifier such as ``WORKS_AT``.
    ``action`` says what the statement does to memory: ``assert`` a fact, or
    ``retract`` a matching current one ("I don't use Vue anymore"); for a
    retraction ``object`` may be empty, meaning "whatever the current value is".
    """

    subject: str = Field(min_length=1, max_length=200)
    predicate: str = Field(pattern=r"^[A-Z][A-Z0-9_]{0,63}$")
    object: str = Field(default="", max_length=500)
    object_type: str = "concept"
    text: str = Field(min_length=1, max_length=1000)
    category: Category = Category.FACT
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    cardinality: Cardinality | None = None
    valid_from: UtcDateTime | None = None
    valid_until: UtcDateTime | None = None
    action: Literal["assert", "retract"] = "assert"
    message_id: str | None = None
    corrects: bool = Field(default=False, description=(
        "the speaker corrects a slip (\"I meant Hooli, not Initech\"): a retraction means the "
        "value never held, and the assertion holds from when the wrong value started"))


class ExistingFactDecision(BaseModel):
    """An LLM's verdict on a stored fact shown to it as a candidate."""

    fact_id: str
    decision: Literal["keep", "duplicate", "superseded", "retracted"]
    by_fact_index: int | None = None  # index into Extraction.facts for duplicate/superseded


class Extraction(BaseModel):
    entities: list[ExtractedEntity] = Field(default_factory=list)
    facts: list[ExtractedFact] = Field(default_factory=list)
    decisions: list[ExistingFactDecision] = Field(default_factory=list)
    language: str = "en"
    warnings: list[str] = Field(default_factory=list)
    wants_candidates: bool = False
    """The episode says something only stored facts can place ("Actually it was Lisbon,
    not Porto" names no slot) and the extractor was given none: ingestion looks them
    up and asks again, so an extractor that seldom needs them does not cost a lookup
    per episode."""


class CandidateFact(BaseModel):
    """A stored fact shown to an extractor so it can decide keep/duplicate/supersede/retract."""

    id: str
    text: str
    subject: str
    predicate: str
    object: str
    valid_from: UtcDateTime
    #: Said about the person an unnamed "I" in the episode is (the scope's user), whatever
    #: name they are stored under.
    own: bool = False


class Extractor(Protocol):
    """Reads one episode; ``candidates`` are stored facts that may be affected.

    ``uses_candidates`` says whether the extractor judges stored facts: the
    ingestion pipeline looks the candidates up (a full-text search per episode)
    only for an extractor that does, and passes an empty list otherwise.
    """

    name: str
    uses_candidates: bool

    def extract(self, episode: Episode, candidates: list[CandidateFact]) -> Extraction: ...
