"""Bulk formats: LoCoMo conversations and JSONL episodes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphmem.errors import ValidationError
from graphmem.ingest.formats import locomo_episodes, parse_locomo_time, read_jsonl, read_locomo

SAMPLE = {
    "sample_id": "conv-1",
    "conversation": {
        "speaker_a": "Caroline", "speaker_b": "Melanie",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Caroline", "dia_id": "D1:1", "text": "I moved to Boston last month."},
            {"speaker": "Melanie", "dia_id": "D1:2", "text": "Look at this!",
             "img_url": ["x"], "blip_caption": "a photo of a dog on a beach"},
        ],
        "session_2_date_time": "7:55 pm on 9 June, 2023",
        "session_2": [{"speaker": "Caroline", "dia_id": "D2:1", "text": "I adopted a cat."}],
        "session_3_date_time": "1:00 pm on 1 July, 2023",
    },
    "qa": [],
}


def test_locomo_sessions_become_episodes_with_dates_and_turn_ids() -> None:
    episodes = locomo_episodes(SAMPLE)

    assert [e.episode_id for e in episodes] == ["conv-1-s1", "conv-1-s2"]
    assert episodes[0].reference_time == parse_locomo_time("1:56 pm on 8 May, 2023")
    assert [m.id for m in episodes[0].messages] == ["D1:1", "D1:2"]
    assert episodes[0].messages[1].content.endswith("[shares a photo: a photo of a dog on a beach]")
    assert episodes[0].scope.user_id == "conv-1"


def test_read_locomo_and_jsonl(tmp_path: Path) -> None:
    locomo = tmp_path / "locomo.json"
    locomo.write_text(json.dumps([SAMPLE]))
    lines = tmp_path / "episodes.jsonl"
    lines.write_text(json.dumps({"scope": {"user_id": "bob"}, "text": "I live in Oslo."}) + "\n\n")

    assert len(list(read_locomo(locomo))) == 2
    [episode] = read_jsonl(lines)
    assert episode.text == "I live in Oslo."


@pytest.mark.parametrize(("content", "message"), [
    ('{"scope": {}, "text": "x"}', "episodes.jsonl:1: not a valid episode"),
    ('{"scope": {"user_id": "a"}, "messages": [{"content": ""}]}', "message content is empty"),
    ('{"scope": {"user_id": "a"}, "text": "x", "reference_time": "yesterday-ish"}',
     "not a valid episode"),
])
def test_bad_jsonl_lines_are_named(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "episodes.jsonl"
    path.write_text(content + "\n")
    with pytest.raises(ValidationError, match=message):
        list(read_jsonl(path))


def test_bad_locomo_time_is_a_clear_error() -> None:
    with pytest.raises(ValidationError, match="not a LoCoMo session time"):
        parse_locomo_time("sometime in May")
