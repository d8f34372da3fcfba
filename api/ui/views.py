"""What each page shows, gathered from the library (blocking; the routes run it in a thread).

The page reads and writes only through :class:`~graphmem.memory.Memory` and
:mod:`graphmem.manage`, the same operations the REST API uses, so the page can
never see or do more than an API client of the same tenant.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime

from pydantic import BaseModel, Field

from api.ui import svg
from api.ui.cards import FILTERS, MORE_FILTERS, Card, card, end_of_day
from graphmem import manage
from graphmem.errors import NotFoundError
from graphmem.memory import Memory
from graphmem.models import Category, Entity, Episode, Fact, FactStatus, Scope
from graphmem.search.models import SearchRequest
from graphmem.store.base import FactQuery
from graphmem.temporal import TimeFilter

PAGE = 20
#: Timeline rows an entity view draws unless asked for all of them.
TIMELINE_ROWS = 14
#: The most search results a page can reach by "load more" (the engine's own limit).
MAX_SEARCH = 200
#: The most memories the tabs count (a store's listing limit).
COUNTED = 10_000


class Filters(BaseModel):
    """The state of the memory page, all of it in its URL."""

    scope: Scope
    q: str = Field(default="", max_length=500)
    category: Category | None = None
    history: bool = False
    as_of: date | None = None
    offset: int = Field(default=0, ge=0, le=1_000_000)

    def as_of_time(self) -> datetime | None:
        return end_of_day(self.as_of) if self.as_of else None


class Tab(BaseModel):
    label: str
    category: Category | None
    count: int | None


class MemoriesPage(BaseModel):
    filters: Filters
    cards: list[Card]
    more: bool
    tabs: list[Tab]
    scopes: list[Scope]
    current: int


def _successors(memory: Memory, tenant: str, facts: list[Fact]) -> dict[str, Fact]:
    found: dict[str, Fact] = {}
    for fact in facts:
        if fact.superseded_by and fact.superseded_by not in found:
            try:
                found[fact.superseded_by] = manage.get_fact(memory, tenant, fact.superseded_by)
            except NotFoundError:  # erased since: the card says it was replaced, not by what
                continue
    return found


def cards_of(memory: Memory, tenant: str, facts: list[Fact]) -> list[Card]:
    now = memory.clock()
    successors = _successors(memory, tenant, facts)
    return [card(f, now, successors.get(f.superseded_by or "")) for f in facts]


def _searched(memory: Memory, tenant: str, filters: Filters) -> tuple[list[Fact], bool]:
    """Ranked search results from ``offset`` on, as stored facts (any status)."""
    wanted = min(filters.offset + PAGE, MAX_SEARCH)
    response = memory.search(tenant, SearchRequest(
        scope=filters.scope, query=filters.q, as_of=filters.as_of_time(),
        include_history=filters.history, include_turns=False,
        categories=[filters.category] if filters.category else None,
        limit=min(wanted + 1, MAX_SEARCH)))
    hits = [h for h in response.results if h.kind == "fact"]
    facts = []
    for hit in hits[filters.offset:wanted]:
        try:
            facts.append(manage.get_fact(memory, tenant, hit.id, filters.scope))
        except NotFoundError:  # erased between the search and now
            continue
    return facts, len(hits) > wanted


def _listed(memory: Memory, tenant: str, filters: Filters) -> tuple[list[Fact], bool]:
    """Memories newest first, forgotten ones included (the page greys them out)."""
    facts = memory.list_facts(tenant, FactQuery(
        scope_keys=filters.scope.visible_keys,
        categories=[filters.category] if filters.category else None,
        statuses=[FactStatus.ACTIVE, FactStatus.FORGOTTEN],
        time=TimeFilter(as_of=filters.as_of_time(), include_history=filters.history,
                        include_forgotten=True),
        limit=PAGE + 1, offset=filters.offset))
    return facts[:PAGE], len(facts) > PAGE


def memory_cards(memory: Memory, tenant: str, filters: Filters) -> tuple[list[Card], bool]:
    """One page of cards and whether there is a next one."""
    facts, more = (_searched if filters.q.strip() else _listed)(memory, tenant, filters)
    return cards_of(memory, tenant, facts), more


def _in_view(memory: Memory, tenant: str, filters: Filters) -> list[Fact]:
    """Every memory the page's time view lists, of any category (up to :data:`COUNTED`)."""
    return memory.list_facts(tenant, FactQuery(
        scope_keys=filters.scope.visible_keys, statuses=[FactStatus.ACTIVE, FactStatus.FORGOTTEN],
        time=TimeFilter(as_of=filters.as_of_time(), include_history=filters.history,
                        include_forgotten=True),
        limit=COUNTED))


def memories_page(memory: Memory, tenant: str, filters: Filters) -> MemoriesPage:
    """The page, its tabs counting what each tab lists in the same time view (a replaced
    memory counts only with history shown), and the memories current at the view's time."""
    cards, more = memory_cards(memory, tenant, filters)
    listed = _in_view(memory, tenant, filters)
    by_category = Counter(f.category for f in listed)
    held = TimeFilter(as_of=filters.as_of_time())
    now = memory.clock()
    tabs = [Tab(label=label, category=category,
                count=by_category.get(category, 0) if category else None)
            for label, category in FILTERS]
    tabs += [Tab(label=label, category=category, count=by_category.get(category, 0))
             for label, category in MORE_FILTERS
             if by_category.get(category) or filters.category is category]
    return MemoriesPage(filters=filters, cards=cards, more=more, tabs=tabs,
                        scopes=manage.scopes(memory, tenant),
                        current=sum(1 for f in listed if held.matches(f, now)))


def default_scope(memory: Memory, tenant: str) -> Scope | None:
    found = manage.scopes(memory, tenant)
    return found[0] if found else None


class EntityPage(BaseModel):
    entity: Entity
    scope: Scope
    as_of: date | None
    all_rows: bool
    cards: list[Card]
    timeline: svg.Timeline
    graph: svg.Graph


def entity_page(memory: Memory, tenant: str, entity_id: str, scope: Scope,
                as_of: date | None, all_rows: bool = False) -> EntityPage:
    entity = manage.get_entity(memory, tenant, entity_id, scope)
    facts = manage.entity_timeline(memory, tenant, entity_id, scope)
    at = end_of_day(as_of) if as_of else None
    found = manage.neighbors(memory, tenant, entity_id, scope=scope, as_of=at)
    shown = [f for f in facts if f.valid_from <= at] if at else facts
    return EntityPage(entity=entity, scope=scope, as_of=as_of, all_rows=all_rows,
                      cards=cards_of(memory, tenant, list(reversed(shown))),
                      timeline=svg.timeline(shown, at or memory.clock(),
                                            max_rows=None if all_rows else TIMELINE_ROWS),
                      graph=svg.neighbourhood(found))


class EpisodePage(BaseModel):
    episode: Episode
    scope: Scope
    highlight: list[str]
    facts: list[Card]


def episode_page(memory: Memory, tenant: str, episode_id: str, scope: Scope,
                 highlight: list[str]) -> EpisodePage:
    episode = manage.get_episode(memory, tenant, episode_id, scope)
    facts = manage.episode_facts(memory, tenant, episode_id)
    return EpisodePage(episode=episode, scope=scope, highlight=highlight,
                       facts=cards_of(memory, tenant, facts))
