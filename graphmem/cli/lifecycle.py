"""Lifecycle commands: ``maintain``, ``export-md``, ``import-md``, ``export-user``,
``todos list|complete``, ``profile show|refresh`` and ``forget``.

Each command builds :class:`~graphmem.settings.Settings` (``GRAPHMEM_*``
variables, ``.env``) and a :class:`~graphmem.memory.Memory` from it, runs one
library function of :mod:`graphmem.lifecycle` and prints its report as JSON
(or a table). Scopes are given by key: ``--scope user:alice``,
``--scope group:team``, ``--scope member:team:alice``. Errors become one red
line through the root app (:mod:`graphmem.cli`).

Changes are audited in ``--audit-log`` (default: ``GRAPHMEM_AUDIT_LOG``).
A command's events reach only the sinks of the memory it runs against: run
in another process than a server, the server's ``/v1/events`` does not see
them (there is no store-level change feed). An application that embeds the
CLI can pass its own open memory as the click context object
(``CliRunner().invoke(app, args, obj=memory)``); its sinks then hear every
change, and the CLI neither opens, closes nor audits that memory itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from graphmem import manage
from graphmem.errors import ValidationError
from graphmem.lifecycle import markdown, todos
from graphmem.edit.audit import AuditLog
from graphmem.edit.publish import EventSink
from graphmem.factory import build_writer
from graphmem.lifecycle.maintenance import maintain as run_maintenance
from graphmem.lifecycle.policy import MAX_PURGE_DAYS, DecayPolicy, LifecyclePolicy
from graphmem.lifecycle.portability import export_scope
from graphmem.lifecycle.profile import current_profile, profile_history, refresh_profile
from graphmem.memory import Memory
from graphmem.models import Scope
from graphmem.settings import Settings

ScopeKey = Annotated[str, typer.Option("--scope", help="user:<id>, group:<id> or member:<group>:<user>")]
Tenant = Annotated[str | None, typer.Option(help="Tenant \\[default: GRAPHMEM_DEFAULT_TENANT]")]
AuditPath = Annotated[Path | None, typer.Option("--audit-log", help="Append audit entries to this JSONL file")]
DryRun = Annotated[bool, typer.Option("--dry-run", help="Report what would change; change nothing")]
Learnings = Annotated[bool, typer.Option("--learnings", help="learnings.md: lessons and skills only")]

todos_app = typer.Typer(help="List and complete todos; --due: reminders due now.")
profile_app = typer.Typer(help="Show or rewrite the profile narrative.", no_args_is_help=True)


def _scope(key: str) -> Scope:
    try:
        return Scope.from_key(key)
    except ValueError as err:
        raise ValidationError(f"--scope {key!r}: {err}; use user:<id>, group:<id> or "
                              "member:<group>:<user>") from err


@contextmanager
def _opened(ctx: typer.Context,
            audit_log: Path | None = None) -> Iterator[tuple[Settings, Memory]]:
    """The settings and an open memory: the caller's (``ctx.obj``) or one built from the
    settings, audited in ``audit_log`` (else the settings' audit log)."""
    settings = Settings()
    if isinstance(ctx.obj, Memory):
        yield settings, ctx.obj
        return
    memory = Memory.from_settings(settings).open()
    path = audit_log or settings.audit_log
    if path is not None:
        memory.attach(EventSink(audit=AuditLog(path), actor="cli"))
    try:
        yield settings, memory
    finally:
        memory.close()


def _tenant(settings: Settings, tenant: str | None) -> str:
    return tenant or settings.default_tenant


def maintain(ctx: typer.Context,
             scope: Annotated[list[str], typer.Option("--scope", help="A scope key; repeat for several")],
             tenant: Tenant = None, dry_run: DryRun = False, audit_log: AuditPath = None,
             purge_after_days: Annotated[int | None, typer.Option(
                 min=0, max=MAX_PURGE_DAYS,
                 help="Hard-delete memories forgotten by decay for longer than this")] = None
             ) -> None:
    """Run summaries, episode expiry, todos, decay, consolidation and profile refresh."""
    scopes = [_scope(s) for s in scope]
    policy = LifecyclePolicy(decay=DecayPolicy(purge_after_days=purge_after_days))
    with _opened(ctx, audit_log) as (settings, memory):
        report = run_maintenance(memory, _tenant(settings, tenant), scopes, policy=policy,
                                 writer=build_writer(settings), dry_run=dry_run)
    typer.echo(report.model_dump_json(indent=2))


def export_md(ctx: typer.Context, scope: ScopeKey, tenant: Tenant = None, learnings: Learnings = False,
              output: Annotated[Path | None, typer.Option("--output", "-o")] = None) -> None:
    """Write a scope's current memory (or learnings) as editable Markdown."""
    with _opened(ctx) as (settings, memory):
        text = (markdown.export_learnings if learnings else markdown.export_markdown)(
            memory, _tenant(settings, tenant), _scope(scope))
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        Console(stderr=True).print(f"wrote {output}")


def import_md(ctx: typer.Context, path: Annotated[Path, typer.Argument(exists=True, dir_okay=False)], scope: ScopeKey,
              tenant: Tenant = None, learnings: Learnings = False, dry_run: DryRun = False,
              audit_log: AuditPath = None,
              allow_mass_retraction: Annotated[bool, typer.Option(
                  help="Allow retracting more than half of the scope's memories")] = False) -> None:
    """Apply an edited memory.md: edits supersede, deleted lines retract, new lines add."""
    categories = markdown.LEARNINGS if learnings else tuple(markdown.TITLES)
    with _opened(ctx, audit_log) as (settings, memory):
        report = markdown.import_markdown(
            memory, _tenant(settings, tenant), _scope(scope), path.read_text(encoding="utf-8"),
            categories=categories, dry_run=dry_run, allow_mass_retraction=allow_mass_retraction)
    typer.echo(report.model_dump_json(indent=2))


def export_user(ctx: typer.Context, scope: ScopeKey, tenant: Tenant = None, audit_log: AuditPath = None,
                output: Annotated[Path | None, typer.Option("--output", "-o")] = None) -> None:
    """Export everything stored under a scope as JSON (data portability)."""
    with _opened(ctx, audit_log) as (settings, memory):
        export = export_scope(memory, _tenant(settings, tenant), _scope(scope))
    text = export.model_dump_json(indent=2)
    if output is None:
        typer.echo(text)
    else:
        output.write_text(text + "\n", encoding="utf-8")
        Console(stderr=True).print(f"wrote {output}: {len(export.episodes)} episodes, "
                                   f"{len(export.facts)} facts, {len(export.entities)} entities")


def forget(ctx: typer.Context, scope: ScopeKey, tenant: Tenant = None,
           fact: Annotated[str | None, typer.Option(help="Soft-forget one memory (restorable)")] = None,
           entity: Annotated[str | None, typer.Option(help="Erase an entity and its facts")] = None,
           topic: Annotated[str | None, typer.Option(help="Erase what a search for this finds")] = None,
           dry_run: DryRun = False, audit_log: AuditPath = None,
           yes: Annotated[bool, typer.Option("--yes", help="Confirm erasing the whole scope")] = False
           ) -> None:
    """Forget: one memory softly (--fact), or erase an entity, a topic or the whole scope."""
    target = _scope(scope)
    with _opened(ctx, audit_log) as (settings, memory):
        name = _tenant(settings, tenant)
        if fact is not None:
            forgotten = manage.forget_fact(memory, name, fact, target)
            typer.echo(forgotten.model_dump_json(indent=2))
            return
        if entity is not None:
            erased = manage.erase_entity(memory, name, target, entity, dry_run=dry_run)
        elif topic is not None:
            erased = manage.erase_topic(memory, name, target, topic, dry_run=dry_run)
        else:
            if not (yes or dry_run):
                raise ValidationError(f"erasing all of {target.key} cannot be undone: "
                                      "add --yes (or try --dry-run)")
            erased = manage.erase_scope(memory, name, target, dry_run=dry_run)
    typer.echo(erased.model_dump_json(indent=2))


DueOnly = Annotated[bool, typer.Option("--due", help="Only pending todos whose reminder time has come")]


@todos_app.callback(invoke_without_command=True)
def todos_main(ctx: typer.Context, scope: Annotated[str | None, typer.Option(
                   "--scope", help="With --due: user:<id>, group:<id> or member:<group>:<user>")] = None,
               tenant: Tenant = None, due: DueOnly = False) -> None:
    """``graphmem todos --due --scope user:alice``: what to remind the user of now."""
    if ctx.invoked_subcommand is not None:
        return
    if not due or scope is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0 if not due else 2)
    todos_list(ctx, scope, tenant, status=None, due=True)


@todos_app.command("list")
def todos_list(ctx: typer.Context, scope: ScopeKey, tenant: Tenant = None,
               status: Annotated[todos.TodoStatus | None, typer.Option()] = None,
               due: DueOnly = False) -> None:
    """Todos, soonest due first; overdue ones and due reminders are marked."""
    with _opened(ctx) as (settings, memory):
        found = todos.list_todos(memory, _tenant(settings, tenant), _scope(scope), status=status)
    table = Table("id", "todo", "due", "remind at", "status", "assignee", "creator")
    for t in found:
        if due and not t.reminder_due:
            continue
        when = t.due.strftime("%Y-%m-%d %H:%M") if t.due else ""
        remind = t.remind_at.strftime("%Y-%m-%d %H:%M") if t.remind_at else ""
        state = t.status.value + (" (overdue)" if t.overdue else "") + (
            " (remind now)" if t.reminder_due else "")
        table.add_row(t.id, t.description, when, remind, state, t.assignee, t.creator or "")
    Console(width=200).print(table)


@todos_app.command("complete")
def todos_complete(ctx: typer.Context, todo_id: str, scope: ScopeKey, tenant: Tenant = None,
                   cancel: Annotated[bool, typer.Option(help="Cancel instead of completing")] = False,
                   audit_log: AuditPath = None) -> None:
    """Mark a pending todo completed (or cancelled)."""
    status = todos.TodoStatus.CANCELLED if cancel else todos.TodoStatus.COMPLETED
    with _opened(ctx, audit_log) as (settings, memory):
        todo = todos.close_todo(memory, _tenant(settings, tenant), todo_id, status=status,
                                scope=_scope(scope))
    typer.echo(todo.model_dump_json(indent=2))


@profile_app.command("show")
def profile_show(ctx: typer.Context, scope: ScopeKey, tenant: Tenant = None,
                 history: Annotated[bool, typer.Option(help="Every version, oldest first")] = False
                 ) -> None:
    """Print the current profile narrative (or all its versions)."""
    with _opened(ctx) as (settings, memory):
        name, target = _tenant(settings, tenant), _scope(scope)
        versions = profile_history(memory, name, target) if history else [
            current_profile(memory, name, target)]
    for version in versions:
        when = version.generated_at.date().isoformat() if version.generated_at else "never"
        typer.echo(f"# {version.owner}: version {version.version} ({when})\n")
        typer.echo((version.text or "(empty: nothing known yet)") + "\n")


@profile_app.command("refresh")
def profile_refresh(ctx: typer.Context, scope: ScopeKey, tenant: Tenant = None,
                    force: Annotated[bool, typer.Option(help="Rewrite even if not due")] = False
                    ) -> None:
    """Rewrite the profile if it is due (5 new summaries, 7 days) or with --force."""
    with _opened(ctx) as (settings, memory):
        result = refresh_profile(memory, _tenant(settings, tenant), _scope(scope),
                                 writer=build_writer(settings), force=force)
    typer.echo(result.model_dump_json(indent=2))
