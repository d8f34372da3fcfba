"""``graphmem serve``: run the REST API (``api.app.create_app``) under uvicorn.

Options override the environment (``GRAPHMEM_HOST``, ``GRAPHMEM_PORT``,
``GRAPHMEM_STORE``, ``GRAPHMEM_DB_PATH``, ``GRAPHMEM_API_KEYS``... or ``.env``).
Without API keys the server refuses to bind anything but loopback.
"""

from __future__ import annotations

import copy
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
    store: Annotated[StoreKind | None, typer.Option(help="Backend \\[default: embedded]")] = None,
    db_path: Annotated[Path | None, typer.Option(
        help="The embedded store's file \\[default: graphmem.db]", dir_okay=False)] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
) -> None:
    """Serve the REST API; OpenAPI docs at /docs."""
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from api.app import create_app

    # graphmem's own loggers (the API's warnings) go where uvicorn's do, at INFO whatever
    # uvicorn's level; the audit trail is the JSONL file of GRAPHMEM_AUDIT_LOG
    log_config = copy.deepcopy(LOGGING_CONFIG)
    log_config["loggers"]["graphmem"] = {"handlers": ["default"], "level": "INFO",
                                         "propagate": False}
    logging.config.dictConfig(log_config)

    given: dict[str, Any] = {"host": host, "port": port, "db_path": db_path,
                             "store": store.value if store else None}
    settings = Settings(**{k: v for k, v in given.items() if v is not None})
    app = create_app(settings)
    shown = f"[{settings.host}]" if ":" in settings.host else settings.host
    Console().print(f"graphmem serving on [bold]http://{shown}:{settings.port}[/] "
                    f"(docs: http://{shown}:{settings.port}/docs, store: {settings.store})")
    uvicorn.run(app, host=settings.host, port=settings.port, log_level=log_level,
                log_config=log_config)
