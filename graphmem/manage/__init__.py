"""Managing memories one by one, beyond :class:`~graphmem.memory.Memory`'s ingest-and-recall:
what a memory browser (the REST API, the memory page, MCP, the CLI) needs.

* :mod:`~graphmem.manage.reads`: browse (a fact, episode or entity, an entity's
  timeline and neighbours, provenance, growth);
* :mod:`~graphmem.manage.edits`: soft changes (forget, restore, importance, correct);
* :mod:`~graphmem.manage.erasure`: hard deletion for privacy (a scope, an entity, a topic).

Like the store, every function takes the memory and the tenant first; every
change is one edit of the write path (:meth:`Memory.edit`).
"""

from __future__ import annotations

from graphmem.manage.edits import (
    Correction,
    correct_fact,
    forget_fact,
    forget_scope,
    restore_fact,
    restore_facts,
    set_importance,
)
from graphmem.manage.erasure import Erasure, erase_entity, erase_scope, erase_topic
from graphmem.manage.reads import (
    EntityHit,
    Growth,
    MonthCount,
    Neighborhood,
    Source,
    entity_timeline,
    episode_facts,
    get_entity,
    get_episode,
    get_fact,
    growth,
    neighbors,
    ping,
    preview_extraction,
    provenance,
    scopes,
    search_entities,
    supersession_chain,
)

__all__ = [
    "Correction", "EntityHit", "Erasure", "Growth", "MonthCount", "Neighborhood", "Source",
    "correct_fact", "entity_timeline", "episode_facts", "erase_entity", "erase_scope",
    "erase_topic", "forget_fact", "forget_scope", "get_entity", "get_episode", "get_fact",
    "growth", "neighbors", "ping", "preview_extraction", "provenance", "restore_fact",
    "restore_facts", "scopes", "search_entities", "set_importance", "supersession_chain",
]
