"""``graphmem mcp``: serve memory to a desktop assistant over MCP (stdio).

The assistant starts this command and speaks MCP on its stdin and stdout, so
nothing else may be printed there: logs go to stderr. The tenant is fixed
here (there are no API keys on a pipe the user's own client opened), and
``--user``/``--group`` name whose memory a tool call means when the model
does not say. Settings come from ``GRAPHMEM_*`` variables and ``.env`` like
``graphmem serve``; the options override them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import pydantic
import typer

from graphmem.cli.serve import StoreKind
from graphmem.errors import ValidationError
from graphmem.models import Scope
from graphmem.settings import Settings


def _scope(user: str | None, group: str | None) -> Scope | None:
    if user is None and group is None:
        return None
    try:
        return Scope(user_id=user, group_id=group)
    except pydantic.ValidationError as err:
        raise ValidationError("; ".join(f"--{str(e['loc'][0]).removesuffix('_id')}: "
                                        f"{str(e['msg']).removeprefix('Value error, ')}"
                                        for e in err.errors())) from err


def mcp(
    user: Annotated[str | None, typer.Option(
        help="The user whose memory tools use when the model names none")] = None,
    group: Annotated[str | None, typer.Option(
        help="The group (with --user: that member's memory in it)")] = None,
    tenant: Annotated[str | None, typer.Option(
        help="Tenant \\[default: GRAPHMEM_DEFAULT_TENANT]")] = None,
    store: Annotated[StoreKind | None, typer.Option(
        help="Backend \\[default: GRAPHMEM_STORE, else embedded]")] = None,
    db_path: Annotated[Path | None, typer.Option(
        help="The embedded store's file \\[default: graphmem.db]", dir_okay=False)] = None,
) -> None:
    """Serve memory to an assistant over MCP on stdin/stdout (add it to the client's config)."""
    from graphmem.mcp import Caller, build_server
    from graphmem.memory import Memory

    given: dict[str, Any] = {"db_path": db_path, "store": store.value if store else None}
    settings = Settings(**{k: v for k, v in given.items() if v is not None})
    caller = Caller(tenant or settings.default_tenant, _scope(user, group))
    memory = Memory.from_settings(settings).open()
    try:
        build_server(memory, lambda _ctx: caller).run("stdio")
    finally:
        memory.close()
