"""Cypher for the stored answers of idempotent requests (``(:StoredRequest)`` nodes).

One node per tenant and ``Idempotency-Key``; its ``id`` is a hash of both, held
unique by the ``stored_request_id`` constraint, so two processes claiming the
same key race on one MERGE and exactly one wins. The node holds the
:class:`~graphmem.store.base.StoredResponse` as JSON (``doc``) plus the fields
the queries filter on.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from graphmem.store.base import StoredResponse
from graphmem.store.neo4j.reads import Params, Query


def request_id(tenant: str, key: str) -> str:
    """The stored answer's id: one per tenant and key, and no key reaches the database.

    >>> request_id("acme", "k1") == request_id("acme", "k1") != request_id("acme2", "k1")
    True
    """
    return hashlib.sha256(f"{tenant}\x00{key}".encode()).hexdigest()


def _props(tenant: str, request: StoredResponse) -> Params:
    return {"tenant": tenant, "key": request.key, "createdAt": request.created_at,
            "status": request.status, "doc": request.model_dump_json()}


def expire_requests(tenant: str, before: datetime) -> Query:
    return ("MATCH (r:StoredRequest) WHERE r.tenant = $tenant AND r.createdAt < $before\n"
            "DELETE r", {"tenant": tenant, "before": before})


def release_stale(tenant: str, key: str, stale_before: datetime) -> Query:
    """A pending claim older than ``stale_before`` (its process died) gives its key up."""
    return ("MATCH (r:StoredRequest {id: $id})\n"
            "WHERE r.status IS NULL AND r.createdAt < $staleBefore\n"
            "DELETE r", {"id": request_id(tenant, key), "staleBefore": stale_before})


def claim_request(tenant: str, request: StoredResponse, token: str) -> Query:
    """Create the node unless the key is held; ``claimed`` says whether this call made it."""
    return ("MERGE (r:StoredRequest {id: $id})\n"
            "ON CREATE SET r += $props, r.claim = $token\n"
            "RETURN r.doc AS doc, r.claim = $token AS claimed",
            {"id": request_id(tenant, request.key), "props": _props(tenant, request),
             "token": token})


def finish_request(tenant: str, request: StoredResponse) -> Query:
    return ("MERGE (r:StoredRequest {id: $id})\nSET r += $props",
            {"id": request_id(tenant, request.key), "props": _props(tenant, request)})


def drop_requests(tenant: str, keys: list[str] | None) -> Query:
    ids = None if keys is None else [request_id(tenant, k) for k in keys]
    return ("MATCH (r:StoredRequest) WHERE r.tenant = $tenant AND ($ids IS NULL OR r.id IN $ids)\n"
            "DELETE r", {"tenant": tenant, "ids": ids})
