"""The embedded store's full-text channels, ranked with each scope's own statistics.

FTS5 finds the documents holding a query term (its postings, already narrowed to
the scope by the scope token in the MATCH expression); the ranking is
:func:`graphmem.store.text.scope_bm25`, not FTS5's ``bm25()``, whose row count,
mean length and term frequencies are the whole table's: every tenant's. This
module knows the tables' shapes, not the store: it is handed a query function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from graphmem.models import TURN_CONTEXT_WEIGHT
from graphmem.store import text as text_analysis
from graphmem.store.embedded import sql

#: Runs one read statement with its parameters.
Query = Callable[[str, Sequence[object]], list[tuple[object, ...]]]


@dataclass(frozen=True)
class _Table:
    """A scope-tokened full-text table: the statement reading a term's documents in a column
    (rowid and the entry's length), the one counting a scope's entries, and the columns
    searched with their weights."""

    term_docs: Callable[[str, bool], str]  # column, ranked -> statement
    count: str
    columns: tuple[tuple[str, float], ...]


FACTS = _Table(sql.fact_term_docs, sql.COUNT_FACTS_FTS, (("text", 1.0),))
ENTITIES = _Table(sql.entity_term_docs, sql.COUNT_ENTITIES_FTS, (("text", 1.0),))
#: A turn's own words count fully, its neighbours' (context) less.
TURNS = _Table(sql.turn_term_docs, sql.COUNT_TURNS_FTS,
               (("content", 1.0), ("context", TURN_CONTEXT_WEIGHT)))


def ranked_rows(query: Query, table: _Table, tenant: str, scope_keys: list[str],
                text: str) -> list[tuple[int, float]]:
    """``(rowid, score)`` of the scope's entries matching ``text``, best first.

    The count reads how many entries the scope holds; each query term's rows (up to
    :func:`~graphmem.store.text.term_docs_limit` a column) become its postings (a row found
    in two columns sums their weights), and :func:`~graphmem.store.text.scope_bm25` ranks.
    Which rows a term's read returns matters only when the limit cut it off and what it read
    does not already show the term too common: only then is it read again in FTS5's rank
    order, which costs twice an unordered read.
    """
    terms = text_analysis.query_terms(text)
    if not terms or not scope_keys:
        return []
    [(counted,)] = query(table.count, [sql.scope_match(tenant, scope_keys)])
    documents = int(str(counted))
    limit = text_analysis.term_docs_limit(documents)
    lengths: dict[int, int] = {}
    term_postings: list[dict[int, float]] = []
    for term in terms:
        postings: dict[int, float] = {}
        for column, weight in table.columns:
            params: list[object] = [sql.scoped_match(f'"{term}"', column, tenant, scope_keys),
                                    limit]
            found = query(table.term_docs(column, False), params)
            if len(found) == limit and not text_analysis.too_common(limit, documents):
                found = query(table.term_docs(column, True), params)
            for row, length in found:
                rowid = int(str(row))
                postings[rowid] = postings.get(rowid, 0.0) + weight
                lengths[rowid] = int(str(length or 0))
        term_postings.append(postings)
    return text_analysis.scope_bm25(term_postings, lengths, documents)


def ids_of(query: Query, table: str, tenant: str,
           ranked: list[tuple[int, float]]) -> list[tuple[str, float]]:
    """``ranked`` rows as ``(id, score)`` of ``table`` (facts or entities), in order."""
    ids = _by_row(query, partial(sql.ids_of_rows, table), tenant, [r for r, _ in ranked])
    return [(str(ids[r][0]), s) for r, s in ranked if r in ids]


def turn_keys_of(query: Query, tenant: str,
                 ranked: list[tuple[int, float]]) -> list[tuple[str, int, float]]:
    """``ranked`` turn rows as ``(episode id, index, score)``, in order."""
    keys = _by_row(query, sql.turn_keys_of_rows, tenant, [r for r, _ in ranked])
    return [(str(keys[r][0]), int(str(keys[r][1])), s) for r, s in ranked if r in keys]


#: Rowids per lookup statement (SQLite allows 32,766 parameters; stay well below).
_CHUNK = 500


def _by_row(query: Query, statement: Callable[[int], str], tenant: str,
            rows: list[int]) -> dict[int, tuple[object, ...]]:
    """The columns after the rowid that ``statement(n)`` reads for each of ``rows``."""
    found: dict[int, tuple[object, ...]] = {}
    for start in range(0, len(rows), _CHUNK):
        chunk = rows[start:start + _CHUNK]
        for rowid, *rest in query(statement(len(chunk)), [tenant, *chunk]):
            found[int(str(rowid))] = tuple(rest)
    return found
