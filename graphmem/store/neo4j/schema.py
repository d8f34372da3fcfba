"""The Neo4j schema graphmem needs, its version, and how to get a database there.

:func:`ensure_schema` is idempotent: it creates whatever constraint or index is
missing, runs the migrations from the stored version to :data:`SCHEMA_VERSION`,
records the version in the single ``(:GraphmemSchema {key: 'graphmem'})`` node
and waits until every index is ONLINE. A database written by a newer graphmem,
or whose vector indexes have another dimension than the embedder's, is refused
with :class:`SchemaError` rather than half-used.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from graphmem.errors import SchemaError, StoreError
from graphmem.store.neo4j import reads, reminders, scope_clocks, timelines, vector_scopes
from graphmem.store.neo4j.sketch import SKETCH_PROPERTY, sketch
from graphmem.store.text import scope_token

SCHEMA_VERSION = 8

#: Runs one statement in its own write transaction and returns its records as dicts.
Runner = Callable[[str, dict[str, Any]], list[dict[str, Any]]]

CONSTRAINTS = {
    "graphmem_schema_key": "CREATE CONSTRAINT graphmem_schema_key IF NOT EXISTS"
    " FOR (n:GraphmemSchema) REQUIRE n.key IS UNIQUE",
    "episode_id": "CREATE CONSTRAINT episode_id IF NOT EXISTS"
    " FOR (n:Episode) REQUIRE n.id IS UNIQUE",
    "message_id": "CREATE CONSTRAINT message_id IF NOT EXISTS"
    " FOR (n:Message) REQUIRE n.id IS UNIQUE",
    "entity_id": "CREATE CONSTRAINT entity_id IF NOT EXISTS"
    " FOR (n:Entity) REQUIRE n.id IS UNIQUE",
    "fact_id": "CREATE CONSTRAINT fact_id IF NOT EXISTS FOR (n:Fact) REQUIRE n.id IS UNIQUE",
    "stored_request_id": "CREATE CONSTRAINT stored_request_id IF NOT EXISTS"
    " FOR (n:StoredRequest) REQUIRE n.id IS UNIQUE",
    reminders.CONSTRAINT[0]: reminders.CONSTRAINT[1],
    timelines.CONSTRAINT[0]: timelines.CONSTRAINT[1],
    scope_clocks.CONSTRAINT[0]: scope_clocks.CONSTRAINT[1],
}

RANGE_INDEXES = {
    "episode_scope": "CREATE INDEX episode_scope IF NOT EXISTS"
    " FOR (n:Episode) ON (n.tenant, n.scopeKey)",
    "episode_client": "CREATE INDEX episode_client IF NOT EXISTS FOR (n:Episode) ON (n.clientId)",
    "episode_expires": "CREATE INDEX episode_expires IF NOT EXISTS"
    " FOR (n:Episode) ON (n.expiresAt)",
    "message_scope": "CREATE INDEX message_scope IF NOT EXISTS"
    " FOR (n:Message) ON (n.tenant, n.scopeKey)",
    "entity_scope": "CREATE INDEX entity_scope IF NOT EXISTS"
    " FOR (n:Entity) ON (n.tenant, n.scopeKey)",
    "fact_scope": "CREATE INDEX fact_scope IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.scopeKey)",
    "fact_timeline": "CREATE INDEX fact_timeline IF NOT EXISTS FOR (n:Fact) ON (n.timelineKey)",
    "fact_valid_from": "CREATE INDEX fact_valid_from IF NOT EXISTS FOR (n:Fact) ON (n.validFrom)",
    # a walk reads an entity's facts in its order from these (reads.hop)
    "fact_subject_walk": "CREATE INDEX fact_subject_walk IF NOT EXISTS"
    " FOR (n:Fact) ON (n.subjectId, n.importance, n.validFrom, n.negSeq)",
    "fact_object_walk": "CREATE INDEX fact_object_walk IF NOT EXISTS"
    " FOR (n:Fact) ON (n.objectId, n.importance, n.validFrom, n.negSeq)",
    "stored_request_created": "CREATE INDEX stored_request_created IF NOT EXISTS"
    " FOR (n:StoredRequest) ON (n.tenant, n.createdAt)",
    reminders.DUE_INDEX[0]: reminders.DUE_INDEX[1],
    # a search reads a scope's changed vectors from these (scope_clocks.changes)
    **scope_clocks.INDEXES,
}

# BM25 with English stemming, as the embedded store's porter FTS5 tables. Each searchable
# node also indexes its scope's token (``scopeTag``, graphmem.store.text.scope_token), so a
# query names its scope and Lucene yields that scope's nodes only, never every tenant's.
# The name index keeps each normalised name whole (keyword analyzer): find_entities is an
# exact lookup.
FULLTEXT_INDEXES = {
    reads.FACT_TEXT_INDEX: "CREATE FULLTEXT INDEX fact_text IF NOT EXISTS"
    " FOR (n:Fact) ON EACH [n.text, n.scopeTag]"
    " OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}",
    reads.ENTITY_TEXT_INDEX: "CREATE FULLTEXT INDEX entity_text IF NOT EXISTS"
    " FOR (n:Entity) ON EACH [n.name, n.aliasText, n.summary, n.scopeTag]"
    " OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}",
    reads.MESSAGE_TEXT_INDEX: "CREATE FULLTEXT INDEX message_text IF NOT EXISTS"
    " FOR (n:Message) ON EACH [n.content, n.speaker, n.context, n.scopeTag]"
    " OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}",
    reads.ENTITY_NAMES_INDEX: "CREATE FULLTEXT INDEX entity_names IF NOT EXISTS"
    " FOR (n:Entity) ON EACH [n.tenant, n.names]"
    " OPTIONS {indexConfig: {`fulltext.analyzer`: 'keyword'}}",
}

# Quantisation off: scores stay the exact cosine, as in the embedded store, which
# entity resolution compares against fixed thresholds.
# Each holds the nodes of large scopes only (vector_scopes: small scopes are ranked exactly).
VECTOR_INDEXES = {
    reads.FACT_VECTOR_INDEX: "CREATE VECTOR INDEX fact_embedding IF NOT EXISTS"
    f" FOR (n:{vector_scopes.INDEXED['Fact']}) ON n.embedding OPTIONS $options",
    reads.ENTITY_VECTOR_INDEX: "CREATE VECTOR INDEX entity_embedding IF NOT EXISTS"
    f" FOR (n:{vector_scopes.INDEXED['Entity']}) ON n.embedding OPTIONS $options",
    reads.MESSAGE_VECTOR_INDEX: "CREATE VECTOR INDEX message_embedding IF NOT EXISTS"
    f" FOR (n:{vector_scopes.INDEXED['Message']}) ON n.embedding OPTIONS $options",
}

#: What a migration step is: a statement, or a function that runs statements itself (for a
#: value Cypher cannot compute, such as a hash).
Step = str | Callable[[Runner], None]

#: The nodes the full-text indexes search, each tagged with its scope's token since version 4.
_SEARCHABLE_LABELS = ("Fact", "Entity", "Message")


def tag_scopes(run: Runner) -> None:
    """Give every searchable node its scope's token (``scopeTag``), one scope and label per
    transaction so that a large database is not tagged in one; nodes already tagged are
    left as they are, so a migration interrupted half way is finished by the next open."""
    for label in _SEARCHABLE_LABELS:
        scopes = run(f"MATCH (n:{label}) WHERE n.scopeTag IS NULL"
                     " RETURN DISTINCT n.tenant AS tenant, n.scopeKey AS scopeKey", {})
        for row in scopes:
            run(f"MATCH (n:{label}) WHERE n.tenant = $tenant AND n.scopeKey = $scopeKey"
                " AND n.scopeTag IS NULL SET n.scopeTag = $tag",
                {"tenant": row["tenant"], "scopeKey": row["scopeKey"],
                 "tag": scope_token(str(row["tenant"]), str(row["scopeKey"]))})


#: Nodes read and sketched per transaction by :func:`sketch_vectors`.
SKETCH_BATCH = 1000


def sketch_vectors(run: Runner) -> None:
    """Give every node with a vector its sketch (:mod:`graphmem.store.neo4j.sketch`), computed
    here (Cypher cannot multiply by the projection cheaply): :data:`SKETCH_BATCH` nodes a
    transaction in id order, the vectors of sketched nodes not read, so that a migration
    interrupted half way is finished by the next open."""
    for label in _SEARCHABLE_LABELS:
        after = ""
        while True:
            rows = run(f"MATCH (n:{label}) WHERE n.id > $after"
                       " WITH n ORDER BY n.id LIMIT $batch"
                       f" RETURN n.id AS id, CASE WHEN n.{SKETCH_PROPERTY} IS NULL"
                       " THEN n.embedding END AS embedding",
                       {"after": after, "batch": SKETCH_BATCH})
            if not rows:
                break
            after = str(rows[-1]["id"])
            sketched = [{"id": r["id"], "sketch": short} for r in rows
                        if (short := sketch(r["embedding"])) is not None]
            if sketched:
                run(f"UNWIND $rows AS row MATCH (n:{label} {{id: row.id}})"
                    f" WHERE n.{SKETCH_PROPERTY} IS NULL SET n.{SKETCH_PROPERTY} = row.sketch",
                    {"rows": sketched})


#: Facts given their ``negSeq`` per transaction by :func:`order_facts`.
ORDER_BATCH = 10_000


def order_facts(run: Runner) -> None:
    """Give every fact its ``negSeq`` (``-seq``: the walk's last key, reads.WALK_ORDER),
    :data:`ORDER_BATCH` facts a transaction, so that a migration interrupted half way is
    finished by the next open."""
    while run("MATCH (f:Fact) WHERE f.negSeq IS NULL WITH f LIMIT $batch"
              " SET f.negSeq = -coalesce(f.seq, 0) RETURN count(f) AS n",
              {"batch": ORDER_BATCH})[0]["n"]:
        pass


#: Nodes labelled per transaction by :func:`index_large_scopes`.
LABEL_BATCH = 10_000


def index_large_scopes(run: Runner, index_from: int) -> None:
    """Give the nodes of every scope holding ``index_from`` nodes of a kind (or already
    flagged) their indexed label (:mod:`graphmem.store.neo4j.vector_scopes`),
    :data:`LABEL_BATCH` nodes a transaction, and then every scope's clock its count and
    flag. Labels come first: a migration interrupted half way leaves a scope labelled but
    not flagged, which readers rank exactly, and the next open finishes it."""
    for kind in vector_scopes.KINDS:
        flag, written = vector_scopes.flag(kind), vector_scopes.written(kind)
        label = vector_scopes.INDEXED[kind]
        scopes = run(f"MATCH (n:{kind}) WITH n.tenant AS tenant, n.scopeKey AS key,"
                     " count(*) AS size WHERE tenant IS NOT NULL AND key IS NOT NULL"
                     " RETURN tenant, key, size", {})
        for row in scopes:
            params = {"tenant": row["tenant"], "key": row["key"], "size": int(row["size"]),
                      "batch": LABEL_BATCH}
            flagged = run("OPTIONAL MATCH (c:ScopeClock {tenant: $tenant, scopeKey: $key})"
                          f" RETURN coalesce(c.{flag}, false) AS indexed", params)
            params["indexed"] = (params["size"] >= max(1, index_from)
                                 or bool(flagged and flagged[0]["indexed"]))
            while params["indexed"] and run(
                    f"MATCH (n:{kind}) WHERE n.tenant = $tenant AND n.scopeKey = $key"
                    f" AND NOT n:{label} WITH n LIMIT $batch SET n:{label}"
                    " RETURN count(n) AS n", params)[0]["n"]:
                pass
            run("MERGE (c:ScopeClock {tenant: $tenant, scopeKey: $key})"
                " ON CREATE SET c.n = timestamp() * 1000"
                f" SET c.{written} = $size, c.{flag} = $indexed", params)


#: Steps that bring a database from version ``v - 1`` to ``v``. They run before the
#: CREATE ... IF NOT EXISTS statements above, so an index dropped here comes back with its
#: current definition (and is populated from the data already stored). Each is idempotent.
MIGRATIONS: dict[int, tuple[Step, ...]] = {
    1: (),
    # 2: English stemming for the BM25 indexes; turns searchable by speaker too.
    2: ("DROP INDEX fact_text IF EXISTS", "DROP INDEX entity_text IF EXISTS",
        "DROP INDEX message_text IF EXISTS"),
    # 3: turns are also found by their neighbours' words (models.turn_context_texts: two
    # turns before and one after, as of this version), kept in Message.context.
    3: ("DROP INDEX message_text IF EXISTS",
        "MATCH (m:Message) WHERE m.context IS NULL"
        " WITH m ORDER BY m.episodeId, m.index"
        " WITH m.episodeId AS episode, collect(m) AS turns"
        " WITH turns, [t IN turns | CASE WHEN t.speaker IS NULL THEN t.content"
        " ELSE t.speaker + ': ' + t.content END] AS own"
        " UNWIND range(0, size(turns) - 1) AS i"
        " WITH turns[i] AS m, own[CASE WHEN i < 2 THEN 0 ELSE i - 2 END..i] + own[i + 1..i + 2]"
        " AS around"
        " SET m.context = reduce(joined = '', part IN around"
        " | joined + (CASE WHEN joined = '' THEN '' ELSE ' | ' END) + toString(part))"),
    # 4: the full-text indexes also index each node's scope token, so a search's Lucene
    # query keeps to its scope (search_reads.scoped_lucene).
    4: (tag_scopes, "DROP INDEX fact_text IF EXISTS", "DROP INDEX entity_text IF EXISTS",
        "DROP INDEX message_text IF EXISTS"),
    # 5: each vector has a sketch beside it, so that a large scope is ranked in two steps
    # (search_reads.vector_scan_scope).
    5: (sketch_vectors,),
    # 6: a walk reads each entity's facts in its order from an index (fact_subject_walk,
    # fact_object_walk), whose last key each fact now has.
    6: (order_facts,),
    # 7: scope clocks, and stamps on the facts and turns written since (scope_clocks); nodes
    # written before carry none and are read when a scope is loaded whole.
    7: (),
    # 8: the vector indexes hold large scopes' nodes only (vector_scopes), labelled by
    # index_large_scopes, which needs the store's limit and is bound in migrations().
    # The clocks' constraint first: a database older than 7 has none yet, and each MERGE of
    # a clock would scan them all.
    8: (scope_clocks.CONSTRAINT[1],
        *(f"DROP INDEX {name} IF EXISTS" for name in VECTOR_INDEXES)),
}


def migrations(index_from: int) -> dict[int, tuple[Step, ...]]:
    """:data:`MIGRATIONS` with the steps that depend on the store's configuration: a scope is
    large from ``index_from`` nodes of a kind (the store's ``exact_scan_limit``)."""
    def label_large_scopes(run: Runner) -> None:
        index_large_scopes(run, index_from)

    return {**MIGRATIONS, 8: (*MIGRATIONS[8], label_large_scopes)}

READ_VERSION = "MATCH (s:GraphmemSchema {key: 'graphmem'}) RETURN s.version AS version"
WRITE_VERSION = (
    "MERGE (s:GraphmemSchema {key: 'graphmem'})"
    " SET s.version = $version, s.migratedAt = datetime()"
)
VECTOR_DIMENSIONS = (
    "SHOW VECTOR INDEXES YIELD name, options WHERE name IN $names"
    " RETURN name, options.indexConfig.`vector.dimensions` AS dimensions"
)
EXISTING = ("SHOW INDEXES YIELD name RETURN name", "SHOW CONSTRAINTS YIELD name RETURN name")
AWAIT_INDEXES = "CALL db.awaitIndexes($seconds)"
FAILED_INDEXES = (
    "SHOW INDEXES YIELD name, state, failureMessage WHERE state = 'FAILED'"
    " RETURN name, failureMessage"
)


def vector_options(dimension: int) -> dict[str, Any]:
    return {"indexConfig": {
        "vector.dimensions": dimension,
        "vector.similarity_function": "cosine",
        "vector.quantization.enabled": False,
    }}


def schema_statements(dimension: int) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every CREATE ... IF NOT EXISTS statement by the name it creates, constraints first."""
    options = {"options": vector_options(dimension)}
    plain = {**CONSTRAINTS, **RANGE_INDEXES, **FULLTEXT_INDEXES}
    return {**{name: (s, {}) for name, s in plain.items()},
            **{name: (s, options) for name, s in VECTOR_INDEXES.items()}}


def stored_version(run: Runner) -> int | None:
    rows = run(READ_VERSION, {})
    return None if not rows or rows[0]["version"] is None else int(rows[0]["version"])


def ensure_schema(run: Runner, dimension: int, *, index_from: int,
                  await_seconds: int = 300) -> int:
    """Create what is missing, migrate older versions, and wait for indexes; returns the version.

    ``index_from``: how many nodes of a kind make a scope large enough for the vector
    indexes (the store's ``exact_scan_limit``; :mod:`graphmem.store.neo4j.vector_scopes`).
    Raises SchemaError for a newer schema version, a vector index of another
    dimension, or an index that failed to populate.
    """
    version = stored_version(run)
    if version is not None and version > SCHEMA_VERSION:
        raise SchemaError(
            f"the Neo4j database has graphmem schema version {version}, newer than this "
            f"graphmem ({SCHEMA_VERSION}); upgrade graphmem"
        )
    steps = migrations(index_from)
    for target in range((version or 0) + 1, SCHEMA_VERSION + 1):
        for step in steps.get(target, ()):
            if isinstance(step, str):
                run(step, {})
            else:
                step(run)
    existing = {str(row["name"]) for query in EXISTING for row in run(query, {})}
    for name, (statement, params) in schema_statements(dimension).items():
        if name not in existing:
            run(statement, params)
    _check_vector_dimensions(run, dimension)
    if version != SCHEMA_VERSION:
        run(WRITE_VERSION, {"version": SCHEMA_VERSION})
    _await_indexes(run, await_seconds)
    failed = run(FAILED_INDEXES, {})
    if failed:
        names = ", ".join(f"{r['name']} ({r['failureMessage']})" for r in failed)
        raise SchemaError(f"Neo4j indexes failed to populate: {names}")
    return SCHEMA_VERSION


#: How often to wait for the indexes again when one vanished while waited on (below).
AWAIT_ATTEMPTS = 5
_PROCEDURE_FAILED = "Neo.ClientError.Procedure.ProcedureCallFailed"


def _await_indexes(run: Runner, seconds: int) -> None:
    """Wait for every index to come online.

    Processes opening one database at the same moment (``graphmem serve --workers N``) may
    race to create a constraint: the loser's backing index appears and is dropped again,
    and ``db.awaitIndexes`` fails on the index it was waiting for, which no longer exists
    (CI saw it: "Indexes not guaranteed to be online: timeline_key"). Waiting again sees
    the indexes as they now are; any other failure is raised at once.
    """
    for attempt in range(1, AWAIT_ATTEMPTS + 1):
        try:
            run(AWAIT_INDEXES, {"seconds": seconds})
            return
        except StoreError as err:
            if attempt == AWAIT_ATTEMPTS or getattr(err.__cause__, "code", None) != \
                    _PROCEDURE_FAILED:
                raise
            time.sleep(0.2 * attempt)


def _check_vector_dimensions(run: Runner, dimension: int) -> None:
    rows = run(VECTOR_DIMENSIONS, {"names": list(VECTOR_INDEXES)})
    for row in rows:
        if row["dimensions"] is not None and int(row["dimensions"]) != dimension:
            raise SchemaError(
                f"Neo4j vector index {row['name']} holds {row['dimensions']}-dimensional "
                f"embeddings but the configured embedder makes {dimension}; use another "
                "database or the same embedder"
            )
