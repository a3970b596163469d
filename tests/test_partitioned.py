"""Partitioned outputs (`kg build --partitioned`): `graph.nt` in gzip parts that load on their own
into one store, and the Parquet tables, published with the build."""
from __future__ import annotations

import gzip

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

from pyoxigraph import RdfFormat, Store  # noqa: E402

from kg.cli import main  # noqa: E402
from kg.graph import coauthor_graph  # noqa: E402
from kg.exports.tables import PAIRS, frames, pair_rows, pair_table, write_tables  # noqa: E402
from kg.rdf import write_graph_parts  # noqa: E402
from kg.workflow import build  # noqa: E402


def test_a_partitioned_build_writes_parts_and_tables_and_the_same_other_files(tmp_path):
    plain = build(None, tmp_path / "plain", quiet=True)
    result = build(None, tmp_path / "parts", quiet=True, partitioned=True)
    out = tmp_path / "parts"
    assert [p.name for p in out.glob("graph-*.nt.gz")] == ["graph-00000.nt.gz"]
    assert gzip.decompress((out / "graph-00000.nt.gz").read_bytes()) == (out / "graph.nt").read_bytes()
    assert [p.relative_to(out).as_posix() for p in result.files[len(plain.files):]] == [
        "graph-00000.nt.gz", "tables/authorship/part.0.parquet", "tables/mentions/part.0.parquet",
        "tables/coauthor_pairs/part.0.parquet", "tables/method_pairs/part.0.parquet"]
    assert all(path.exists() for path in result.files)
    for name in ("graph.nt", "authors.csv", "coauthor_edges.csv", "papers.jsonl"):
        assert (out / name).read_bytes() == (tmp_path / "plain" / name).read_bytes()
    pairs = pd.read_parquet(out / "tables" / "coauthor_pairs")
    assert {(r.source, r.target): r.count for r in pairs.itertuples()} == {
        tuple(sorted((u, v))): d["count"] for u, v, d in coauthor_graph(result.graph).edges(data=True)}
    assert not list((tmp_path / "plain").glob("graph-*")) and not (tmp_path / "plain" / "tables").exists()


def test_streamed_tables_hold_the_rows_the_pandas_group_bys_give(tmp_path, monkeypatch):
    """`write_tables` (streamed, in row groups) and the engine's pandas functions agree row for row,
    on a graph with many authors per paper and more rows than one row group."""
    monkeypatch.setattr("kg.exports.tables.BATCH", 7)
    G = build(None, tmp_path / "out", quiet=True).graph
    write_tables(G, tmp_path / "tables")
    expected = frames(G)
    for name, source, member in PAIRS:
        expected[name] = pair_table(pair_rows(expected[source], member))
    for name, frame in expected.items():
        written = pd.read_parquet(tmp_path / "tables" / name)
        assert len(written) > 7 and list(written.dtypes) == list(frame.dtypes), name
        if "fractional" in frame:
            assert written["fractional"].tolist() == pytest.approx(frame["fractional"].tolist(), rel=1e-12)
            written, frame = written.drop(columns="fractional"), frame.drop(columns="fractional")
        pd.testing.assert_frame_equal(written, frame)


def test_the_parts_load_one_by_one_into_one_store_as_the_whole_file(tmp_path):
    build(None, tmp_path / "out", quiet=True)
    nt = tmp_path / "out" / "graph.nt"
    parts = write_graph_parts(nt, tmp_path / "parts", part_bytes=nt.stat().st_size // 7)
    assert len(parts) >= 7 and [p.name for p in parts][:2] == ["graph-00000.nt.gz", "graph-00001.nt.gz"]
    assert b"".join(gzip.decompress(p.read_bytes()) for p in parts) == nt.read_bytes()
    whole, pieces = Store(), Store()
    whole.bulk_load(path=str(nt), format=RdfFormat.N_TRIPLES)
    for part in reversed(parts):  # any order
        pieces.bulk_load(gzip.decompress(part.read_bytes()), format=RdfFormat.N_TRIPLES)
    assert len(pieces) == len(whole) == nt.read_bytes().count(b"\n")
    assert write_graph_parts(nt, tmp_path / "again", part_bytes=nt.stat().st_size // 7)[0].read_bytes() == \
        parts[0].read_bytes()  # no time or name in the gzip header: same graph, same bytes


def test_cli_partitioned(tmp_path):
    assert main(["build", "-q", "--partitioned", "-o", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "graph-00000.nt.gz").exists()
    assert (tmp_path / "out" / "tables" / "method_pairs" / "part.0.parquet").exists()
