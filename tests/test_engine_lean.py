"""`kg build --scheduler ... --lean`: on a real LocalCluster on 127.0.0.1, the workers' RDF parts hold
exactly the lines of the in-process `graph.nt`, and the Parquet tables the in-process rows, however
the input is cut into partitions."""
from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import corpus  # noqa: E402
from killing import killed_while  # noqa: E402

from kg.cli import main  # noqa: E402
from kg.engine.lean import lean_build  # noqa: E402
from kg.errors import ArgumentError  # noqa: E402
from kg.exports.tables import write_tables  # noqa: E402
from kg.workflow import build  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
IJCAI = SHARED / "ijcai2024.jsonl"
TABLES = ("authorship", "mentions", "coauthor_pairs", "method_pairs")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[str]:
    """A synthetic JSONL corpus of one year (200 papers, 30 of them twice, one bad line) and a listing
    of another year repeating 20 of them and adding 40 more: duplicates across partitions and files,
    collaborations over two years."""
    folder = tmp_path_factory.mktemp("lean")
    papers = list(corpus.generate(240, seed=5, vocab=corpus.load_vocabulary()))
    lines = [json.dumps(p.to_json(), ensure_ascii=False) for p in papers[:200]]
    lines += lines[:30]
    lines.insert(100, "{not json")
    jsonl = folder / "papers.jsonl"
    jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
    listing = corpus.write_listing(papers[180:240], folder / "listing.txt")
    return [f"{jsonl}@2023", f"{listing}@2024"]


def _lines(folder: Path) -> list[str]:
    """Every N-Triples line of the build's gzip parts, sorted."""
    parts = sorted(folder.glob("graph-*.nt.gz"))
    assert parts
    return sorted(line for part in parts for line in gzip.decompress(part.read_bytes()).decode("utf-8").splitlines())


def _rows(folder: Path, name: str) -> list[tuple]:
    frame = pd.read_parquet(folder / "tables" / name)
    rounded = frame.round({"fractional": 9}) if "fractional" in frame else frame
    return sorted(map(tuple, rounded.itertuples(index=False)))


def _in_process(inputs, folder: Path, **options) -> tuple:
    """The in-process build's graph.nt lines (sorted), its tables' rows, its read result and graph."""
    result = build(inputs, folder, quiet=True, **options)
    write_tables(result.graph, folder / "tables")
    lines = sorted((folder / "graph.nt").read_text(encoding="utf-8").splitlines())
    return lines, {name: _rows(folder, name) for name in TABLES}, result


@pytest.mark.parametrize("partition_bytes", [40_000, 1 << 24])
def test_lean_parts_hold_the_in_process_lines_and_tables(cluster, inputs, tmp_path, partition_bytes):
    _, client = cluster
    lines, tables, expected = _in_process(inputs, tmp_path / "one")
    result = lean_build(client, inputs, tmp_path / "lean", partition_bytes=partition_bytes)
    assert _lines(tmp_path / "lean") == lines
    for name in TABLES:
        assert _rows(tmp_path / "lean", name) == tables[name], name
    assert [str(p) for p in result.problems] == [str(p) for p in expected.problems]
    G = expected.graph
    assert result.counts["papers"] == G.graph["n_papers"] == len(expected.read.papers)
    assert result.counts["authors"] == G.graph["n_authors"]
    assert result.counts["methods"] == G.graph["n_methods"] and result.counts["datasets"] == G.graph["n_datasets"]
    assert result.counts["triples"] == len(lines)
    assert not (tmp_path / "lean" / "graph.nt").exists()
    assert {p.name for p in result.files if p.suffix == ".gz"} == {p.name for p in (tmp_path / "lean").glob("*.gz")}


@pytest.mark.skipif(not IJCAI.exists(), reason="needs ../shared/data/ijcai2024.jsonl")
def test_lean_ijcai_with_aliases(cluster, tmp_path):
    _, client = cluster
    aliases = tmp_path / "aliases.yaml"
    aliases.write_text("merge:\n  - into: Shi Yin\n    names: [Shijie Huang, Shangfei Wang]\n", encoding="utf-8")
    lines, tables, _ = _in_process([IJCAI], tmp_path / "one", aliases=aliases)
    lean_build(client, [IJCAI], tmp_path / "lean", partition_bytes=300_000, aliases=aliases)
    assert _lines(tmp_path / "lean") == lines
    for name in TABLES:
        assert _rows(tmp_path / "lean", name) == tables[name], name


def test_lean_through_kg_build_publishes_one_folder(cluster, inputs, tmp_path):
    cluster_, _ = cluster
    out = tmp_path / "out"
    result = build(inputs, out, quiet=True, lean=True, scheduler=cluster_.scheduler_address)
    assert all(path.exists() and path.is_relative_to(out) for path in result.files)
    assert "graph-00000.nt.gz" in {p.name for p in result.files}
    assert result.summary().startswith(f"read {result.counts['papers']} papers from 2 files (50 duplicates merged")
    assert not [p for p in tmp_path.iterdir() if p.name != "out"]  # no staging folder left


def test_lean_needs_a_scheduler(tmp_path, capsys):
    with pytest.raises(ArgumentError, match="--scheduler"):
        build(None, tmp_path / "out", quiet=True, lean=True)
    assert main(["build", "--lean", "-o", str(tmp_path / "cli")]) == 2
    assert "give --scheduler" in capsys.readouterr().err
    assert not (tmp_path / "cli").exists()


def test_lean_from_the_command_line(cluster, tmp_path, capsys):
    local, _ = cluster
    assert main(["build", "--scheduler", local.scheduler_address, "--lean", "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "read 20 papers from 1 file" in out and "wrote 9 files" in out
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["counts"]["papers"] == 20 and summary["problems"] == 0


def test_lean_strict_raises_the_first_bad_record(cluster, inputs, tmp_path):
    _, client = cluster
    with pytest.raises(ValueError, match="papers.jsonl:101"):
        lean_build(client, inputs, tmp_path / "lean", strict=True)


def test_lean_worker_killed_while_writing_parts_costs_a_retry(cluster, inputs, tmp_path):
    """SIGKILL of the worker writing a part of papers: its lost partitions are made again (the
    papers linked anew from their lineage), the part written again whole, same lines."""
    _, client = cluster
    lines, _, _ = _in_process(inputs, tmp_path / "one")
    killed_while(client, "_papers_part", lambda: lean_build(client, inputs, tmp_path / "lean", partition_bytes=40_000))
    assert _lines(tmp_path / "lean") == lines
    assert not list((tmp_path / "lean").glob(".*.tmp"))
