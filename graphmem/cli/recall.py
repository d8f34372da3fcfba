"""Recall commands: ``graphmem search`` and ``graphmem context``, with the time view.

``--as-of``, ``--as-known-at`` and ``--include-history`` are the time view of
the REST API, and their values follow the one datetime rule
(:data:`graphmem.models.TIME_RULE`): ``2024-06-01``, ``2024-06-01 09:00`` (UTC)
and ``2024-06-01T11:00:00+02:00`` all work. A bad value is one red line naming
the option.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

import pydantic
import typer

from graphmem.cli.lifecycle import ScopeKey, Tenant, _opened, _scope, _tenant
from graphmem.errors import ValidationError
from graphmem.search.context import ContextRequest
from graphmem.search.models import SearchRequest

AsOf = Annotated[str | None, typer.Option(
    "--as-of", help="What was true then (date or date-time; no offset means UTC)")]
AsKnownAt = Annotated[str | None, typer.Option(
    "--as-known-at", help="Only what was recorded by then (date or date-time, UTC by default)")]
History = Annotated[bool, typer.Option("--include-history",
                                       help="Also superseded and retracted memories")]

_Request = TypeVar("_Request", SearchRequest, ContextRequest)


#: Fields the commands take as their argument, not as an option.
_ARGUMENTS = {"query": "QUERY", "message": "MESSAGE"}


def _request(model: type[_Request], **fields: Any) -> _Request:
    """Validate like the API does, naming the CLI argument or option at fault."""
    try:
        return model.model_validate({k: v for k, v in fields.items() if v is not None})
    except pydantic.ValidationError as err:
        problems = "; ".join(
            f"{_named(str(e['loc'][0]))}: {e['msg'].removeprefix('Value error, ')}"
            for e in err.errors())
        raise ValidationError(problems) from err


def _named(field: str) -> str:
    return _ARGUMENTS.get(field) or "--" + field.replace("_", "-")


def search(ctx: typer.Context, query: Annotated[str, typer.Argument(help="The question")], scope: ScopeKey,
           tenant: Tenant = None, as_of: AsOf = None, as_known_at: AsKnownAt = None,
           include_history: History = False,
           limit: Annotated[int, typer.Option(min=1, max=200)] = 10) -> None:
    """Search memories and raw turns; prints the explained results as JSON."""
    request = _request(SearchRequest, scope=_scope(scope), query=query, as_of=as_of,
                       as_known_at=as_known_at, include_history=include_history, limit=limit)
    with _opened(ctx) as (settings, memory):
        found = memory.search(_tenant(settings, tenant), request)
    typer.echo(found.model_dump_json(indent=2))


def context(ctx: typer.Context, message: Annotated[str, typer.Argument(help="The user's message")], scope: ScopeKey,
            tenant: Tenant = None, as_of: AsOf = None, as_known_at: AsKnownAt = None,
            include_history: History = False,
            token_budget: Annotated[int, typer.Option(min=50, max=100_000)] = 2000) -> None:
    """Print the memory block an assistant would put in its prompt for this message."""
    request = _request(ContextRequest, scope=_scope(scope), message=message, as_of=as_of,
                       as_known_at=as_known_at, include_history=include_history,
                       token_budget=token_budget)
    with _opened(ctx) as (settings, memory):
        built = memory.context(_tenant(settings, tenant), request)
    typer.echo(built.prompt)
