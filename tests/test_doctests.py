"""Every Examples section in kg's docstrings runs, as NetworkX's do: the API documents itself truthfully."""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import kg

MODULES = sorted(info.name for info in pkgutil.walk_packages(kg.__path__, "kg.") if not info.name.endswith("__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed (run the doctest)"

