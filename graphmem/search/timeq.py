"""Time expressions inside a query narrow the search window ("in 2022", "last summer").

LongMemEval reports better recall from time-aware query expansion; here a
recognised expression becomes a ``[start, end)`` window, and only facts whose
validity overlaps it (history included) are returned.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

Window = tuple[datetime | None, datetime | None]

_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], start=1)}
_SEASONS = {"spring": (3, 6), "summer": (6, 9), "autumn": (9, 12), "fall": (9, 12),
            "winter": (12, 15)}
_YEAR = r"(19\d\d|20\d\d)"
_MONTH = r"(" + "|".join(_MONTHS) + r")"


#: Words that ask about what is still ahead.
_AHEAD = r"\b(?:will|going|gonna|plan|plans|planning|next|upcoming)\b"
#: Words that ask about what was: they win over :data:`_AHEAD` ("what was going on").
_BEHIND = r"\b(?:did|was|were|had|used)\b"


def _year(y: int) -> Window:
    return datetime(y, 1, 1, tzinfo=UTC), datetime(y + 1, 1, 1, tzinfo=UTC)


def _month(y: int, m: int) -> Window:
    start = datetime(y, m, 1, tzinfo=UTC)
    end = datetime(y + (m == 12), m % 12 + 1, 1, tzinfo=UTC)
    return start, end


def _season(y: int, name: str) -> Window:
    first, last = _SEASONS[name]
    start = datetime(y, first, 1, tzinfo=UTC)
    end = datetime(y + (last > 12), (last - 1) % 12 + 1, 1, tzinfo=UTC)
    return start, end


def query_window(query: str, now: datetime) -> Window | None:
    """The window a query's time expression names, or None when it names none.

    None too when the window would leave the calendar ("last year" asked as of
    year 1, "this winter" in 9999): no store holds such instants anyway.
    """
    try:
        return _window(query.lower(), now)
    except (ValueError, OverflowError):
        return None


#: The time expressions :func:`query_window` reads, to take out of a question.
_TIME_WORDS = re.compile(
    rf"\s*\b(?:before|until|prior to|after|since|in|during|of|last|next|this)\s+"
    rf"(?:(?:{_MONTH}|spring|summer|autumn|fall|winter)(?:\s+(?:of\s+)?{_YEAR})?|{_YEAR})\b"
    rf"|\s*\b{_MONTH}\s+(?:of\s+)?{_YEAR}\b"
    r"|\s*\b(?:last|this)\s+(?:year|month|week)\b|\s*\byesterday\b", re.IGNORECASE)


def without_time_words(query: str) -> str:
    """``query`` without the time expressions that name its window: what it asks, apart
    from when.

    >>> without_time_words("Where did Dave work in March 2025?")
    'Where did Dave work?'
    >>> without_time_words("where did she live last summer")
    'where did she live'
    """
    return _TIME_WORDS.sub("", query).strip()


def _window(q: str, now: datetime) -> Window | None:
    if m := re.search(rf"\b(?:before|until|prior to)\s+{_YEAR}\b", q):
        return None, _year(int(m.group(1)))[0]
    if m := re.search(rf"\b(?:after|since)\s+{_YEAR}\b", q):
        return _year(int(m.group(1)))[1] if "after" in m.group(0) else _year(int(m.group(1)))[0], None
    if m := re.search(rf"\b{_MONTH}\s+(?:of\s+)?{_YEAR}\b", q):
        return _month(int(m.group(2)), _MONTHS[m.group(1)])
    if m := re.search(rf"\b(?:in|during|of)\s+{_YEAR}\b", q):
        return _year(int(m.group(1)))
    if m := re.search(rf"\b(?:in|during|last|next|this)\s+{_MONTH}\b", q):
        # "where did Maya live in January?": the last January; "in May" asked of what will
        # be, the next one
        month = _MONTHS[m.group(1)]
        ahead = m.group(0).startswith("next") or (
            re.search(_AHEAD, q) is not None and re.search(_BEHIND, q) is None)
        if ahead:
            year = now.year + (month < now.month or m.group(0).startswith("next")
                               and month == now.month)
        else:
            year = now.year - (month > now.month or m.group(0).startswith("last")
                               and month == now.month)
        return _month(year, month)
    if m := re.search(r"\b(last|this)\s+(spring|summer|autumn|fall|winter)\b", q):
        year = now.year - 1 if m.group(1) == "last" else now.year
        return _season(year, m.group(2))
    if re.search(r"\blast\s+year\b", q):
        return _year(now.year - 1)
    if re.search(r"\bthis\s+year\b", q):
        return _year(now.year)
    if re.search(r"\blast\s+month\b", q):
        first = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        prev = first - timedelta(days=1)
        return _month(prev.year, prev.month)
    if re.search(r"\blast\s+week\b", q):
        start = (now - timedelta(days=now.weekday() + 7)).replace(hour=0, minute=0, second=0,
                                                                  microsecond=0)
        return start, start + timedelta(days=7)
    if re.search(r"\byesterday\b", q):
        start = (now - timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
        return start, start + timedelta(days=1)
    return None


def overlaps(valid_from: datetime, valid_until: datetime | None, window: Window) -> bool:
    start, end = window
    return (end is None or valid_from < end) and (start is None or valid_until is None
                                                  or valid_until > start)
