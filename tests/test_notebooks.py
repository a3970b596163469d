"""The walkthrough notebooks in notebooks/, executed by a real Jupyter kernel (nbclient + ipykernel).

Each notebook runs once per module, in a temporary working folder holding a copy of notebooks/data,
so it finds its example files the way it does next to the notebook, and writes its output there, not
into the checkout. The kernel is this interpreter (a kernelspec written for `sys.executable`, found
first through JUPYTER_PATH), which the notebooks' first cell prints. A failing cell fails the module.
After the notebook's own cells, a probe cell (not stored) prints the facts the tests check as JSON.
"""
from __future__ import annotations

import html
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("pandas")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = ["01_quickstart.ipynb", "02_your_own_data.ipynb"]
TIMEOUT = 180  # seconds per cell; the whole notebook takes a few seconds
PROBE_MARK = "KG-PROBE "
BASE_IRI = "https://data.example.org/ws24/"

PROBE_QUICKSTART = """
import json
print("KG-PROBE " + json.dumps({
    "records": len(records),
    "untracked": int(records["track"].isna().sum()),
    "truncated": int(records["authors"].str.endswith(" 等").sum()),
    "qat_mentions": [x.text for x in qat.mentions],
    "tracks": tracks.to_dict("records"),
    "top_methods": top_methods["label"].tolist(),
    "top_methods_min_papers": int(top_methods["papers"].min()),
    "coauthors": coauthors["name"].tolist(),
    "counts": counts.to_dict("records"),
    "top_author": top_authors.index[0],
    "communities": coauthor_communities["count"],
    "files": sorted(p.name for p in OUT.iterdir()),
}, default=str))
"""

PROBE_OWN_DATA = """
import json
strong_weights = sorted({edge["value"] for edge in strong.edges})
print("KG-PROBE " + json.dumps({
    "summary": read_result.summary(),
    "ids": [p.display_id for p in read_result.papers],
    "authors": {label: int(row["papers"]) for label, row in authors.iterrows()},
    "strong_nodes": sorted(node["label"] for node in strong.nodes),
    "strong_weights": strong_weights,
    "topic_nodes": len(top_topics.nodes),
    "pairs": sorted((row["name1"], row["name2"]) for _, row in pairs.iterrows()),
    "people": people.to_dict("records"),
    "files": sorted(p.name for p in OUT.iterdir()),
}, default=str))
"""


# ----------------------------------------------------------------------------------- helpers
def snapshot(folder: Path) -> dict[str, int]:
    """Every file under `folder` with its modification time, to see that a run wrote nothing there."""
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


def text_of(cell) -> str:
    """Everything a cell printed or displayed, as text (HTML outputs included)."""
    parts = []
    for output in cell.outputs:
        if output.output_type == "stream":
            parts.append(output.text)
        elif "data" in output:
            parts += [output.data.get("text/plain", ""), output.data.get("text/html", "")]
    return "\n".join(parts)


def html_output(cell) -> str:
    found = [o.data["text/html"] for o in cell.outputs if "data" in o and "text/html" in o.data]
    assert found, f"cell {cell.id} displayed no HTML"
    return found[-1]


def assert_self_contained(page: str) -> None:
    """A page that loads nothing from anywhere (the checks of test_views.py, on what users get)."""
    assert page.startswith("<!DOCTYPE html>")
    assert re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page) is None
    assert "<link" not in page and "@import" not in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page


def iframe_page(shown: str) -> str:
    """The page inside a `kg.display` output: a sandboxed iframe whose srcdoc is the whole page."""
    match = re.fullmatch(r'<div class="kg-view"><iframe srcdoc="([^"]*)" sandbox="allow-scripts" .*</iframe></div>',
                         shown, re.S)
    assert match, shown[:200]
    return html.unescape(match.group(1))


def run_notebook(name: str, workdir: Path, probe: str):
    """Execute notebooks/`name` in `workdir` with a probe cell appended; return (notebook, probe facts)."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(probe, id="test-probe"))
    shutil.copytree(NOTEBOOKS / "data", workdir / "data")
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=TIMEOUT, allow_errors=False,
                                     resources={"metadata": {"path": str(workdir)}})
    client.execute()
    printed = text_of(nb.cells[-1])
    facts = json.loads(printed[printed.index(PROBE_MARK) + len(PROBE_MARK):])
    return nb, facts


@pytest.fixture(scope="module")
def kernel_of_this_interpreter(tmp_path_factory):
    """Make `python3` mean this interpreter: a kernelspec for sys.executable, first on JUPYTER_PATH."""
    from ipykernel.kernelspec import write_kernel_spec

    jupyter = tmp_path_factory.mktemp("jupyter")
    write_kernel_spec(jupyter / "kernels" / "python3")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUPYTER_PATH", str(jupyter))
        mp.delenv("PYTHONSTARTUP", raising=False)
        yield


@pytest.fixture(scope="module")
def executed(kernel_of_this_interpreter, tmp_path_factory):
    """Each notebook run once: {name: (notebook, probe facts, working folder)}."""
    before = snapshot(NOTEBOOKS)
    runs = {}
    for name, probe in zip(NAMES, [PROBE_QUICKSTART, PROBE_OWN_DATA]):
        workdir = tmp_path_factory.mktemp(Path(name).stem)
        nb, facts = run_notebook(name, workdir, probe)
        runs[name] = nb, facts, workdir
    assert snapshot(NOTEBOOKS) == before, "running the notebooks changed files under notebooks/"
    return runs


def cell(nb, cell_id: str):
    found = [c for c in nb.cells if c.get("id") == cell_id]
    assert len(found) == 1, f"no cell {cell_id!r}"
    return found[0]


# ------------------------------------------------------------------------- stored notebooks
@pytest.mark.parametrize("name", NAMES)
def test_stored_notebooks_are_valid_and_have_no_outputs(name):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.kernelspec.name == "python3"
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.outputs == [] and c.execution_count is None for c in code)
    assert all(set(c.metadata) <= {"tags"} for c in nb.cells), "stray cell metadata (execution times, ...)"
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# ")
    source = "\n".join(c.source for c in code)
    assert "import kg" in source and "http" not in source.replace(BASE_IRI, "")  # offline, public API


def test_notebooks_run_on_this_interpreter(executed):
    for name in NAMES:
        nb, _, _ = executed[name]
        assert text_of(cell(nb, "setup")).strip().endswith(f"running on {sys.executable}")


# -------------------------------------------------------------------------------- quickstart
def test_quickstart_builds_the_sample_into_its_working_folder(executed):
    nb, facts, workdir = executed["01_quickstart.ipynb"]
    assert "read 20 papers from 1 file" in text_of(cell(nb, "build"))
    assert "graph: 20 papers, 106 authors, 13 tracks (13 area · subarea, 0 area only), 6 areas" in text_of(cell(nb, "build"))
    assert {"coauthors.html", "topics.html", "graph.nt", "graph.ttl", "report.json"} <= set(facts["files"])
    assert (workdir / "output" / "quickstart" / "report.json").is_file()


def test_quickstart_records_and_method_evidence(executed):
    nb, facts, _ = executed["01_quickstart.ipynb"]
    assert facts["records"] == 20 and facts["untracked"] == 3 and facts["truncated"] == 1
    assert "quantization-aware training" in text_of(cell(nb, "records"))
    assert "explicit ε-rank" in text_of(cell(nb, "text")) and r"$\epsilon $-rank" in text_of(cell(nb, "text"))
    assert facts["qat_mentions"][0] == "Quantization-aware training" and set(facts["qat_mentions"][1:]) == {"QAT"}
    assert "QAT" in text_of(cell(nb, "methods")) and "addresses these challenges" in text_of(cell(nb, "evidence"))
    edge = text_of(cell(nb, "edge"))  # the edge's first evidence record, printed and shown
    assert "'Quantization-aware training' at 116-143 in: Quantization-aware training (QAT) addresses" in edge
    assert "MethodMention(text='Quantization-aware training'," in edge


def test_quickstart_query_tables(executed):
    nb, facts, _ = executed["01_quickstart.ipynb"]
    assert len(facts["tracks"]) == 13 and sum(row["papers"] for row in facts["tracks"]) == 17  # 3 untracked
    assert facts["tracks"][0]["label"] == "Deep Learning · Large Language Models" and facts["tracks"][0]["papers"] == 5
    assert facts["top_methods"][0] == "large language model" and "quantization" in facts["top_methods"]
    assert facts["top_methods_min_papers"] >= 2  # min_papers=2 applied
    assert "min_papers" in text_of(cell(nb, "query-methods"))  # the parameter is echoed in the first column
    assert len(facts["coauthors"]) == 16 and {"Chaoyi Zhang", "zhou Xun", "Zeng"} <= set(facts["coauthors"])
    assert facts["counts"] == [{"papers": 20, "authors": 106}]
    assert "Chaoyi Zhang" in html_output(cell(nb, "query-coauthors"))  # shown as a DataFrame table
    assert "<table" in html_output(cell(nb, "query-tracks"))
    assert "top-collaborating-pairs" in text_of(cell(nb, "named-queries"))


def test_quickstart_coauthorship_analysis(executed):
    nb, facts, _ = executed["01_quickstart.ipynb"]
    assert facts["top_author"] == "Jing Liu" and facts["communities"] == 20
    assert "20 communities, modularity" in text_of(cell(nb, "communities"))
    assert "truncated author list" in text_of(cell(nb, "notes"))


def test_quickstart_views_inline_and_as_files(executed):
    nb, _, workdir = executed["01_quickstart.ipynb"]
    for cell_id, name, expected in [("view-coauthors", "coauthors.html", "Jing Liu"),
                                    ("view-topics", "topics.html", "quantization-aware training")]:
        page = iframe_page(html_output(cell(nb, cell_id)))
        assert_self_contained(page)
        assert expected in page
        written = (workdir / "output" / "quickstart" / name).read_text(encoding="utf-8")
        assert_self_contained(written)
        assert expected in written
    assert "coauthors.html  (" in text_of(cell(nb, "files"))


# -------------------------------------------------------------------------------- own data
def test_own_data_reads_csv_and_bibtex_and_merges_the_duplicate(executed):
    nb, facts, _ = executed["02_your_own_data.ipynb"]
    assert facts["summary"] == "read 10 papers from 2 files (1 duplicate merged, 0 records skipped)"
    assert facts["ids"][:7] == [f"ws24-0{i}" for i in range(1, 8)]
    assert facts["ids"][7:] == ["liu2024sparselora", "muller2023calibrated", "haddad2024fedbo"]
    assert "data/references.bib:4: merged with data/papers.csv:2 (same content)" in text_of(cell(nb, "read"))
    assert "Jörg Müller; Tomás Ferreira et al." in text_of(cell(nb, "records"))
    assert "J. Liu" in text_of(cell(nb, "duplicates")) and "initials" in text_of(cell(nb, "duplicates"))
    assert "Graph Neural Networks for Traffic Forecasting with Missing Sensors" in text_of(cell(nb, "homonyms"))


def test_own_data_aliases_merge_and_split_authors(executed):
    nb, facts, _ = executed["02_your_own_data.ipynb"]
    authors = facts["authors"]
    assert authors["Jing Liu"] == 4 and "J. Liu" not in authors
    assert authors["Wei Zhang"] == 1 and authors["Wei Zhang (Munich)"] == 1
    assert len(authors) == 13
    assert "graph: 10 papers, 13 authors" in text_of(cell(nb, "build"))


def test_own_data_views_apply_the_thresholds(executed):
    nb, facts, workdir = executed["02_your_own_data.ipynb"]
    assert facts["strong_weights"] == [2.0] and len(facts["strong_nodes"]) == 10
    assert "Jörg Müller" not in facts["strong_nodes"] and "Jing Liu" in facts["strong_nodes"]
    assert "Showing 7 of 21 links" in text_of(cell(nb, "view-coauthors"))
    assert facts["topic_nodes"] == 12 and re.search(r"Showing 12 of \d\d+ methods", text_of(cell(nb, "view-topics")))
    for cell_id, name in [("view-coauthors", "coauthors-min2.html"), ("view-topics", "topics-top12.html")]:
        assert_self_contained(iframe_page(html_output(cell(nb, cell_id))))
        assert_self_contained((workdir / "output" / "my-data" / name).read_text(encoding="utf-8"))
    assert {"coauthors-min2.html", "topics-top12.html", "graph.nt", "report.md"} <= set(facts["files"])


def test_own_data_queries_the_export_with_its_base_iri(executed):
    nb, facts, workdir = executed["02_your_own_data.ipynb"]
    assert ("Ana Silva", "Jing Liu") in [tuple(p) for p in facts["pairs"]] and len(facts["pairs"]) == 7
    people = {row["name"]: row for row in facts["people"]}
    assert people["Jing Liu"]["person"] == f"{BASE_IRI}author/jing-liu"
    assert set(people["Jing Liu"]["written_as"].split(" | ")) == {"Jing Liu", "J. Liu"}
    assert all(row["person"].startswith(BASE_IRI) for row in facts["people"])
    assert "Sparse Low-Rank Adaptation for Multilingual Language Models" in text_of(cell(nb, "query-author"))
    assert "low-rank adaptation" in text_of(cell(nb, "query-methods"))
    ttl = (workdir / "output" / "my-data" / "graph.ttl").read_text(encoding="utf-8")
    assert f"<{BASE_IRI}author/jing-liu>" in ttl and "https://w3id.org/kg/author/" not in ttl
