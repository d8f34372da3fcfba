"""store/text.py: the query text both stores' full-text channels are given."""

from __future__ import annotations

import sqlite3

from graphmem.store.text import STOPWORDS, analyze, fts_query


def test_cjk_runs_become_overlapping_bigrams_and_other_text_is_kept() -> None:
    assert analyze("我喜欢喝咖啡").split() == ["我喜", "喜欢", "欢喝", "喝咖", "咖啡"]
    assert analyze("I like 咖啡 a lot") == "I like  咖啡  a lot"
    assert analyze("猫").split() == ["猫"]  # a one-character run stays itself
    assert analyze("Café au lait") == "Café au lait"


def test_query_drops_stopwords_and_repeats_and_quotes_every_term() -> None:
    assert fts_query("Where does Maya work, and where does Maya live?") == (
        '"maya" OR "work" OR "live"')
    assert "where" in STOPWORDS and "maya" not in STOPWORDS


def test_a_query_of_stopwords_only_keeps_them_and_nothing_gives_none() -> None:
    assert fts_query("who is it") == '"who" OR "is" OR "it"'
    assert fts_query("?!  ...") is None
    assert fts_query("") is None


def test_query_is_capped_at_max_terms() -> None:
    query = fts_query(" ".join(f"word{i}" for i in range(50)), max_terms=5)
    assert query is not None and query.count(" OR ") == 4


def test_fts_syntax_in_user_text_cannot_leak_into_the_match() -> None:
    """Operators, quotes and column filters arrive as plain quoted words that FTS5 accepts."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5 (content)")
    db.execute("INSERT INTO t VALUES ('alice works at acme')")
    for hostile in ['acme" OR content:*', "NEAR(acme alice)", "alice AND NOT acme", "-acme ^x*"]:
        match = fts_query(hostile)
        assert match is not None
        rows = db.execute("SELECT content FROM t WHERE t MATCH ?", (match,)).fetchall()
        assert rows == [("alice works at acme",)]
