"""Todos and reminders: list, add, complete, cancel."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from api.deps import MemoryDep, OptionalScope, ScopeQuery, Tenant
from api.errors import PROBLEMS
from api.limits import run_sync
from api.schemas_lifecycle import TodoBody, TodoList
from graphmem.lifecycle.todos import Todo, TodoStatus, add_todo, close_todo, list_todos
from graphmem.lifecycle.todos import overdue_todos as overdue
from graphmem.memory import Memory
from graphmem.models import Scope, UtcDateTime

router = APIRouter(prefix="/v1/todos", tags=["todos"], responses=PROBLEMS)
TodoId = Annotated[str, Path(max_length=256)]


def _list(memory: Memory, tenant: str, scope: Scope, status: TodoStatus | None,
          due_before: datetime | None) -> TodoList:
    found = list_todos(memory, tenant, scope, status=status)
    if due_before is not None:
        found = [t for t in found if t.due is not None and t.due <= due_before]
    return TodoList(todos=found)


@router.get("", response_model=TodoList)
async def todos(
    request: Request, tenant: Tenant, memory: MemoryDep, scope: ScopeQuery,
    status: TodoStatus | None = None,
    due_before: Annotated[UtcDateTime | None, Query(description="only todos due by then")] = None,
) -> TodoList:
    """Todos visible in the scope, soonest due first; ``overdue`` marks late pending ones."""
    return await run_sync(request, _list, memory, tenant, scope, status, due_before)


@router.get("/overdue", response_model=TodoList)
async def overdue_todos(request: Request, tenant: Tenant, memory: MemoryDep,
                        scope: ScopeQuery) -> TodoList:
    """Pending todos past their due time."""
    return TodoList(todos=await run_sync(request, overdue, memory, tenant, scope))


def _add(memory: Memory, tenant: str, body: TodoBody) -> Todo:
    return add_todo(memory, tenant, body.scope, body.description, due=body.due,
                    remind_at=body.remind_at, creator=body.creator, assignee=body.assignee)


@router.post("", status_code=201, response_model=Todo)
async def create_todo(body: TodoBody, request: Request, tenant: Tenant,
                      memory: MemoryDep) -> Todo:
    """Add a todo; ``due`` must be in the future."""
    return await run_sync(request, _add, memory, tenant, body)


@router.post("/{todo_id}/complete", response_model=Todo)
async def complete_todo(todo_id: TodoId, request: Request, tenant: Tenant, memory: MemoryDep,
                        scope: OptionalScope) -> Todo:
    """Mark a pending todo completed (409 if it is closed already)."""
    return await run_sync(request, close_todo, memory, tenant, todo_id,
                          status=TodoStatus.COMPLETED, scope=scope)


@router.post("/{todo_id}/cancel", response_model=Todo)
async def cancel_todo(todo_id: TodoId, request: Request, tenant: Tenant, memory: MemoryDep,
                      scope: OptionalScope) -> Todo:
    """Mark a pending todo cancelled (409 if it is closed already)."""
    return await run_sync(request, close_todo, memory, tenant, todo_id,
                          status=TodoStatus.CANCELLED, scope=scope)
