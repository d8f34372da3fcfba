"""The context with every layer: the profile, the latest session summaries, then recall.

:func:`~graphmem.search.context.assemble_context` takes the profile and the
summaries as arguments; this is where the lifecycle supplies them.
"""

from __future__ import annotations

from graphmem.lifecycle.profile import current_profile
from graphmem.lifecycle.summaries import latest_summaries
from graphmem.memory import Memory
from graphmem.search.context import Context, ContextRequest, assemble_context


def layered_context(memory: Memory, tenant: str, request: ContextRequest, *,
                    summaries: int = 3, owner: str | None = None) -> Context:
    """The system-prompt memory for one turn: profile, ``summaries`` recent sessions, memories.

    >>> layered_context(memory, "acme", ContextRequest(scope=alice,        # doctest: +SKIP
    ...                 message="what should I cook tonight?")).prompt
    """
    profile = current_profile(memory, tenant, request.scope, owner=owner).text or None
    recent = [s.summary for s in latest_summaries(memory, tenant, request.scope, summaries)]
    return assemble_context(memory.engine, memory.tokens.count, tenant, request,
                            profile=profile, summaries=recent)
