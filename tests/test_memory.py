"""The Memory front door: secrets are redacted before anything is stored."""

from __future__ import annotations

from pathlib import Path

from graphmem.ingest.inputs import EpisodeInput, FactInput
from graphmem.memory import Memory
from graphmem.models import Message, Scope
from graphmem.settings import Settings
from graphmem.store.base import FactQuery
from graphmem.temporal import TimeFilter

ALICE = Scope(user_id="alice")
SECRET = "sk-proj-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"


def test_secrets_never_reach_the_store(tmp_path: Path) -> None:
    with Memory.from_settings(Settings(db_path=tmp_path / "m.db")) as memory:
        result = memory.add_episode("t", EpisodeInput(scope=ALICE, messages=[
            Message(speaker="Alice", content=f"My email is alice@example.com and my key is {SECRET}."),
            Message(speaker="Alice", content="I work at Acme."),
        ]))
        memory.add_facts("t", [FactInput(scope=ALICE, subject="Alice", predicate="HAS",
                                         object=f"the API key {SECRET}")])
        episode = memory.get_episode("t", result.episode_id or "")
        facts = memory.list_facts("t", FactQuery(scope_keys=ALICE.visible_keys,
                                                 time=TimeFilter(include_history=True)))

    stored = episode.model_dump_json() + "".join(f.model_dump_json() for f in facts)
    assert SECRET not in stored and "alice@example.com" not in stored
    assert "Acme" in stored


def test_redaction_can_be_switched_off(tmp_path: Path) -> None:
    settings = Settings(db_path=tmp_path / "m.db", redact=False)
    with Memory.from_settings(settings) as memory:
        result = memory.add_episode("t", EpisodeInput(scope=ALICE, text="Mail me at bob@example.com"))
        assert "bob@example.com" in memory.get_episode("t", result.episode_id or "").content
