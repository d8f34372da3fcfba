"""Time expressions in a query become windows; at the calendar's edges they become none."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.search.timeq import query_window

NOW = datetime(2024, 6, 12, 10, tzinfo=UTC)


def test_a_year_and_last_summer_are_windows() -> None:
    assert query_window("what happened in 2022?", NOW) == (datetime(2022, 1, 1, tzinfo=UTC),
                                                           datetime(2023, 1, 1, tzinfo=UTC))
    assert query_window("where did I go last summer", NOW) == (
        datetime(2023, 6, 1, tzinfo=UTC), datetime(2023, 9, 1, tzinfo=UTC))
    assert query_window("where do I work", NOW) is None


@pytest.mark.parametrize(("query", "now"), [
    ("what did I do last year?", datetime(1, 3, 1, tzinfo=UTC)),
    ("what did I do last month?", datetime(1, 1, 5, tzinfo=UTC)),
    ("and last week?", datetime(1, 1, 2, tzinfo=UTC)),
    ("what about yesterday", datetime(1, 1, 1, tzinfo=UTC)),
    ("plans for this winter", datetime(9999, 12, 31, 23, tzinfo=UTC)),
    ("and this year", datetime(9999, 12, 31, 23, tzinfo=UTC)),
])
def test_a_window_outside_the_calendar_is_none(query: str, now: datetime) -> None:
    assert query_window(query, now) is None


@pytest.mark.parametrize(("query", "month"), [
    # a month without a year: the last one, or the next one when the question looks ahead
    ("Where did Maya live in January?", (2024, 1)),
    ("what did I do in june", (2024, 6)),
    ("where was I in September?", (2023, 9)),
    ("what did I do last June?", (2023, 6)),
    ("What will I do in May?", (2025, 5)),
    ("where am I going in August", (2024, 8)),
    ("plans for next June", (2025, 6)),
    ("what was going on in August?", (2023, 8)),
])
def test_a_month_without_a_year_is_the_nearest_one(query: str, month: tuple[int, int]) -> None:
    year, number = month
    start = datetime(year, number, 1, tzinfo=UTC)
    end = datetime(year + (number == 12), number % 12 + 1, 1, tzinfo=UTC)
    assert query_window(query, NOW) == (start, end)


def test_may_the_modal_is_no_month() -> None:
    assert query_window("May I ask where I live?", NOW) is None
