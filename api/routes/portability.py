"""Take memory out and bring it back: memory.md (editable) and a full JSON export."""

from __future__ import annotations


from fastapi import APIRouter, Request, Response

from api.deps import MemoryDep, ScopeQuery, Tenant
from api.errors import PROBLEMS
from api.limits import run_sync
from api.schemas_lifecycle import ImportBody
from graphmem.lifecycle import markdown
from graphmem.lifecycle.markdown import ImportReport
from graphmem.lifecycle.portability import ScopeExport, export_scope
from graphmem.memory import Memory

router = APIRouter(tags=["portability"], responses=PROBLEMS)
MARKDOWN = "text/markdown; charset=utf-8"


@router.get("/v1/export/memory.md", response_class=Response,
            responses={200: {"content": {"text/markdown": {}}}})
async def export_markdown(request: Request, tenant: Tenant, memory: MemoryDep,
                          scope: ScopeQuery, learnings: bool = False) -> Response:
    """The scope's current memories (or, with ``learnings``, its lessons and skills) as
    Markdown: edit it and send it back to ``POST /v1/import/memory.md``."""
    export = markdown.export_learnings if learnings else markdown.export_markdown
    text = await run_sync(request, export, memory, tenant, scope)
    return Response(text, media_type=MARKDOWN)


def _import(memory: Memory, tenant: str, body: ImportBody) -> ImportReport:
    categories = markdown.LEARNINGS if body.learnings else tuple(markdown.TITLES)
    return markdown.import_markdown(memory, tenant, body.scope, body.markdown,
                                    categories=categories, dry_run=body.dry_run,
                                    allow_mass_retraction=body.allow_mass_retraction)


@router.post("/v1/import/memory.md", response_model=ImportReport)
async def import_markdown(body: ImportBody, request: Request, tenant: Tenant,
                          memory: MemoryDep) -> ImportReport:
    """Apply an edited memory.md: an edited value supersedes, a deleted line retracts, a
    line without an id is a new memory. A malformed file is a 422 naming the line; so is a
    file without any section, and an import that would retract more than half of the
    scope's memories unless ``allow_mass_retraction`` is set (a dry run warns instead)."""
    return await run_sync(request, _import, memory, tenant, body)


@router.get("/v1/export", response_model=ScopeExport)
async def export_all(request: Request, tenant: Tenant, memory: MemoryDep,
                     scope: ScopeQuery) -> ScopeExport:
    """Everything stored under exactly this scope, history included, as one JSON document
    (data portability). Embeddings are left out."""
    return await run_sync(request, export_scope, memory, tenant, scope)
