"""``graphmem neo4j install|start|stop|status``: a local Neo4j 5.26 without Docker.

Thin commands over :class:`graphmem.neo4j_local.LocalNeo4j`. The Bolt port and the
password default to graphmem's own settings (``GRAPHMEM_NEO4J_URI``,
``GRAPHMEM_NEO4J_PASSWORD``, or the same keys in ``.env``), so a server started here
is the one ``graphmem serve`` connects to. Auth is on exactly when a password is set.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit

import pydantic
import typer
from rich.console import Console
from rich.table import Table

from graphmem.errors import SetupError
from graphmem.neo4j_local import LocalNeo4j, LocalNeo4jConfig, LocalNeo4jStatus, default_home
from graphmem.settings import Settings

app = typer.Typer(
    help="Run a real local Neo4j 5.26 (no Docker) for development and tests.",
    no_args_is_help=True,
)

# "\\[" keeps rich, which renders the help, from reading "[default: ...]" as markup.
BoltPort = Annotated[
    int | None,
    typer.Option(help="Bolt port on 127.0.0.1 \\[default: port of GRAPHMEM_NEO4J_URI, else 7687]"),
]
HttpPort = Annotated[
    int,
    typer.Option(envvar="GRAPHMEM_NEO4J_HTTP_PORT", help="HTTP port on 127.0.0.1 (Neo4j Browser)"),
]
DataDir = Annotated[
    Path | None,
    typer.Option(
        envvar="GRAPHMEM_NEO4J_DATA_DIR",
        help="Store, logs and pid file \\[default: data/ in the home]",
        file_okay=False,
    ),
]
Home = Annotated[
    Path | None,
    typer.Option(
        envvar="GRAPHMEM_NEO4J_HOME",
        help="Jars, compiled launcher and default data \\[default: the user cache, "
             "~/.cache/graphmem/neo4j-local on Linux]",
        file_okay=False,
    ),
]


@app.command()
def install(home: Home = None) -> None:
    """Fetch the Neo4j and Neo4j Browser jars with Maven (once; later runs are instant)."""
    local = LocalNeo4j(_config(home=home))
    ran = local.install()
    where = local.config.home / "lib"
    Console().print(f"Neo4j jars {'installed in' if ran else 'already in'} {where}")


@app.command()
def start(
    bolt_port: BoltPort = None,
    http_port: HttpPort = 7474,
    data_dir: DataDir = None,
    home: Home = None,
    auth: Annotated[
        bool | None,
        typer.Option(
            "--auth/--no-auth", help="Auth on/off \\[default: on when GRAPHMEM_NEO4J_PASSWORD is set]"
        ),
    ] = None,
    heap: Annotated[str, typer.Option(help="JVM heap, e.g. 1g or 2g")] = "1g",
    page_cache_mb: Annotated[
        int, typer.Option(min=16, help="Page cache in MiB; size it to hold the store")
    ] = 512,
    quick_start: Annotated[
        bool,
        typer.Option(
            "--quick-start/--full-jit",
            help="C1-only JIT: starts twice as fast; --full-jit for long, heavy benchmarks",
        ),
    ] = True,
    timeout: Annotated[float, typer.Option(help="Seconds to wait for Bolt to answer")] = 120.0,
    foreground: Annotated[
        bool, typer.Option(help="Stay attached and print the server log; Ctrl-C stops the server")
    ] = False,
) -> None:
    """Start the server in the background and wait until it answers on Bolt."""
    local = LocalNeo4j(
        _config(
            bolt_port=bolt_port, http_port=http_port, data_dir=data_dir, home=home,
            auth=auth, heap=heap, page_cache_mb=page_cache_mb, quick_start=quick_start,
            start_timeout=timeout,
        )
    )
    console = Console()
    was_running = local.status().running
    with console.status("Starting Neo4j (the first start takes longer)..."):
        status = local.start()
    console.print("Neo4j was already running." if was_running else "Neo4j is ready.")
    _print_status(console, status)
    if foreground:
        _follow(local, console)


@app.command()
def stop(data_dir: DataDir = None, home: Home = None) -> None:
    """Stop the server cleanly (SIGTERM, then SIGKILL if it hangs)."""
    stopped = LocalNeo4j(_config(data_dir=data_dir, home=home, for_start=False)).stop()
    Console().print("Neo4j stopped." if stopped else "Neo4j was not running.")


@app.command()
def status(data_dir: DataDir = None, home: Home = None) -> None:
    """Show whether the server runs and where to reach it; exit code 3 when it does not."""
    current = LocalNeo4j(_config(data_dir=data_dir, home=home, for_start=False)).status()
    _print_status(Console(), current)
    if not current.running:
        raise typer.Exit(3)  # the LSB status code for "not running", handy in scripts


def _config(
    *,
    bolt_port: int | None = None,
    http_port: int = 7474,
    data_dir: Path | None = None,
    home: Path | None = None,
    auth: bool | None = None,
    heap: str = "1g",
    page_cache_mb: int = 512,
    quick_start: bool = True,
    start_timeout: float = 120.0,
    for_start: bool = True,
) -> LocalNeo4jConfig:
    """Build the config from options and graphmem's settings; stop and status need no password."""
    try:
        settings = Settings()
    except pydantic.ValidationError as err:
        raise SetupError(f"invalid graphmem settings (GRAPHMEM_* or .env): {err}") from err
    password = settings.neo4j_password if settings.neo4j_password.get_secret_value() else None
    if not for_start:
        auth, password = False, None
    elif auth is None:
        auth = password is not None
    if auth and password is None:
        raise SetupError("--auth needs a password: set GRAPHMEM_NEO4J_PASSWORD (or put it in .env)")
    try:
        return LocalNeo4jConfig(
            bolt_port=bolt_port or urlsplit(settings.neo4j_uri).port or 7687,
            http_port=http_port,
            data_dir=data_dir,
            home=home or default_home(),
            auth=auth,
            password=password if auth else None,
            heap=heap,
            page_cache_mb=page_cache_mb,
            quick_start=quick_start,
            start_timeout=start_timeout,
        )
    except pydantic.ValidationError as err:
        raise SetupError(f"invalid Neo4j options: {_describe(err)}") from err


def _describe(err: pydantic.ValidationError) -> str:
    problems = []
    for error in err.errors():
        message = error["msg"].removeprefix("Value error, ")
        field = ".".join(map(str, error["loc"]))
        problems.append(f"{field}: {message}" if field else message)
    return "; ".join(problems)


def _print_status(console: Console, status: LocalNeo4jStatus) -> None:
    table = Table(show_header=False, box=None, pad_edge=False)
    state = f"[green]running[/] (pid {status.pid})" if status.running else "[yellow]not running[/]"
    table.add_row("state", state)
    silent = status.running and not status.bolt_listening
    table.add_row("bolt", status.bolt_uri + (" (not answering)" if silent else ""))
    table.add_row("browser", status.browser_url)
    auth = "user neo4j, password from GRAPHMEM_NEO4J_PASSWORD" if status.auth else "off"
    table.add_row("auth", auth)
    table.add_row("data", str(status.data_dir))
    table.add_row("log", str(status.log_file))
    console.print(table)


def _follow(local: LocalNeo4j, console: Console) -> None:
    console.print("[dim]Following the log; Ctrl-C stops Neo4j.[/]")
    try:
        with open(local.log_file, "rb") as log:
            log.seek(0, 2)
            while local.status().running:
                line = log.readline()
                if line:
                    sys.stdout.write(line.decode(errors="replace"))
                    sys.stdout.flush()
                else:
                    time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        with console.status("Stopping Neo4j..."):
            local.stop()
        console.print("Neo4j stopped.")
