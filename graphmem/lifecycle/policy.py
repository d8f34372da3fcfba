"""The knobs of the memory lifecycle, as one configuration object passed down.

Nothing here is read from the environment: the CLI or the API builds a
:class:`LifecyclePolicy` (its defaults are the lifetimes and rates below) and hands it to
:func:`graphmem.lifecycle.maintenance.maintain` and the functions it calls.

Lifetimes
---------
Every category has a lifetime class:

* **core** (permanent, never decays): ``person``, ``preference``, ``fact``,
  ``lesson``, ``skill``. These describe who the user is and what was learned
  the hard way; forgetting them because nobody asked for a while would be a bug.
* **working** (about 30 days): ``goal``, ``context``, ``event``.
* **temporary** (about 7 days): ``todo`` (pending todos are exempt until closed).

The relevance formula is ``exp(-rate * days) * (1 + ln(1 + accesses))
* importance``, with ``rate = base_rate * reference_days / lifetime_days``: a
working memory decays at exactly ``0.01`` per day and a temporary one
``30 / 7`` times faster.
"""

from __future__ import annotations

from datetime import timedelta

from pydantic import BaseModel, ConfigDict, Field

from graphmem.models import Category

#: The longest purge delay: a century. Beyond it the cutoff date would leave the calendar.
MAX_PURGE_DAYS = 36_500



def _default_lifetimes() -> dict[Category, int | None]:
    return {
        Category.PERSON: None, Category.PREFERENCE: None, Category.FACT: None,
        Category.LESSON: None, Category.SKILL: None,
        Category.GOAL: 30, Category.CONTEXT: 30, Category.EVENT: 30,
        Category.TODO: 7,
    }


class DecayPolicy(BaseModel):
    """Relevance decay, forgetting and optional hard deletion."""

    model_config = ConfigDict(frozen=True)

    base_rate: float = Field(default=0.01, gt=0)
    reference_days: float = Field(default=30.0, gt=0)
    #: Lifetime in days per category; ``None`` means core (permanent).
    lifetimes: dict[Category, int | None] = Field(default_factory=_default_lifetimes)
    forget_below: float = Field(default=0.1, ge=0)
    demote_below: float = Field(default=0.3, ge=0)
    #: Demotion lowers importance so that relevance drops to this level inside
    #: [forget_below, demote_below); a memory already at or under it keeps its importance.
    demote_to: float = Field(default=0.15, ge=0)
    #: Hard-delete memories forgotten by decay for longer than this; ``None``: never.
    purge_after_days: int | None = Field(default=None, ge=0, le=MAX_PURGE_DAYS)
    #: Importance a restored memory gets at least, so the next run does not forget it again.
    restore_importance: float = Field(default=0.5, ge=0, le=1)

    def rate(self, category: Category) -> float | None:
        """Decay per day for a category, or None for core memories."""
        days = self.lifetimes.get(category)
        if days is None:
            return None
        return self.base_rate * self.reference_days / days


class ConsolidationPolicy(BaseModel):
    model_config = ConfigDict(frozen=True)

    #: Same subject and predicate, cosine of the fact embeddings at least this: one memory.
    duplicate_similarity: float = Field(default=0.95, ge=0, le=1)
    #: Compression: groups of old, rarely used memories of one subject and category.
    compress: bool = True
    compress_after_days: int = Field(default=180, ge=1)
    compress_max_accesses: int = Field(default=1, ge=0)
    compress_min_group: int = Field(default=3, ge=2)
    compress_categories: tuple[Category, ...] = (Category.EVENT, Category.CONTEXT)
    #: Relations: cosine at least this (and below a duplicate) makes two facts related.
    related_similarity: float = Field(default=0.85, ge=0, le=1)


class SummaryPolicy(BaseModel):
    model_config = ConfigDict(frozen=True)

    #: A session has substance with more than this many messages (and is not small talk).
    min_messages: int = Field(default=2, ge=0)
    #: Content words (not greetings, not stop words) a session without facts needs.
    min_content_words: int = Field(default=6, ge=0)
    #: A session is over when its last episode is this old.
    idle_after: timedelta = timedelta(minutes=30)
    #: Summaries carried in the context.
    in_context: int = Field(default=3, ge=0)
    max_topics: int = Field(default=5, ge=1)
    max_key_facts: int = Field(default=5, ge=1)
    max_unresolved: int = Field(default=5, ge=1)


class ProfilePolicy(BaseModel):
    model_config = ConfigDict(frozen=True)

    after_summaries: int = Field(default=5, ge=1)
    after: timedelta = timedelta(days=7)
    max_sentences_per_paragraph: int = Field(default=8, ge=1)


class TodoPolicy(BaseModel):
    model_config = ConfigDict(frozen=True)

    #: A pending todo overdue for longer than this is closed as expired.
    expire_after: timedelta = timedelta(days=30)
    #: Default reminder: this long before the due time.
    remind_before: timedelta = timedelta(0)


class LifecyclePolicy(BaseModel):
    """Everything :func:`~graphmem.lifecycle.maintenance.maintain` needs to know."""

    model_config = ConfigDict(frozen=True)

    decay: DecayPolicy = Field(default_factory=DecayPolicy)
    consolidation: ConsolidationPolicy = Field(default_factory=ConsolidationPolicy)
    summaries: SummaryPolicy = Field(default_factory=SummaryPolicy)
    profile: ProfilePolicy = Field(default_factory=ProfilePolicy)
    todos: TodoPolicy = Field(default_factory=TodoPolicy)
