"""``graphmem ingest FILE``: bulk ingestion of JSONL episodes or LoCoMo conversations.

Episodes are written in batches (one store transaction per batch) with a
progress bar; an idempotency id on each episode makes a re-run after an
interruption skip what was already stored.
"""

from __future__ import annotations

import time
from enum import Enum
from itertools import islice
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from graphmem.ingest.formats import read_jsonl, read_locomo
from graphmem.ingest.inputs import EpisodeInput
from graphmem.memory import Memory
from graphmem.settings import Settings


class InputFormat(str, Enum):
    jsonl = "jsonl"
    locomo = "locomo"


def ingest(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="The input file")],
    fmt: Annotated[InputFormat, typer.Option("--format", help=(
        "jsonl: one POST /v1/episodes body per line, e.g. {\"scope\": {\"user_id\": \"alice\"}, "
        "\"text\": \"I live in Oslo.\"}; locomo: the LoCoMo JSON file"))] = InputFormat.jsonl,
    tenant: Annotated[str | None, typer.Option(help="Tenant \\[default: GRAPHMEM_DEFAULT_TENANT]")] = None,
    batch_size: Annotated[int, typer.Option(min=1, max=1000, help="Episodes per transaction")] = 16,
) -> None:
    """Ingest a file of episodes, batched, with a progress bar."""
    settings = Settings()
    episodes: list[EpisodeInput] = list(read_locomo(path) if fmt is InputFormat.locomo
                                        else read_jsonl(path))
    turns = sum(max(1, len(e.messages)) for e in episodes)
    created = duplicates = 0
    console = Console()
    start = time.perf_counter()
    with Memory.from_settings(settings) as memory, Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=console,
    ) as progress:
        task = progress.add_task("ingesting turns", total=turns)
        stream = iter(episodes)
        while batch := list(islice(stream, batch_size)):
            for result in memory.add_episodes(tenant or settings.default_tenant, batch):
                created += len(result.created)
                duplicates += int(result.duplicate)
            progress.advance(task, sum(max(1, len(e.messages)) for e in batch))
    seconds = time.perf_counter() - start
    console.print(f"{len(episodes)} episodes ({turns} turns) in {seconds:.1f} s "
                  f"({turns / seconds:.3g} turns/s): {created} facts created, "
                  f"{duplicates} episodes already stored")


