"""Paged reads of everything in some scopes: what lifecycle jobs, exports and erasures walk.

A store lists at most a page per query; these loop until a short page, so a
caller sees every fact or episode however many there are.
"""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.models import Category, Episode, Fact, FactStatus
from graphmem.store.base import FactQuery, GraphStore
from graphmem.temporal import TimeFilter

#: A time filter that sees every fact that is not archived, whenever it holds.
EVERYTHING = TimeFilter(as_of=datetime(9999, 12, 31, tzinfo=UTC), include_history=True,
                        include_forgotten=True)
_PAGE = 10_000


def all_facts(store: GraphStore, tenant: str, scope_keys: list[str], *,
              time: TimeFilter = EVERYTHING, categories: list[Category] | None = None,
              entity_id: str | None = None,
              statuses: list[FactStatus] | None = None) -> list[Fact]:
    """Every fact the filter lets through, newest first, with vectors."""
    out: list[Fact] = []
    while True:
        page = store.list_facts(tenant, FactQuery(
            scope_keys=scope_keys, time=time, categories=categories, entity_id=entity_id,
            statuses=statuses, limit=_PAGE, offset=len(out)))
        out += page
        if len(page) < _PAGE:
            return out


def all_episodes(store: GraphStore, tenant: str, scope_keys: list[str]) -> list[Episode]:
    """Every episode of the scopes, newest first."""
    out: dict[str, Episode] = {}
    before: datetime | None = None
    while True:
        page = store.list_episodes(tenant, scope_keys, limit=_PAGE, before=before)
        out.update((e.id, e) for e in page)
        if len(page) < _PAGE:
            return list(out.values())
        before = page[-1].reference_time
