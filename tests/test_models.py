"""Model helpers: what a turn is indexed under."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import BaseModel, ValidationError

from graphmem.models import (
    CleanText,
    Episode,
    Message,
    Scope,
    UtcDateTime,
    as_utc,
    episode_turns,
    turn_context_texts,
)


class _Timed(BaseModel):
    at: UtcDateTime
    note: CleanText = ""


@pytest.mark.parametrize("value", [
    "2024-03-01T09:00:00", "2024-03-01T09:00:00Z", "2024-03-01T11:00:00+02:00",
    "2024-03-01T04:00:00-05:00", "2024-03-01 09:00:00", datetime(2024, 3, 1, 9),
    datetime(2024, 3, 1, 10, tzinfo=timezone(timedelta(hours=1))),
])
def test_every_spelling_of_an_instant_is_the_same_utc_datetime(value: object) -> None:
    at = _Timed.model_validate({"at": value}).at
    assert at == datetime(2024, 3, 1, 9, tzinfo=UTC) and at.tzinfo is UTC


def test_a_date_alone_is_midnight_utc() -> None:
    assert _Timed.model_validate({"at": "2024-06-01"}).at == datetime(2024, 6, 1, tzinfo=UTC)
    assert _Timed.model_validate({"at": "20240601"}).at == datetime(2024, 6, 1, tzinfo=UTC)


@pytest.mark.parametrize("value", [1700000000, 1.7e9, "1700000000", "253402300800", " 42 "])
def test_a_number_is_not_guessed_as_a_time(value: object) -> None:
    with pytest.raises(ValidationError, match="ISO 8601"):
        _Timed.model_validate({"at": value})


@pytest.mark.parametrize(("value", "message"), [
    ("9999-12-31T23:00:00-05:00", "years 1-9999"),
    ("0001-01-01T00:00:00+05:00", "years 1-9999"),
    ("2024-01-01T00:00:00+19:00", r"offset \+19:00 is beyond"),
    ("2024-01-01T00:00:00-18:01", r"offset -18:01 is beyond"),
    # beyond any clock: the parser itself said only "unexpected extra characters" (5th trial)
    ("2025-01-01T00:00:00+25:00", r"offset \+25:00 is beyond"),
    ("2025-03-04T25:00:00", "the hour 25 is outside 00-23"),
    ("2025-03-04 10:75", "the minute 75 is outside 00-59"),
    ("2025-03-04T10:00:61Z", "the second 61 is outside 00-59"),
    ("2025-03-04T10:00:00+02:75", "minutes 75 are outside 00-59"),
])
def test_times_no_store_can_hold_are_refused_naming_the_field(value: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message) as caught:
        _Timed.model_validate({"at": value})
    assert caught.value.errors()[0]["loc"] == ("at",)


def test_the_extreme_representable_instants_are_kept() -> None:
    assert as_utc(datetime(9999, 12, 31, 23, 59)).year == 9999
    assert _Timed.model_validate({"at": "0001-01-01T05:00:00+05:00"}).at == datetime(
        1, 1, 1, tzinfo=UTC)
    assert _Timed.model_validate({"at": "2024-01-01T00:00:00+18:00"}).at.day == 31


@pytest.mark.parametrize("text", ["a\x00b", "bell\x07", "\x1b[31mred", "del\x7f", "broken \ufffd"])
def test_control_characters_are_refused(text: str) -> None:
    with pytest.raises(ValidationError, match="control character"):
        _Timed.model_validate({"at": "2024-01-01", "note": text})
    with pytest.raises(ValidationError, match="control character"):
        Message(content=text)


@pytest.mark.parametrize("text", ["I love hiking \udc80", "\ud83d alone", "end \udfff"])
def test_lone_surrogates_are_refused_naming_the_code_point(text: str) -> None:
    with pytest.raises(ValidationError, match=r"U\+D[89A-F][0-9A-F]{2}, a lone UTF-16 surrogate"):
        Message(content=text)
    assert Message(content="emoji \U0001F600 is text").content.endswith("is text")


def test_tab_newline_and_carriage_return_are_text() -> None:
    assert _Timed.model_validate({"at": "2024-01-01", "note": "a\tb\r\nc"}).note == "a\tb\r\nc"


@pytest.mark.parametrize("user_id", ["rp\n", "rp\r", " rp", "rp ", ""])
def test_ids_must_match_in_full(user_id: str) -> None:
    with pytest.raises(ValidationError, match="user_id"):
        Scope(user_id=user_id)


def test_a_turns_context_is_two_turns_before_and_one_after_in_its_episode() -> None:
    episode = Episode(tenant="t", scope_key="user:a", reference_time=datetime(2024, 1, 1, tzinfo=UTC),
                      messages=[Message(speaker=s, content=c) for s, c in
                                [("A", "one"), ("B", "two"), ("A", "three"), ("B", "four")]])

    contexts = turn_context_texts(episode)

    assert episode_turns(episode)[2] == "A: three"
    assert contexts == ["B: two", "A: one | A: three", "A: one | B: two | B: four",
                        "B: two | A: three"]


def test_an_episode_of_plain_text_has_no_context() -> None:
    episode = Episode(tenant="t", scope_key="user:a", content="just text",
                      reference_time=datetime(2024, 1, 1, tzinfo=UTC))
    assert turn_context_texts(episode) == [""]
