"""SQL for the embedded store: the schema and the statements, kept apart from the logic.

SQLite is the embedded store's durable source of truth. Each model is kept as
its JSON document plus the columns that reads filter on; FTS5 tables give real
BM25 ranking over fact text, entity names and raw turns.
"""

from __future__ import annotations

from graphmem.store.text import scope_token

#: 2: a turn's full-text entry holds its neighbouring turns too (models.turn_context_texts);
#:    fact and turn entries carry a scope token, so a search reads one scope's postings.
#: 3: entity entries carry a scope token too.
#: 4: a log of what each write changed (``changes``), which other processes' mirrors
#:    replay; a graphmem without it would write without logging.
SCHEMA_VERSION = 4

#: The turns' full-text table: a turn's own words, its neighbours' (context), its scope token.
CREATE_TURNS_FTS = ("CREATE VIRTUAL TABLE IF NOT EXISTS turns_fts USING fts5 (content, context,"
                    " scope, tokenize='porter unicode61')")
#: The entities' full-text table: an entity's names and summary, and its scope token.
CREATE_ENTITIES_FTS = ("CREATE VIRTUAL TABLE IF NOT EXISTS entities_fts USING fts5 (text, scope,"
                       " tokenize='porter unicode61')")
#: The facts' full-text table: a fact's text and its scope token.
CREATE_FACTS_FTS = ("CREATE VIRTUAL TABLE IF NOT EXISTS facts_fts USING fts5 (text, scope,"
                    " tokenize='porter unicode61')")

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS episodes (
    id TEXT PRIMARY KEY, tenant TEXT NOT NULL, scope_key TEXT NOT NULL,
    client_id TEXT, reference_time TEXT NOT NULL, expires_at TEXT, pinned INTEGER NOT NULL,
    doc TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS episodes_client ON episodes (tenant, scope_key, client_id)
    WHERE client_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS episodes_scope ON episodes (tenant, scope_key, reference_time);

CREATE TABLE IF NOT EXISTS turns (
    rowid INTEGER PRIMARY KEY, episode_id TEXT NOT NULL, idx INTEGER NOT NULL,
    tenant TEXT NOT NULL, scope_key TEXT NOT NULL, embedding BLOB
);
CREATE INDEX IF NOT EXISTS turns_episode ON turns (episode_id);
{CREATE_TURNS_FTS};

CREATE TABLE IF NOT EXISTS entities (
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant TEXT NOT NULL,
    scope_key TEXT NOT NULL, doc TEXT NOT NULL, embedding BLOB
);
CREATE INDEX IF NOT EXISTS entities_scope ON entities (tenant, scope_key);
CREATE TABLE IF NOT EXISTS entity_names (
    entity_id TEXT NOT NULL, tenant TEXT NOT NULL, scope_key TEXT NOT NULL, name TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entity_names_name ON entity_names (tenant, name);
CREATE INDEX IF NOT EXISTS entity_names_entity ON entity_names (entity_id);
{CREATE_ENTITIES_FTS};

CREATE TABLE IF NOT EXISTS reminders (
    todo_id TEXT PRIMARY KEY, tenant TEXT NOT NULL, scope_key TEXT NOT NULL,
    remind_at TEXT NOT NULL, sent_at TEXT
);
CREATE INDEX IF NOT EXISTS reminders_due ON reminders (remind_at) WHERE sent_at IS NULL;
CREATE INDEX IF NOT EXISTS reminders_scope ON reminders (tenant, scope_key);

CREATE TABLE IF NOT EXISTS facts (
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant TEXT NOT NULL,
    scope_key TEXT NOT NULL, timeline_key TEXT NOT NULL, subject_id TEXT NOT NULL,
    object_id TEXT NOT NULL, predicate TEXT NOT NULL, valid_from TEXT NOT NULL,
    status TEXT NOT NULL, category TEXT NOT NULL, doc TEXT NOT NULL, embedding BLOB
);
CREATE INDEX IF NOT EXISTS facts_timeline ON facts (tenant, timeline_key);
CREATE INDEX IF NOT EXISTS facts_scope ON facts (tenant, scope_key, valid_from);
CREATE INDEX IF NOT EXISTS facts_subject ON facts (tenant, subject_id);
CREATE INDEX IF NOT EXISTS facts_object ON facts (tenant, object_id);
CREATE TABLE IF NOT EXISTS fact_episodes (fact_id TEXT NOT NULL, episode_id TEXT NOT NULL,
    PRIMARY KEY (fact_id, episode_id));
CREATE INDEX IF NOT EXISTS fact_episodes_episode ON fact_episodes (episode_id);
{CREATE_FACTS_FTS};

CREATE TABLE IF NOT EXISTS mentions (episode_id TEXT NOT NULL, entity_id TEXT NOT NULL,
    PRIMARY KEY (episode_id, entity_id));

CREATE TABLE IF NOT EXISTS timelines (tenant TEXT NOT NULL, key TEXT NOT NULL,
    scope_key TEXT NOT NULL, version INTEGER NOT NULL, PRIMARY KEY (tenant, key));
CREATE INDEX IF NOT EXISTS timelines_scope ON timelines (tenant, scope_key);

CREATE TABLE IF NOT EXISTS requests (tenant TEXT NOT NULL, key TEXT NOT NULL,
    created_at TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (tenant, key));
CREATE INDEX IF NOT EXISTS requests_created ON requests (tenant, created_at);

-- what each write changed, for other processes' mirrors (changes.py)
CREATE TABLE IF NOT EXISTS changes (seq INTEGER PRIMARY KEY AUTOINCREMENT,
    facts TEXT NOT NULL, entities TEXT NOT NULL, episodes TEXT NOT NULL);
"""


def scope_match(tenant: str, scope_keys: list[str]) -> str:
    """The MATCH expression of the given scopes' entries (their scope tokens)."""
    tokens = " OR ".join(f'"{scope_token(tenant, k)}"' for k in scope_keys)
    return f"scope : ({tokens})"


def scoped_match(match: str, columns: str, tenant: str, scope_keys: list[str]) -> str:
    """``match`` (quoted terms, as :func:`graphmem.store.text.fts_query` writes them) in
    ``columns``, within the given scopes only."""
    return f"{{{columns}}} : ({match}) AND {scope_match(tenant, scope_keys)}"

#: The full-text tables, merged into one segment each after an erasure (FTS5 keeps a deleted
#: row's terms in older segments until they merge).
FTS_TABLES = ("turns_fts", "facts_fts", "entities_fts")

def placeholders(n: int) -> str:
    return ",".join("?" * n)


UPSERT_EPISODE = (
    "INSERT INTO episodes (id, tenant, scope_key, client_id, reference_time, expires_at, pinned,"
    " doc) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET client_id=excluded.client_id,"
    " reference_time=excluded.reference_time, expires_at=excluded.expires_at,"
    " pinned=excluded.pinned, doc=excluded.doc"
)
INSERT_TURN = ("INSERT INTO turns (episode_id, idx, tenant, scope_key, embedding)"
               " VALUES (?,?,?,?,?)")
INSERT_TURN_FTS = "INSERT INTO turns_fts (rowid, content, context, scope) VALUES (?, ?, ?, ?)"
INSERT_FACT_FTS = "INSERT INTO facts_fts (rowid, text, scope) VALUES (?, ?, ?)"

UPSERT_ENTITY = (
    "INSERT INTO entities (id, tenant, scope_key, doc, embedding) VALUES (?,?,?,?,?)"
    " ON CONFLICT(id) DO UPDATE SET doc=excluded.doc, embedding=excluded.embedding"
)
UPSERT_FACT = (
    "INSERT INTO facts (id, tenant, scope_key, timeline_key, subject_id, object_id, predicate,"
    " valid_from, status, category, doc, embedding) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
    " ON CONFLICT(id) DO UPDATE SET timeline_key=excluded.timeline_key,"
    " subject_id=excluded.subject_id, object_id=excluded.object_id, predicate=excluded.predicate,"
    " valid_from=excluded.valid_from, status=excluded.status, category=excluded.category,"
    " doc=excluded.doc, embedding=excluded.embedding"
)


# -- the connection -----------------------------------------------------------------
#: Run on every open, before the schema.
OPEN_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
    # deleted rows are overwritten, not left in free pages: an erasure must not
    # leave the erased text readable in the file
    "PRAGMA secure_delete=ON",
    # checkpoint the write-ahead log every ~80 MB instead of every 4 MB: a 500-fact batch
    # writes about 2 MB, and each checkpoint syncs the file (bench/write_throughput.py)
    "PRAGMA wal_autocheckpoint=20000",
)
BEGIN = "BEGIN IMMEDIATE"  # takes the write lock at once, across processes too
COMMIT = "COMMIT"
ROLLBACK = "ROLLBACK"
#: Merges each full-text table into one segment (see :data:`FTS_TABLES`).
OPTIMIZE_FTS = tuple(f"INSERT INTO {table}({table}) VALUES ('optimize')" for table in FTS_TABLES)
WAL_CHECKPOINT = "PRAGMA wal_checkpoint(TRUNCATE)"

# -- meta ---------------------------------------------------------------------------
SELECT_SCHEMA_VERSION = "SELECT value FROM meta WHERE key='schema_version'"
INSERT_SCHEMA_VERSION = "INSERT INTO meta VALUES ('schema_version', ?)"
UPDATE_SCHEMA_VERSION = "UPDATE meta SET value=? WHERE key='schema_version'"
SELECT_EMBEDDING_DIM = "SELECT value FROM meta WHERE key='embedding_dim'"
INSERT_EMBEDDING_DIM = "INSERT INTO meta VALUES ('embedding_dim', ?)"

# -- reads: the in-memory indexes, loaded on open ------------------------------------
LOAD_FACTS = "SELECT doc, embedding FROM facts"
LOAD_ENTITIES = "SELECT doc, embedding FROM entities"
LOAD_TURNS = ("SELECT tenant, scope_key, episode_id, idx, embedding FROM turns"
              " WHERE embedding IS NOT NULL")


# -- the change log (changes.py) ----------------------------------------------------
INSERT_CHANGE = "INSERT INTO changes (facts, entities, episodes) VALUES (?, ?, ?)"
PRUNE_CHANGES = "DELETE FROM changes WHERE seq <= ?"
LAST_CHANGE = "SELECT COALESCE(MAX(seq), 0) FROM changes"
CHANGES_SINCE = "SELECT seq, facts, entities, episodes FROM changes WHERE seq > ? ORDER BY seq"


# -- reads: what another process changed, by id (store/embedded/changes.py) -----------
def facts_by_id(count: int) -> str:
    return f"SELECT id, doc, embedding FROM facts WHERE id IN ({placeholders(count)})"


def entities_by_id(count: int) -> str:
    return f"SELECT id, doc, embedding FROM entities WHERE id IN ({placeholders(count)})"


def turns_of_episodes(count: int) -> str:
    return ("SELECT tenant, scope_key, episode_id, idx, embedding FROM turns"
            f" WHERE embedding IS NOT NULL AND episode_id IN ({placeholders(count)})")


# -- reads: episodes ----------------------------------------------------------------
EPISODE_DOC = "SELECT doc FROM episodes WHERE id=? AND tenant=?"
EPISODE_DOC_BY_CLIENT_ID = "SELECT doc FROM episodes WHERE tenant=? AND scope_key=? AND client_id=?"
EPISODE_DOCS_BY_CLIENT_ID = ("SELECT doc FROM episodes WHERE tenant=? AND client_id=?"
                             " ORDER BY scope_key")
SCOPE_KEYS = ("SELECT scope_key FROM episodes WHERE tenant=? UNION SELECT scope_key"
              " FROM facts WHERE tenant=? ORDER BY 1")
EXPIRED_EPISODE_IDS = ("SELECT id FROM episodes WHERE tenant=? AND pinned=0"
                       " AND expires_at IS NOT NULL AND expires_at <= ?")


def list_episode_docs(scopes: int, *, before: bool) -> str:
    """Params: tenant, the ``scopes`` scope keys, the ``before`` time if any, the limit."""
    where = f"tenant=? AND scope_key IN ({placeholders(scopes)})"
    if before:
        where += " AND reference_time < ?"
    return f"SELECT doc FROM episodes WHERE {where} ORDER BY reference_time DESC LIMIT ?"


# -- reads: entities ----------------------------------------------------------------
def entity_ids_named(names: int, scopes: int) -> str:
    """Params: tenant, the ``names`` normalised names, the ``scopes`` scope keys."""
    return (f"SELECT DISTINCT entity_id FROM entity_names WHERE tenant=? AND name IN "
            f"({placeholders(names)}) AND scope_key IN ({placeholders(scopes)})")


def entity_ids_prefixed(prefixes: int, scopes: int) -> str:
    """Params: tenant, the ``scopes`` scope keys, each of the ``prefixes`` GLOB patterns
    (``mel*``: case-sensitive, so the (tenant, name) index serves it), the limit."""
    names = " OR ".join(["name GLOB ?"] * prefixes)
    return (f"SELECT DISTINCT entity_id FROM entity_names WHERE tenant=? AND scope_key IN "
            f"({placeholders(scopes)}) AND ({names}) LIMIT ?")


# -- reads: facts (ids, in row order; the parsed facts come from the in-memory mirror) --
def fact_ids_in_timelines(timelines: int) -> str:
    """Params: tenant, the ``timelines`` timeline keys."""
    return f"SELECT id FROM facts WHERE tenant=? AND timeline_key IN ({placeholders(timelines)})"


# ``+tenant`` keeps SQLite from reading every fact of the tenant through an index on
# (tenant, ...) and probing the episode's list for each (56 ms at 10k facts, where
# looking the episode's few facts up by id takes 0.02 ms).
FACT_IDS_OF_EPISODE = ("SELECT id FROM facts WHERE +tenant=? AND id IN"
                       " (SELECT fact_id FROM fact_episodes WHERE episode_id=?) ORDER BY rowid")


def fact_ids_of_episodes(episodes: int) -> str:
    """Params: tenant, the ``episodes`` episode ids."""
    return ("SELECT id FROM facts WHERE +tenant=? AND id IN (SELECT fact_id FROM fact_episodes"
            f" WHERE episode_id IN ({placeholders(episodes)})) ORDER BY rowid")


def fact_ids_in_scopes(scopes: int) -> str:
    """Params: tenant, the ``scopes`` scope keys."""
    return f"SELECT id FROM facts WHERE tenant=? AND scope_key IN ({placeholders(scopes)})"


def list_fact_ids(scopes: int, *, categories: int, entity: bool, statuses: int,
                  predicates: int) -> str:
    """Newest first. Params: tenant, the scope keys, then for each filter present (a count
    above 0, ``entity`` true) its values in this order: categories, the entity id twice,
    statuses, predicates."""
    where = f"tenant=? AND scope_key IN ({placeholders(scopes)})"
    if categories:
        where += f" AND category IN ({placeholders(categories)})"
    if entity:
        where += " AND (subject_id=? OR object_id=?)"
    if statuses:
        where += f" AND status IN ({placeholders(statuses)})"
    if predicates:
        where += f" AND predicate IN ({placeholders(predicates)})"
    return f"SELECT id FROM facts WHERE {where} ORDER BY valid_from DESC, rowid DESC"


UPDATE_FACT_DOC = "UPDATE facts SET doc=? WHERE id=? AND tenant=?"


# -- search channels ----------------------------------------------------------------
# Full text: each query term's documents in the scope, ranked in Python with the scope's own
# statistics (graphmem.store.text.scope_bm25), never FTS5's table-wide bm25(). ``rank`` only
# picks which documents a term more common than TERM_DOCS_CAP is read for (``ordered``): it
# doubles a read's cost, so the rows are read in any order first and again ranked only when
# the cap cut them off (graphmem.store.embedded.fulltext.ranked_rows).
def _ranked(ordered: bool) -> str:
    return " ORDER BY rank LIMIT ?" if ordered else " LIMIT ?"


def fact_term_docs(column: str, ordered: bool = False) -> str:
    """Params: the scoped MATCH expression of one term, the cap."""
    if column != "text":
        raise ValueError(f"not a column of facts_fts: {column!r}")
    return "SELECT rowid, length(text) FROM facts_fts WHERE facts_fts MATCH ?" + _ranked(ordered)


def turn_term_docs(column: str, ordered: bool = False) -> str:
    """Params: the scoped MATCH expression of one term in ``column``, the cap. Rows: rowid and
    the entry's length (all its columns)."""
    if column not in ("content", "context"):
        raise ValueError(f"not a column of turns_fts: {column!r}")
    return ("SELECT rowid, length(content) + length(context) FROM turns_fts WHERE turns_fts MATCH ?"
            + _ranked(ordered))


def entity_term_docs(column: str, ordered: bool = False) -> str:
    """Params: the scoped MATCH expression of one term, the cap."""
    if column != "text":
        raise ValueError(f"not a column of entities_fts: {column!r}")
    return ("SELECT rowid, length(text) FROM entities_fts WHERE entities_fts MATCH ?"
            + _ranked(ordered))


#: How many entries a scope holds: params, the MATCH expression of its scope tokens.
COUNT_FACTS_FTS = "SELECT count(*) FROM facts_fts WHERE facts_fts MATCH ?"
COUNT_TURNS_FTS = "SELECT count(*) FROM turns_fts WHERE turns_fts MATCH ?"
COUNT_ENTITIES_FTS = "SELECT count(*) FROM entities_fts WHERE entities_fts MATCH ?"


def ids_of_rows(table: str, rows: int) -> str:
    """Params: tenant, the ``rows`` rowids. ``table`` is ``facts`` or ``entities``.

    ``+tenant`` keeps the planner off the tenant's indexes: given a few hundred rowids it
    chose ``facts_object (tenant=?)`` and read every fact of the tenant (16 ms at 100k
    facts, against 0.8 ms looking the rowids up)."""
    if table not in ("facts", "entities"):
        raise ValueError(f"not a table of ids: {table!r}")
    return f"SELECT rowid, id FROM {table} WHERE +tenant=? AND rowid IN ({placeholders(rows)})"


def turn_keys_of_rows(rows: int) -> str:
    """Params: tenant, the ``rows`` rowids."""
    return ("SELECT rowid, episode_id, idx FROM turns WHERE +tenant=? AND rowid IN"
            f" ({placeholders(rows)})")


# -- housekeeping -------------------------------------------------------------------
def count_episodes(scopes: int) -> str:
    """Params: tenant, the ``scopes`` scope keys."""
    return f"SELECT count(*) FROM episodes WHERE tenant=? AND scope_key IN ({placeholders(scopes)})"


def count_entities(scopes: int) -> str:
    """Params: tenant, the ``scopes`` scope keys."""
    return f"SELECT count(*) FROM entities WHERE tenant=? AND scope_key IN ({placeholders(scopes)})"


def count_facts_by_status(scopes: int) -> str:
    """Params: tenant, the ``scopes`` scope keys."""
    return (f"SELECT status, count(*) FROM facts WHERE tenant=? AND scope_key IN"
            f" ({placeholders(scopes)}) GROUP BY status")


def count_facts_by_category(scopes: int) -> str:
    """Params: tenant, the ``scopes`` scope keys, the status counted."""
    return (f"SELECT category, count(*) FROM facts WHERE tenant=? AND scope_key IN"
            f" ({placeholders(scopes)}) AND status=? GROUP BY category")


#: The ids of a scope's rows, by table: params tenant, scope key.
IDS_IN_SCOPE = {table: f"SELECT id FROM {table} WHERE tenant=? AND scope_key=?"
                for table in ("facts", "episodes", "entities")}
REMINDER_IDS_IN_SCOPE = "SELECT todo_id FROM reminders WHERE tenant=? AND scope_key=?"
DELETE_TIMELINES_IN_SCOPE = "DELETE FROM timelines WHERE tenant=? AND scope_key=?"

# -- reminders ----------------------------------------------------------------------
DUE_REMINDERS = ("SELECT tenant, scope_key, todo_id, remind_at FROM reminders"
                 " WHERE sent_at IS NULL AND remind_at <= ? ORDER BY remind_at LIMIT ?")
CLAIM_REMINDER = ("UPDATE reminders SET sent_at=? WHERE todo_id=? AND tenant=?"
                  " AND sent_at IS NULL")
INSERT_REMINDER = ("INSERT OR IGNORE INTO reminders (todo_id, tenant, scope_key, remind_at,"
                   " sent_at) VALUES (?,?,?,?,?)")
DELETE_REMINDER = "DELETE FROM reminders WHERE todo_id=? AND tenant=?"

# -- timelines ----------------------------------------------------------------------
def timeline_scopes_of_facts(facts: int) -> str:
    """Params: tenant, the ``facts`` fact ids."""
    return ("SELECT timeline_key, scope_key FROM facts WHERE tenant=? AND id IN"
            f" ({placeholders(facts)})")


#: The tables whose rows :func:`rowids` looks up (ids unique across tenants).
ROWID_TABLES = ("facts", "entities")


def rowids(table: str, ids: int) -> str:
    """Each id's rowid in ``table`` (one of :data:`ROWID_TABLES`). Params: the ``ids`` ids.

    >>> rowids("facts", 2)
    'SELECT id, rowid FROM facts WHERE id IN (?,?)'
    """
    if table not in ROWID_TABLES:
        raise ValueError(f"no rowid lookup for table {table!r}")
    return f"SELECT id, rowid FROM {table} WHERE id IN ({placeholders(ids)})"


def timeline_versions(timelines: int) -> str:
    """Params: tenant, the ``timelines`` timeline keys."""
    return f"SELECT key, version FROM timelines WHERE tenant=? AND key IN ({placeholders(timelines)})"


ADVANCE_TIMELINE = ("INSERT INTO timelines (tenant, key, scope_key, version) VALUES (?, ?, ?, 1)"
                    " ON CONFLICT (tenant, key) DO UPDATE SET version = version + 1")

# -- writes: episodes and turns -----------------------------------------------------
EPISODE_IDS_DOCS = "SELECT id, doc FROM episodes"
TURN_ROWIDS_BY_IDX = "SELECT idx, rowid FROM turns WHERE episode_id=?"
TURN_ROWIDS = "SELECT rowid FROM turns WHERE episode_id=?"
UPDATE_TURN_EMBEDDING = "UPDATE turns SET embedding=? WHERE rowid=?"
DELETE_TURN = "DELETE FROM turns WHERE rowid=?"
DELETE_TURN_FTS = "DELETE FROM turns_fts WHERE rowid=?"
DROP_TURNS_FTS = "DROP TABLE IF EXISTS turns_fts"
DELETE_EPISODE = "DELETE FROM episodes WHERE id=? AND tenant=? RETURNING id"
DELETE_TURNS_OF_EPISODE = "DELETE FROM turns WHERE episode_id=?"
DELETE_MENTIONS_OF_EPISODE = "DELETE FROM mentions WHERE episode_id=?"
DELETE_SOURCES_OF_EPISODE = "DELETE FROM fact_episodes WHERE episode_id=?"
INSERT_MENTION = "INSERT OR IGNORE INTO mentions VALUES (?, ?)"

# -- writes: entities ---------------------------------------------------------------
ENTITY_ROWID = "SELECT rowid FROM entities WHERE id=? AND tenant=?"
INSERT_ENTITY_NAME = "INSERT INTO entity_names VALUES (?,?,?,?)"
DELETE_ENTITY_NAMES = "DELETE FROM entity_names WHERE entity_id=?"
INSERT_ENTITY_FTS = "INSERT INTO entities_fts (rowid, text, scope) VALUES (?, ?, ?)"
ENTITY_ROWIDS_DOCS = "SELECT rowid, doc FROM entities"
DROP_ENTITIES_FTS = "DROP TABLE IF EXISTS entities_fts"
DELETE_ENTITY_FTS = "DELETE FROM entities_fts WHERE rowid=?"
DELETE_ENTITY = "DELETE FROM entities WHERE rowid=?"
DELETE_MENTIONS_OF_ENTITY = "DELETE FROM mentions WHERE entity_id=?"

# -- writes: facts ------------------------------------------------------------------
FACT_ROWIDS_DOCS = "SELECT rowid, doc FROM facts"
FACT_ROWID = "SELECT rowid FROM facts WHERE id=? AND tenant=?"
DELETE_FACT = "DELETE FROM facts WHERE rowid=?"
DELETE_FACT_FTS = "DELETE FROM facts_fts WHERE rowid=?"
DROP_FACTS_FTS = "DROP TABLE IF EXISTS facts_fts"
INSERT_FACT_SOURCE = "INSERT OR IGNORE INTO fact_episodes VALUES (?, ?)"
DELETE_FACT_SOURCES = "DELETE FROM fact_episodes WHERE fact_id=?"

# -- stored answers of idempotent requests ------------------------------------------
DELETE_EXPIRED_REQUESTS = "DELETE FROM requests WHERE tenant=? AND created_at < ?"
REQUEST_DOC = "SELECT doc FROM requests WHERE tenant=? AND key=?"
PUT_REQUEST = "INSERT OR REPLACE INTO requests VALUES (?, ?, ?, ?)"
DELETE_REQUESTS = "DELETE FROM requests WHERE tenant=?"
DELETE_REQUEST = "DELETE FROM requests WHERE tenant=? AND key=?"
