"""memory.md round trip: unchanged files change nothing; edits, deletions and additions apply."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.errors import ValidationError
from graphmem.lifecycle.markdown import (
    export_learnings,
    export_markdown,
    import_markdown,
    parse_markdown,
)
from graphmem.lifecycle.portability import export_scope
from graphmem.memory import Memory
from graphmem.models import Category
from tests.lifecycle.conftest import ALICE, Clock
from tests.lifecycle.helpers import add, current_texts


def seed(memory: Memory, tenant: str) -> dict[str, str]:
    jan = datetime(2025, 1, 6, tzinfo=UTC)
    return {
        "globex": add(memory, tenant, "WORKS_AT", "Globex", text="Alice works at Globex.",
                      valid_from=jan).id,
        "hiking": add(memory, tenant, "LIKES", "hiking", text="Alice likes hiking.",
                      category=Category.PREFERENCE, valid_from=jan).id,
        "tea": add(memory, tenant, "LIKES", "green tea", text="Alice likes green tea.",
                   category=Category.PREFERENCE, valid_from=jan).id,
        "lesson": add(memory, tenant, "LESSON", "needs proxy-env", subject="Docker",
                      text="Lesson for Docker: The Docker build needs proxy-env.",
                      category=Category.LESSON, valid_from=jan).id,
    }


def snapshot(memory: Memory, tenant: str) -> str:
    return export_scope(memory, tenant, ALICE).model_dump_json(exclude={"exported_at"})


def test_export_then_import_unchanged_changes_nothing(memory: Memory, tenant: str) -> None:
    ids = seed(memory, tenant)
    text = export_markdown(memory, tenant, ALICE)
    assert f"- Alice works at Globex. _(since 2025-01-06)_ <!-- id:{ids['globex']} -->" in text
    assert text.index("## Preferences") < text.index("## Facts") < text.index("## Lessons learned")
    before = snapshot(memory, tenant)
    report = import_markdown(memory, tenant, ALICE, text)
    assert (report.changed, report.unchanged, report.skipped) == (0, 4, [])
    assert snapshot(memory, tenant) == before


def test_edit_delete_add_and_move(memory: Memory, tenant: str, clock: Clock) -> None:
    ids = seed(memory, tenant)
    text = export_markdown(memory, tenant, ALICE)
    edited = (text
              .replace("Alice works at Globex.", "Alice works at Initech.")
              .replace(f"- Alice likes hiking. _(since 2025-01-06)_ <!-- id:{ids['hiking']} -->\n",
                       "- Alice prefers window seats.\n"))
    tea_line = next(line for line in edited.splitlines() if ids["tea"] in line)
    edited = edited.replace(tea_line + "\n", "").replace("## Facts\n", f"## Facts\n\n{tea_line}\n")
    clock.advance(days=1)

    report = import_markdown(memory, tenant, ALICE, edited)
    assert report.retracted == [ids["hiking"]]
    assert len(report.added) == 1 and report.unchanged == 1
    by_old = {e.old_id: e for e in report.edited}
    assert by_old[ids["globex"]].superseded and not by_old[ids["tea"]].superseded

    assert current_texts(memory, tenant) == sorted([
        "Alice works at Initech.", "Alice prefers window seats.", "Alice likes green tea.",
        "Lesson for Docker: The Docker build needs proxy-env."])
    jobs = memory.history(tenant, ALICE, "Alice", "WORKS_AT")  # the old value stays in history
    assert [(f.object_name, f.valid_until) for f in jobs] == [("Globex", clock.now),
                                                              ("Initech", None)]
    hiking = memory.history(tenant, ALICE, "Alice", "LIKES")
    assert [(f.object_name, f.valid_until) for f in hiking if f.object_name == "hiking"] == [
        ("hiking", clock.now)]
    after = export_markdown(memory, tenant, ALICE)
    assert "Alice likes green tea." in after.split("## Facts")[1]
    assert "- Alice prefers window seats. _(since 2025-03-04)_" in after
    assert import_markdown(memory, tenant, ALICE, after).changed == 0  # round trip again


def test_the_same_edited_file_imported_twice_keeps_its_edits(memory: Memory, tenant: str,
                                                             clock: Clock) -> None:
    """A retry, a save applied twice, a sync tool: the second import of an edited file
    must not retract what the first one set (its edited line still carries the old id, its
    added line none) nor add the new line again."""
    seed(memory, tenant)
    edited = (export_markdown(memory, tenant, ALICE)
              .replace("Alice works at Globex.", "Alice works at Initech.")
              .replace("## Facts\n", "## Facts\n\n- Alice plays the violin.\n"))
    clock.advance(days=1)
    first = import_markdown(memory, tenant, ALICE, edited)
    assert len(first.edited) == 1 and len(first.added) == 1
    after_first = current_texts(memory, tenant)
    clock.advance(days=1)

    second = import_markdown(memory, tenant, ALICE, edited)
    assert (second.changed, second.retracted, second.added, second.skipped) == (0, [], [], [])
    assert second.unchanged == 5
    assert current_texts(memory, tenant) == after_first
    assert "Alice works at Initech." in after_first and "Alice plays the violin." in after_first


def test_learnings_hold_lessons_and_skills_only(memory: Memory, tenant: str) -> None:
    ids = seed(memory, tenant)
    add(memory, tenant, "SKILLED_IN", "Rust", text="Alice is skilled in Rust.",
        category=Category.SKILL)
    text = export_learnings(memory, tenant, ALICE)
    assert "Globex" not in text and ids["lesson"] in text and "skilled in Rust" in text
    without_lesson = "\n".join(line for line in text.splitlines() if ids["lesson"] not in line)
    report = import_markdown(memory, tenant, ALICE, without_lesson,
                             categories=(Category.LESSON, Category.SKILL))
    assert report.retracted == [ids["lesson"]] and report.unchanged == 1
    assert "Alice works at Globex." in current_texts(memory, tenant)  # untouched


def test_parse_errors_name_the_line() -> None:
    with pytest.raises(ValidationError, match="line 3: unknown section 'Hobbies'"):
        parse_markdown("# Memory\n\n## Hobbies\n- Alice knits.\n")
    with pytest.raises(ValidationError, match="line 1: a memory line before"):
        parse_markdown("- Alice knits.\n")
    with pytest.raises(ValidationError, match="appears twice"):
        parse_markdown("## Facts\n- a <!-- id:fact_1 -->\n- b <!-- id:fact_1 -->\n")
    with pytest.raises(ValidationError, match="line 2: a memory line is longer than 1000"):
        parse_markdown("## Facts\n- " + "word " * 201 + "<!-- id:fact_1 -->\n")
    for garbage in ("", "garbage", "#", "# Memory\n\nsome text\n"):
        with pytest.raises(ValidationError, match="no '## Section' heading"):
            parse_markdown(garbage)
    assert parse_markdown("# Memory of alice\n\n<!-- graphmem memory export of user:alice, "
                          "2025-01-01. -->\n") == []  # the export of an empty scope
    lines = parse_markdown("## preferences\n* Likes tea _(since 2024-01-01)_ <!-- id:fact_9 -->\n"
                           "   \n- \n")
    assert [(l.category, l.text, l.id) for l in lines] == [(Category.PREFERENCE, "Likes tea",
                                                           "fact_9")]
