"""`kg build` end to end: the embedded sample, every output, determinism, errors, settings file."""
from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import kg
from kg._util.publish import MANIFEST
from kg.errors import ArgumentError
from kg.workflow import build
from kg.cli import main

DATA = Path(__file__).parent / "data" / "readers"
OUTPUTS = ["papers.jsonl", "graph.ttl", "graph.nt", "graph.jsonld", "graph.graphml", "graph.gexf",
           "coauthors.vosviewer.json", "topics.vosviewer.json", "report.md", "report.json",
           "coauthors.html", "topics.html", "authors.csv", "coauthor_edges.csv", "methods.csv",
           "method_pairs.csv", "datasets.csv", "tracks.csv", "cross_track.csv", "possible_duplicates.csv"]


@pytest.fixture(scope="module")
def sample_build(tmp_path_factory):
    return build(None, tmp_path_factory.mktemp("exports"), quiet=True)


def test_build_writes_every_output(sample_build):
    out = sample_build.out_dir
    for name in OUTPUTS:
        assert (out / name).stat().st_size > 0, name
    assert not list(out.glob(".*.tmp")), "no temporary file is left behind"
    papers = [json.loads(line) for line in (out / "papers.jsonl").read_text().splitlines()]
    assert len(papers) == 20
    report = json.loads((out / "report.json").read_text())
    assert report["input"]["papers"] == 20
    assert "<script" in (out / "coauthors.html").read_text()


def test_build_summary_counts_what_was_made(sample_build):
    summary = sample_build.summary()
    assert "20 papers" in summary
    for name in OUTPUTS:
        assert name in summary


def test_build_is_the_api_and_the_cli(tmp_path, capsys):
    assert kg.build is build
    assert main(["build", "-o", str(tmp_path), "--quiet"]) == 0
    assert capsys.readouterr().out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*OUTPUTS, MANIFEST, "graph.oxigraph"])


def test_two_builds_are_byte_identical(tmp_path, sample_build):
    """Same input, same output, across processes with different hash seeds."""
    out = tmp_path / "again"
    env = dict(os.environ, PYTHONHASHSEED="4242")
    subprocess.run([sys.executable, "-m", "kg", "build", "-o", str(out), "--quiet"], check=True, env=env)
    for name in OUTPUTS:
        assert (out / name).read_bytes() == (sample_build.out_dir / name).read_bytes(), name


def test_two_workers_write_the_same_files_in_the_same_order(tmp_path, sample_build):
    """workers=2: extraction in two processes, the whole-graph files written by a second process."""
    result = build(None, tmp_path, workers=2, quiet=True)
    assert [p.name for p in result.files] == [p.name for p in sample_build.files]
    assert result.report == sample_build.report
    for name in OUTPUTS:
        assert (tmp_path / name).read_bytes() == (sample_build.out_dir / name).read_bytes(), name
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_failure_in_the_second_process_fails_the_build(tmp_path, monkeypatch):
    def broken(G, path):
        raise OSError(f"cannot write {path}")

    monkeypatch.setattr("kg.exports.write_graphml", broken)
    with pytest.raises(OSError, match="graph.graphml"):
        build(None, tmp_path, workers=2, quiet=True)
    assert not list(tmp_path.glob(".*.tmp"))


def test_every_named_query_answers_on_the_sample_build_with_its_defaults(sample_build):
    from kg.rdf.sparql import load_store, named_queries, query

    store = load_store(sample_build.out_dir / "graph.nt")
    rows = {q.name: query(q, data=store).to_dicts() for q in named_queries()}
    by_year = {"methods-by-year", "rising-methods"}  # the sample carries no year: nothing to answer, never guessed
    assert all(found for name, found in rows.items() if name not in by_year), \
        [name for name, found in rows.items() if not found and name not in by_year]
    assert not any(rows[name] for name in by_year)
    assert len(rows["papers-without-track"]) == 3
    assert len(rows["truncated-author-lists"]) == 1
    assert {r["name"] for r in rows["coauthors"]} >= {"Zeng", "zhou Xun", "Xu Ouyang"}  # Jing Liu's two papers
    assert [(r["distance"], r["connected"]) for r in rows["collaboration-distance"]] == [(2, True)]
    assert [r["label"] for r in rows["papers-using-method"]] == ["quantization-aware training"]  # found by `QAT`


def test_cli_reports_problems_and_keeps_going(tmp_path, capsys):
    code = main(["build", str(DATA / "listing_malformed.txt"), "-o", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 0
    assert "listing_malformed.txt:" in captured.err
    assert "skipped" in captured.out


def test_cli_strict_makes_the_first_problem_fatal(tmp_path, capsys):
    code = main(["build", str(DATA / "listing_malformed.txt"), "-o", str(tmp_path), "--strict"])
    captured = capsys.readouterr()
    assert code == 1
    assert "listing_malformed.txt:" in captured.err and "Traceback" not in captured.err
    assert not any(tmp_path.iterdir()), "a failed build writes nothing"


def test_cli_missing_file_is_a_clear_error(tmp_path, capsys):
    assert main(["build", str(tmp_path / "nope.txt"), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "nope.txt" in err and "Traceback" not in err


def test_cli_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["build", "--format", "docx"])
    assert exc.value.code == 2


def test_build_takes_the_view_thresholds(tmp_path):
    assert main(["build", "-o", str(tmp_path), "--quiet", "--top-n", "10", "--min-weight", "2"]) == 0
    page = (tmp_path / "coauthors.html").read_text(encoding="utf-8")
    assert "Showing 10 of 106 authors (the 10 most prolific)." in page
    assert "weight at least 2" in page
    assert len(json.loads((tmp_path / "report.json").read_text())["top_authors"]) > 10, "the report keeps all"


def test_settings_file_sets_defaults_and_the_command_line_wins(tmp_path, monkeypatch):
    (tmp_path / "kg.toml").write_text('base_iri = "https://example.org/conf/"\noutput = "out"\n')
    monkeypatch.chdir(tmp_path)
    assert main(["build", "--quiet"]) == 0
    assert "https://example.org/conf/" in (tmp_path / "out" / "graph.nt").read_text()
    assert main(["build", "--quiet", "--base-iri", "https://example.com/x/", "-o", "other"]) == 0
    assert "https://example.com/x/" in (tmp_path / "other" / "graph.nt").read_text()


def test_pyproject_tool_kg_table_is_read(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.kg]\noutput = "from-pyproject"\n')
    monkeypatch.chdir(tmp_path)
    assert main(["build", "--quiet"]) == 0
    assert (tmp_path / "from-pyproject" / "report.json").is_file()


def test_broken_settings_file_is_a_usage_error(tmp_path, monkeypatch, capsys):
    (tmp_path / "kg.toml").write_text("base_iri = [unclosed\n")
    monkeypatch.chdir(tmp_path)
    assert main(["build", "--quiet"]) == 2
    assert "kg.toml" in capsys.readouterr().err


def test_the_summary_counts_tracks_as_the_report_does(sample_build):
    line = next(line for line in sample_build.summary().splitlines() if line.startswith("graph:"))
    assert f"{len(sample_build.report['tracks'])} tracks (" in line


def test_the_result_keeps_the_summary_and_reaches_the_tables_by_file(sample_build):
    """`BuildResult.report` is report.json without its full tables; `table_file` gives their CSV files."""
    report = sample_build.report
    written = json.loads((sample_build.out_dir / "report.json").read_text(encoding="utf-8"))
    assert "tables" not in report and report == {k: v for k, v in written.items() if k != "tables"}
    path = sample_build.table_file("authors")
    assert path == sample_build.out_dir / "authors.csv" == sample_build.table_file("authors.csv")
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["key"] for row in rows] == [row["key"] for row in written["tables"]["authors"]]
    assert len(rows) == report["corpus"]["authors"] == 106
    with pytest.raises(ArgumentError, match="no table 'nope'.*coauthor_edges"):
        sample_build.table_file("nope")


def test_a_process_that_opened_a_store_still_builds_with_two_workers(tmp_path, sample_build):
    """RocksDB's threads do not survive a fork: the store of the build is loaded in a new interpreter,
    so a notebook that queried a build before (its thread pool started) can build again with workers."""
    import threading

    from kg.rdf.store import STORE_NAME, open_store

    assert len(open_store(sample_build.out_dir / STORE_NAME)) > 0  # RocksDB's threads now run here
    done: list = []
    worker = threading.Thread(target=lambda: done.append(build(None, tmp_path, workers=2, quiet=True)), daemon=True)
    worker.start()
    worker.join(timeout=300)
    assert done, "the build did not finish"
    assert len(open_store(tmp_path / STORE_NAME)) == len(open_store(sample_build.out_dir / STORE_NAME))
