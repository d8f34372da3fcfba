"""Data portability: one scope's episodes, facts with their whole history, and entities."""

from __future__ import annotations

import json
from datetime import timedelta

from graphmem.lifecycle.consolidate import consolidate
from graphmem.lifecycle.portability import ScopeExport, export_scope
from graphmem.lifecycle.summaries import summarize_session
from graphmem.manage import forget_fact
from graphmem.memory import Memory
from graphmem.models import Category, FactStatus, Scope
from tests.lifecycle.conftest import ALICE, START, Clock
from tests.lifecycle.helpers import add, chat


def test_export_holds_everything_of_the_scope_and_nothing_else(memory: Memory, tenant: str,
                                                               clock: Clock) -> None:
    chat(memory, tenant, "I work at Acme.", "Nice.", "I love hiking in the Alps.", "Cool.",
         "Can you suggest a trail near Munich?", session="s1")
    clock.advance(days=30)
    chat(memory, tenant, "I work at Globex now.", "Congratulations!")  # supersedes Acme
    hobby = add(memory, tenant, "HOBBY", "chess", text="Alice plays chess.")
    forget_fact(memory, tenant, hobby.id)
    trips = [add(memory, tenant, "HAS_VISITED", c, text=f"Alice visited {c}.",
                 category=Category.EVENT, valid_from=START - timedelta(days=10 * i))
             for i, c in enumerate(["Lisbon", "Porto", "Madrid"], start=1)]
    assert summarize_session(memory, tenant, ALICE, "s1") is not None
    add(memory, tenant, "LIKES", "tea", text="Bob likes tea.", subject="Bob",
        scope=Scope(user_id="bob"))
    clock.advance(days=200)
    assert consolidate(memory, tenant, ALICE).compressed  # the trips are archived now

    export = export_scope(memory, tenant, ALICE)
    statuses = {f.text: f.status for f in export.facts}
    assert statuses["Alice works at Acme."] is FactStatus.ACTIVE
    acme = next(f for f in export.facts if f.text == "Alice works at Acme.")
    assert acme.valid_until is not None and acme.superseded_by is not None  # history included
    assert statuses["Alice plays chess."] is FactStatus.FORGOTTEN
    assert all(statuses[f"Alice visited {c}."] is FactStatus.ARCHIVED
               for c in ["Lisbon", "Porto", "Madrid"])
    assert {t.id for t in trips} <= {f.id for f in export.facts}
    assert any(f.predicate == "SESSION_SUMMARY" for f in export.facts)
    assert len([e for e in export.episodes if e.client_id is None]) == 2  # the conversations
    assert {e.name for e in export.entities} >= {"Alice", "Acme", "Globex", "chess"}
    assert "Bob" not in export.model_dump_json()  # another user's memory is not exported
    assert all(f.embedding is None for f in export.facts)
    again = ScopeExport.model_validate(json.loads(export.model_dump_json()))
    assert again == export
