"""What a memory card says: relative time, interval, language, importance, status."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from api.ui.cards import card, end_of_day, interval, language, relative_time, scope_label
from graphmem.models import Category, Fact, FactStatus, Scope

NOW = datetime(2025, 6, 15, 12, 0, tzinfo=UTC)


def _fact(**changes: object) -> Fact:
    values: dict[str, object] = dict(
        tenant="t", scope_key="user:alice", subject_id="e1", subject_name="Alice",
        predicate="WORKS_AT", object_id="e2", object_name="Acme", text="Alice works at Acme.",
        valid_from=datetime(2024, 1, 10, tzinfo=UTC), recorded_at=NOW - timedelta(days=3))
    values.update(changes)
    return Fact.model_validate(values)


@pytest.mark.parametrize(("delta", "expected"), [
    (timedelta(seconds=20), "just now"),
    (timedelta(minutes=1), "1 minute ago"),
    (timedelta(minutes=59), "59 minutes ago"),
    (timedelta(hours=5), "5 hours ago"),
    (timedelta(days=1, hours=3), "yesterday"),
    (timedelta(days=3), "3 days ago"),
    (timedelta(days=15), "2 weeks ago"),
    (timedelta(days=70), "2 months ago"),
    (timedelta(days=800), "2 years ago"),
    (timedelta(days=-1, hours=-2), "tomorrow"),
    (timedelta(days=-9), "in 1 week"),
])
def test_relative_time(delta: timedelta, expected: str) -> None:
    assert relative_time(NOW - delta, NOW) == expected


def test_language_marks_chinese_text_only() -> None:
    assert language("爱丽丝喜欢喝绿茶。") == "zh"
    assert language("Alice likes 绿茶") == "zh"
    assert language("Alice likes green tea, café au lait") is None


def test_interval_is_open_until_the_fact_ends() -> None:
    assert interval(_fact()) == "since 2024-01-10"
    ended = _fact(valid_until=datetime(2024, 9, 1, tzinfo=UTC))
    assert interval(ended) == "2024-01-10 \u2192 2024-09-01"


def test_card_formats_everything_the_page_shows() -> None:
    successor = _fact(id="fact_new", object_name="Globex", text="Alice works at Globex.")
    old = _fact(valid_until=datetime(2024, 9, 1, tzinfo=UTC), superseded_by="fact_new",
                importance=0.736, category=Category.PREFERENCE, status=FactStatus.FORGOTTEN)

    shown = card(old, NOW, successor)

    assert (shown.label, shown.icon) == ("Preference", "heart")
    assert shown.ago == "3 days ago" and shown.importance_pct == 74
    assert shown.ended and shown.forgotten and shown.replaced_by == successor
    assert shown.lang is None and shown.scope_label == "alice"
    assert not card(_fact(), NOW).ended and not card(_fact(), NOW).forgotten
    future_end = _fact(valid_until=NOW + timedelta(days=30))
    assert not card(future_end, NOW).ended  # a stated end still to come


def test_scope_label_and_end_of_day() -> None:
    assert scope_label(Scope(user_id="bob", group_id="team")) == "bob in team"
    assert scope_label(Scope(group_id="team")) == "group team"
    assert end_of_day(date(2024, 6, 1)) == datetime(2024, 6, 1, 23, 59, 59, 999999, tzinfo=UTC)
