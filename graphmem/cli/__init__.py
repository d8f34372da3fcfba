"""graphmem's command line: ``graphmem <group> <command>``.

This module only builds the root app and mounts one sub-app per module of this
package (``graphmem neo4j ...`` lives in :mod:`graphmem.cli.neo4j`). Errors are
turned into messages here, once, for every command: a :class:`GraphMemError`
prints one red line and exits non-zero (2 for a :class:`SetupError`, 1 for the
rest) instead of a traceback.
"""

from __future__ import annotations

import os
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from graphmem.cli import ingest, lifecycle, mcp, neo4j, recall, serve
from graphmem.errors import GraphMemError, SetupError
from graphmem.settings import unknown_variables


class _GraphMemGroup(TyperGroup):
    """Root command group; every sub-command runs inside its ``invoke``."""

    # ctx is Any: typer 0.29 vendors its own click, older typers use click itself.
    def invoke(self, ctx: Any) -> Any:
        # a misspelt GRAPHMEM_* variable is ignored by the settings: say so, whatever runs
        for line in unknown_variables(os.environ):
            Console(stderr=True, soft_wrap=True).print(f"[yellow]warning:[/] {escape(line)}")
        try:
            return super().invoke(ctx)
        except GraphMemError as err:
            message = f"[bold red]error:[/] [red]{escape(str(err))}[/]"
            Console(stderr=True, soft_wrap=True).print(message)
            raise typer.Exit(2 if isinstance(err, SetupError) else 1) from err


app = typer.Typer(
    name="graphmem",
    cls=_GraphMemGroup,
    help="graphmem: a temporal knowledge-graph memory engine.",
    no_args_is_help=True,
    # Locals in a traceback could show passwords and API keys.
    pretty_exceptions_show_locals=False,
)
app.add_typer(neo4j.app, name="neo4j")
app.command("serve")(serve.serve)
app.command("mcp")(mcp.mcp)
app.command("ingest")(ingest.ingest)
app.command("search")(recall.search)
app.command("context")(recall.context)
app.command("maintain")(lifecycle.maintain)
app.command("export-md")(lifecycle.export_md)
app.command("import-md")(lifecycle.import_md)
app.command("export-user")(lifecycle.export_user)
app.command("forget")(lifecycle.forget)
app.add_typer(lifecycle.todos_app, name="todos")
app.add_typer(lifecycle.profile_app, name="profile")
