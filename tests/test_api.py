"""The public API in `kg/__init__.py`: names that are both a function and a submodule stay callable;
`kg.read()` and `kg.iter_papers()` without inputs read the embedded sample, as `kg.build()` does."""
from __future__ import annotations

import subprocess
import sys

import kg
import kg.evaluate
import kg.extract
import kg.pipeline  # noqa: F401  (imports the kg.extract submodule, as kg.build() does)
from kg.extract import extract


def test_kg_extract_is_callable_after_its_submodule_is_imported():
    papers = kg.read(None).papers[:3]
    assert callable(kg.extract) and callable(kg.evaluate)
    assert kg.extract(papers) == extract(papers)
    assert kg.extract.make_pipeline is not None and kg.evaluate.load_gold is not None


def test_kg_extract_is_the_same_callable_on_every_access_whatever_was_imported_first():
    code = ("import kg\n"
            "first = kg.extract\n"
            "import kg.pipeline\n"
            "assert kg.extract is first and callable(first), kg.extract\n"
            "assert callable(kg.evaluate) and kg.evaluate is kg.evaluate\n"
            "import kg.extract as module\n"
            "assert module is first\n"
            "print(len(kg.extract(kg.read(None).papers[:1])))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


def test_read_and_iter_papers_default_to_the_embedded_sample():
    assert kg.read().summary() == kg.read(None).summary() == \
        "read 20 papers from 1 file (0 duplicates merged, 0 records skipped)"
    assert [p.key for p in kg.iter_papers()] == [p.key for p in kg.read().papers]
