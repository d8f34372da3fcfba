"""How one memory looks on the page: label, icon, relative time, interval, language.

Pure functions of a fact and the time now, so what a card says is tested
without a browser (``tests/api/ui/test_cards.py``).

>>> relative_time(datetime(2025, 1, 1, tzinfo=UTC), datetime(2025, 1, 4, tzinfo=UTC))
'3 days ago'
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time

from pydantic import BaseModel

from graphmem.models import Category, Fact, FactStatus, Scope

#: category -> (label, icon id in the page's SVG sprite)
CATEGORIES: dict[Category, tuple[str, str]] = {
    Category.PREFERENCE: ("Preference", "heart"),
    Category.FACT: ("Fact", "info"),
    Category.LESSON: ("Lesson", "bulb"),
    Category.GOAL: ("Goal", "flag"),
    Category.CONTEXT: ("Context", "pin"),
    Category.EVENT: ("Event", "calendar"),
    Category.PERSON: ("Person", "user"),
    Category.TODO: ("To-do", "check"),
    Category.SKILL: ("Skill", "star"),
}
#: The filter tabs: label and the category they keep (None: all).
FILTERS: list[tuple[str, Category | None]] = [
    ("All", None), ("Preferences", Category.PREFERENCE), ("Facts", Category.FACT),
    ("Lessons", Category.LESSON), ("Goals", Category.GOAL)]
#: Tabs shown only while their category has memories in the view (or is the one chosen).
MORE_FILTERS: list[tuple[str, Category]] = [
    ("People", Category.PERSON), ("Events", Category.EVENT), ("Context", Category.CONTEXT),
    ("To-dos", Category.TODO), ("Skills", Category.SKILL)]

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_UNITS = [(365 * 86400, "year"), (30 * 86400, "month"), (7 * 86400, "week"), (86400, "day"),
          (3600, "hour"), (60, "minute")]


class Card(BaseModel):
    """Everything a memory card shows, already formatted."""

    fact: Fact
    label: str
    icon: str
    ago: str
    importance_pct: int
    interval: str
    ended: bool
    forgotten: bool
    lang: str | None
    replaced_by: Fact | None = None
    scope_label: str


def relative_time(then: datetime, now: datetime) -> str:
    """'just now', '5 minutes ago', 'yesterday', '3 days ago', 'in 2 weeks'..."""
    seconds = (now - then).total_seconds()
    future, seconds = seconds < 0, abs(seconds)
    if seconds < 60:
        return "just now"
    if 86400 <= seconds < 2 * 86400:
        return "tomorrow" if future else "yesterday"
    for size, unit in _UNITS:
        if seconds >= size:
            count = int(seconds // size)
            text = f"{count} {unit}{'' if count == 1 else 's'}"
            return f"in {text}" if future else f"{text} ago"
    return "just now"  # pragma: no cover - every span of a minute or more has a unit


def language(text: str) -> str | None:
    """``zh`` for text in Chinese (or other CJK) script, so the browser picks a CJK font."""
    return "zh" if _CJK.search(text) else None


def interval(fact: Fact) -> str:
    start = fact.valid_from.date().isoformat()
    if fact.valid_until is None:
        return f"since {start}"
    return f"{start} \u2192 {fact.valid_until.date().isoformat()}"


def scope_label(scope: Scope) -> str:
    if scope.user_id and scope.group_id:
        return f"{scope.user_id} in {scope.group_id}"
    return scope.user_id or f"group {scope.group_id}"


def card(fact: Fact, now: datetime, replaced_by: Fact | None = None) -> Card:
    label, icon = CATEGORIES[fact.category]
    ended = fact.ended_by(now)
    return Card(fact=fact, label=label, icon=icon, ago=relative_time(fact.recorded_at, now),
                importance_pct=round(fact.importance * 100), interval=interval(fact),
                ended=ended, forgotten=fact.status is FactStatus.FORGOTTEN,
                lang=language(fact.text), replaced_by=replaced_by,
                scope_label=scope_label(Scope.from_key(fact.scope_key)))


def end_of_day(day: date) -> datetime:
    """An "as of" date means the whole of that day (UTC)."""
    return datetime.combine(day, time.max, tzinfo=UTC)
