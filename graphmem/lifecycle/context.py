"""The context with every layer: the profile, the latest session summaries, then recall.

:func:`~graphmem.search.context.assemble_context` takes the profile and the
summaries as arguments; this is where the lifecycle supplies them, under the
request's time view: a context built ``as_of`` a past instant carries the
profile version and the summaries that existed then, never later ones.
:meth:`graphmem.memory.Memory.context` (and so ``POST /v1/context``) builds
every context through :func:`layered_context`.
"""

from __future__ import annotations

from graphmem.lifecycle.profile import profile_history
from graphmem.lifecycle.summaries import latest_summaries
from graphmem.memory import Memory
from graphmem.search.context import Context, ContextRequest, assemble_context


def layered_context(memory: Memory, tenant: str, request: ContextRequest, *,
                    summaries: int = 3, owner: str | None = None) -> Context:
    """The system-prompt memory for one turn: profile, ``summaries`` recent sessions, memories.

    >>> layered_context(memory, "acme", ContextRequest(scope=alice,        # doctest: +SKIP
    ...                 message="what should I cook tonight?")).prompt
    """
    cutoff = request.cutoff
    versions = [p for p in profile_history(memory, tenant, request.scope, owner=owner)
                if cutoff is None or (p.generated_at is not None and p.generated_at <= cutoff)]
    profile = versions[-1].text or None if versions else None
    recent = [s.summary for s in latest_summaries(memory, tenant, request.scope, summaries,
                                                  now=cutoff)
              if cutoff is None or s.ended_at <= cutoff]
    return assemble_context(memory.engine, memory.tokens.count, tenant, request,
                            profile=profile, summaries=recent)
