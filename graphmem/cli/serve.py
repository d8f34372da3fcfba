"""``graphmem serve``: run the REST API (``api.app.create_app``) under uvicorn.

Options override the environment (``GRAPHMEM_HOST``, ``GRAPHMEM_PORT``,
``GRAPHMEM_STORE``, ``GRAPHMEM_DB_PATH``, ``GRAPHMEM_API_KEYS``... or ``.env``).
Without API keys the server refuses to bind anything but loopback.

``--workers N`` runs N server processes on one port (uvicorn's workers), on
either store. On the embedded store each worker keeps its own in-memory mirror
of the file and replays the rows the others' writes logged (store/embedded/
changes.py); its writes serialise on SQLite's write lock.
"""

from __future__ import annotations

import copy
import os
import logging.config
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from graphmem.settings import Settings


class StoreKind(str, Enum):
    embedded = "embedded"
    neo4j = "neo4j"


def serve(
    host: Annotated[str | None,
                    typer.Option(help="Interface to bind \\[default: 127.0.0.1]")] = None,
    port: Annotated[int | None, typer.Option(help="Port \\[default: 8000]")] = None,
    store: Annotated[StoreKind | None, typer.Option(
        help="Backend \\[default: GRAPHMEM_STORE, else embedded]")] = None,
    db_path: Annotated[Path | None, typer.Option(
        help="The embedded store's file \\[default: graphmem.db]", dir_okay=False)] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
    workers: Annotated[int, typer.Option(
        min=1, help="Server processes on one port")] = 1,
) -> None:
    """Serve the REST API; OpenAPI docs at /docs."""
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from api.app import create_app
    from graphmem.cli.listener import TcpListenerConfig, run_workers

    # graphmem's own loggers (the API's warnings) go where uvicorn's do, at INFO whatever
    # uvicorn's level; the audit trail is the JSONL file of GRAPHMEM_AUDIT_LOG
    log_config = copy.deepcopy(LOGGING_CONFIG)
    log_config["loggers"]["graphmem"] = {"handlers": ["default"], "level": "INFO",
                                         "propagate": False}
    logging.config.dictConfig(log_config)

    given: dict[str, Any] = {"host": host, "port": port, "db_path": db_path,
                             "store": store.value if store else None}
    options = {k: v for k, v in given.items() if v is not None}
    settings = Settings(**options)
    app = create_app(settings)  # also checks the settings before any worker starts
    shown = f"[{settings.host}]" if ":" in settings.host else settings.host
    Console().print(f"graphmem serving on [bold]http://{shown}:{settings.port}[/] "
                    f"(docs: http://{shown}:{settings.port}/docs, store: {settings.store})")
    if workers == 1:
        uvicorn.run(app, host=settings.host, port=settings.port, log_level=log_level,
                    log_config=log_config)
        return
    # each worker builds its own app from the environment, given these options through it
    os.environ.update({f"GRAPHMEM_{k.upper()}": str(v) for k, v in options.items()})
    run_workers(TcpListenerConfig(
        "api.app:app_from_environment", factory=True, workers=workers, host=settings.host,
        port=settings.port, log_level=log_level, log_config=log_config))
