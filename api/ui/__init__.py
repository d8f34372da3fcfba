"""The memory management page: server-rendered HTML over the same library calls as the API.

:func:`mount` adds it to an app built by :func:`api.app.create_app`: the page
routes under ``/ui`` (:mod:`api.ui.routes`), their Jinja2 templates and the
static files (one stylesheet, one small script, no build step), both shipped
as package data.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from api.ui import cards, routes
from graphmem.models import Fact, Scope

HERE = Path(__file__).parent


def mount(app: FastAPI) -> None:
    """Serve the page on ``app``; its templates live on ``app.state`` (no module state)."""
    templates = Jinja2Templates(directory=HERE / "templates")
    templates.env.globals.update(categories=cards.CATEGORIES, lang=cards.language,
                                 scope_of=_scope_of, here=_here)
    app.state.ui_templates = templates
    app.state.page_problem = routes.page_problem
    app.include_router(routes.router)
    app.mount("/ui/static", StaticFiles(directory=HERE / "static", packages=None),
              name="ui-static")


def _scope_of(fact: Fact) -> Scope:
    return Scope.from_key(fact.scope_key)


def _here(request: Request) -> str:
    return request.url.path + (f"?{request.url.query}" if request.url.query else "")
