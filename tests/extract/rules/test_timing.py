"""When a finding holds: the interval its kind of time makes of a resolved expression."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.extract.rules import RuleExtractor
from graphmem.extract.rules.clause import Finding, Timing
from graphmem.extract.rules.parties import Party
from graphmem.extract.rules.timeexpr import TimeSpan
from graphmem.extract.rules.timing import validity
from tests.extract.rules.conftest import said

WHEN = datetime(2024, 6, 12, tzinfo=UTC)
MARCH = TimeSpan(datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 4, 1, tzinfo=UTC), "month")
JULY = TimeSpan(datetime(2024, 7, 1, tzinfo=UTC), datetime(2024, 8, 1, tzinfo=UTC), "month")


def finding(timing: Timing, action: str = "assert") -> Finding:
    return Finding(Party("Bob", "person", True), "WORKS_AT", "Acme", timing=timing,
                   action=action)  # type: ignore[arg-type]


@pytest.mark.parametrize(("timing", "action", "span", "expected"), [
    ("start", "assert", MARCH, (MARCH.start, None)),  # "joined Acme in March"
    ("start", "assert", None, (WHEN, None)),  # no time said: from when it was said
    ("event", "assert", MARCH, (MARCH.start, None)),
    ("trip", "assert", JULY, (JULY.start, JULY.end)),  # "in Rome in July"
    ("plan", "assert", JULY, (WHEN, JULY.end)),  # a plan holds from now until its time
    ("last", "assert", MARCH, (MARCH.end, None)),  # "my last day was in March"
    ("start", "retract", JULY, (JULY.start, None)),  # "leaving Acme in July": until then
    ("start", "retract", MARCH, (MARCH.end, None)),  # "left in March": there until it was over
])
def test_a_findings_interval_follows_its_kind_of_time(
        timing: Timing, action: str, span: TimeSpan | None,
        expected: tuple[datetime, datetime | None]) -> None:
    assert validity(finding(timing, action), span, WHEN) == expected


@pytest.mark.parametrize(("text", "start"), [
    # since an event in a month: since then, whether the clause states or ends something
    ("I eat meat again since my trip to Chile in March.", datetime(2024, 3, 1, tzinfo=UTC)),
    ("I've been vegan since our holiday in March.", datetime(2024, 3, 1, tzinfo=UTC)),
])
def test_since_an_event_dated_by_a_month_is_since_that_month(
        extractor: RuleExtractor, text: str, start: datetime) -> None:
    found = said(extractor, text).facts
    assert found and {f.valid_from for f in found if f.predicate == "DIET"} == {start}


@pytest.mark.parametrize(("text", "predicate", "day"), [
    ("We moved to Hull on the 4th, still unpacking.", "LIVES_IN", 4),
    ("started thursday at Brightwell Dental as a receptionist", "WORKS_AT", 6),
])
def test_a_day_said_without_its_month_or_week_dates_the_fact(
        extractor: RuleExtractor, text: str, predicate: str, day: int) -> None:
    [found] = [f for f in said(extractor, text).facts if f.predicate == predicate]
    assert found.valid_from == datetime(2024, 6, day, tzinfo=UTC)
