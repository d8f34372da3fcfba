"""What the fuzz suite needs beside its tests: hostile values, valid baselines, store footprints.

Requests are built from the API's own OpenAPI document: for every operation a
valid baseline request, then that request with one field at a time replaced by
a hostile value. The footprint of the store (row or node counts, and the
memories of the seeded scope) is what must not move when a request is refused.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from graphmem.memory import Memory
from graphmem.models import Scope
from graphmem.store.base import FactQuery
from graphmem.store.embedded import EmbeddedStore
from graphmem.temporal import TimeFilter


def nested(depth: int) -> Any:
    """A JSON value ``depth`` levels deep: {"a": {"a": ... 1}}."""
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return value


#: Values no field should take without a clear 4xx (or a harmless success): empty and
#: blank, control characters, a lone UTF-16 surrogate (JSON may carry one; spaCy could not
#: encode it), a trailing newline (the old id-pattern hole), a name that
#: normalises to nothing, oversized, extreme or wrongly typed numbers, deep nesting, and
#: times a store cannot hold beside the naive, date-only and spaced forms it must take.
HOSTILE_JSON: list[Any] = [
    None, "", " ", "\x00", "I love hiking \udc80", "rp\n", "`", "x" * 100_001, -1, 2**63, 1e308, 1.5, True, [], {},
    nested(600), "9999-12-31T23:00:00-05:00", "0001-01-01T00:00:00+05:00",
    "2024-01-01T00:00:00+19:00", "2022-08-25T09:00:00", "2024-06-01", "2024-01-10 09:00:00",
    "' OR 1=1 --",
]
#: The same for query and path parameters, which are always text.
HOSTILE_TEXT: list[str] = [
    "", " ", "\x00", "rp\n", "`", "x" * 5000, "-1", "99999999999999999999", "1e308", "nan",
    "true", "9999-12-31T23:00:00-05:00", "0001-01-01T00:00:00+05:00",
    "2024-01-01T00:00:00+19:00", "2022-08-25T09:00:00", "2024-06-01", "' OR 1=1 --",
]

#: Baseline values by field name: valid, and harmless (dry runs where there is a choice).
NAMED: dict[str, Any] = {
    "scope": {"user_id": "alice"}, "user_id": "alice", "text": "I like green tea.",
    "query": "tea", "message": "what do I drink?", "description": "buy milk",
    "predicate": "LIKES", "dry_run": True, "markdown": "# Memory\n", "importance": 0.5,
}
#: Optional fields the baseline sends anyway, so that the body is complete and harmless.
ALWAYS = {"text", "dry_run", "importance", "episode_ids"}


@dataclass
class Operation:
    method: str
    path: str
    parameters: list[dict[str, Any]]
    body: dict[str, Any] | None

    @property
    def name(self) -> str:
        return f"{self.method.upper()} {self.path}"


@dataclass
class Call:
    """One request: where the hostile value went (``field``) and how to send it."""

    operation: Operation
    field: str
    path: str
    params: dict[str, Any] = field(default_factory=dict)
    body: Any = None


class Schema:
    """The OpenAPI document, with ``$ref`` resolution and valid-value generation."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc

    def resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            node = self.doc["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
        return node

    def operations(self, skip: set[str]) -> list[Operation]:
        """The JSON API's operations (``/v1/...``; pages for people answer HTML)."""
        out = []
        for path, item in sorted(self.doc["paths"].items()):
            for method, op in item.items():
                if f"{method.upper()} {path}" in skip or not path.startswith("/v1/"):
                    continue
                content = op.get("requestBody", {}).get("content", {})
                body = content.get("application/json", {}).get("schema")
                out.append(Operation(method, path, op.get("parameters", []),
                                     self.resolve(body) if body else None))
        return out

    def valid(self, schema: dict[str, Any], name: str = "") -> Any:
        """A value the schema (and the model behind it) accepts."""
        schema = self.resolve(schema)
        if name in NAMED:
            return NAMED[name]
        if "anyOf" in schema:
            branches = [b for b in schema["anyOf"] if self.resolve(b).get("type") != "null"]
            return self.valid(branches[0], name) if branches else None
        if "enum" in schema:
            return schema["enum"][0]
        if "default" in schema:
            return schema["default"]
        kind = schema.get("type")
        if kind == "object":
            props = schema.get("properties", {})
            keep = set(schema.get("required", [])) | (ALWAYS & set(props))
            return {k: self.valid(v, k) for k, v in props.items() if k in keep}
        if kind == "array":
            return []
        if kind == "string":
            if schema.get("format") == "date-time":
                return "2030-01-01T00:00:00Z"
            return "x" * max(1, schema.get("minLength", 1))
        if kind in ("integer", "number"):
            return schema.get("minimum", 1)
        if kind == "boolean":
            return False
        return None

    def fields(self, schema: dict[str, Any], value: Any, prefix: tuple[str, ...] = (),
               depth: int = 0) -> Iterator[tuple[str, ...]]:
        """Every property path of a body, down to ``depth`` 2 (``scope.user_id``)."""
        schema = self.resolve(schema)
        if "anyOf" in schema:
            objects = [self.resolve(b) for b in schema["anyOf"]
                       if self.resolve(b).get("type") == "object"]
            schema = objects[0] if objects else schema
        for name, sub in schema.get("properties", {}).items():
            yield (*prefix, name)
            if depth < 2 and isinstance(value, dict) and isinstance(value.get(name), dict):
                yield from self.fields(sub, value[name], (*prefix, name), depth + 1)


def with_value(body: Any, where: tuple[str, ...], value: Any) -> Any:
    """A copy of ``body`` with the field at ``where`` set to ``value``."""
    out = json.loads(json.dumps(body))
    node = out
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    return out


def calls(schema: Schema, operation: Operation, ids: dict[str, str]) -> Iterator[Call]:
    """The baseline request of an operation, then one hostile value per field at a time."""
    path_params = {p["name"]: ids.get(p["name"], "x") for p in operation.parameters
                   if p["in"] == "path"}
    query = {p["name"]: schema.valid(p["schema"], p["name"]) for p in operation.parameters
             if p["in"] == "query" and p.get("required")}
    if any(p["name"] == "user_id" for p in operation.parameters):
        query["user_id"] = "alice"
    body = schema.valid(operation.body) if operation.body else None

    def url(values: dict[str, str]) -> str:
        return operation.path.format(**{k: quote(v, safe="") for k, v in values.items()})

    yield Call(operation, "", url(path_params), query, body)
    for param in operation.parameters:
        for value in HOSTILE_TEXT:
            if param["in"] == "path":
                if value.strip() and "/" not in value:
                    yield Call(operation, param["name"], url({**path_params, param["name"]: value}),
                               query, body)
            elif param["in"] == "query":
                yield Call(operation, param["name"], url(path_params),
                           {**query, param["name"]: value}, body)
    if operation.body is not None:
        for where in schema.fields(operation.body, body):
            for value in HOSTILE_JSON:
                yield Call(operation, ".".join(where), url(path_params), query,
                           with_value(body, where, value))


def neo4j_counts(driver: Any) -> Callable[[], tuple[int, ...]]:
    """Node and relationship counts of the whole Neo4j database (count-store reads)."""
    def count() -> tuple[int, ...]:
        with driver.session() as session:
            nodes = session.run("MATCH (n) RETURN count(n) AS c").single()["c"]
            edges = session.run("MATCH ()-[r]->() RETURN count(r) AS c").single()["c"]
        return (int(nodes), int(edges))
    return count


def embedded_counts(store: EmbeddedStore) -> Callable[[], tuple[int, ...]]:
    """Row counts of every table of the store's SQLite file, read on a connection of our own.

    Not the change log (``changes``, and SQLite's counter of its rows): an earlier search's
    access statistics, written up to half a second later, add a row to it."""
    def count() -> tuple[int, ...]:
        with sqlite3.connect(f"file:{store.path}?mode=ro", uri=True) as conn:
            tables = [r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '%fts%' "
                "AND name NOT IN ('changes', 'sqlite_sequence') ORDER BY name")]
            return tuple(int(conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0])
                         for t in tables)
    return count


def scope_state(memory: Memory, tenant: str, scope: Scope) -> list[tuple[Any, ...]]:
    """The memories of a scope as they stand, without the fields reading itself changes."""
    facts = memory.store.list_facts(tenant, FactQuery(
        scope_keys=scope.visible_keys, limit=10_000,
        time=TimeFilter(include_history=True, include_forgotten=True)))
    return sorted((f.id, f.text, f.object_name, f.status.value, f.importance, f.valid_from,
                   f.valid_until) for f in facts)
