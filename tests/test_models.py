"""Model helpers: what a turn is indexed under."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.models import Episode, Message, episode_turns, turn_context_texts


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
