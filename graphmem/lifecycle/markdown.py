"""memory.md and learnings.md: a scope's memory as Markdown a person can read and edit.

Export writes the current memories stored under one scope, grouped by
category, one line each, with its start date and a hidden stable id::

    ## Preferences

    - Alice likes hiking. _(since 2024-03-01)_ <!-- id:fact_3f2a... -->

Import compares the file with memory as it is now:

* an unchanged line changes nothing, so exporting and importing an
  unchanged file is a no-op; so is importing the same edited file a second
  time (a line saying word for word what a current memory says is that memory,
  whatever id it carries);
* an edited line with a new value becomes a new fact that supersedes the old
  one (``correct_fact``); a rewording of the same value, or a line moved to
  another section, is edited in place;
* a deleted line retracts its fact now (it stays in history);
* a file with no ``## Section`` heading is refused (an empty or truncated file
  must not read as "delete everything"), and so is an import that would
  retract more than half of the scope's current memories, unless
  ``allow_mass_retraction`` is set; a dry run reports it as a warning;
* a line without an id is a new memory (the extractor structures it; if it
  finds nothing, it is kept as a ``NOTE``).

Dates are informational: edit the text, not the date. ``learnings.md`` is the
same for lessons and skills only.
"""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel, Field

from graphmem.errors import ConflictError, ExtractionError, ValidationError
from graphmem.extract.base import SELF, ExtractedFact
from graphmem.ingest.inputs import FactInput
from graphmem.lifecycle import records
from graphmem.edit.changes import fact_changes
from graphmem.edit.unit import Edit as WriteEdit
from graphmem.manage.edits import correct_fact
from graphmem.memory import Memory
from graphmem.models import Category, Episode, Evidence, Fact, FactStatus, Scope, new_id
from graphmem.search.context import CATEGORY_TITLES
from graphmem.store.base import WriteBatch
from graphmem.names import normalize_name
from graphmem.temporal import TimeFilter

TITLES: dict[Category, str] = {c: t for c, t in CATEGORY_TITLES.items() if c is not None}
LEARNINGS = (Category.LESSON, Category.SKILL)
SOURCE_ID = "memory.md"
_ID = re.compile(r"\s*<!--\s*id:(?P<id>[A-Za-z0-9_.:-]+)\s*-->\s*$")
_DATE = re.compile(r"\s*_\((?:since|from) \d{4}-\d{2}-\d{2}[^)]*\)_\s*$")
_BULLET = re.compile(r"^\s*[-*+]\s+(?P<body>.*)$")
_HEADING = re.compile(r"^\s*##\s+(?P<title>.+?)\s*#*\s*$")
#: The comment an export starts with: an export of an empty scope has no section at all.
_EXPORT_MARK = re.compile(r"^<!-- graphmem \w+ export of ", re.MULTILINE)
#: The longest memory line (the longest text a fact holds).
MAX_LINE_CHARS = 1000
#: An import retracting more than this share of the current memories needs
#: ``allow_mass_retraction``.
MASS_RETRACTION_SHARE = 0.5


class MarkdownLine(BaseModel):
    line_no: int
    category: Category
    text: str
    id: str | None = None


class Edit(BaseModel):
    old_id: str
    new_id: str
    old_text: str
    new_text: str
    superseded: bool


class ImportReport(BaseModel):
    unchanged: int = 0
    added: list[str] = Field(default_factory=list, description="ids of new facts")
    edited: list[Edit] = Field(default_factory=list)
    retracted: list[str] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list)
    current: int = Field(default=0, description="current memories of the scope before the import")
    warnings: list[str] = Field(default_factory=list)
    dry_run: bool = False

    @property
    def changed(self) -> int:
        return len(self.added) + len(self.edited) + len(self.retracted)


def _exported(memory: Memory, tenant: str, scope: Scope, categories: tuple[Category, ...],
              now: datetime) -> list[Fact]:
    return [f for f in records.all_facts(memory, tenant, [scope.key], time=TimeFilter(as_of=now),
                                         categories=list(categories))
            if f.status is FactStatus.ACTIVE and f.predicate not in records.LIFECYCLE_PREDICATES]


def _clean(text: str) -> str:
    return " ".join(text.split())


def export_markdown(memory: Memory, tenant: str, scope: Scope, *,
                    categories: tuple[Category, ...] = tuple(TITLES),
                    now: datetime | None = None, title: str = "Memory") -> str:
    """The current memories of ``scope`` (its own key only) as memory.md text."""
    now = now or memory.clock()
    facts = _exported(memory, tenant, scope, categories, now)
    out = [f"# {title} of {scope.user_id or scope.group_id}", "",
           f"<!-- graphmem {title.lower()} export of {scope.key}, {now:%Y-%m-%d}. Edit a line to "
           "correct it, delete it to retract it, add '- ...' lines under a section to add "
           "memories. Keep the id comments. -->"]
    for category in categories:
        chosen = sorted((f for f in facts if f.category is category),
                        key=lambda f: (f.valid_from, f.text, f.id))
        if not chosen:
            continue
        out += ["", f"## {TITLES[category]}", ""]
        out += [f"- {_clean(f.text)} _(since {f.valid_from:%Y-%m-%d})_ <!-- id:{f.id} -->"
                for f in chosen]
    return "\n".join(out) + "\n"


def export_learnings(memory: Memory, tenant: str, scope: Scope, *,
                     now: datetime | None = None) -> str:
    """learnings.md: lessons learned and proven procedures only."""
    return export_markdown(memory, tenant, scope, categories=LEARNINGS, now=now, title="Learnings")


def parse_markdown(text: str, *, categories: tuple[Category, ...] = tuple(TITLES)
                   ) -> list[MarkdownLine]:
    """The memory lines of a memory.md file; raises ValidationError naming the bad line."""
    by_title = {t.casefold(): c for c, t in TITLES.items()} | {c.value: c for c in TITLES}
    section: Category | None = None
    lines: list[MarkdownLine] = []
    seen: set[str] = set()
    sections = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if heading := _HEADING.match(raw):
            name = heading.group("title").casefold()
            if name not in by_title or by_title[name] not in categories:
                raise ValidationError(f"line {number}: unknown section {heading.group('title')!r};"
                                      f" use one of: {', '.join(TITLES[c] for c in categories)}")
            section = by_title[name]
            sections += 1
            continue
        bullet = _BULLET.match(raw)
        if bullet is None:
            continue
        if section is None:
            raise ValidationError(f"line {number}: a memory line before any '## Section' heading")
        body = bullet.group("body")
        found = _ID.search(body)
        fact_id = found.group("id") if found else None
        body = _DATE.sub("", _ID.sub("", body))
        if len(_clean(body)) > MAX_LINE_CHARS:
            raise ValidationError(f"line {number}: a memory line is longer than {MAX_LINE_CHARS}"
                                  " characters; split it")
        if fact_id is not None:
            if fact_id in seen:
                raise ValidationError(f"line {number}: id {fact_id} appears twice")
            seen.add(fact_id)
        if _clean(body):
            lines.append(MarkdownLine(line_no=number, category=section, text=_clean(body),
                                      id=fact_id))
    if not sections and not _EXPORT_MARK.search(text):
        raise ValidationError("markdown: no '## Section' heading found, so this is not a memory.md"
                              f" file (sections: {', '.join(TITLES[c] for c in categories)})")
    return lines


def import_markdown(memory: Memory, tenant: str, scope: Scope, text: str, *,
                    categories: tuple[Category, ...] = tuple(TITLES),
                    now: datetime | None = None, dry_run: bool = False,
                    allow_mass_retraction: bool = False) -> ImportReport:
    """Apply an edited memory.md to ``scope`` (see the module docstring for the rules).

    Raises ValidationError, changing nothing, for a malformed file and for a mass
    retraction without ``allow_mass_retraction``. The import holds the write path
    for its whole run (nothing interleaves); edits, retractions and additions each
    commit their own edit, in that order.
    """
    lines = parse_markdown(text, categories=categories)
    now = now or memory.clock()
    report = ImportReport(dry_run=dry_run)
    with memory.edit(tenant, now=now):
        current = {f.id: f for f in _exported(memory, tenant, scope, categories, now)}
        lines = _as_current(lines, current)
        listed = {line.id for line in lines if line.id}
        doomed = [f for fid, f in current.items() if fid not in listed]
        report.current = len(current)
        if len(doomed) > MASS_RETRACTION_SHARE * len(current):
            warning = (f"this import retracts {len(doomed)} of the scope's {len(current)} current "
                       "memories (lines missing from the file)")
            if not (dry_run or allow_mass_retraction):
                raise ValidationError(f"markdown: {warning}; nothing was changed. Check the file "
                                      "(try dry_run) or send allow_mass_retraction=true")
            report.warnings.append(warning if allow_mass_retraction else
                                   f"{warning}: the import will be refused without "
                                   "allow_mass_retraction=true")
        for line in lines:
            fact = current.get(line.id) if line.id else None
            if line.id and fact is None:
                report.skipped.append(f"line {line.line_no}: {line.id} is not a current memory "
                                      "of this scope any more; left out")
            elif fact is not None and _clean(fact.text) == line.text \
                    and fact.category is line.category:
                report.unchanged += 1
            elif fact is not None:
                _edit(memory, tenant, scope, fact, line, report, dry_run)
        _retract(memory, tenant, doomed, now, report, dry_run)
        _add(memory, tenant, scope, [line for line in lines if not line.id], now, report, dry_run)
    return report


def _as_current(lines: list[MarkdownLine], current: dict[str, Fact]) -> list[MarkdownLine]:
    """Each line as the memory it stands for. A line that says word for word what a current
    memory of its section says is that memory, whatever id it carries: the same file
    imported twice keeps the first import's edits (the edited line still carries the id
    the edit superseded, and an added line none), instead of retracting them as lines
    gone from the file and adding them again."""
    said = {(_clean(f.text), f.category): f.id for f in current.values()}
    return [line.model_copy(update={"id": said[(line.text, line.category)]})
            if line.id not in current and (line.text, line.category) in said else line
            for line in lines]


def _new_object(memory: Memory, fact: Fact, text: str) -> str | None:
    """The value an edited line names: the text around the old value kept, the middle changed."""
    old = _clean(fact.text)
    at = old.casefold().find(fact.object_name.casefold())
    if at >= 0:
        prefix, suffix = old[:at], old[at + len(fact.object_name):]
        if text.startswith(prefix) and text.endswith(suffix) and len(text) > len(prefix) + len(suffix):
            return text[len(prefix): len(text) - len(suffix)].strip() or None
    episode = Episode(tenant=fact.tenant, scope_key=fact.scope_key, source="text", content=text,
                      reference_time=fact.valid_from)
    for found in _extracted(memory, episode):
        if found.predicate == fact.predicate:
            return found.object
    return None


def _extracted(memory: Memory, episode: Episode) -> list[ExtractedFact]:
    """What the memory's extractor asserts in one line (nothing if it cannot read it)."""
    try:
        facts = memory.extractor.extract(episode, []).facts
    except ExtractionError:
        return []
    return [f for f in facts if f.action == "assert" and f.object]


def _edit(memory: Memory, tenant: str, scope: Scope, fact: Fact, line: MarkdownLine,
          report: ImportReport, dry_run: bool) -> None:
    value = _new_object(memory, fact, line.text) if _clean(fact.text) != line.text else None
    new_value = value is not None and normalize_name(value) != normalize_name(fact.object_name)
    if dry_run:
        report.edited.append(Edit(old_id=fact.id, new_id="", old_text=fact.text,
                                  new_text=line.text, superseded=new_value))
        return
    try:
        # memory.md says how things are now: an edited line is a change from now on
        result = correct_fact(memory, tenant, fact.id, object=value if new_value else None,
                              text=line.text, category=line.category, scope=scope, since="now")
    except ConflictError as err:
        report.skipped.append(f"line {line.line_no}: {err}")
        return
    report.edited.append(Edit(old_id=fact.id, new_id=result.memory.id, old_text=fact.text,
                              new_text=line.text, superseded=result.superseded is not None))


def _retract(memory: Memory, tenant: str, doomed: list[Fact], now: datetime,
             report: ImportReport, dry_run: bool) -> None:
    """Close each fact now with a retraction marker: it stops holding, its history stays."""
    closable = [f for f in doomed if f.valid_from < now]
    report.skipped += [f"{f.id} starts in the future; forget it instead" for f in doomed
                       if f not in closable]
    report.retracted += [f.id for f in closable]
    if dry_run or not closable:
        return
    with memory.edit(tenant, now=now) as edit:
        _close(edit, closable)


def _close(edit: WriteEdit, closable: list[Fact]) -> None:
    now = edit.now
    editor = edit.timeline()
    editor.load_facts(closable)
    for fact in closable:
        editor.replace(fact.model_copy(update={
            "id": new_id("fact"), "status": FactStatus.RETRACTION, "valid_from": now,
            "recorded_at": now, "embedding": None, "valid_until": None, "superseded_by": None,
            "supersedes": [], "retraction": None, "expired_at": None, "stated_until": None,
            "evidence": [Evidence(at=now, message_ids=[SOURCE_ID])], "episode_ids": [],
            "message_ids": [SOURCE_ID]}))
    outcome = editor.finish()
    kept = [f for f in outcome.changed if f.id not in set(outcome.deleted_ids)]
    edit.write(WriteBatch(facts=kept, delete_fact_ids=outcome.deleted_ids))
    closed = {f.id for f in closable}
    edit.record(fact_changes("memory.updated", [f for f in kept if f.id in closed],
                             audit="retract", detail="deleted from memory.md"))


def _add(memory: Memory, tenant: str, scope: Scope, lines: list[MarkdownLine], now: datetime,
         report: ImportReport, dry_run: bool) -> None:
    owner = scope.user_id or scope.group_id or "user"
    inputs: list[FactInput] = []
    for line in lines:
        episode = Episode(tenant=tenant, scope_key=scope.key, source="text", content=line.text,
                          reference_time=now)
        found = _extracted(memory, episode)
        if not found:
            inputs.append(FactInput(scope=scope, subject=owner, predicate="NOTE",
                                    object=line.text[:500], text=line.text,
                                    category=line.category, valid_from=now, source_id=SOURCE_ID))
            continue
        inputs += [FactInput(scope=scope, subject=owner if f.subject == SELF else f.subject,
                             predicate=f.predicate, object=f.object, object_type=f.object_type,
                             text=line.text if len(found) == 1 else f.text,
                             category=line.category, importance=f.importance,
                             cardinality=f.cardinality, valid_from=now, source_id=SOURCE_ID)
                   for f in found]
    if dry_run:
        report.added += [f"(new) {i.text}" for i in inputs]
        return
    if inputs:
        result = memory.add_facts(tenant, inputs)
        report.added += [f.id for f in [*result.created, *result.confirmed]]
