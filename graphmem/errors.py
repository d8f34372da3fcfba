"""One exception tree for graphmem.

Every error the library raises derives from :class:`GraphMemError`, so callers
(the REST API, the CLI) can map each class to one answer in one place. Foreign
errors (driver, SQLite, HTTP) are translated at the boundary and chained with
``raise ... from err`` so the cause is never lost.
"""

from __future__ import annotations


class GraphMemError(Exception):
    """Base class of every graphmem error."""


class ValidationError(GraphMemError):
    """Input is malformed: empty or oversized message, bad timestamp, bad scope..."""


class NotFoundError(GraphMemError):
    """The requested episode, fact or entity does not exist in this tenant."""


class ConflictError(GraphMemError):
    """The request contradicts stored state (for example a reused message id)."""


class TimelineConflictError(ConflictError):
    """A write lost a race: a timeline it read changed before it committed.

    Raised by a store's ``write`` for a batch whose ``timeline_versions`` no longer
    match the stored ones; nothing was written. The writer re-reads the timelines
    and decides again (:class:`graphmem.ingest.pipeline.Ingestor` does, a few times).
    """

    def __init__(self, keys: list[str]) -> None:
        super().__init__(f"{len(keys)} timeline(s) changed since they were read: "
                         + ", ".join(keys[:3]) + (" ..." if len(keys) > 3 else ""))
        self.keys = keys


class ScopeError(GraphMemError):
    """A request tried to reach outside its tenant or scope."""


class StoreError(GraphMemError):
    """The store failed to read or write."""


class StoreUnavailableError(StoreError):
    """The store cannot be reached (Neo4j down, database file locked)."""


class SchemaError(StoreError):
    """The store's schema is missing, newer than this code, or cannot be migrated."""


class ExtractionError(GraphMemError):
    """An extractor could not produce facts for an episode."""


class LLMError(ExtractionError):
    """The LLM endpoint failed, timed out or returned something unusable."""


class EmbeddingError(GraphMemError):
    """The embedder could not load its model or embed the input."""


class ModelIntegrityError(EmbeddingError):
    """A model file on disk does not match its pinned sha256."""


class SetupError(GraphMemError):
    """The environment is missing something: Java, Maven, a free port, a ready server."""
