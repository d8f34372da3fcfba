"""Relative time resolution against a fixed reference: Wednesday 12 June 2024, 10:00 UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.extract.rules.timeexpr import TimeSpan, has_time_cue, resolve

REF = datetime(2024, 6, 12, 10, 0, tzinfo=UTC)


def d(year: int, month: int, day: int, hour: int = 0) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "prefer", "start", "end", "granularity", "relation"),
    [
        ("yesterday", "auto", d(2024, 6, 11), d(2024, 6, 12), "day", "at"),
        ("tomorrow", "auto", d(2024, 6, 13), d(2024, 6, 14), "day", "at"),
        ("today", "auto", d(2024, 6, 12), d(2024, 6, 13), "day", "at"),
        ("last night", "auto", d(2024, 6, 11), d(2024, 6, 12), "day", "at"),
        ("the day before yesterday", "auto", d(2024, 6, 10), d(2024, 6, 11), "day", "at"),
        ("last month", "auto", d(2024, 5, 1), d(2024, 6, 1), "month", "at"),
        ("next month", "auto", d(2024, 7, 1), d(2024, 8, 1), "month", "at"),
        ("next week", "auto", d(2024, 6, 17), d(2024, 6, 24), "week", "at"),
        ("last week", "auto", d(2024, 6, 3), d(2024, 6, 10), "week", "at"),
        ("this week", "auto", d(2024, 6, 10), d(2024, 6, 17), "week", "at"),
        ("last year", "auto", d(2023, 1, 1), d(2024, 1, 1), "year", "at"),
        ("in 2023", "auto", d(2023, 1, 1), d(2024, 1, 1), "year", "at"),
        ("since 2019", "auto", d(2019, 1, 1), d(2020, 1, 1), "year", "since"),
        ("since March", "auto", d(2024, 3, 1), d(2024, 4, 1), "month", "since"),
        ("since August", "auto", d(2023, 8, 1), d(2023, 9, 1), "month", "since"),
        # "from" looks the way the sentence does: back in a past one, ahead in a future one
        ("I've lived here from August", "auto", d(2023, 8, 1), d(2023, 9, 1), "month", "since"),
        ("We'll be living in Oslo from August", "auto", d(2024, 8, 1), d(2024, 9, 1), "month",
         "since"),
        ("I'll work at Globex from January", "auto", d(2025, 1, 1), d(2025, 2, 1), "month",
         "since"),
        ("since September", "auto", d(2023, 9, 1), d(2023, 10, 1), "month", "since"),
        ("two years ago", "auto", d(2022, 1, 1), d(2023, 1, 1), "year", "at"),
        ("three days ago", "auto", d(2024, 6, 9), d(2024, 6, 10), "day", "at"),
        ("a few weeks ago", "auto", d(2024, 5, 20), d(2024, 5, 27), "week", "at"),
        ("in two weeks", "auto", d(2024, 6, 24), d(2024, 7, 1), "week", "at"),
        ("next Friday", "auto", d(2024, 6, 14), d(2024, 6, 15), "day", "at"),
        ("last Friday", "auto", d(2024, 6, 7), d(2024, 6, 8), "day", "at"),
        ("this Monday", "auto", d(2024, 6, 10), d(2024, 6, 11), "day", "at"),
        ("by Friday", "auto", d(2024, 6, 14), d(2024, 6, 15), "day", "by"),
        ("I went there on Monday", "past", d(2024, 6, 10), d(2024, 6, 11), "day", "at"),
        ("I have a dentist appointment on Monday", "future", d(2024, 6, 17), d(2024, 6, 18),
         "day", "at"),
        ("this weekend", "auto", d(2024, 6, 15), d(2024, 6, 17), "day", "at"),
        ("last weekend", "auto", d(2024, 6, 8), d(2024, 6, 10), "day", "at"),
        ("next weekend", "auto", d(2024, 6, 22), d(2024, 6, 24), "day", "at"),
        ("last summer", "auto", d(2023, 6, 1), d(2023, 9, 1), "season", "at"),
        ("this summer", "auto", d(2024, 6, 1), d(2024, 9, 1), "season", "at"),
        ("last winter", "auto", d(2023, 12, 1), d(2024, 3, 1), "season", "at"),
        ("I took up pottery this spring", "past", d(2024, 3, 1), d(2024, 6, 1), "season", "at"),
        ("in the summer of 2022", "auto", d(2022, 6, 1), d(2022, 9, 1), "season", "at"),
        ("in April", "past", d(2024, 4, 1), d(2024, 5, 1), "month", "at"),
        ("in April", "future", d(2025, 4, 1), d(2025, 5, 1), "month", "at"),
        ("before July", "auto", d(2024, 7, 1), d(2024, 8, 1), "month", "by"),
        ("in March 2023", "auto", d(2023, 3, 1), d(2023, 4, 1), "month", "at"),
        ("on 5 March 2023", "auto", d(2023, 3, 5), d(2023, 3, 6), "day", "at"),
        ("May 5th", "past", d(2024, 5, 5), d(2024, 5, 6), "day", "at"),
        ("December 25th", "future", d(2024, 12, 25), d(2024, 12, 26), "day", "at"),
        ("2024-07-01", "auto", d(2024, 7, 1), d(2024, 7, 2), "day", "at"),
        ("12/25/2024", "auto", d(2024, 12, 25), d(2024, 12, 26), "day", "at"),
        ("by the end of the month", "auto", d(2024, 6, 30), d(2024, 7, 1), "day", "by"),
        ("tomorrow at 5pm", "auto", d(2024, 6, 13, 17), d(2024, 6, 13, 18), "hour", "at"),
        ("I've lived here for three years", "auto", d(2021, 6, 12), d(2024, 6, 13), "year",
         "since"),
    ],
)
def test_resolve_table(text: str, prefer: str, start: datetime, end: datetime, granularity: str,
                       relation: str) -> None:
    span = resolve(text, REF, prefer=prefer)  # type: ignore[arg-type]
    assert span is not None, text
    assert (span.start, span.end, span.granularity, span.relation) == (
        start, end, granularity, relation)


@pytest.mark.parametrize("text", ["I love hiking", "nothing to see here", "I may go", "",
                                  "I was there for a week"])
def test_resolve_none(text: str) -> None:
    assert resolve(text, REF) is None


def test_first_expression_of_a_sentence_wins() -> None:
    span = resolve("I moved to Berlin two years ago and love it", REF)
    assert span is not None and span.start == d(2022, 1, 1)


def test_naive_reference_is_utc() -> None:
    span = resolve("yesterday", datetime(2024, 6, 12, 10))
    assert span is not None and span.start == d(2024, 6, 11)
    assert span.start.tzinfo is UTC


def test_tense_decides_a_bare_weekday() -> None:
    past = resolve("I went to the gym on Friday", REF)
    future = resolve("I will go to the gym on Friday", REF)
    assert past is not None and past.start == d(2024, 6, 7)
    assert future is not None and future.start == d(2024, 6, 14)


def test_seasons_around_new_year() -> None:
    january = datetime(2024, 1, 15, tzinfo=UTC)
    last = resolve("last winter", january)
    this = resolve("this winter", january)
    assert last is not None and (last.start, last.end) == (d(2022, 12, 1), d(2023, 3, 1))
    assert this is not None and this.start == d(2023, 12, 1)


def test_leap_day_duration() -> None:
    span = resolve("I've worked here for one year", datetime(2024, 2, 29, tzinfo=UTC))
    assert span is not None and span.start == d(2023, 2, 28)


@pytest.mark.parametrize(
    ("span", "phrase"),
    [
        (TimeSpan(d(2024, 6, 14), d(2024, 6, 15), "day"), "on 14 June 2024"),
        (TimeSpan(d(2024, 6, 17), d(2024, 6, 24), "week"), "in the week of 17 June 2024"),
        (TimeSpan(d(2024, 5, 1), d(2024, 6, 1), "month"), "in May 2024"),
        (TimeSpan(d(2023, 6, 1), d(2023, 9, 1), "season"), "in summer 2023"),
        (TimeSpan(d(2023, 1, 1), d(2024, 1, 1), "year"), "in 2023"),
        (TimeSpan(d(2024, 3, 1), d(2024, 4, 1), "month", "since"), "since March 2024"),
        (TimeSpan(d(2024, 6, 14), d(2024, 6, 15), "day", "by"), "by 14 June 2024"),
        (TimeSpan(d(2024, 6, 13, 17), d(2024, 6, 13, 18), "hour"), "on 13 June 2024 at 17:00"),
    ],
)
def test_describe(span: TimeSpan, phrase: str) -> None:
    assert span.describe() == phrase


@pytest.mark.parametrize(("text", "cue"), [("see you tomorrow", True), ("in 2023", True),
                                           ("two weeks ago", True), ("I love hiking", False),
                                           ("Thanks so much!", False)])
def test_has_time_cue(text: str, cue: bool) -> None:
    assert has_time_cue(text) is cue


def test_spans_are_well_formed_for_every_day_of_a_year() -> None:
    expressions = ["last week", "next week", "last month", "next month", "next Friday",
                   "last Sunday", "this weekend", "last summer", "next winter", "since May"]
    day = d(2024, 1, 1)
    while day.year == 2024:
        for text in expressions:
            span = resolve(text, day)
            assert span is not None and span.start < span.end, (text, day)
        day += timedelta(days=1)


@pytest.mark.parametrize(("text", "minutes"), [
    ("Remind me to email the landlord in two minutes.", 2),
    ("call mom in an hour", 60),
    ("take the pizza out in 15 mins", 15),
    ("within half an hour", 30),
    ("in 3 hours", 180),
])
def test_in_minutes_and_hours_is_a_clock_time(text: str, minutes: int) -> None:
    reference = REF + timedelta(seconds=20)
    span = resolve(text, reference)
    assert span is not None
    assert span.start == reference + timedelta(minutes=minutes)
    assert span.granularity == "hour" and span.relation == "at"


@pytest.mark.parametrize(("text", "reference"), [
    ("Next year I fly to Rome.", datetime(9999, 12, 31, 12, tzinfo=UTC)),
    ("In 3 days I start.", datetime(9999, 12, 30, tzinfo=UTC)),
    ("Last year I went to Paris.", datetime(1, 1, 2, tzinfo=UTC)),
    ("Yesterday I went to Paris.", datetime(1, 1, 1, tzinfo=UTC)),
])
def test_an_expression_that_leaves_the_calendar_resolves_to_nothing(text: str,
                                                                    reference: datetime) -> None:
    assert resolve(text, reference) is None


@pytest.mark.parametrize(("text", "day", "relation"), [
    ("We moved house on the 8th.", d(2024, 6, 8), "at"),
    ("we got the keys on the 20th", d(2024, 5, 20), "at"),  # in the past: last month's
    ("The new lease starts on the 20th", d(2024, 6, 20), "at"),
    ("I'm flying out on the 2nd", d(2024, 7, 2), "at"),
    ("I've been at Hooli since the 3rd", d(2024, 6, 3), "since"),
    ("I moved in on the 31st", d(2024, 5, 31), "at"),  # June has none
    ("I moved on the 10th and I always love a fresh start", d(2024, 6, 10), "at"),
])
def test_a_day_of_the_month_without_its_month_is_the_nearest_one(text: str, day: datetime,
                                                                  relation: str) -> None:
    span = resolve(text, REF)
    assert span is not None and (span.start, span.granularity, span.relation) == (
        day, "day", relation)


@pytest.mark.parametrize(("text", "day"), [
    ("started tuesday at the bakery", d(2024, 6, 11)),
    ("we moved in saturday, finally", d(2024, 6, 8)),
    ("Monday I handed in my notice", d(2024, 6, 10)),
    ("Monday I hand in my notice", None),  # not in the past: no day
])
def test_a_weekday_after_a_verb_or_opening_a_clause_is_a_day_in_the_past(text: str,
                                                               day: datetime | None) -> None:
    span = resolve(text, REF)
    assert (span.start if span is not None else None) == day


@pytest.mark.parametrize("text", [
    "I swim monday and thursday", "joined a choir, we rehearsed Tuesday/Friday",
    "started pottery classes, thursday evenings", "every sunday we walked the dog",
    "most Fridays I worked from home", "I got paid on the 15th every month",
    "rent was due on the 1st each month", "I'll see you friday",
    # a weekday or an ordinal that names something else
    "moved to Leeds, Friday feeling all round", "a Sunday roast at mum's was lovely",
    "got the Black Friday deals", "started at Google on the 3rd floor",
    "we stayed until the 9th inning", "she has known him since the 1st grade",
])
def test_a_schedule_or_a_habit_is_no_date(text: str) -> None:
    assert resolve(text, REF) is None
