"""The embedded store's full-text ranking, on a real FTS5 table."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence

import pytest

from graphmem.store import text as text_analysis
from graphmem.store.embedded import fulltext, sql

TENANT, SCOPE = "t1", "user:u1"


@pytest.fixture
def db() -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(":memory:")
    connection.execute(sql.CREATE_FACTS_FTS)
    yield connection
    connection.close()


def _add(db: sqlite3.Connection, rowid: int, text: str) -> None:
    db.execute("INSERT INTO facts_fts (rowid, text, scope) VALUES (?, ?, ?)",
               (rowid, text_analysis.analyze(text), text_analysis.scope_token(TENANT, SCOPE)))


def _reader(db: sqlite3.Connection, statements: list[str]) -> fulltext.Query:
    def query(statement: str, params: Sequence[object]) -> list[tuple[object, ...]]:
        statements.append(statement)
        return db.execute(statement, tuple(params)).fetchall()
    return query


def test_a_term_cut_off_by_the_cap_is_read_in_rank_order(
        db: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    # 40 documents; "kayak" is in 12 of them (not too common), the last four the best
    # matches (short, and the word twice). With a cap of 4 an unordered read would return
    # the first four rows it meets; the ranking must read the four FTS5 ranks best.
    for rowid in range(1, 41):
        _add(db, rowid, "filler words about the weather and many other things"
             if rowid > 12 else f"kayak trip number {rowid} with friends and a long story")
    for rowid in range(41, 45):
        _add(db, rowid, "kayak kayak")
    monkeypatch.setattr(text_analysis, "TERM_DOCS_CAP", 4)
    statements: list[str] = []
    ranked = fulltext.ranked_rows(_reader(db, statements), fulltext.FACTS, TENANT, [SCOPE],
                                  "kayak")
    assert sorted(row for row, _ in ranked) == [41, 42, 43, 44]
    assert sum("ORDER BY rank" in s for s in statements) == 1


def test_a_term_shown_too_common_is_not_read_again(db: sqlite3.Connection) -> None:
    # "weather" is in 30 of 40 documents: the first read stops at 21 (half the scope and
    # one), which already shows it too common, so it counts for nothing and is not re-read.
    for rowid in range(1, 41):
        _add(db, rowid, "the weather again" if rowid <= 30 else f"a kayak story {rowid}")
    statements: list[str] = []
    ranked = fulltext.ranked_rows(_reader(db, statements), fulltext.FACTS, TENANT, [SCOPE],
                                  "weather kayak")
    assert sorted(row for row, _ in ranked) == list(range(31, 41))
    assert not any("ORDER BY rank" in s for s in statements)


def test_rows_not_cut_off_are_read_once_in_any_order(db: sqlite3.Connection) -> None:
    for rowid in range(1, 11):
        _add(db, rowid, f"kayak number {rowid}" if rowid % 2 else "something else")
    statements: list[str] = []
    ranked = fulltext.ranked_rows(_reader(db, statements), fulltext.FACTS, TENANT, [SCOPE],
                                  "kayak")
    assert sorted(row for row, _ in ranked) == [1, 3, 5, 7, 9]
    assert not any("ORDER BY rank" in s for s in statements)
