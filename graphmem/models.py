"""The data model: scopes, episodes, entities, facts.

Times are always timezone-aware UTC. A naive timestamp from a client is read as
UTC; there is one vocabulary for time everywhere: ``valid_from`` /
``valid_until`` (world time: when a fact is true) and ``recorded_at`` /
``expired_at`` (system time: when graphmem learned it and when it learned that
it stopped holding).
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    Strict,
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

#: Ids of tenants, users and groups: short, printable, no separators we use in keys.
#: ``\A``/``\Z`` so a trailing newline cannot slip past ``$`` ("rp\n" is not "rp").
ID_PATTERN = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9_.@+-]{0,127}\Z")

MAX_MESSAGE_CHARS = 20_000
MAX_MESSAGES_PER_EPISODE = 500


def utcnow() -> datetime:
    return datetime.now(UTC)


#: The largest UTC offset both stores accept (Neo4j refuses more than 18 hours).
MAX_UTC_OFFSET = timedelta(hours=18)

#: The one datetime rule, as the API documents it on every time field.
TIME_RULE = (
    "ISO 8601 date-time or date. Without an offset the time is UTC; an offset is converted "
    "to UTC; a date alone (2024-06-01) is midnight UTC; a space may stand for the 'T'. "
    "Offsets beyond +/-18:00, instants outside the years 1-9999 in UTC and numbers are refused.")


def as_utc(value: datetime) -> datetime:
    """The one datetime rule: naive is UTC, an offset is converted to UTC.

    Raises ``ValueError`` (which pydantic reports against the field) for an
    offset beyond +/-18 h or an instant that leaves the years 1..9999 once
    converted (``9999-12-31T23:00:00-05:00``), since neither store can hold it.
    """
    offset = value.utcoffset()
    if offset is None:
        return value.replace(tzinfo=UTC)
    if abs(offset) > MAX_UTC_OFFSET:
        minutes = int(offset.total_seconds()) // 60
        sign, minutes = ("-" if minutes < 0 else "+"), abs(minutes)
        raise ValueError(f"the UTC offset {sign}{minutes // 60:02d}:{minutes % 60:02d} "
                         "is beyond +/-18 hours")
    try:
        return value.astimezone(UTC)
    except OverflowError as err:
        raise ValueError("the time is outside the years 1-9999 once converted to UTC") from err


def iso_utc(when: datetime) -> str:
    """``when`` written as answers write times: UTC with a ``Z``, whole seconds unless it has
    fractions (a warning says "2099-01-01T00:00:00Z", as the episode's answer does).

    >>> iso_utc(datetime(2099, 1, 1, tzinfo=UTC))
    '2099-01-01T00:00:00Z'
    """
    return as_utc(when).isoformat().replace("+00:00", "Z")


_BASIC_DATE = re.compile(r"\A(\d{4})(\d{2})(\d{2})\Z")
#: A date-time as ISO 8601 writes it, its clock and offset captured: checked here so that an
#: hour 25 or an offset of +25:00 is named, where the parser says "unexpected extra characters".
_CLOCK = re.compile(r"\A\s*\d{4}-\d{2}-\d{2}[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?"
                    r"(?:[Zz]|([+-])(\d{2}):?(\d{2}))?\s*\Z")
_NUMBER = re.compile(r"\A\s*[+-]?\d+(\.\d*)?([eE][+-]?\d+)?\s*\Z")


def iso_time(value: Any) -> Any:
    """Only ISO 8601 reaches the datetime parser: a number is refused, not guessed.

    pydantic would read ``1700000000`` as Unix seconds, a larger number as
    milliseconds, and ``"20240601"`` (an ISO 8601 basic date) as a second count
    in 1970; silently wrong answers are worse than a 422. The basic date form
    is read as the date it is.
    """
    if isinstance(value, (int, float)) or (isinstance(value, str) and _NUMBER.match(value)):
        basic = _BASIC_DATE.match(value.strip()) if isinstance(value, str) else None
        if basic:
            return "-".join(basic.groups())
        raise ValueError("give an ISO 8601 date or date-time (2024-06-01, 2024-06-01T09:00:00Z), "
                         "not a number")
    if isinstance(value, str) and (clock := _CLOCK.match(value)):
        _check_clock(*clock.groups())
    return value


def _check_clock(hour: str, minute: str, second: str | None, sign: str | None,
                 offset_hours: str | None, offset_minutes: str | None) -> None:
    """Name the part of a date-time's clock or offset that no time has.

    >>> _check_clock("25", "00", "00", None, None, None)
    Traceback (most recent call last):
    ...
    ValueError: the hour 25 is outside 00-23
    """
    for name, part, top in (("hour", hour, 23), ("minute", minute, 59), ("second", second, 59)):
        if part is not None and int(part) > top:
            raise ValueError(f"the {name} {part} is outside 00-{top}")
    if sign is not None and offset_hours is not None and offset_minutes is not None:
        if int(offset_minutes) > 59:
            raise ValueError(f"the UTC offset's minutes {offset_minutes} are outside 00-59")
        if timedelta(hours=int(offset_hours), minutes=int(offset_minutes)) > MAX_UTC_OFFSET:
            raise ValueError(f"the UTC offset {sign}{offset_hours}:{offset_minutes} "
                             "is beyond +/-18 hours")


#: A datetime field under :func:`as_utc`: accepts naive, offset and date-only ISO 8601
#: input and always holds an aware UTC datetime. Every time field uses it.
UtcDateTime = Annotated[datetime, BeforeValidator(iso_time), AfterValidator(as_utc),
                        Field(description=TIME_RULE)]

#: Control characters text never needs: C0 except tab, newline and carriage return,
#: DEL, and U+FFFD (the mark of text decoded with the wrong encoding).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]")
#: Half of a UTF-16 pair on its own: JSON can carry one ("\udc80"), but it is not text and
#: nothing downstream (spaCy, SQLite, the Neo4j driver) can encode it.
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def clean_text(value: str) -> str:
    """The one rule for control characters in text fields: refuse them.

    NUL and the other C0 controls (tab, newline and carriage return aside)
    break full-text indexes, logs and exports, and U+FFFD means the text was
    already mangled; refusing them with a 422 beats storing them. A lone
    surrogate is refused too: it cannot even be encoded as UTF-8.
    """
    found = _CONTROL.search(value)
    if found:
        raise ValueError(f"contains the control character U+{ord(found.group()):04X} "
                         "(only tab, newline and carriage return are allowed)")
    half = _SURROGATE.search(value)
    if half:
        raise ValueError(f"contains U+{ord(half.group()):04X}, a lone UTF-16 surrogate "
                         "(half of a character, not text)")
    return value


#: A text field under :func:`clean_text`.
CleanText = Annotated[str, AfterValidator(clean_text)]


def not_blank(value: str) -> str:
    """Refuse text of spaces alone: a question or sentence of nothing, which a length rule
    lets through (an empty one is refused already)."""
    if value and not value.strip():
        raise ValueError("is blank: only whitespace")
    return value


#: A :data:`CleanText` that must say something: a query, a message, a sentence.
SaidText = Annotated[str, AfterValidator(clean_text), AfterValidator(not_blank)]

#: The scalars of a request body, refusing look-alikes: "yes" is no boolean and "5" no
#: number. Pydantic's lax mode takes both, so a client's bug would pass unseen (a whole
#: request made asynchronous by ``"async": "no"``); an integer still counts as a number.
Flag = Annotated[bool, Strict()]
Count = Annotated[int, Strict()]
Number = Annotated[float, Strict()]


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex}"


def _check_id(value: str, what: str) -> str:
    if not ID_PATTERN.fullmatch(value):
        raise ValueError(
            f"{what} {value!r} is not a valid id: use 1-128 letters, digits or _.@+- "
            "and start with a letter or digit"
        )
    return value


class Category(StrEnum):
    PREFERENCE = "preference"
    FACT = "fact"
    LESSON = "lesson"
    GOAL = "goal"
    CONTEXT = "context"
    EVENT = "event"
    PERSON = "person"
    TODO = "todo"
    SKILL = "skill"


class Cardinality(StrEnum):
    """``one``: one value per subject at a time (works at). ``many``: several (likes)."""

    ONE = "one"
    MANY = "many"


class FactStatus(StrEnum):
    ACTIVE = "active"
    FORGOTTEN = "forgotten"
    ARCHIVED = "archived"
    #: A retraction marker: "X stopped holding at t". Never returned by reads; it
    #: takes part in its timeline so that a retraction survives re-ordering and
    #: deletion of the facts it closes.
    RETRACTION = "retraction"


class Scope(BaseModel):
    """Who a memory belongs to: a user, a group, or a user inside a group.

    Writes go to the most specific key. Reads for a member of a group see the
    user's global memory, the group's memory and the member-in-group memory.
    """

    # forbid: a misspelt "grup_id" must be refused, not write to the user's own scope
    model_config = ConfigDict(frozen=True, extra="forbid")

    user_id: str | None = None
    group_id: str | None = None

    @field_validator("user_id", "group_id")
    @classmethod
    def _valid(cls, value: str | None, info: Any) -> str | None:
        return None if value is None else _check_id(value, info.field_name)

    @model_validator(mode="after")
    def _one_of(self) -> Scope:
        if self.user_id is None and self.group_id is None:
            raise ValueError("a scope needs a user_id, a group_id, or both")
        return self

    @property
    def key(self) -> str:
        if self.user_id and self.group_id:
            return f"member:{self.group_id}:{self.user_id}"
        if self.user_id:
            return f"user:{self.user_id}"
        return f"group:{self.group_id}"

    @property
    def visible_keys(self) -> list[str]:
        """The scope keys a read in this scope may see, most specific first."""
        keys = [self.key]
        if self.user_id and self.group_id:
            keys += [f"user:{self.user_id}", f"group:{self.group_id}"]
        return keys

    @classmethod
    def from_key(cls, key: str) -> Scope:
        kind, _, rest = key.partition(":")
        if kind == "user":
            return cls(user_id=rest)
        if kind == "group":
            return cls(group_id=rest)
        if kind == "member":
            group, _, user = rest.partition(":")
            return cls(user_id=user, group_id=group)
        raise ValueError(f"not a scope key: {key!r}")


class Message(BaseModel):
    """One turn of a conversation as the client sent it."""

    # forbid: a misspelt "timestmp" must be refused, not date the turn at its arrival
    model_config = ConfigDict(extra="forbid")

    id: CleanText | None = Field(default=None, min_length=1, max_length=256)
    role: Literal["user", "assistant", "system", "tool"] = "user"
    speaker: CleanText | None = Field(default=None, max_length=256)
    content: CleanText
    timestamp: UtcDateTime | None = None

    @field_validator("content")
    @classmethod
    def _content(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("message content is empty")
        if len(value) > MAX_MESSAGE_CHARS:
            raise ValueError(f"message content is longer than {MAX_MESSAGE_CHARS} characters")
        return value

    def searchable(self) -> str:
        """The text a turn is indexed and embedded under: who said it, and what.

        Questions name people ("what did Caroline say about ..."), so the
        speaker belongs in the index.
        """
        return f"{self.speaker}: {self.content}" if self.speaker else self.content


#: The ``client_id`` prefix of the episodes graphmem writes itself (summaries, todos,
#: profiles...: :mod:`graphmem.lifecycle.records`), which no user said.
RECORD_PREFIX = "graphmem:"


class Episode(BaseModel):
    """Raw input as received, kept for provenance and for raw-turn recall."""

    id: str = Field(default_factory=lambda: new_id("ep"))
    tenant: str
    scope_key: str
    source: Literal["messages", "text", "json"] = "messages"
    messages: list[Message] = Field(default_factory=list)
    content: str = ""
    reference_time: UtcDateTime
    recorded_at: UtcDateTime = Field(default_factory=utcnow)
    expires_at: UtcDateTime | None = None
    client_id: str | None = None
    pinned: bool = False
    session_id: str | None = None
    forgotten: bool = False
    """Cleared by its user ("Clear all memories"): kept, and restorable, but no view recalls
    its turns, as none shows the facts cleared with it."""

    @property
    def is_record(self) -> bool:
        """Written by graphmem itself (a lifecycle record), not said by anyone."""
        return bool(self.client_id and self.client_id.startswith(RECORD_PREFIX))


#: How many turns before and after a turn its full-text entry also holds.
TURN_CONTEXT_BEFORE = 2
TURN_CONTEXT_AFTER = 1
#: How much a word of the context counts in full-text ranking, against the turn's own words.
TURN_CONTEXT_WEIGHT = 0.5


def episode_turns(episode: Episode) -> list[str]:
    """The searchable texts of an episode's turns (one per message, or the whole text)."""
    return [m.searchable() for m in episode.messages] or ([episode.content] if episode.content else [])


def turn_context_texts(episode: Episode, before: int = TURN_CONTEXT_BEFORE,
                       after: int = TURN_CONTEXT_AFTER) -> list[str]:
    """The neighbouring turns each turn is also found by, joined: its full-text context.

    A turn alone often does not name what it is about ("Yes! I painted it last
    year" answers "Did you paint that sunrise?"), so each turn is indexed with
    the turns around it in the same episode, in a field of its own that counts
    for less than the turn's own words. The turn is still returned alone; only
    what finds it is wider. On the LoCoMo conversations this lifts full-text
    recall over turns by about 17 points of frac@10 (bench/locomo_recall.py).
    """
    own = episode_turns(episode)
    return [" | ".join(own[max(0, i - before): i] + own[i + 1: i + 1 + after])
            for i in range(len(own))]


class Resolved(BaseModel):
    """Why a mention was taken to be an existing entity (see graphmem.ingest.people).

    ``reason``: the same normalised ``name``, an ``alias``, the ``speaker`` who
    spoke of this entity before, the same ``relation`` to someone, a short or full
    form of a first name (``nickname``, see graphmem.ingest.short_forms), or a near
    spelling (``fuzzy``) or meaning (``embedding``) of the name.
    """

    at: UtcDateTime = Field(default_factory=utcnow)
    name: str
    reason: Literal["name", "alias", "speaker", "relation", "nickname", "fuzzy", "embedding"]
    speaker: str | None = None
    detail: str = ""


class Entity(BaseModel):
    id: str = Field(default_factory=lambda: new_id("ent"))
    tenant: str
    scope_key: str
    name: str
    type: str = "concept"
    aliases: list[str] = Field(default_factory=list)
    summary: str = ""
    embedding: list[float] | None = None
    created_at: UtcDateTime = Field(default_factory=utcnow)
    resolutions: list[Resolved] = Field(
        default_factory=list, description="why mentions joined this entity, one per kind")

    def public(self) -> Entity:
        """The entity without its name embedding (see :meth:`Fact.public`)."""
        return self.model_copy(update={"embedding": None})


class Retraction(BaseModel):
    """A statement that a fact stopped holding, with no replacement ("I quit Acme")."""

    at: UtcDateTime
    episode_id: str | None = None
    message_ids: list[str] = Field(default_factory=list)


class Evidence(BaseModel):
    """One statement of a fact: when it said the fact held, and where it was said."""

    at: UtcDateTime
    episode_id: str | None = None
    message_ids: list[str] = Field(default_factory=list)


class Fact(BaseModel):
    """A subject-predicate-object statement with its validity interval.

    ``valid_until`` is derived from the fact's timeline (see
    :mod:`graphmem.temporal`): the start of the next value of a functional
    predicate, a retraction, or an end the source stated (``stated_until``).
    """

    id: str = Field(default_factory=lambda: new_id("fact"))
    tenant: str
    scope_key: str
    subject_id: str
    subject_name: str
    predicate: str
    object_id: str
    object_name: str
    text: str
    category: Category = Category.FACT
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    cardinality: Cardinality = Cardinality.MANY
    timeline_key: str = ""
    valid_from: UtcDateTime
    valid_until: UtcDateTime | None = None
    stated_until: UtcDateTime | None = None
    recorded_at: UtcDateTime = Field(default_factory=utcnow)
    expired_at: UtcDateTime | None = None
    retraction: Retraction | None = None
    supersedes: list[str] = Field(default_factory=list)
    superseded_by: str | None = None
    episode_ids: list[str] = Field(default_factory=list)
    message_ids: list[str] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    access_count: int = 0
    last_accessed: UtcDateTime | None = None
    status: FactStatus = FactStatus.ACTIVE
    embedding: list[float] | None = None

    def valid_at(self, when: datetime) -> bool:
        return self.valid_from <= when and (self.valid_until is None or when < self.valid_until)

    def ended_by(self, when: datetime) -> bool:
        """Whether the fact had ended by ``when``: superseded, retracted or stated to end."""
        return self.valid_until is not None and self.valid_until <= when

    def public(self) -> Fact:
        """The fact as callers see it: without its embedding, which is large and of no use
        outside the store."""
        return self.model_copy(update={"embedding": None})
