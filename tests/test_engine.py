"""`kg build --scheduler`: the Dask engine on a real LocalCluster on 127.0.0.1 gives the in-process results,
also when a worker process is killed in the middle of the build."""
from __future__ import annotations

import filecmp
import gzip
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

from distributed import Client  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import corpus  # noqa: E402
from killing import killed_while  # noqa: E402

from kg.engine import cluster_graph, map_on  # noqa: E402
from kg.engine.partitions import plan  # noqa: E402
from kg.errors import ArgumentError  # noqa: E402
from kg.readers import SharedAbstract, read  # noqa: E402
from kg.records import Paper  # noqa: E402
from kg.graph import coauthor_graph, topic_graph  # noqa: E402
from kg.rdf import iter_ntriples, write_graph_parts  # noqa: E402
from kg.workflow import build, load_graph  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
IJCAI = SHARED / "ijcai2024.jsonl"
SAME_FILES = ("graph.nt", "authors.csv", "coauthor_edges.csv", "methods.csv", "papers.jsonl", "method_pairs.csv")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[Path]:
    """A synthetic JSONL corpus (300 papers, 40 of them twice, one bad line, one id shared by two
    different abstracts) and a listing repeating 30 of its papers: duplicates across partitions and files."""
    folder = tmp_path_factory.mktemp("engine")
    papers = list(corpus.generate(300, seed=3, vocab=corpus.load_vocabulary()))
    lines = [json.dumps(p.to_json(), ensure_ascii=False) for p in papers]
    lines += lines[:40]
    lines.insert(150, "{not json")
    with_id = [dict(json.loads(lines[i]), id=f"doi:10.1/{i % 2}") for i in (10, 11, 12)]
    with_id[2]["abstract"] = "A different abstract of the paper with the same DOI, " + with_id[2]["abstract"]
    lines += [json.dumps(record, ensure_ascii=False) for record in with_id]
    copied = dict(json.loads(lines[20]), authors=["Ada Lovelace", "Alan Turing"])  # same abstract, other people
    several = next(json.loads(line) for line in lines[30:] if len(json.loads(line)["authors"]) > 2)
    truncated = dict(several, authors=several["authors"][:1] + ["等"], title=None)  # the list it begins
    lines += [json.dumps(copied, ensure_ascii=False), json.dumps(truncated, ensure_ascii=False)]
    jsonl = folder / "papers.jsonl"
    jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
    listing = corpus.write_listing(papers[100:130], folder / "listing.txt")
    other = folder / "other.jsonl"  # the id of papers.jsonl's line 11 on another paper: two papers
    clash = json.loads(lines[250])
    clash.update(id="doi:10.1/0", abstract="Another paper under the same id. " + clash["abstract"])
    other.write_text(json.dumps(clash, ensure_ascii=False) + "\n", encoding="utf-8")
    return [jsonl, listing, other]


def _tables(out: Path, name: str) -> pd.DataFrame:
    return pd.read_parquet(out / "tables" / name)


def test_partitions_cover_the_file_at_line_ends(inputs):
    jsonl = inputs[0]
    parts = plan(inputs, partition_bytes=60_000)
    ranges = [(p.start, p.end) for p in parts if p.path == str(jsonl)]
    assert len(ranges) > 5 and ranges[0][0] == 0 and ranges[-1][1] == jsonl.stat().st_size
    assert all(end == start for (_, end), (start, _) in zip(ranges, ranges[1:]))
    data = jsonl.read_bytes()
    assert all(data[end - 1:end] == b"\n" for _, end in ranges)
    assert [p.path for p in parts if p.end is None] == [str(inputs[1])]  # a listing is read whole


def test_small_partitions_read_dedupe_and_extract_as_in_process(cluster, inputs, tmp_path):
    _, client = cluster
    expected, G = load_graph(inputs, quiet=True)
    result, H = cluster_graph(cluster[0].scheduler_address, inputs, tmp_path, partition_bytes=60_000, quiet=True)
    assert result.papers == expected.papers
    assert [str(p) for p in result.problems] == [str(p) for p in expected.problems]
    assert expected.skipped == 1  # the bad line
    assert expected.duplicates == 74  # 40 + 30 + 3 with ids (two of them the same id) + the truncated list
    assert sum("(same id doi:10.1/0)" in str(p) for p in result.problems) == 1
    shared = [p for p in result.problems if isinstance(p, SharedAbstract)]
    assert len(shared) == 2 and "other authors (Ada Lovelace" in str(shared[0]) and "id doi:10.1/0" in str(shared[1])
    assert len({p.key for p in result.papers}) == len(result.papers)
    assert list(iter_ntriples(H)) == list(iter_ntriples(G))

    coauthors, topics = coauthor_graph(G), topic_graph(G)
    pairs = _tables(tmp_path, "coauthor_pairs")
    assert {(r.source, r.target): (r.count, r.papers.split("; ")) for r in pairs.itertuples()} == {
        tuple(sorted((u, v))): (d["count"], d["papers"]) for u, v, d in coauthors.edges(data=True)}
    method_pairs = _tables(tmp_path, "method_pairs")
    assert {(r.source, r.target): r.count for r in method_pairs.itertuples()} == {
        tuple(sorted((u, v))): d["count"] for u, v, d in topics.edges(data=True)}
    authorship = _tables(tmp_path, "authorship")
    assert sorted(zip(authorship.paper, authorship.position, authorship.author, authorship.name)) == sorted(
        (u, d["position"], v, d["name"]) for u, v, d in G.edges(data=True) if d["rel"] == "authored_by")
    mentions = _tables(tmp_path, "mentions")
    assert sorted(zip(mentions.paper, mentions.method, mentions.mentions)) == sorted(
        (u, v, d["count"]) for u, v, d in G.edges(data=True) if d["rel"] == "mentions")


def _jsonl(path: Path, *records: dict) -> Path:
    path.write_text("".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records), encoding="utf-8")
    return path


def test_a_chain_of_ids_and_dois_across_files_merges_as_in_process(cluster, tmp_path):
    """One paper in three files, each with its own abstract: the first two share an id, the second
    and third a DOI, so only a group of three (two rounds of labels) finds that the third repeats
    the first (which took the DOI from the second); the fourth file clashes on the id."""
    base = {"title": "Sparse sketches", "authors": ["Ana Silva", "Bo Li"]}
    files = [
        _jsonl(tmp_path / "a.jsonl", dict(base, abstract="We study sparse sketches.", id="P7"),
               dict(base, abstract="Unrelated work on graphs.", title="Graphs", id="P8")),
        _jsonl(tmp_path / "b.jsonl", dict(base, abstract="Sparse sketches, revised.", id="P7", doi="10.1/S",
                                          year=2024)),
        _jsonl(tmp_path / "c.jsonl", dict(base, abstract="Sketches that are sparse.", doi="10.1/s", venue="V")),
        _jsonl(tmp_path / "d.jsonl", dict(base, abstract="We study sparse sketches.", title="Other", id="P7")),
    ]
    expected = read(files)
    result, _ = cluster_graph(cluster[0].scheduler_address, files, tmp_path / "out", quiet=True)
    assert result.papers == expected.papers
    assert [str(p) for p in result.problems] == [str(p) for p in expected.problems]
    assert expected.duplicates == 2 and expected.papers[0].venue == "V" and expected.papers[0].year == 2024
    assert any(isinstance(p, SharedAbstract) for p in expected.problems)


def test_the_client_receives_merged_papers_never_the_records(cluster, inputs, tmp_path, monkeypatch):
    """Everything the client gathers from the workers holds each distinct paper once, merged: no
    record of the input (the 74 duplicates among them) comes to the client."""
    received: list = []
    gather = Client._gather

    async def spied(self, *args, **kwargs):
        out = await gather(self, *args, **kwargs)
        received.append(out)
        return out

    monkeypatch.setattr(Client, "_gather", spied)
    result, _ = cluster_graph(cluster[0].scheduler_address, inputs, tmp_path, partition_bytes=60_000, quiet=True)
    monkeypatch.undo()

    def papers_in(value: object) -> list[Paper]:
        if isinstance(value, Paper):
            return [value]
        if isinstance(value, pd.DataFrame):
            return [p for column in value.columns if value[column].dtype == object for p in papers_in(list(value[column]))]
        if isinstance(value, (list, tuple)):
            return [p for item in value for p in papers_in(item)]
        if isinstance(value, dict):
            return papers_in(list(value.values()))
        return []

    got = papers_in(received)
    assert len(got) == len(result.papers) == len(read(inputs).papers)
    assert sorted(got, key=lambda p: p.key) == sorted(result.papers, key=lambda p: p.key)


def test_strict_raises_the_first_bad_record(cluster, inputs, tmp_path):
    _, client = cluster
    with pytest.raises(Exception, match=r"papers.jsonl:151: invalid JSON"):
        cluster_graph(cluster[0].scheduler_address, inputs, tmp_path, strict=True, partition_bytes=60_000, quiet=True)


def test_bad_scheduler_addresses_are_usage_errors(tmp_path):
    for address in ("local:0", "local:two", "somewhere:8786"):
        with pytest.raises(ArgumentError, match="--scheduler"):
            build(None, tmp_path, scheduler=address, quiet=True)


def _same_outputs(a: Path, b: Path) -> list[str]:
    return [name for name in SAME_FILES if not filecmp.cmp(a / name, b / name, shallow=False)]


@pytest.mark.slow
@pytest.mark.skipif(not IJCAI.exists(), reason="../shared/data/ijcai2024.jsonl is not beside the repo")
def test_local_2_writes_the_in_process_bytes_on_ijcai(tmp_path):
    build([IJCAI], tmp_path / "one", quiet=True)
    result = build([IJCAI], tmp_path / "dask", quiet=True, scheduler="local:2")
    assert len(result.read.papers) == 1044
    assert _same_outputs(tmp_path / "one", tmp_path / "dask") == []
    assert len(_tables(tmp_path / "dask", "authorship")) == sum(
        1 for _, _, rel in result.graph.edges(data="rel") if rel == "authored_by")


def test_a_worker_killed_mid_build_costs_a_retry_not_the_build(cluster, inputs, tmp_path):
    local, client = cluster
    build(inputs, tmp_path / "one", quiet=True)
    killed_while(client, "extract_partition",
                 lambda: build(inputs, tmp_path / "dask", quiet=True, scheduler=local.scheduler_address))
    assert _same_outputs(tmp_path / "one", tmp_path / "dask") == []


def test_a_partitioned_cluster_build_has_its_parts_made_by_the_workers(cluster, tmp_path):
    local, client = cluster
    result = build(None, tmp_path / "out", quiet=True, scheduler=local.scheduler_address, partitioned=True)
    out = tmp_path / "out"
    made = [p.relative_to(out).as_posix() for p in result.files if p.name.startswith("graph-")]
    assert made == ["graph-00000.nt.gz"] and all(path.exists() for path in result.files)
    assert gzip.decompress((out / "graph-00000.nt.gz").read_bytes()) == (out / "graph.nt").read_bytes()
    assert {p.parent.name for p in result.files if p.suffix == ".parquet"} == {
        "authorship", "mentions", "coauthor_pairs", "method_pairs"}
    nt = out / "graph.nt"
    size = nt.stat().st_size // 5
    on_workers = write_graph_parts(nt, tmp_path / "workers", part_bytes=size, run=map_on(client))
    here = write_graph_parts(nt, tmp_path / "here", part_bytes=size)
    assert len(on_workers) >= 5 and [p.read_bytes() for p in on_workers] == [p.read_bytes() for p in here]
