"""Context assembly: what an assistant puts into its system prompt before replying.

The profile narrative (always carried, if there is one), the latest session
summaries, then the relevant memories grouped by category, most relevant
first, until the token budget is spent. Token counts come from
:class:`~graphmem.embed.tokens.TokenCounter`, which works offline.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from pydantic import BaseModel, Field

from graphmem.extract.base import SELF
from graphmem.models import Category, CleanText, Count, Flag, SaidText, Scope, UtcDateTime
from graphmem.names import normalize_name
from graphmem.search.engine import SearchEngine
from graphmem.search.models import SearchHit, SearchRequest
from graphmem.speakers import known_speaker

#: Section order in the prompt; raw turns go last under "Conversation excerpts".
CATEGORY_TITLES: dict[Category | None, str] = {
    Category.PREFERENCE: "Preferences",
    Category.PERSON: "People",
    Category.FACT: "Facts",
    Category.SKILL: "Skills",
    Category.LESSON: "Lessons learned",
    Category.GOAL: "Goals",
    Category.TODO: "Todos",
    Category.EVENT: "Events",
    Category.CONTEXT: "Context",
    None: "Conversation excerpts",
}


class ContextRequest(BaseModel):
    """One chat turn's context, optionally as it would have been built at another time.

    ``as_of``, ``as_known_at`` and ``include_history`` are the time view of
    :class:`~graphmem.temporal.TimeFilter`: with them, nothing first stated
    after that instant (no fact, excerpt, summary or profile) enters the prompt.
    """

    scope: Scope
    message: SaidText = Field(min_length=1, max_length=4000)
    recent_messages: list[CleanText] = Field(default_factory=list, max_length=20)
    token_budget: Count = Field(default=2000, ge=50, le=100_000)
    include_turns: Flag = True
    as_of: UtcDateTime | None = Field(
        default=None, description="build the context as of this world time")
    as_known_at: UtcDateTime | None = Field(
        default=None, description="use only what graphmem had recorded by this time")
    include_history: Flag = Field(
        default=False, description="also superseded and retracted memories")

    @property
    def cutoff(self) -> datetime | None:
        """The earliest instant of the time view: nothing stated after it may appear."""
        given = [t for t in (self.as_of, self.as_known_at) if t is not None]
        return min(given) if given else None


class ContextSection(BaseModel):
    title: str
    items: list[SearchHit]


class Context(BaseModel):
    profile: str | None = None
    summaries: list[str] = Field(default_factory=list)
    sections: list[ContextSection] = Field(default_factory=list)
    prompt: str = ""
    tokens: int = 0
    token_budget: int = 0

    @property
    def items(self) -> list[SearchHit]:
        return [hit for section in self.sections for hit in section.items]


def _line(hit: SearchHit) -> str:
    when = hit.valid_from.date().isoformat() if hit.valid_from else None
    if hit.kind == "turn":
        who = f"{hit.speaker}: " if hit.speaker else ""
        if hit.role == "assistant":  # the assistant's own words, not the user's testimony
            who = f"{hit.speaker} (assistant): " if hit.speaker else "Assistant: "
        return f"- [{when}] {who}{hit.text}" if when else f"- {who}{hit.text}"
    suffix = f" (since {when})" if when else ""
    if hit.superseded and hit.valid_until:
        suffix = f" (from {when} until {hit.valid_until.date().isoformat()}, no longer true)"
    return f"- {hit.text}{suffix}"


def _stated_by(hit: SearchHit, request: ContextRequest) -> bool:
    """Whether a hit belongs in a context under the request's time view.

    A turn must have been said by the view's cutoff (a turn said after
    ``as_known_at`` cannot have been recorded by then); a fact must have begun
    by ``as_of`` (the search already applied the rest of the view). Undated hits pass.
    """
    limit = request.cutoff if hit.kind == "turn" else request.as_of
    return limit is None or hit.valid_from is None or hit.valid_from <= limit


def _user_names(engine: SearchEngine, tenant: str, scope: Scope) -> frozenset[str]:
    """The names the user of a user scope goes by in its facts (none for a group scope)."""
    if scope.user_id is None:
        return frozenset()
    names = {normalize_name(n) for n in (scope.user_id, known_speaker(engine.store, tenant, scope),
                                         SELF) if n}
    for person in engine.store.find_entities(tenant, [scope.key], sorted(names)):
        names |= {normalize_name(n) for n in (person.name, *person.aliases)}  # "Maya Lopez"
    return frozenset(names)


def _section(hit: SearchHit, user: frozenset[str]) -> Category | None:
    """Where a hit goes: its category's section, except a fact about someone other than the
    user, which goes under People ("Greg does golf as their sport" is the husband's, and was
    listed under the user's Preferences; seen by a new user)."""
    if user and hit.kind == "fact" and hit.subject and normalize_name(hit.subject) not in user:
        return Category.PERSON
    return hit.category


def assemble_context(engine: SearchEngine, count_tokens: Callable[[str], int], tenant: str,
                     request: ContextRequest, *, profile: str | None = None,
                     summaries: list[str] | None = None) -> Context:
    """Fill the budget: profile first, then summaries, then memories by relevance.

    With nothing to say (a new user, or a time view before anything was said) the prompt
    is empty, so a client can add it to the system prompt without a heading over nothing.
    """
    header = "## What you remember about this user\n"
    used = count_tokens(header)
    ctx = Context(token_budget=request.token_budget)
    parts: list[str] = [header]
    for label, text in [("Profile", profile), *[("Recent session", s) for s in summaries or []]]:
        if not text:
            continue
        block = f"### {label}\n{text}\n"
        cost = count_tokens(block)
        if used + cost > request.token_budget:
            break
        used += cost
        parts.append(block)
        if label == "Profile":
            ctx.profile = text
        else:
            ctx.summaries.append(text)

    hits = engine.search(tenant, SearchRequest(
        scope=request.scope, query=request.message, recent_messages=request.recent_messages,
        limit=50, include_turns=request.include_turns, as_of=request.as_of,
        as_known_at=request.as_known_at, include_history=request.include_history)).results
    chosen: dict[Category | None, list[SearchHit]] = {}
    shown = {text.strip() for text in [profile, *(summaries or [])] if text}
    user = _user_names(engine, tenant, request.scope)
    for hit in hits:
        if not _stated_by(hit, request) or hit.text.strip() in shown:
            continue  # the profile is a stored fact too: said once, in its own layer
        section = _section(hit, user)
        cost = count_tokens(_line(hit) + "\n")
        title_cost = 0 if section in chosen else count_tokens(
            f"### {CATEGORY_TITLES[section]}\n")
        if used + cost + title_cost > request.token_budget:
            continue
        used += cost + title_cost
        chosen.setdefault(section, []).append(hit)
    for category, title in CATEGORY_TITLES.items():
        if category in chosen:
            ctx.sections.append(ContextSection(title=title, items=chosen[category]))
            parts.append(f"### {title}\n" + "\n".join(_line(h) for h in chosen[category]) + "\n")
    if len(parts) == 1:  # nothing remembered: no heading over nothing in the prompt
        return ctx
    ctx.prompt = "\n".join(parts).strip() + "\n"
    ctx.tokens = used
    return ctx
