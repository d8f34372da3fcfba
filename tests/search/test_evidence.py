"""Turns inherit the validity of their facts; facts absorb only well-ranked turns."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.models import Fact, FactStatus, Retraction
from graphmem.search.evidence import (absorb_turns, facts_by_turn, is_stale, lost_values,
                                      names_only_lost, only_asks_or_muses)
from graphmem.search.models import SearchHit
from graphmem.store.base import TurnHit
from graphmem.temporal import TimeFilter

NOW = datetime(2024, 6, 1, tzinfo=UTC)


def fact(fid: str, start: int, until: int | None = None,
         status: FactStatus = FactStatus.ACTIVE) -> Fact:
    return Fact(id=fid, tenant="t", scope_key="user:a", subject_id="s", subject_name="Bob",
                predicate="WORKS_AT", object_id=fid, object_name=fid, text=f"Bob works at {fid}.",
                valid_from=datetime(2020 + start, 1, 1, tzinfo=UTC),
                valid_until=datetime(2020 + until, 1, 1, tzinfo=UTC) if until else None,
                status=status, episode_ids=[f"ep-{fid}"], message_ids=["m1"])


def turn(episode: str, score: float = 1.0) -> TurnHit:
    return TurnHit(episode_id=episode, message_index=0, message_id="m1", speaker="Bob",
                   content="...", timestamp=None, score=score)


def test_a_turn_whose_facts_were_all_overtaken_is_stale_now_but_not_then_or_in_history() -> None:
    acme = fact("acme", 1, until=3).model_copy(update={"superseded_by": "globex"})
    trip = fact("trip", 1, until=2)  # ran its stated course: still tells what happened
    said = facts_by_turn([acme, fact("quit", 3, status=FactStatus.RETRACTION), trip])
    assert not is_stale(turn("ep-trip"), said, TimeFilter(), NOW)
    assert is_stale(turn("ep-acme"), said, TimeFilter(), NOW)
    assert is_stale(turn("ep-quit"), said, TimeFilter(), NOW)  # a retraction holds nothing
    assert not is_stale(turn("ep-acme"), said, TimeFilter(as_of=datetime(2022, 1, 1, tzinfo=UTC)), NOW)
    assert not is_stale(turn("ep-acme"), said, TimeFilter(include_history=True), NOW)
    assert not is_stale(turn("ep-nothing-extracted"), said, TimeFilter(), NOW)


def hit(kind: str, hid: str, score: float, channels: dict[str, int]) -> SearchHit:
    return SearchHit(kind=kind, id=hid, text=hid, score=score, channels=channels,  # type: ignore[arg-type]
                     sources=["m1"], episode_ids=["ep-acme"])


def test_a_fact_takes_a_well_ranked_turns_place_without_adding_scores() -> None:
    hits = {"f:acme": hit("fact", "acme", 0.01, {"bm25": 7}),
            "t:ep-acme:0": hit("turn", "ep-acme:0", 0.02, {"turns": 2})}
    absorb_turns(hits, {"t:ep-acme:0": turn("ep-acme")})
    assert list(hits) == ["f:acme"] and hits["f:acme"].score == 0.02
    assert hits["f:acme"].channels == {"bm25": 7, "turns": 2}


def test_a_weak_turn_lends_no_score() -> None:
    hits = {"f:acme": hit("fact", "acme", 0.01, {"bm25": 7}),
            "t:ep-acme:0": hit("turn", "ep-acme:0", 0.012, {"turns": 30})}
    absorb_turns(hits, {"t:ep-acme:0": turn("ep-acme")})
    assert list(hits) == ["f:acme"] and hits["f:acme"].score == 0.01


@pytest.mark.parametrize(("text", "muses"), [
    ("what are the rules of badminton?", True),
    ("hypothetically, is fruitarian expensive to maintain?", True),
    ("thinking about applying to Lumora Games, their benefits look amazing", True),
    ("lol planning to maybe try Whole30 in january", True),
    ("Is boxing good cardio? Should I try it?", True),
    ("I play badminton every Sunday.", False),
    ("What should I eat before playing squash? I train most mornings.", False),
    ("switched phones - Pixel 8 is my main one now", False),
    ("Maybe.", True),
])
def test_a_turn_that_only_asks_or_muses_tells_no_value(text: str, muses: bool) -> None:
    assert only_asks_or_muses(text) is muses


@pytest.mark.parametrize(("text", "recalls"), [
    ("did rowing in high school, ages ago", True),
    ("never done cricket in my life", True),
    ("used to do squash at uni, long before all this", True),
    ("first job ever: my boss was Fatima Zahra", True),
    ("first job ever: my boss was Fatima Zahra. learned so much", False),  # a sentence of now
    ("my first language was typescript, back in school", True),
    ("I play cricket every Sunday.", False),
    # read as the past: the caller asks only of a turn no fact was read from, and a rule reads
    # "I play every Sunday now" as cricket played
    ("never done cricket before, but I play every Sunday now", True),
    ("I grew up in Lyon. I live in Porto now.", False),
])
def test_a_turn_that_only_speaks_of_the_past_or_of_never_tells_no_value_now(
        text: str, recalls: bool) -> None:
    assert only_asks_or_muses(text, or_recalls=True) is recalls
    assert not only_asks_or_muses(text)  # only when the caller asks


def said_in(year: int, content: str) -> TurnHit:
    return TurnHit(episode_id="ep", message_index=0, message_id="m1", speaker="Bob",
                   content=content, timestamp=datetime(year, 6, 1, tzinfo=UTC), score=1.0)


def test_a_turn_naming_only_a_lost_value_before_it_was_lost() -> None:
    acme = fact("Acme", 1, until=3).model_copy(update={"retraction": Retraction(
        at=datetime(2023, 1, 1, tzinfo=UTC), episode_id="ep-quit")})  # "I quit" in 2023
    quit_ = fact("Initech", 4, status=FactStatus.RETRACTION)  # "I left Initech" in 2024
    replaced = fact("Hooli", 0, until=1).model_copy(update={"superseded_by": "acme"})
    # (a value another replaced is not lost: what replaced it answers)
    lost = lost_values([acme, replaced], [quit_], NOW)
    assert lost == {"acme": datetime(2023, 1, 1, tzinfo=UTC),
                    "initech": datetime(2024, 1, 1, tzinfo=UTC)}
    assert names_only_lost(said_in(2022, "busy week at acme"), lost, ["Globex"])
    assert names_only_lost(said_in(2023, "Initech's canteen is great"), lost, [])
    # the turn that ended it, or a later one, may name what came next
    assert not names_only_lost(said_in(2024, "left Initech, joining Hooli"), lost, [])
    # one that names what holds now still answers; one that names neither is not about it
    assert not names_only_lost(said_in(2022, "acme and globex merged"), lost, ["Globex"])
    assert not names_only_lost(said_in(2022, "acmeville is far"), lost, [])
    # a value lost after the view's time is not lost in it
    assert lost_values([acme], [quit_], datetime(2022, 1, 1, tzinfo=UTC)) == {}

