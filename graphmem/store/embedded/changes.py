"""What each committed write changed, so other processes' mirrors catch up row by row.

Every transaction that changes what the in-memory mirror holds (facts, entities, the
vectors of an episode's turns) adds one row to ``changes``: the ids it wrote or deleted.
A process that sees the file moved (``PRAGMA data_version``, :mod:`freshness`) reads the
rows after the last one its mirror has, and reloads only those records. Before this
log the mirror was rebuilt whole, which under two API workers happened on every search
(a search records its facts' access, which is a write): the second worker served 20
searches a second instead of 85.

The log keeps the last :data:`KEEP` rows. A process further behind than that (idle
while a long import ran beside it) rebuilds its mirror whole, as it did before. A
graphmem from before the log (schema 3) refuses the migrated file when it opens it; one
already running when a newer one migrates the file would write without logging, so stop
old processes before upgrading.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field

from graphmem.store.base import WriteBatch
from graphmem.store.embedded import sql

#: Rows kept; a batch of any size is one row.
KEEP = 2_000
#: Older rows are deleted once every this many writes, not on each.
PRUNE_EVERY = 100


@dataclass
class Changed:
    """Ids whose records in the file may differ from the mirror's."""

    facts: set[str] = field(default_factory=set)
    entities: set[str] = field(default_factory=set)
    episodes: set[str] = field(default_factory=set)

    @classmethod
    def of_batch(cls, batch: WriteBatch) -> Changed:
        return cls(facts={f.id for f in batch.facts} | set(batch.delete_fact_ids),
                   entities={e.id for e in batch.entities} | set(batch.delete_entity_ids),
                   episodes={e.id for e in batch.episodes} | set(batch.delete_episode_ids))

    def __bool__(self) -> bool:
        return bool(self.facts or self.entities or self.episodes)

    def add(self, other: Changed) -> None:
        self.facts |= other.facts
        self.entities |= other.entities
        self.episodes |= other.episodes


def last(db: sqlite3.Connection) -> int:
    """The newest row's number (0 when there is none)."""
    return int(db.execute(sql.LAST_CHANGE).fetchone()[0])


def record(db: sqlite3.Connection, changed: Changed, last_seq: int) -> int:
    """Log ``changed`` inside the caller's write transaction; return its row's number
    (``last_seq``, the newest row, when nothing changed and nothing is logged)."""
    if not changed:
        return last_seq
    seq = db.execute(sql.INSERT_CHANGE, (json.dumps(sorted(changed.facts)),
                               json.dumps(sorted(changed.entities)),
                               json.dumps(sorted(changed.episodes)))).lastrowid
    assert seq is not None  # an INSERT into a rowid table always has one
    if seq > KEEP and seq % PRUNE_EVERY == 0:
        db.execute(sql.PRUNE_CHANGES, (seq - KEEP,))
    return int(seq)


def since(db: sqlite3.Connection, seq: int) -> tuple[Changed, int] | None:
    """What changed after row ``seq``, and the newest row's number; ``None`` when rows
    after ``seq`` were pruned (the mirror must be rebuilt)."""
    rows = db.execute(sql.CHANGES_SINCE, (seq,)).fetchall()
    if not rows:
        return Changed(), seq
    if int(rows[0][0]) != seq + 1:  # numbers have no gaps (a rolled back row takes none)
        return None
    changed = Changed()
    for _, facts, entities, episodes in rows:
        changed.add(Changed(set(json.loads(facts)), set(json.loads(entities)),
                            set(json.loads(episodes))))
    return changed, int(rows[-1][0])
