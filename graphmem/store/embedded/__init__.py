"""The zero-setup store: SQLite as the durable truth, with an in-memory graph and vectors.

``store`` answers the Protocol; ``sql`` holds the schema and statements, ``writes``
applies a batch in one transaction, ``index`` and ``vectors`` are the in-memory
mirror rebuilt from the file on open.
"""

from graphmem.store.embedded.store import EmbeddedStore

__all__ = ["EmbeddedStore"]
