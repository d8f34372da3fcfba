"""Background ingestion: ``POST /v1/episodes`` with ``"async": true``, then ``GET /v1/jobs/{id}``.

Jobs run on a small thread pool the app holds (:class:`JobRunner` on
``app.state.jobs``), are visible only to the tenant that made them, and are
kept in memory: a restart forgets them (the episodes they stored remain).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated

from fastapi import APIRouter, Path, Request

from api.deps import Tenant
from api.errors import GENERIC_DETAIL, PROBLEMS, status_of
from api.schemas import IngestOut, JobError, JobOut
from graphmem.errors import GraphMemError, NotFoundError
from graphmem.models import new_id, utcnow

log = logging.getLogger("graphmem.api")
router = APIRouter(tags=["jobs"], responses=PROBLEMS)


class JobRunner:
    """Runs jobs on ``workers`` threads and remembers the last ``max_jobs`` of them."""

    def __init__(self, *, workers: int = 2, max_jobs: int = 10_000) -> None:
        self.max_jobs = max_jobs
        self.workers = workers
        self._pool: ThreadPoolExecutor | None = None
        self._jobs: OrderedDict[str, tuple[str, JobOut]] = OrderedDict()
        self._lock = threading.Lock()

    def submit(self, tenant: str, work: Callable[[], IngestOut]) -> JobOut:
        job = JobOut(job_id=new_id("job"), status="pending", created_at=utcnow())
        with self._lock:
            self._jobs[job.job_id] = (tenant, job)
            while len(self._jobs) > self.max_jobs:
                self._jobs.popitem(last=False)
            # Made on first use and again after a shutdown: an app whose lifespan runs
            # more than once (tests, embedding servers) keeps taking jobs.
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self.workers,
                                                thread_name_prefix="graphmem-job")
            pool = self._pool
        pool.submit(self._run, tenant, job.job_id, work)
        return job

    def get(self, tenant: str, job_id: str) -> JobOut:
        with self._lock:
            owner, job = self._jobs.get(job_id, ("", None))
        if job is None or owner != tenant:
            raise NotFoundError(f"job {job_id!r} not found")
        return job

    def shutdown(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _set(self, tenant: str, job_id: str, **changes: object) -> None:
        with self._lock:
            if job_id in self._jobs:
                self._jobs[job_id] = (tenant, self._jobs[job_id][1].model_copy(update=changes))

    def _run(self, tenant: str, job_id: str, work: Callable[[], IngestOut]) -> None:
        self._set(tenant, job_id, status="running")
        try:
            result = work()
        except GraphMemError as err:
            status, detail = status_of(err)
            if status >= 500:
                log.error("job %s failed: %s: %s", job_id, type(err).__name__, err, exc_info=err)
            self._set(tenant, job_id, status="failed", finished_at=utcnow(),
                      error=JobError(status=status, detail=detail))
        except Exception as err:  # a job must always end in a state the client can read
            log.error("job %s failed unexpectedly", job_id, exc_info=err)
            self._set(tenant, job_id, status="failed", finished_at=utcnow(),
                      error=JobError(status=500, detail=GENERIC_DETAIL[500]))
        else:
            self._set(tenant, job_id, status="done", finished_at=utcnow(), result=result)


@router.get("/v1/jobs/{job_id}", response_model=JobOut)
async def get_job(job_id: Annotated[str, Path(max_length=64)], request: Request,
                  tenant: Tenant) -> JobOut:
    """The state of a background ingestion, with its result once done."""
    runner: JobRunner = request.app.state.jobs
    return runner.get(tenant, job_id)
