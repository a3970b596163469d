"""The Examples sections of kg.analysis's public functions run as doctests."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["kg.analysis.communities", "kg.analysis.centrality", "kg.analysis.tables", "kg.analysis.assemble",
           "kg.analysis.trends", "kg.analysis.bursts", "kg.analysis.figure",
           "kg.analysis.report", "kg.analysis.table", "kg.analysis.collaboration"]


@pytest.mark.parametrize("name", MODULES)
def test_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(module, name) if t.examples]
    assert tests, f"{name} has no examples"
    for test in tests:
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples failed in {name}"
