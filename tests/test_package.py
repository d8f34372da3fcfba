"""The package's public API: what the README imports is there, and only from ``graphmem``."""

from __future__ import annotations

from pathlib import Path

import graphmem


def test_the_readme_imports_work(tmp_path: Path) -> None:
    from graphmem import EpisodeInput, Memory, Message, Scope, SearchRequest, Settings

    with Memory.from_settings(Settings(db_path=tmp_path / "m.db")) as memory:
        alice = Scope(user_id="alice")
        memory.add_episode("default", EpisodeInput(scope=alice, messages=[
            Message(speaker="Alice", content="I switched from Vue 3 to React.")]))
        hits = memory.search("default", SearchRequest(scope=alice, query="frontend")).results
    assert any("React" in h.text for h in hits)


def test_all_names_exist() -> None:
    assert sorted(graphmem.__all__) == graphmem.__all__
    assert all(hasattr(graphmem, name) for name in graphmem.__all__)
