"""Stores: one Protocol (:mod:`graphmem.store.base`), one package per backend (`neo4j`, `embedded`), and the text analysis both share (`text`)."""
