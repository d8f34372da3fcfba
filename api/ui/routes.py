"""The memory page's HTTP side: read the request, call :mod:`api.ui.views` or the library, render.

Every page works with plain links and forms; ``static/ui.js`` only makes the
card actions and "load more" swap HTML in place (it asks for a fragment with
the ``X-UI-Fragment`` header). A browser refused a page gets an error page
(:func:`page_problem`); other clients, and those fragments, the API's problem documents.
"""

from __future__ import annotations

from datetime import date
from http import HTTPStatus
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BeforeValidator

from api import deps
from api.limits import run_sync
from api.ui import session, views
from api.ui.cards import Card
from api.ui.views import Filters
from graphmem import manage
from graphmem.errors import ValidationError
from graphmem.memory import Memory
from graphmem.models import Category, Fact, Scope

router = APIRouter(prefix=session.PREFIX, include_in_schema=False)
PageTenant = Annotated[str, Depends(session.page_tenant)]
#: A date from a form: an empty field (the picker left blank) means none.
FormDate = Annotated[date | None, BeforeValidator(lambda v: v or None),
                     Query(description="YYYY-MM-DD")]
ObjectId = Annotated[str, Path(max_length=256)]


def page_url(path: str, scope: Scope, **params: Any) -> str:
    """A page URL keeping the scope; parameters that are None, False or empty are left out."""
    query = {"user_id": scope.user_id, "group_id": scope.group_id, **params}
    kept = {k: ("1" if v is True else v) for k, v in query.items() if v not in (None, False, "", 0)}
    return f"{session.PREFIX}/{path}?{urlencode(kept, doseq=True)}"


def memories_url(filters: Filters, **changes: Any) -> str:
    state = filters.model_copy(update={"offset": 0, **changes})
    return page_url("memories", state.scope, q=state.q, category=state.category,
                    history=state.history, as_of=state.as_of, offset=state.offset)


def _render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    templates: Jinja2Templates = request.app.state.ui_templates
    context.setdefault("keys_required", session.keys_required(request))
    context.setdefault("signed_in", bool(request.cookies.get(session.COOKIE)))
    return templates.TemplateResponse(request, name, context, status_code=status,
                                      headers={"Cache-Control": "no-store"})


def page_problem(request: Request, status: int, detail: str,
                 headers: dict[str, str] | None) -> HTMLResponse | None:
    """A refused page request as a page: a browser on the memory page reads what went wrong
    and finds its way back, not a problem document. Other clients (and the page's own
    scripts, which ask for fragments) keep the problem document."""
    wants_html = "text/html" in request.headers.get("accept", "")
    if not request.url.path.startswith(session.PREFIX + "/") or not wants_html \
            or _wants_fragment(request):
        return None
    response = _render(request, "error.html", status, title=HTTPStatus(status).phrase,
                       detail=detail)
    response.headers.update(headers or {})
    return response


def _wants_fragment(request: Request) -> bool:
    return request.headers.get("x-ui-fragment") == "1"


def _first(fields: dict[str, list[str]], name: str) -> str | None:
    values = fields.get(name)
    return values[0] if values and values[0] != "" else None


def _form_scope(fields: dict[str, list[str]]) -> Scope:
    return deps.scope_of(user_id=_first(fields, "user_id"), group_id=_first(fields, "group_id"))


def _key_scope(key: str) -> Scope:
    try:
        return Scope.from_key(key)
    except ValueError as err:
        raise ValidationError(f"scope: {key[:100]!r} is not a scope key (user:<id>, "
                              "group:<id> or member:<group>:<user>)") from err


def _back(fields: dict[str, list[str]]) -> RedirectResponse:
    return RedirectResponse(session.safe_next(_first(fields, "next")), status_code=303)


# -- signing in --------------------------------------------------------------------
@router.get("")
async def home() -> RedirectResponse:
    return RedirectResponse(f"{session.PREFIX}/memories", status_code=303)


@router.get("/login", response_model=None)
async def login_form(request: Request, next: str | None = None) -> Response:
    if not session.keys_required(request):
        return RedirectResponse(session.safe_next(next), status_code=303)
    return _render(request, "login.html", next=session.safe_next(next), error=None,
                   signed_in=False)


@router.post("/login", response_model=None)
async def login(request: Request) -> Response:
    """Check the key once, then keep it in the cookie; a wrong key shows the form again."""
    session.same_origin(request)
    fields = await session.form_fields(request)
    key, target = _first(fields, "key") or "", session.safe_next(_first(fields, "next"))
    if session.keys_required(request) and session.tenant_for_key(request, key) is None:
        return _render(request, "login.html", status=401, next=target, signed_in=False,
                       error="That key is not valid. Check it and try again.")
    response = RedirectResponse(target, status_code=303)
    session.remember_key(response, request, key)
    return response


@router.post("/logout")
async def logout() -> RedirectResponse:
    response = RedirectResponse(f"{session.PREFIX}/login", status_code=303)
    session.forget_key(response)
    return response


# -- the memory list ------------------------------------------------------------------
@router.get("/memories", response_model=None)
async def memories(
    request: Request, tenant: PageTenant, user_id: deps.UserId = None,
    group_id: deps.GroupId = None,
    q: Annotated[str, Query(max_length=500, description="search text")] = "",
    category: Category | None = None, history: bool = False, as_of: FormDate = None,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    scope: Annotated[str | None, Query(max_length=300, description="a scope key")] = None,
) -> Response:
    """The page: search, filters, one card per memory, "load more" (a fragment for ui.js)."""
    memory: Memory = deps.memory_of(request)
    if scope is not None:  # the scope picker
        return RedirectResponse(page_url("memories", _key_scope(scope)), status_code=303)
    if user_id is None and group_id is None:
        found = await run_sync(request, views.default_scope, memory, tenant)
        if found is None:
            return _render(request, "empty.html", scopes=[])
        return RedirectResponse(page_url("memories", found), status_code=303)
    filters = Filters(scope=deps.scope_of(user_id, group_id), q=q.strip(), category=category,
                      history=history, as_of=as_of, offset=offset)
    if _wants_fragment(request):
        cards, more = await run_sync(request, views.memory_cards, memory, tenant, filters)
        return _render(request, "_cards.html", cards=cards, more=more, filters=filters,
                       url=memories_url, page=page_url)
    data = await run_sync(request, views.memories_page, memory, tenant, filters)
    return _render(request, "memories.html", p=data, filters=filters, cards=data.cards,
                   more=data.more, url=memories_url, page=page_url)


def _set_status(memory: Memory, tenant: str, memory_id: str, scope: Scope | None,
                forget: bool) -> tuple[Fact, Card]:
    change = manage.forget_fact if forget else manage.restore_fact
    fact = change(memory, tenant, memory_id, scope)
    return fact, views.cards_of(memory, tenant, [fact])[0]


async def _status(request: Request, tenant: str, memory_id: str, forget: bool) -> Response:
    fields = await session.form_fields(request)
    scope = _form_scope(fields) if "user_id" in fields or "group_id" in fields else None
    fact, card = await run_sync(request, _set_status, deps.memory_of(request), tenant, memory_id,
                                scope, forget)
    if _wants_fragment(request):
        return _render(request, "_card.html", c=card, page=page_url,
                       next=_first(fields, "next") or "")
    return _back(fields)


@router.post("/memories/{memory_id}/forget", response_model=None)
async def forget(memory_id: ObjectId, request: Request, tenant: PageTenant) -> Response:
    """Soft forget (the card's delete button): greyed out, kept, restorable."""
    return await _status(request, tenant, memory_id, True)


@router.post("/memories/{memory_id}/restore", response_model=None)
async def restore(memory_id: ObjectId, request: Request, tenant: PageTenant) -> Response:
    return await _status(request, tenant, memory_id, False)


# -- the whole scope ---------------------------------------------------------------------
@router.post("/scope/clear", response_model=None)
async def clear(request: Request, tenant: PageTenant) -> Response:
    """"Clear all memories": a soft forget of the scope, undone by the page it answers with."""
    fields = await session.form_fields(request)
    scope = _form_scope(fields)
    cleared = await run_sync(request, manage.forget_scope, deps.memory_of(request), tenant, scope)
    return _render(request, "cleared.html", scope=scope, ids=[f.id for f in cleared.facts],
                   episode_ids=cleared.episode_ids, page=page_url)


@router.post("/scope/restore", response_model=None)
async def restore_cleared(request: Request, tenant: PageTenant) -> Response:
    fields = await session.form_fields(request)
    scope = _form_scope(fields)
    facts = await run_sync(request, manage.restore_facts, deps.memory_of(request), tenant,
                           fields.get("id", []), scope, fields.get("episode", []))
    return RedirectResponse(page_url("memories", scope), status_code=303)


@router.post("/scope/erase", response_model=None)
async def erase(request: Request, tenant: PageTenant) -> Response:
    """The hard erase: everything stored under the scope, for good, after typing its name."""
    fields = await session.form_fields(request)
    scope = _form_scope(fields)
    if _first(fields, "confirm") != scope.key:
        raise ValidationError(f"confirm: type {scope.key!r} to erase this scope for good")
    report = await run_sync(request, manage.erase_scope, deps.memory_of(request), tenant, scope)
    return _render(request, "erased.html", scope=scope, report=report, page=page_url)


# -- entity and conversation views ----------------------------------------------------------
@router.get("/entities/{entity_id}", response_model=None)
async def entity(entity_id: ObjectId, request: Request, tenant: PageTenant,
                 scope: deps.ScopeQuery, as_of: FormDate = None,
                 all_rows: Annotated[bool, Query(alias="all")] = False) -> Response:
    """An entity's timeline (bars, supersede arrows, retractions) and its neighbourhood."""
    data = await run_sync(request, views.entity_page, deps.memory_of(request), tenant, entity_id,
                          scope, as_of, all_rows)
    return _render(request, "entity.html", e=data, page=page_url)


@router.get("/episodes/{episode_id}", response_model=None)
async def episode(episode_id: ObjectId, request: Request, tenant: PageTenant,
                  scope: deps.ScopeQuery,
                  message: Annotated[list[str] | None, Query(max_length=100)] = None) -> Response:
    """The conversation a memory came from, its source messages highlighted."""
    data = await run_sync(request, views.episode_page, deps.memory_of(request), tenant, episode_id,
                          scope, message or [])
    return _render(request, "episode.html", ep=data, page=page_url)
