"""Text analysis both stores' full-text channels share: CJK bigrams, stopwords, safe queries.

SQLite's FTS5 and Neo4j's Lucene index tokenise differently, but what a query
asks for must not: the same words are dropped as too common on both, and text
in scripts written without spaces is cut into the bigrams Lucene's CJK
analyzer also uses.
"""

from __future__ import annotations

import re

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


#: Words too common to help ranking; dropped from queries (not from the index).
STOPWORDS = frozenset("""
a about after again all am an and any are as at be been before being both but by can could
did do does doing down during each few for from had has have having he her here hers herself
him himself his how i if in into is it its itself just me more most my myself no nor not now
of off on once only or other our ours out over own same she should so some such than that the
their theirs them then there these they this those through to too under until up very was we
were what when where which while who whom why will with would you your yours yourself
""".split())


def fts_query(text: str, max_terms: int = 32) -> str | None:
    """Turn free text into a safe FTS5 OR-query of quoted terms (no FTS syntax leaks in).

    Stopwords are dropped unless nothing else is left.
    """
    words = list(dict.fromkeys(w.lower() for w in _WORD.findall(analyze(text))))
    terms = [w for w in words if w not in STOPWORDS] or words
    terms = terms[:max_terms]
    if not terms:
        return None
    return " OR ".join(f'"{t}"' for t in terms)
