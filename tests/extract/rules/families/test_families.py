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


@pytest.mark.parametrize("name", NAMES)
def test_a_family_imports_no_other_family(name: str) -> None:
    tree = ast.parse((Path(families.__path__[0]) / f"{name}.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not {m for m in imported if m.startswith("graphmem.extract.rules.families")}
    assert not {m for m in imported if m in ("graphmem.extract.rules.dispatch",
                                             "graphmem.extract.rules.gate",
                                             "graphmem.extract.rules.extractor")}


def test_the_gate_lets_through_what_the_families_ask_for() -> None:
    from graphmem.extract.rules.gate import Gate

    gate = Gate()
    for family in FAMILIES:
        for word in family.TRIGGERS:
            assert gate.worth_parsing(f"so {word} then"), word
    assert gate.worth_parsing("Tip: breathe.")  # lesson.PATTERNS
    assert gate.worth_parsing("Todo: renew the passport")  # lexical.PATTERNS
