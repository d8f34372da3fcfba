"""Entity resolution rules, on both stores."""

from __future__ import annotations

from difflib import SequenceMatcher

import pytest

from graphmem.embed.base import Embedder
from graphmem.ingest.resolve import EntityResolver, NameRequest, digits_conflict
from graphmem.models import Scope
from graphmem.store.base import GraphStore, WriteBatch

ALICE = Scope(user_id="alice")


def _seed(store: GraphStore, embedder: Embedder, tenant: str, *names: tuple[str, str]) -> None:
    resolver = EntityResolver(store, embedder)
    created = resolver.resolve(tenant, ALICE, [NameRequest(n, t) for n, t in names]).created
    store.write(tenant, WriteBatch(entities=created))


@pytest.mark.parametrize(("stored", "asked", "merges"), [
    (("Acme Corp", "organization"), ("the ACME corp.", "organization"), True),   # normalised
    (("Jonathan Smith", "person"), ("Jonathon Smith", "person"), True),          # fuzzy
    (("SR-2023-052", "concept"), ("SR-2023-053", "concept"), False),             # digits differ
    (("Vue 3", "technology"), ("Vue 2", "technology"), False),
    (("Jonathan Smith", "person"), ("Jonathon Smith", "organization"), False),   # type differs
    (("Jordan", "person"), ("Jordan", "place"), True),       # an exact name always merges
    (("Paris", "place"), ("Berlin", "place"), False),
])
def test_resolution_rules(store: GraphStore, embedder: Embedder, tenant: str,
                          stored: tuple[str, str], asked: tuple[str, str], merges: bool) -> None:
    _seed(store, embedder, tenant, stored)
    result = EntityResolver(store, embedder).resolve(tenant, ALICE, [NameRequest(*asked)])

    assert (result.get(asked[0]).name == stored[0]) is merges  # type: ignore[union-attr]
    assert (result.created == []) is merges


def test_aliases_match_exactly_and_scopes_are_respected(store: GraphStore, embedder: Embedder,
                                                        tenant: str) -> None:
    resolver = EntityResolver(store, embedder)
    created = resolver.resolve(tenant, ALICE, [NameRequest("Wang Wei", "person",
                                                           ["Xiao Wang"])]).created
    store.write(tenant, WriteBatch(entities=created))

    mine = resolver.resolve(tenant, ALICE, [NameRequest("xiao wang", "person")])
    other = resolver.resolve(tenant, Scope(user_id="bob"), [NameRequest("Xiao Wang", "person")])

    assert mine.get("xiao wang").id == created[0].id  # type: ignore[union-attr]
    assert other.created and other.get("Xiao Wang").id != created[0].id  # type: ignore[union-attr]


def test_member_in_group_sees_the_users_global_entities(store: GraphStore, embedder: Embedder,
                                                        tenant: str) -> None:
    _seed(store, embedder, tenant, ("Acme", "organization"))
    member = Scope(user_id="alice", group_id="team")
    result = EntityResolver(store, embedder).resolve(tenant, member,
                                                     [NameRequest("Acme", "organization")])
    assert result.created == [] and result.get("Acme").scope_key == ALICE.key  # type: ignore[union-attr]


def test_digits_guard() -> None:
    assert digits_conflict("SR-2023-052", "SR-2023-053")
    assert not digits_conflict("Acme Corp", "ACME corp")
    assert SequenceMatcher(None, "sr-2023-052", "sr-2023-053").ratio() > 0.9  # why the guard exists
