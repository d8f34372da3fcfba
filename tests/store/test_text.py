"""store/text.py: the query text both stores' full-text channels are given."""

from __future__ import annotations

import sqlite3

from graphmem.store.text import STOPWORDS, analyze, fts_query, query_terms, scope_bm25


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


def test_query_terms_are_the_words_fts_query_asks_for() -> None:
    assert query_terms("Where does Maya WORK? Maya!") == ["maya", "work"]
    assert query_terms("who is it") == ["who", "is", "it"]
    assert query_terms("我喜欢") == ["我喜", "喜欢"]
    assert query_terms("") == []


# -- BM25 with a scope's own statistics ----------------------------------------------
def test_a_term_rare_in_the_scope_outweighs_a_common_one() -> None:
    common = {f"c{i}": 1.0 for i in range(9)}
    ranked = scope_bm25([common, {"r": 1.0}], {**{k: 10 for k in common}, "r": 10}, 10)
    assert ranked[0][0] == "r"
    assert ranked[0][1] > 3 * ranked[1][1]


def test_more_of_the_question_and_a_shorter_text_rank_first() -> None:
    lengths = {"both": 20, "one_short": 5, "one_long": 40}
    ranked = scope_bm25([{"both": 1.0, "one_short": 1.0, "one_long": 1.0}, {"both": 1.0}],
                        lengths, 100)
    assert [doc for doc, _ in ranked] == ["both", "one_short", "one_long"]


def test_a_field_weight_scales_a_terms_frequency() -> None:
    ranked = scope_bm25([{"own words": 1.0, "neighbours": 0.5}],
                        {"own words": 10, "neighbours": 10}, 50)
    assert [doc for doc, _ in ranked] == ["own words", "neighbours"]


def test_ties_are_broken_by_id_and_nothing_found_is_nothing() -> None:
    assert [d for d, _ in scope_bm25([{"b": 1.0, "a": 1.0}], {"a": 5, "b": 5}, 3)] == ["a", "b"]
    assert scope_bm25([{}], {}, 10) == []
    assert scope_bm25([], {}, 0) == []


def test_the_scope_count_is_never_below_what_was_found() -> None:
    """A count read before a concurrent write may be lower than the postings read after it."""
    [(_, score)] = scope_bm25([{"a": 1.0}], {"a": 5}, 0)
    assert score > 0


def test_a_term_in_most_of_a_large_scope_is_left_out() -> None:
    """Everyone's turns carry their speaker: "maya" in all of Maya's 40 turns ranks nothing,
    so the short turn that only names her no longer leads."""
    lengths = {f"t{i}": 40 for i in range(40)} | {"short": 10}
    maya = {doc: 1.0 for doc in lengths}
    family = {"t7": 1.0}
    ranked = scope_bm25([maya, family], lengths, 41)
    assert [doc for doc, _ in ranked] == ["t7"]
    # in a small scope, a common word still ranks (three turns, all about jazz)
    assert len(scope_bm25([{"a": 1.0, "b": 1.0, "c": 1.0}], {"a": 5, "b": 5, "c": 5}, 3)) == 3
