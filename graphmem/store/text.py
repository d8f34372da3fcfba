"""Text analysis both stores' full-text channels share: CJK bigrams, stopwords, safe queries.

SQLite's FTS5 and Neo4j's Lucene index tokenise differently, but what a query
asks for must not: the same words are dropped as too common on both, and text
in scripts written without spaces is cut into the bigrams Lucene's CJK
analyzer also uses.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import TypeVar

_WORD = re.compile(r"\w+", re.UNICODE)
#: Han, Hiragana, Katakana and Hangul: scripts written without spaces between words.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")


def _bigrams(run: str) -> str:
    if len(run) == 1:
        return run
    return " ".join(run[i:i + 2] for i in range(len(run) - 1))


def analyze(text: str) -> str:
    """Make CJK runs searchable by FTS5: each run becomes its overlapping bigrams.

    SQLite's unicode61 tokenizer would index "我喜欢喝咖啡" as one token, so no
    query short of the whole run could match it. Bigrams are what Lucene's CJK
    analyzer uses too. Other text passes through unchanged.
    """
    return _CJK.sub(lambda m: f" {_bigrams(m.group(0))} ", text)


def scope_token(tenant: str, scope_key: str) -> str:
    """One full-text word naming a tenant's scope, indexed with every searchable row, so
    that a full-text index itself keeps to a scope.

    Filtering by scope after the index has answered reads every tenant's matching rows
    first, a cost that grows with the whole store and with other tenants' words; with the
    token in the query, the index intersects postings and yields only the scope's own rows
    (FTS5 on the embedded store, Lucene on Neo4j). A hash keeps the token one word
    whatever the key holds.
    """
    digest = hashlib.blake2b(f"{tenant}\x00{scope_key}".encode(), digest_size=10).hexdigest()
    return f"s{digest}"


#: Words too common to help ranking; dropped from queries (not from the index).
STOPWORDS = frozenset("""
a about after again all am an and any are as at be been before being both but by can could
did do does doing down during each few for from had has have having he her here hers herself
him himself his how i if in into is it its itself just me more most my myself no nor not now
of off on once only or other our ours out over own same she should so some such than that the
their theirs them then there these they this those through to too under until up very was we
were what when where which while who whom why will with would you your yours yourself
""".split())


def query_terms(text: str, max_terms: int = 32) -> list[str]:
    """The words a full-text search asks for, lower-cased, each once, in order.

    Stopwords are dropped unless nothing else is left; CJK runs are their bigrams.

    >>> query_terms("Where does Maya work? Maya!")
    ['maya', 'work']
    """
    words = list(dict.fromkeys(w.lower() for w in _WORD.findall(analyze(text))))
    terms = [w for w in words if w not in STOPWORDS] or words
    return terms[:max_terms]


def fts_query(text: str, max_terms: int = 32) -> str | None:
    """Turn free text into a safe FTS5 OR-query of quoted terms (no FTS syntax leaks in).

    Stopwords are dropped unless nothing else is left.
    """
    terms = query_terms(text, max_terms)
    if not terms:
        return None
    return " OR ".join(f'"{t}"' for t in terms)


# -- BM25 with one scope's statistics -------------------------------------------------
#: BM25's constants: FTS5's and Lucene's defaults.
BM25_K1 = 1.2
BM25_B = 0.75
#: The most documents of a scope one query term is read for. A term more common than
#: this in a scope weighs almost nothing there; its best-matching documents are read.
TERM_DOCS_CAP = 2000
#: A term in more than this share of a scope's documents tells nothing about which of them
#: a question is after (Robertson and Sparck Jones's idf is negative there): it is left out
#: of the ranking, from scopes of at least ``COMMON_MIN_DOCUMENTS`` documents on. Everyone's
#: turns carry their speaker's name, so "Maya" is such a term in Maya's scope; ranked by it,
#: her shortest turns ("I don't eat meat.") led every question that named her. Measured
#: on LoCoMo dev (chosen there, no held-out figure): recall@10 76.4 -> 76.8 with the ties fix.
COMMON_SHARE = 0.5
COMMON_MIN_DOCUMENTS = 20


def term_docs_limit(documents: int) -> int:
    """How many of a scope's documents holding one query term to read, in a scope of
    ``documents``: :data:`TERM_DOCS_CAP`, or, where a term can be too common to count
    (:data:`COMMON_SHARE`), one more than that share. Reading that many tells whether the
    term is too common (then it is left out, so reading more would change nothing) and
    reads all of a term that is not. A speaker's name is in every one of their turns: this
    reads half of them instead of all. Neo4j's twin is in ``search_reads._scope_bm25``.

    >>> term_docs_limit(10), term_docs_limit(1000), term_docs_limit(100_000)
    (2000, 501, 2000)
    """
    if documents < COMMON_MIN_DOCUMENTS:
        return TERM_DOCS_CAP
    return min(TERM_DOCS_CAP, math.floor(COMMON_SHARE * documents) + 1)


def too_common(found: int, documents: int) -> bool:
    """Whether a term held by ``found`` of a scope's ``documents`` is too common to count
    (:data:`COMMON_SHARE`); a reader that got ``found`` rows back knows it can stop there.

    >>> too_common(11, 20), too_common(10, 20), too_common(5, 6)
    (True, False, False)
    """
    total = max(documents, found)
    return total >= COMMON_MIN_DOCUMENTS and found > COMMON_SHARE * total


#: A document's key: its row number in the embedded store, whose order is the order the
#: scope's documents were written in, whoever else wrote in between.
Doc = TypeVar("Doc", int, str)


def scope_bm25(term_postings: Sequence[Mapping[Doc, float]], lengths: Mapping[Doc, int],
               documents: int) -> list[tuple[Doc, float]]:
    """Rank documents by BM25 computed from one scope's statistics alone; best first.

    SQLite's ``bm25()`` and Lucene weigh a term by how rare it is in the whole
    index: every tenant's and every user's documents. Ranked that way, another
    tenant's writes reorder a tenant's results (no data crosses, but what an
    assistant recalls would depend on strangers' conversations). Here each of the
    query's terms comes with the scope's documents holding it (``term_postings``:
    document -> the summed weights of the fields holding the term); ``documents``
    is how many the scope holds and ``lengths`` the documents' lengths (all
    fields, as FTS5 counts them), compared with their mean over the documents
    found for the terms that count. A term too common in the scope
    (:data:`COMMON_SHARE`) is left out, from the mean too: a speaker's name found in
    all of their turns would otherwise make their mean turn the yardstick. Ties go
    to the earlier-written document (the smaller key): an order of
    the scope's own, which keys that are text, or row numbers compared as text,
    would not give.

    >>> scope_bm25([{"a": 1.0, "b": 1.0}, {"b": 1.0}], {"a": 10, "b": 10}, 100)[0][0]
    'b'
    """
    weighed: list[tuple[float, Mapping[Doc, float]]] = []
    for postings in term_postings:
        found = len(postings)
        if not found or too_common(found, documents):
            continue
        total = max(documents, found)
        weighed.append((math.log(1.0 + (total - found + 0.5) / (found + 0.5)), postings))
    counted = {doc for _, postings in weighed for doc in postings}
    if not counted:
        return []
    mean = sum(lengths[doc] for doc in counted) / len(counted) or 1.0
    scores: dict[Doc, float] = defaultdict(float)
    for idf, postings in weighed:
        for doc, tf in postings.items():
            norm = 1.0 - BM25_B + BM25_B * lengths.get(doc, mean) / mean
            scores[doc] += idf * tf * (BM25_K1 + 1.0) / (tf + BM25_K1 * norm)
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
