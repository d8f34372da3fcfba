"""What :func:`api.ui.mount` serves must ship in the wheel: pyproject's package data covers it."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import api.ui

ROOT = Path(__file__).resolve().parents[3]


def test_every_template_and_static_file_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["api.ui"]
    here = Path(api.ui.__file__).parent
    files = [p.relative_to(here).as_posix() for folder in ("templates", "static")
             for p in (here / folder).rglob("*") if p.is_file()]

    assert len(files) > 10
    def shipped(name: str) -> bool:  # setuptools' "*" stops at a "/"
        return any(fnmatch(name, p) and name.count("/") == p.count("/") for p in patterns)

    assert [f for f in files if not shipped(f)] == []
