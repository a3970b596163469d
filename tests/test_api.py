"""The public API in `kg/__init__.py`: plain lazy names, each a function apart from the packages;
`kg.read()` and `kg.iter_papers()` without inputs read the embedded sample, as `kg.build()` does."""
from __future__ import annotations

import subprocess
import sys

import kg
import kg.evaluate
import kg.extract
from kg.extract import extract


def test_the_api_names_its_functions_apart_from_its_packages():
    """`kg.extract` is the package, `kg.extract_methods` its function: no module is made callable."""
    papers = kg.read(None).papers[:3]
    assert kg.extract_methods(papers) == extract(papers)
    assert kg.evaluate_methods is kg.evaluate.evaluate
    assert not callable(kg.extract) and kg.extract.make_pipeline is kg.make_pipeline


def test_every_api_name_resolves_in_a_fresh_interpreter():
    code = "import kg\nprint(sum(getattr(kg, name) is not None for name in kg.__all__), len(kg.__all__))\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    resolved, total = done.stdout.split()
    assert resolved == total


def test_read_and_iter_papers_default_to_the_embedded_sample():
    assert kg.read().summary() == kg.read(None).summary() == \
        "read 20 papers from 1 file (0 duplicates merged, 0 records skipped)"
    assert [p.key for p in kg.iter_papers()] == [p.key for p in kg.read().papers]
