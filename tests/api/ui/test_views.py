"""What the memory page counts: each tab what it lists in the page's time view, and the
memories current at the view's time. Real stores, the seeded conversation."""

from __future__ import annotations

from datetime import date

from api.ui import views
from api.ui.views import Filters
from graphmem.memory import Memory
from graphmem.models import Category
from graphmem.store.base import FactQuery
from graphmem.temporal import TimeFilter
from tests.api.ui.conftest import ALICE


def _counts(memory: Memory, tenant: str, **view: object) -> tuple[dict[str, int | None], int]:
    page = views.memories_page(memory, tenant, Filters(scope=ALICE, **view))  # type: ignore[arg-type]
    return {t.label: t.count for t in page.tabs}, page.current


def _listed(memory: Memory, tenant: str, category: Category, **view: object) -> int:
    facts = memory.list_facts(tenant, FactQuery(
        scope_keys=[ALICE.key], categories=[category], limit=1000,
        time=TimeFilter(include_forgotten=True, **view)))  # type: ignore[arg-type]
    return len(facts)


def test_a_tab_counts_what_it_lists_in_the_page_s_view(seeded: Memory, tenant: str) -> None:
    now, current = _counts(seeded, tenant)
    # Acme was replaced by Globex: listed (and counted) only with history shown
    assert now["Facts"] == _listed(seeded, tenant, Category.FACT)
    assert now["Preferences"] == _listed(seeded, tenant, Category.PREFERENCE)
    history, _ = _counts(seeded, tenant, history=True)
    assert history["Facts"] == _listed(seeded, tenant, Category.FACT, include_history=True)
    assert history["Facts"] > now["Facts"]  # Acme, and the job title it ended
    # as of a day in 2024, before Globex and the hobbies' list grew: fewer memories held
    then, current_then = _counts(seeded, tenant, as_of=date(2024, 2, 10))
    assert then["Facts"] == _listed(seeded, tenant, Category.FACT,
                                    as_of=views.end_of_day(date(2024, 2, 10)))
    assert current_then < current


def test_a_category_outside_the_fixed_tabs_gets_one_while_it_has_memories(
        seeded: Memory, tenant: str) -> None:
    tabs, _ = _counts(seeded, tenant)
    assert "People" not in tabs  # Alice named no one
    chosen, _ = _counts(seeded, tenant, category=Category.PERSON)
    assert chosen["People"] == 0  # the tab a link asked for stays, empty
