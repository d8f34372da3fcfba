"""The speaker prior of the raw-turn channels."""

from __future__ import annotations

from graphmem.search.turns import bm25_prior, named_speakers, prefer_speakers
from graphmem.store.base import TurnHit


def _hit(index: int, speaker: str | None, score: float) -> TurnHit:
    return TurnHit(episode_id="e", message_index=index, message_id=str(index), speaker=speaker,
                   content="...", timestamp=None, score=score)


def test_a_speaker_named_in_the_query_ranks_higher_only_when_close() -> None:
    hits = [_hit(0, "Caroline", 10.0), _hit(1, "Melanie", 9.0), _hit(2, "Melanie", 5.0)]

    named = named_speakers("What did Melanie paint?", hits)
    ranked = prefer_speakers(hits, named, bm25_prior)

    assert named == {"melanie"}
    assert [h.message_index for h in ranked] == [1, 0, 2]  # 9 * 1.2 > 10 > 5 * 1.2


def test_no_named_speaker_changes_nothing() -> None:
    hits = [_hit(0, "Caroline", 1.0), _hit(1, None, 2.0)]
    assert named_speakers("what about paintings", hits) == set()
    assert prefer_speakers(hits, set(), bm25_prior) == hits
