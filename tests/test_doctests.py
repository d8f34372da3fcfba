"""Every example in a docstring of graphmem and api runs and says what it shows
(examples that need a server or a model are marked ``+SKIP``)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import api
import graphmem


def _modules() -> list[str]:
    return sorted(info.name for package in (graphmem, api)
                  for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."))


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
