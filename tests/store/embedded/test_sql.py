"""The embedded store's SQL text, checked as strings."""

from __future__ import annotations

import doctest

import pytest

from graphmem.store.embedded import sql


def test_doctests() -> None:
    assert doctest.testmod(sql).failed == 0


@pytest.mark.parametrize("table", sql.ROWID_TABLES)
def test_rowids_reads_each_table_by_id(table: str) -> None:
    assert sql.rowids(table, 3) == f"SELECT id, rowid FROM {table} WHERE id IN (?,?,?)"


def test_rowids_refuses_other_tables() -> None:
    with pytest.raises(ValueError, match="no rowid lookup for table 'facts; DROP'"):
        sql.rowids("facts; DROP", 1)
