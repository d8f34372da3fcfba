"""The family registry: every family is listed, and families read only the base modules."""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

import pytest

from graphmem.extract.rules import families
from graphmem.extract.rules.families import FAMILIES

NAMES = sorted(m.name for m in pkgutil.iter_modules(families.__path__))


def test_every_family_module_is_registered() -> None:
    assert sorted(f.__name__.rsplit(".", 1)[-1] for f in FAMILIES) == NAMES  # type: ignore[attr-defined]


def _sources(name: str) -> list[Path]:
    """A family's source files: its module's, or each of its package's."""
    path = Path(families.__path__[0]) / name
    return sorted(path.glob("*.py")) if path.is_dir() else [path.with_suffix(".py")]


@pytest.mark.parametrize("name", NAMES)
def test_a_family_imports_no_other_family(name: str) -> None:
    own = f"graphmem.extract.rules.families.{name}"
    for source in _sources(name):
        tree = ast.parse(source.read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not {m for m in imported if m.startswith("graphmem.extract.rules.families")
                    and m != own and not m.startswith(own + ".")}, source
        assert not {m for m in imported if m in ("graphmem.extract.rules.dispatch",
                                                 "graphmem.extract.rules.gate",
                                                 "graphmem.extract.rules.extractor")}, source


def test_a_family_package_may_import_its_own_modules_only() -> None:
    """The check above reads every module of a family that is a package (chat is one)."""
    assert len(_sources("chat")) > 1
    assert _sources("change") == [Path(families.__path__[0]) / "change.py"]


def test_the_gate_lets_through_what_the_families_ask_for() -> None:
    from graphmem.extract.rules.gate import Gate

    gate = Gate()
    for family in FAMILIES:
        for word in family.TRIGGERS:
            assert gate.worth_parsing(f"so {word} then"), word
    assert gate.worth_parsing("Tip: breathe.")  # lesson.PATTERNS
    assert gate.worth_parsing("Todo: renew the passport")  # lexical.PATTERNS
