"""SQL for the embedded store: the schema and the statements, kept apart from the logic.

SQLite is the embedded store's durable source of truth. Each model is kept as
its JSON document plus the columns that reads filter on; FTS5 tables give real
BM25 ranking over fact text, entity names and raw turns.
"""

from __future__ import annotations

import hashlib

#: 2: a turn's full-text entry holds its neighbouring turns too (models.turn_context_texts);
#:    fact and turn entries carry a scope token, so a search reads one scope's postings.
SCHEMA_VERSION = 2

#: The turns' full-text table: a turn's own words, its neighbours' (context), its scope token.
CREATE_TURNS_FTS = ("CREATE VIRTUAL TABLE IF NOT EXISTS turns_fts USING fts5 (content, context,"
                    " scope, tokenize='porter unicode61')")
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
CREATE VIRTUAL TABLE IF NOT EXISTS entities_fts USING fts5 (text, tokenize='porter unicode61');

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
"""


def scope_token(tenant: str, scope_key: str) -> str:
    """One full-text token naming a tenant's scope, so MATCH itself keeps to it.

    Filtering by scope after MATCH ranks every tenant's matching rows first;
    with the token in the query, FTS5 intersects postings and ranks only the
    scope's own rows. A hash keeps the token one word whatever the key holds.
    """
    digest = hashlib.blake2b(f"{tenant}\x00{scope_key}".encode(), digest_size=10).hexdigest()
    return f"s{digest}"


def scoped_match(match: str, columns: str, tenant: str, scope_keys: list[str]) -> str:
    """``match`` (from :func:`graphmem.store.text.fts_query`) in ``columns``, within the given scopes only."""
    tokens = " OR ".join(f'"{scope_token(tenant, k)}"' for k in scope_keys)
    return f"{{{columns}}} : ({match}) AND scope : ({tokens})"

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
    " RETURNING rowid"
)
UPSERT_FACT = (
    "INSERT INTO facts (id, tenant, scope_key, timeline_key, subject_id, object_id, predicate,"
    " valid_from, status, category, doc, embedding) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
    " ON CONFLICT(id) DO UPDATE SET timeline_key=excluded.timeline_key,"
    " subject_id=excluded.subject_id, object_id=excluded.object_id, predicate=excluded.predicate,"
    " valid_from=excluded.valid_from, status=excluded.status, category=excluded.category,"
    " doc=excluded.doc, embedding=excluded.embedding RETURNING rowid"
)
