"""Bulk input formats: JSONL episodes and LoCoMo conversations, read as EpisodeInputs.

* JSONL: one :class:`~graphmem.ingest.inputs.EpisodeInput` per line, in the REST
  API's shape (``scope``, ``messages`` or ``text`` or ``document``,
  ``reference_time``, ``episode_id``).
* LoCoMo (Maharana et al., 2024): a list of samples, each with ``conversation``
  (``speaker_a``, ``speaker_b``, ``session_N`` turn lists, ``session_N_date_time``
  like "1:56 pm on 8 May, 2023"). Each session becomes one episode with its date
  as reference time and each turn's ``dia_id`` as the message id; a shared
  photo's caption is kept with the turn.

Malformed lines raise :class:`~graphmem.errors.ValidationError` naming the line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError as PydanticError

from graphmem.errors import ValidationError
from graphmem.ingest.inputs import EpisodeInput
from graphmem.models import Message, Scope

_SESSION = re.compile(r"session_(\d+)")


def read_jsonl(path: Path) -> Iterator[EpisodeInput]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield EpisodeInput.model_validate_json(line)
            except PydanticError as err:
                raise ValidationError(f"{path}:{number}: not a valid episode: {err}") from err


def parse_locomo_time(text: str) -> datetime:
    """"1:56 pm on 8 May, 2023" -> an aware UTC datetime."""
    try:
        return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError as err:
        raise ValidationError(f"not a LoCoMo session time: {text!r}") from err


def locomo_turn_text(turn: dict[str, Any]) -> str:
    text = str(turn["text"])
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text


def locomo_sessions(sample: dict[str, Any]) -> list[tuple[int, datetime, list[dict[str, Any]]]]:
    """(number, date, turns) of each session that has turns, in order.

    Some ``session_N_date_time`` keys have no matching session: they are skipped.
    """
    conversation = sample["conversation"]
    sessions = []
    for key, turns in conversation.items():
        match = _SESSION.fullmatch(key)
        if match and isinstance(turns, list) and turns:
            number = int(match.group(1))
            when = parse_locomo_time(conversation[f"session_{number}_date_time"])
            sessions.append((number, when, turns))
    return sorted(sessions, key=lambda s: s[0])


def locomo_episodes(sample: dict[str, Any], scope: Scope | None = None) -> list[EpisodeInput]:
    """One episode per session of one LoCoMo sample (scope: the sample id as user)."""
    scope = scope or Scope(user_id=str(sample["sample_id"]))
    return [
        EpisodeInput(
            scope=scope, reference_time=when, episode_id=f"{sample['sample_id']}-s{number}",
            messages=[Message(id=t["dia_id"], speaker=t["speaker"], content=locomo_turn_text(t),
                              timestamp=when) for t in turns],
        )
        for number, when, turns in locomo_sessions(sample)
    ]


def read_locomo(path: Path) -> Iterator[EpisodeInput]:
    try:
        samples = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise ValidationError(f"{path}: not a LoCoMo JSON file: {err}") from err
    if not isinstance(samples, list):
        raise ValidationError(f"{path}: a LoCoMo file is a JSON list of samples")
    for sample in samples:
        try:
            yield from locomo_episodes(sample)
        except (KeyError, TypeError, PydanticError) as err:
            raise ValidationError(f"{path}: sample {sample.get('sample_id', '?')}: {err}") from err
