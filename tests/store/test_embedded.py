"""Embedded-store specifics: durability when the process is killed mid-write."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from graphmem.store.base import FactQuery
from graphmem.store.embedded import EmbeddedStore
from graphmem.temporal import TimeFilter
from tests.ingest.helpers import ALICE

BATCH = 50

WRITER = textwrap.dedent(f"""
    import itertools, sys
    from datetime import UTC, datetime
    from graphmem.models import Entity, Episode, Fact
    from graphmem.store.base import WriteBatch
    from graphmem.store.embedded import EmbeddedStore

    store = EmbeddedStore(sys.argv[1], embedding_dim=4)
    store.open()
    when = datetime(2024, 1, 1, tzinfo=UTC)
    alice = Entity(tenant="t", scope_key="user:alice", name="Alice")
    for n in itertools.count():
        episode = Episode(tenant="t", scope_key="user:alice", reference_time=when,
                          content=f"batch {{n}}")
        facts = [Fact(tenant="t", scope_key="user:alice", subject_id=alice.id,
                      subject_name="Alice", predicate="LIKES", object_id=alice.id,
                      object_name="x", text=f"fact {{n}} {{i}}", valid_from=when,
                      timeline_key=f"k{{n}}-{{i}}", episode_ids=[episode.id],
                      embedding=[1.0, 0.0, 0.0, float(i)])
                 for i in range({BATCH})]
        store.write("t", WriteBatch(episodes=[episode], entities=[alice], facts=facts))
        print(n, flush=True)
""")


def test_a_killed_writer_loses_no_committed_batch_and_leaves_no_half(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdout=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert proc.stdout is not None
    committed = -1
    deadline = time.monotonic() + 60
    while committed < 20 and time.monotonic() < deadline:
        committed = int(proc.stdout.readline())
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    assert committed >= 20

    store = EmbeddedStore(db, embedding_dim=4)
    store.open()
    facts = store.list_facts("t", FactQuery(scope_keys=ALICE.visible_keys, limit=10_000,
                                            time=TimeFilter(include_history=True)))
    episodes = store.list_episodes("t", ALICE.visible_keys, limit=10_000)
    store.close()

    assert len(facts) % BATCH == 0, "a batch was half-written"
    assert len(facts) >= (committed + 1) * BATCH, "a committed batch was lost"
    assert len(episodes) == len(facts) // BATCH
    by_episode: dict[str, int] = {}
    for f in facts:
        by_episode[f.episode_ids[0]] = by_episode.get(f.episode_ids[0], 0) + 1
    assert set(by_episode.values()) == {BATCH}


def test_an_older_file_gets_context_and_scope_in_its_full_text_indexes(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from graphmem.models import Entity, Episode, Fact, Message
    from graphmem.store.embedded import sql
    from graphmem.store.base import WriteBatch

    path = tmp_path / "v1.db"
    store = EmbeddedStore(path, embedding_dim=4)
    store.open()
    episode = Episode(tenant="t", scope_key=ALICE.key, reference_time=datetime(2024, 1, 1,
                                                                                  tzinfo=UTC),
                      messages=[Message(id="q", speaker="Bob", content="Do you like jazz?"),
                                Message(id="a", speaker="Alice", content="Yes, a lot.")])
    alice = Entity(tenant="t", scope_key=ALICE.key, name="Alice")
    jazz = Fact(tenant="t", scope_key=ALICE.key, subject_id=alice.id, subject_name="Alice",
                predicate="LIKES", object_id=alice.id, object_name="jazz",
                text="Alice likes jazz.", timeline_key="k", valid_from=episode.reference_time)
    store.write("t", WriteBatch(episodes=[episode], entities=[alice], facts=[jazz]))
    store.close()
    db = sqlite3.connect(path)  # what version 1 wrote: one column each, no scope token
    with db:
        db.execute("DROP TABLE turns_fts")
        db.execute("CREATE VIRTUAL TABLE turns_fts USING fts5 (content)")
        db.execute("INSERT INTO turns_fts (rowid, content) SELECT rowid, 'old' FROM turns")
        db.execute("DROP TABLE facts_fts")
        db.execute("CREATE VIRTUAL TABLE facts_fts USING fts5 (text)")
        db.execute("INSERT INTO facts_fts (rowid, text) SELECT rowid, 'old' FROM facts")
        db.execute("DROP TABLE entities_fts")  # and, until version 3, entities without a token
        db.execute("CREATE VIRTUAL TABLE entities_fts USING fts5 (text)")
        db.execute("INSERT INTO entities_fts (rowid, text) SELECT rowid, 'old' FROM entities")
        db.execute("UPDATE meta SET value='1' WHERE key='schema_version'")
    db.close()

    again = EmbeddedStore(path, embedding_dim=4)
    again.open()
    try:
        found = again.fulltext_turns("t", ALICE.visible_keys, "jazz", 5)
        assert [h.message_id for h in found] == ["q", "a"]
        facts = again.fulltext_facts("t", ALICE.visible_keys, "jazz", TimeFilter(), 5)
        assert [h.id for h in facts] == [jazz.id]
        assert again.fulltext_facts("t", ["user:bob"], "jazz", TimeFilter(), 5) == []
        assert [h.id for h in again.fulltext_entities("t", ALICE.visible_keys, "alice", 5)] == [
            alice.id]
        assert again.fulltext_entities("t", ["user:bob"], "alice", 5) == []
        version = again._query("SELECT value FROM meta WHERE key='schema_version'")
        assert version == [(str(sql.SCHEMA_VERSION),)]
    finally:
        again.close()


def test_the_turn_channels_see_an_episode_another_process_changed(tmp_path: Path) -> None:
    """The turn channels keep episodes parsed; one changed since is read again, whoever
    changed it."""
    from datetime import UTC, datetime

    from graphmem.models import Episode, Message
    from graphmem.store.base import WriteBatch

    path = tmp_path / "shared.db"
    reader, writer = EmbeddedStore(path, embedding_dim=4), EmbeddedStore(path, embedding_dim=4)
    reader.open()
    writer.open()
    try:
        episode = Episode(tenant="t", scope_key=ALICE.key,
                          reference_time=datetime(2024, 1, 1, tzinfo=UTC),
                          messages=[Message(id="q", speaker="Bob", content="Do you like jazz?"),
                                    Message(id="a", speaker="Alice", content="Yes, jazz.")])
        writer.write("t", WriteBatch(episodes=[episode]))
        found = reader.fulltext_turns("t", ALICE.visible_keys, "jazz", 5)
        assert [h.speaker for h in found] == ["Bob", "Alice"]
        assert reader.fulltext_turns("t", ALICE.visible_keys, "jazz", 5)[0].speaker == "Bob"

        renamed = episode.model_copy(update={"messages": [
            m.model_copy(update={"speaker": "Robert"}) if m.id == "q" else m
            for m in episode.messages]})
        writer.write("t", WriteBatch(episodes=[renamed]))
        again = reader.fulltext_turns("t", ALICE.visible_keys, "jazz", 5)
        assert [h.speaker for h in again] == ["Robert", "Alice"]

        writer.write("t", WriteBatch(episodes=[renamed.model_copy(update={"forgotten": True})]))
        assert reader.fulltext_turns("t", ALICE.visible_keys, "jazz", 5) == []
    finally:
        reader.close()
        writer.close()
