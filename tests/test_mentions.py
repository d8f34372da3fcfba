"""Finding and scrubbing an erased entity's name (graphmem.mentions)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from graphmem.mentions import PLACEHOLDER, name_pattern, scrub_episode
from graphmem.models import Entity, Episode, Message

AT = datetime(2025, 1, 1, tzinfo=UTC)


def maria(*aliases: str) -> Entity:
    return Entity(tenant="t", scope_key="user:alice", name="Maria", aliases=list(aliases))


def test_names_match_whole_words_in_any_case() -> None:
    pattern = name_pattern([maria("Mary", "M")])
    assert pattern is not None
    assert pattern.sub("_", "MARIA met Mary, not Marianne or M.") == "_ met _, not Marianne or M."
    assert name_pattern([Entity(tenant="t", scope_key="k", name="X")]) is None


def test_a_scrubbed_episode_keeps_its_other_words() -> None:
    pattern = name_pattern([maria()])
    assert pattern is not None
    episode = Episode(tenant="t", scope_key="user:alice", reference_time=AT,
                      content="Maria: hi\nAlice: hi Maria", messages=[
                          Message(id="1", speaker="Maria", content="hi"),
                          Message(id="2", speaker="Alice", content="hi maria!")])
    clean = scrub_episode(episode, pattern)
    assert clean is not None and clean.id == episode.id
    assert [(m.speaker, m.content) for m in clean.messages] == [
        (PLACEHOLDER, "hi"), ("Alice", f"hi {PLACEHOLDER}!")]
    assert "maria" not in clean.content.casefold()
    unrelated = episode.model_copy(update={"content": "x", "messages": [
        Message(id="3", speaker="Bob", content="nothing")]})
    assert scrub_episode(unrelated, pattern) is None


def test_a_json_payload_stays_valid_json() -> None:
    pattern = name_pattern([maria()])
    assert pattern is not None
    payload = {"kind": "todo", "description": "call Maria \"soon\"", "who": ["Maria", 3]}
    episode = Episode(tenant="t", scope_key="user:alice", reference_time=AT, source="json",
                      content=json.dumps(payload))
    clean = scrub_episode(episode, pattern)
    assert clean is not None
    assert json.loads(clean.content) == {"kind": "todo", "description": f"call {PLACEHOLDER} \"soon\"",
                                         "who": [PLACEHOLDER, 3]}
