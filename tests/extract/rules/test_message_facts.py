"""What one message's facts say together (extract.rules.message_facts), on facts as the
sentence rules give them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.extract.base import CandidateFact, ExtractedFact
from graphmem.extract.rules.message_facts import (dedupe, kept_titles, latest_endings, named_pets,
                                                  starts_ahead)

SAID = datetime(2024, 6, 12, 10, tzinfo=UTC)


def _fact(predicate: str, obj: str, *, action: str = "assert", when: datetime = SAID,
          subject: str = "Maya", text: str = "") -> ExtractedFact:
    return ExtractedFact(subject=subject, predicate=predicate, object=obj,
                         text=text or f"{subject} {predicate} {obj}", valid_from=when,
                         action=action, message_id="m1")  # type: ignore[arg-type]


def test_a_job_said_to_start_later_holds_from_then_with_its_title() -> None:
    facts = [_fact("WORKS_AT", "Stripe"), _fact("JOB_TITLE", "designer"), _fact("LIVES_IN", "Leeds")]
    moved = starts_ahead(facts, {"m1": ("Accepted an offer from Stripe, I start next month.", SAID)})
    starts = {f.predicate: f.valid_from for f in moved}
    assert starts == {"WORKS_AT": datetime(2024, 7, 1, tzinfo=UTC),
                      "JOB_TITLE": datetime(2024, 7, 1, tzinfo=UTC), "LIVES_IN": SAID}


def test_a_start_said_by_someone_else_or_gone_by_moves_nothing() -> None:
    facts = [_fact("WORKS_AT", "Stripe")]
    for text in ("I got a job at Stripe! My sister starts in September.",
                 "I got a job at Stripe, starting last month."):
        assert starts_ahead(facts, {"m1": (text, SAID)}) == facts


@pytest.mark.parametrize(("text", "day"), [
    ("Signed with Halden Press!! first day is 17 June", datetime(2024, 6, 17, tzinfo=UTC)),
    ("got hired at Halden Press. My first day there will be Thursday",
     datetime(2024, 6, 13, tzinfo=UTC)),
    ("accepted the offer from Halden Press, first day is the 1st", datetime(2024, 7, 1, tzinfo=UTC)),
])
def test_a_first_day_said_ahead_is_when_the_job_holds_from(text: str, day: datetime) -> None:
    facts = [_fact("WORKS_AT", "Halden Press"), _fact("JOB_TITLE", "editor")]
    assert {f.valid_from for f in starts_ahead(facts, {"m1": (text, SAID)})} == {day}


@pytest.mark.parametrize("text", [
    "got hired at Halden Press, her first day is Thursday",  # someone else's first day
    "Got hired at Halden Press! My son's first day is Thursday too",
    "got hired at Halden Press, first day was today",
])
def test_someone_elses_first_day_or_one_gone_by_moves_nothing(text: str) -> None:
    facts = [_fact("WORKS_AT", "Halden Press")]
    assert starts_ahead(facts, {"m1": (text, SAID)}) == facts


def test_two_new_employers_in_one_message_move_nothing() -> None:
    facts = [_fact("WORKS_AT", "Stripe"), _fact("WORKS_AT", "Figma")]
    assert starts_ahead(facts, {"m1": ("Offers from Stripe and Figma, I start next month", SAID)}) \
        == facts


def test_a_pet_named_elsewhere_in_the_message_is_one_pet() -> None:
    facts = [_fact("HAS_PET", "dog"), _fact("HAS_PET", "Luna", text="Maya has a dog named Luna")]
    assert [f.object for f in named_pets(facts)] == ["Luna"]


def test_the_latest_ending_of_one_thing_wins_and_duplicates_go() -> None:
    notice = _fact("WORKS_AT", "", action="retract")
    last_day = _fact("WORKS_AT", "", action="retract", when=datetime(2024, 7, 31, tzinfo=UTC))
    assert latest_endings([notice, last_day]) == [last_day]
    assert dedupe([_fact("LIVES_IN", "Leeds"), _fact("LIVES_IN", "leeds")]) == [
        _fact("LIVES_IN", "Leeds")]


def _stored(predicate: str, obj: str) -> CandidateFact:
    return CandidateFact(id=f"f-{obj}", text=f"Maya {predicate} {obj}", subject="Maya",
                         predicate=predicate, object=obj, valid_from=datetime(2024, 1, 1, tzinfo=UTC))


def test_a_new_employer_with_the_same_role_says_the_stored_title_again() -> None:
    job = _fact("WORKS_AT", "Oakhurst")
    said = {"m1": ("moved to Oakhurst last week, same role though", "Maya")}
    facts, wanted = kept_titles([job], [], said)
    assert (facts, wanted) == ([job], True)  # the stored title is asked for
    facts, wanted = kept_titles([job], [_stored("JOB_TITLE", "analyst"),
                                        _stored("LIVES_IN", "Leeds")], said)
    assert not wanted
    assert [(f.predicate, f.object, f.valid_from) for f in facts] == [
        ("WORKS_AT", "Oakhurst", SAID), ("JOB_TITLE", "analyst", SAID)]


@pytest.mark.parametrize(("text", "subject"), [
    ("moved to Oakhurst last week, as a senior analyst now", "Maya"),
    ("moved to Oakhurst last week, whole new role", "Maya"),
    ("moved to Oakhurst last week, not the same role though", "Maya"),
    ("my sister moved to Oakhurst last week, same role though", "Maya's sister"),
])
def test_a_new_title_or_none_said_keeps_nothing(text: str, subject: str) -> None:
    job = _fact("WORKS_AT", "Oakhurst", subject=subject)
    facts, wanted = kept_titles([job], [_stored("JOB_TITLE", "analyst")], {"m1": (text, "Maya")})
    assert (facts, wanted) == ([job], False)
