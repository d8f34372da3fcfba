"""Episodes: what was said, as sent. ``POST`` ingests, ``GET`` shows, ``DELETE`` cascades."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse

from api.deps import MemoryDep, OptionalScope, Tenant
from api.errors import PROBLEMS
from api.limits import run_ingestion, run_sync
from api.routes.jobs import JobRunner
from api.schemas import EpisodeBody, EpisodeDeleted, EpisodeOut, IngestOut, JobAccepted, memories
from graphmem import manage
from graphmem.ingest.inputs import EpisodeInput
from graphmem.memory import Memory
from graphmem.models import Scope

router = APIRouter(prefix="/v1/episodes", tags=["episodes"], responses=PROBLEMS)
EpisodeId = Annotated[str, Path(max_length=256)]


def ingest(memory: Memory, tenant: str, data: EpisodeInput) -> IngestOut:
    return IngestOut.of(memory.add_episode(tenant, data))


@router.post("", status_code=201, response_model=IngestOut, responses={
    200: {"model": IngestOut, "description": "temporary chat: nothing was stored"},
    202: {"model": JobAccepted, "description": "accepted as a background job"},
})
async def add_episode(body: EpisodeBody, request: Request, tenant: Tenant,
                      memory: MemoryDep) -> Any:
    """Remember a conversation window, a text or a JSON document.

    Extraction runs before the answer (201) unless ``async`` is set (202 and a
    job id). A ``temporary`` episode is neither stored nor extracted (200).
    """
    if body.temporary:
        return JSONResponse(IngestOut(stored=False).model_dump(mode="json"), status_code=200)
    data = body.to_input()
    if body.run_async:
        runner: JobRunner = request.app.state.jobs
        job = runner.submit(tenant, lambda: ingest(memory, tenant, data))
        return JSONResponse(JobAccepted(job_id=job.job_id).model_dump(), status_code=202,
                            headers={"Location": f"/v1/jobs/{job.job_id}"})
    return await run_ingestion(request, ingest, memory, tenant, data)


def _episode(memory: Memory, tenant: str, episode_id: str, scope: Scope | None) -> EpisodeOut:
    episode = manage.get_episode(memory, tenant, episode_id, scope)
    return EpisodeOut.of(episode, manage.episode_facts(memory, tenant, episode.id))


@router.get("/{episode_id}", response_model=EpisodeOut)
async def get_episode(episode_id: EpisodeId, request: Request, tenant: Tenant,
                      memory: MemoryDep, scope: OptionalScope) -> EpisodeOut:
    """An episode as received, with the memories it asserted or retracted.

    ``episode_id`` is the server's id or the client's own ``episode_id``.
    """
    return await run_sync(request, _episode, memory, tenant, episode_id, scope)


def _delete(memory: Memory, tenant: str, episode_id: str,
            scope: Scope | None) -> EpisodeDeleted:
    episode = manage.get_episode(memory, tenant, episode_id, scope)
    result = memory.delete_episode(tenant, episode.id)
    return EpisodeDeleted(episode_id=episode.id, deleted=memories(result.deleted),
                          reopened=memories(result.reopened))


@router.delete("/{episode_id}", response_model=EpisodeDeleted)
async def delete_episode(episode_id: EpisodeId, request: Request, tenant: Tenant,
                         memory: MemoryDep, scope: OptionalScope) -> EpisodeDeleted:
    """Delete an episode and the memories only it asserted; facts it had closed reopen."""
    return await run_sync(request, _delete, memory, tenant, episode_id, scope)
