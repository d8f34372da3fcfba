"""The memory lifecycle: layers (summaries, profile), forgetting, consolidation, todos,
Markdown export and import.

Every function takes the :class:`~graphmem.memory.Memory` and the tenant
first, works offline on both stores, and writes through the write path (one
:meth:`~graphmem.memory.Memory.edit` per step: locked, one batch, announced to the
memory's sinks for events and the audit trail). Time comes from the
``now`` argument (default: the memory's clock), so runs are reproducible.

>>> report = maintain(memory, "acme", [Scope(user_id="alice")])   # doctest: +SKIP
>>> [c.text for c in report.scopes[0].decay.forgotten]            # doctest: +SKIP
"""

from __future__ import annotations

from graphmem.edit.audit import AuditEntry, AuditLog
from graphmem.lifecycle.consolidate import (
    ConsolidationReport,
    consolidate,
    derived_from,
    expand_summary,
)
from graphmem.lifecycle.context import layered_context
from graphmem.lifecycle.decay import DecayReport, decay, forgotten, relevance, restore
from graphmem.lifecycle.maintenance import MaintenanceReport, expire_episodes, maintain
from graphmem.lifecycle.markdown import (
    ImportReport,
    export_learnings,
    export_markdown,
    import_markdown,
)
from graphmem.lifecycle.policy import (
    ConsolidationPolicy,
    DecayPolicy,
    LifecyclePolicy,
    ProfilePolicy,
    SummaryPolicy,
    TodoPolicy,
)
from graphmem.lifecycle.portability import ScopeExport, export_scope
from graphmem.lifecycle.profile import Profile, current_profile, profile_history, refresh_profile
from graphmem.lifecycle.relations import FactRelation, RelationKind, relations
from graphmem.lifecycle.summaries import SessionSummary, latest_summaries, summarize_session
from graphmem.lifecycle.todos import (
    Todo,
    TodoStatus,
    add_todo,
    close_todo,
    complete_from_episode,
    due_todos,
    list_todos,
    overdue_todos,
)
from graphmem.lifecycle.writer import TemplateWriter, Writer

__all__ = [
    "AuditEntry", "AuditLog", "ConsolidationPolicy", "ConsolidationReport", "DecayPolicy",
    "DecayReport", "FactRelation", "ImportReport", "LifecyclePolicy", "MaintenanceReport",
    "Profile", "ProfilePolicy", "RelationKind", "ScopeExport",
    "SessionSummary", "SummaryPolicy", "TemplateWriter", "Todo", "TodoPolicy", "TodoStatus",
    "Writer", "add_todo", "close_todo", "complete_from_episode", "consolidate",
    "current_profile", "decay", "derived_from", "due_todos", "expand_summary",
    "expire_episodes", "export_learnings", "export_markdown", "export_scope", "forgotten",
    "import_markdown", "latest_summaries", "layered_context", "list_todos", "maintain",
    "overdue_todos", "profile_history", "refresh_profile", "relations", "relevance", "restore",
    "summarize_session",
]
