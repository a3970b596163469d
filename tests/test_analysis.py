"""kg.analysis, kg.analysis.report and kg.exports on small graphs whose figures are computed by hand."""
from __future__ import annotations

import csv
import json
import math
import random
import xml.etree.ElementTree as ET

import networkx as nx
import pytest

from kg.analysis import analyze, communities, component_summary, eigenvector_by_component, modularity
from kg.exports import vosviewer_json, write_gexf, write_graphml, write_vosviewer
from kg.graph import build_graph, coauthor_graph, topic_graph
from kg.names import author_key
from kg.records import Author, Method, Paper, Track
from kg.analysis.report import CSV_TABLES, to_markdown, write_report


def paper(key, names, track=None, truncated=False):
    return Paper(key=key, authors=tuple(Author(n, author_key(n)) for n in names), abstract="a | b", text="a",
                 track=track, authors_truncated=truncated)


LLM, VISION = Track("Deep Learning", "LLMs"), Track("Computer Vision")


@pytest.fixture()
def G():
    """A, B, C wrote p1 (LLMs); A, B p2 (Vision); D alone p3 (no track); E, F 等 p4 (Vision)."""
    papers = [paper("p1", ["A a", "B b", "C c"], LLM), paper("p2", ["A a", "B b"], VISION), paper("p3", ["D d"]),
              paper("p4", ["E e", "F f"], VISION, truncated=True)]
    m = lambda k: Method(k, k.upper())  # noqa: E731
    methods = {"p1": (m("x"), m("y")), "p2": (m("x"), m("y"), m("z")), "p3": (m("z"),)}
    return build_graph(papers, methods)


def bridged_cliques() -> nx.DiGraph:
    """Two 4-author papers (two K4) and one paper linking a1 and b1."""
    return build_graph([paper("q1", ["a1 x", "a2 x", "a3 x", "a4 x"]), paper("q2", ["b1 y", "b2 y", "b3 y", "b4 y"]),
                        paper("q3", ["a1 x", "b1 y"])])


def test_strengths_centralities_and_components(G):
    report = analyze(G)
    rows = {r["key"]: r for r in report["tables"]["authors"]}
    assert [rows[f"author:{k}"]["strength"] for k in ("a-a", "b-b", "c-c", "d-d")] == [3, 3, 2, 0]
    assert rows["author:a-a"]["coauthors"] == 2 and rows["author:a-a"]["degree_centrality"] == pytest.approx(2 / 5)
    # eigenvector of [[0,2,1],[2,0,1],[1,1,0]]: lambda = 1+sqrt3, x_C = 2 x_A / lambda, unit length
    lam = 1 + math.sqrt(3)
    a = 1 / math.sqrt(2 + (2 / lam) ** 2)
    assert rows["author:a-a"]["eigenvector"] == pytest.approx(a, abs=1e-5)
    assert rows["author:c-c"]["eigenvector"] == pytest.approx(2 * a / lam, abs=1e-5)
    assert rows["author:e-e"]["eigenvector"] == pytest.approx(1 / math.sqrt(2), abs=1e-5)  # its own component
    assert rows["author:d-d"]["eigenvector"] == 0
    assert report["components"] == {"count": 3, "largest": 3, "largest_share": 0.5, "isolated": 1,
                                     "sizes": [{"size": 3, "components": 1}, {"size": 2, "components": 1},
                                               {"size": 1, "components": 1}]}
    assert [r["key"] for r in report["top_authors"][:2]] == ["author:a-a", "author:b-b"]


def test_tables_are_sorted_by_their_documented_keys():
    """Authors: most papers, then strength, then key; links: most papers, then weight, then keys
    (many ties here: every order is decided by the later keys too)."""
    names = ["A a", "B b", "C c", "D d", "E e"]
    rng = random.Random(3)
    G = build_graph([paper(f"p{i}", rng.sample(names, rng.randint(1, 4))) for i in range(12)],
                    {f"p{i}": tuple(Method(k, k) for k in rng.sample("uvwxyz", rng.randint(1, 4))) for i in range(12)})
    tables = analyze(G, counting="fractional")["tables"]
    authors = tables["authors"]
    assert authors == sorted(authors, key=lambda r: (-r["papers"], -r["strength"], r["key"]))
    for table, weight in (("coauthor_edges", "weight"), ("method_pairs", "association")):
        rows = tables[table]
        assert len({(r["count"], r[weight]) for r in rows}) < len(rows)  # ties to break
        assert rows == sorted(rows, key=lambda r: (-r["count"], -r[weight], r["source"], r["target"]))


def test_fractional_strength(G):
    rows = {r["key"]: r for r in analyze(G, counting="fractional")["tables"]["authors"]}
    assert rows["author:a-a"]["strength"] == 2.0 and rows["author:c-c"]["strength"] == 1.0


def test_betweenness_of_a_bridge():
    rows = {r["key"]: r for r in analyze(bridged_cliques())["tables"]["authors"]}
    # a1 is on the only shortest path of each pair (a2..a4) x (b1..b4): 12 pairs, normalised by the
    # (n-1)(n-2)/2 = 21 pairs an undirected 8-node graph has without a1.
    assert rows["author:a1-x"]["betweenness"] == pytest.approx(12 / 21, abs=1e-6)
    assert rows["author:a2-x"]["betweenness"] == 0


def test_collaboration_indicators(G):
    c = analyze(G)["collaboration"]
    assert c["papers"] == 4 and c["authorships"] == 8 and c["authors_per_paper"] == 2
    assert c["single_author_papers"] == 1 and c["single_author_share"] == 0.25
    assert c["multi_authored_papers"] == 3 and c["collaboration_index"] == pytest.approx(7 / 3, abs=1e-6)
    assert c["coauthors_per_author"] == pytest.approx(2 * 4 / 6, abs=1e-6)


def test_communities_with_fixed_seed():
    C = coauthor_graph(bridged_cliques())
    membership = communities(C, seed=42)
    assert {n for n, c in membership.items() if c == 1} == {f"author:a{i}-x" for i in range(1, 5)}
    assert {n for n, c in membership.items() if c == 2} == {f"author:b{i}-y" for i in range(1, 5)}
    # Q = sum_c [L_c/m - (d_c/2m)^2] = 2 * (6/13 - (13/26)^2)
    assert modularity(C, membership) == pytest.approx(2 * (6 / 13 - 0.25))
    assert communities(C, seed=42) == membership
    assert len(set(communities(C, seed=42, resolution=20).values())) > 2
    summary = analyze(bridged_cliques())["communities"]["coauthors"]
    assert summary["count"] == 2 and summary["modularity"] == pytest.approx(0.423077)


def test_communities_do_not_depend_on_the_global_random_state():
    """igraph's Louvain draws from a generator seeded by `seed` alone, never from `random`'s state."""
    runs = []
    for state in (1, 2):
        random.seed(state)
        runs.append(communities(nx.les_miserables_graph(), seed=3))  # a fresh graph: no cached result
    assert runs[0] == runs[1] and len(set(runs[0].values())) > 2


@pytest.mark.parametrize("resolution", [0.5, 1.0, 2.0])
def test_modularity_is_networkxs(resolution):
    P = nx.les_miserables_graph()
    membership = {n: i % 5 for i, n in enumerate(sorted(P))}
    groups = [{n for n, c in membership.items() if c == k} for k in range(5)]
    assert modularity(P, membership, resolution=resolution) == pytest.approx(
        nx.community.modularity(P, groups, weight="weight", resolution=resolution), abs=1e-12)


def test_edgeless_graph_has_no_modularity():
    report = analyze(build_graph([paper("s1", ["Solo One"]), paper("s2", ["Solo Two"])]))
    assert report["communities"]["coauthors"]["modularity"] is None
    assert report["components"]["isolated"] == 2


def test_components_and_eigenvector_direct():
    P = nx.Graph()
    P.add_edge("b", "c", weight=1)
    P.add_node("a")
    summary, component = component_summary(P)
    assert summary["count"] == 2 and component == {"b": 1, "c": 1, "a": 2}
    assert eigenvector_by_component(P)["a"] == 0.0


def test_eigenvector_of_many_small_weighted_components_matches_power_iteration():
    """Small components are solved in stacks of one size; each keeps its own unit-length vector."""
    rng = random.Random(5)
    P = nx.Graph()
    for c in range(30):
        size = 2 + c % 6  # five components of each size 2..7: stars, paths, denser ones
        part = nx.relabel_nodes(nx.connected_watts_strogatz_graph(size, 2, 0.5, seed=c), lambda x, c=c: f"c{c}-{x}")
        P.add_weighted_edges_from((u, v, rng.choice([1, 0.5, 3])) for u, v in part.edges)
    P.add_node("alone")
    values = eigenvector_by_component(P)
    for component in nx.connected_components(P):
        if len(component) > 1:
            exact = nx.eigenvector_centrality(P.subgraph(component), max_iter=100_000, tol=1e-14, weight="weight")
            assert max(abs(values[n] - exact[n]) for n in component) < 1e-9
    assert values["alone"] == 0.0


def test_betweenness_is_networkxs_exact_and_sampled(monkeypatch):
    """igraph computes what `nx.betweenness_centrality` does: all sources, or the same seeded sample."""
    from kg.analysis import centrality as analysis

    P = nx.relabel_nodes(nx.barabasi_albert_graph(150, 2, seed=4), lambda n: f"n{n:03d}")
    P.add_edges_from([("x", "y"), ("y", "z")])
    values, sampled = analysis.betweenness(P, seed=7)
    assert sampled is None and values == pytest.approx(nx.betweenness_centrality(P), abs=1e-12)
    monkeypatch.setattr(analysis, "EXACT_BETWEENNESS_WORK", 100)
    monkeypatch.setattr(analysis, "SAMPLED_BETWEENNESS_BUDGET", 10_000)
    values, sampled = analysis.betweenness(P, seed=7)
    assert sampled == 32 and values == pytest.approx(nx.betweenness_centrality(P, k=32, seed=7), abs=1e-12)


def test_eigenvector_of_a_large_component_is_arpacks_and_matches_power_iteration():
    """Above ARPACK_COMPONENT nodes the value comes from ARPACK; it is the same eigenvector, per component."""
    from kg.analysis.centrality import ARPACK_COMPONENT

    big = nx.relabel_nodes(nx.barabasi_albert_graph(ARPACK_COMPONENT * 2, 3, seed=1), str)
    for u, v in big.edges:
        big.edges[u, v]["weight"] = 1 + (int(u) + int(v)) % 3
    small = nx.Graph([("x", "y", {"weight": 1}), ("y", "z", {"weight": 2})])
    P = nx.union(big, small)
    values = eigenvector_by_component(P)
    exact = nx.eigenvector_centrality(big, max_iter=10_000, tol=1e-12, weight="weight")
    assert max(abs(values[n] - exact[n]) for n in big) < 1e-7
    assert sum(values[n] ** 2 for n in "xyz") == pytest.approx(1.0)  # normalised within its own component
    assert eigenvector_by_component(P.copy()) == pytest.approx(values, abs=1e-12)  # ARPACK: to machine precision


def test_tracks_cross_track_methods(G):
    report = analyze(G)
    tracks = {t["key"]: t for t in report["tables"]["tracks"]}
    assert set(tracks) == {"track:deep-learning--llms", "area:computer-vision"}
    assert tracks["area:computer-vision"]["papers"] == 2 and tracks["area:computer-vision"]["authors"] == 4
    assert tracks["area:computer-vision"]["subarea"] is None
    assert [m["key"] for m in tracks["track:deep-learning--llms"]["top_methods"]] == ["method:x", "method:y"]
    assert report["cross_track"] == [{"tracks": ["area:computer-vision", "track:deep-learning--llms"],
                                      "labels": ["Computer Vision", "Deep Learning · LLMs"],
                                      "shared_authors": 2, "authors": ["A a", "B b"]}]
    methods = {m["key"]: m for m in report["tables"]["methods"]}
    assert methods["method:x"]["papers"] == 2 and methods["method:x"]["tracks"] == 2
    assert methods["method:z"]["tracks"] == 1  # p3 has no track: it reaches no track
    assert [m["key"] for m in report["bridging_methods"]] == ["method:x", "method:y"]
    top_pair = report["method_pairs"][0]
    assert (top_pair["source"], top_pair["target"], top_pair["count"]) == ("method:x", "method:y", 2)
    assert top_pair["association"] == pytest.approx(16 / 9, abs=1e-6)


def test_truncated_and_untracked_are_stated(G):
    report = analyze(G)
    assert report["corpus"]["truncated_author_lists"] == 1 and report["corpus"]["truncated_papers"] == ["paper:p4"]
    assert report["corpus"]["papers_without_track"] == 1
    assert any("truncated" in n for n in report["notes"]) and any("no track" in n for n in report["notes"])
    assert "truncated author list" in to_markdown(report)


def test_top_limits_summaries_not_tables(G):
    report = analyze(G, top=2)
    assert len(report["top_authors"]) == 2 and len(report["tables"]["authors"]) == 6


def test_write_report_files(G, tmp_path):
    report = analyze(G)
    report["input"] = {"files": ["x.txt"], "papers": 4}
    files = write_report(report, tmp_path)
    assert sorted(f.name for f in files) == sorted(["report.md", "report.json", *CSV_TABLES])
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8")) == report
    with open(tmp_path / "authors.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 6 and rows[0]["key"] == "author:a-a" and rows[0]["strength"] == "3"
    with open(tmp_path / "coauthor_edges.csv", encoding="utf-8", newline="") as handle:
        edge = next(csv.DictReader(handle))
    assert edge["papers"] == "paper:p1; paper:p2" and edge["weight"] == "2"
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "| A a | 2 | 2 | 3 |" in md and "## Input" in md


# ------------------------------------------------------------------------------------- exports
def test_graphml_and_gexf_serialise_lists_and_skip_none(G, tmp_path):
    nx_graph = nx.read_graphml(write_graphml(G, tmp_path / "g.graphml"))
    assert list(nx_graph) == list(G)
    assert json.loads(nx_graph.nodes["author:a-a"]["names"]) == ["A a"]
    assert "title" not in nx_graph.nodes["paper:p1"]
    assert nx_graph.nodes["paper:p4"]["authors_truncated"] is True
    assert nx_graph.edges["paper:p1", "author:b-b"]["position"] == 2
    root = ET.parse(write_gexf(G, tmp_path / "g.gexf")).getroot()
    ns = {"g": "http://www.gexf.net/1.2draft"}
    assert "lastmodifieddate" not in root.find("g:meta", ns).attrib
    ids = [n.get("id") for n in root.iter("{http://www.gexf.net/1.2draft}node")]
    assert ids == list(G)
    assert nx.read_gexf(tmp_path / "g.gexf").number_of_edges() == G.number_of_edges()


def test_gexf_keeps_node_keys_when_records_have_ids(tmp_path):
    record = Paper(key="k1", id="paper176", authors=(Author("A a", "a-a"),), abstract="a", text="a")
    H = nx.read_gexf(write_gexf(build_graph([record]), tmp_path / "g.gexf"))
    assert "paper:k1" in H and H.nodes["paper:k1"]["record_id"] == "paper176"


def check_vosviewer(data: dict) -> None:
    """The structure VOSviewer Online documents for its JSON files (docs/file-types/json-file-type)."""
    assert set(data) <= {"network", "config", "info"} and isinstance(data["network"], dict)
    items, links = data["network"]["items"], data["network"]["links"]
    ids = set()
    for item in items:
        assert isinstance(item["id"], (int, str)) and item["id"] not in ids
        ids.add(item["id"])
        assert isinstance(item["label"], str)
        assert isinstance(item["cluster"], int) and 1 <= item["cluster"] <= 1000
        assert all(isinstance(k, str) and v >= 0 for k, v in item["weights"].items())
        assert all(isinstance(v, (int, float)) for v in item.get("scores", {}).values())
        assert all(isinstance(item[k], float) for k in ("x", "y") if k in item)
    for link in links:
        assert link["source_id"] in ids and link["target_id"] in ids
        assert isinstance(link["strength"], (int, float)) and link["strength"] >= 0
    for cluster in data["network"].get("clusters", []):
        assert 1 <= cluster["cluster"] <= 1000 and isinstance(cluster["label"], str)


def test_vosviewer_json_structure(G, tmp_path):
    for projection in (coauthor_graph(G, counting="fractional"), topic_graph(G, normalize="association")):
        data = json.loads(write_vosviewer(projection, tmp_path / "m.json", seed=42).read_text(encoding="utf-8"))
        check_vosviewer(data)
        assert len(data["network"]["items"]) == projection.number_of_nodes()
        assert len(data["network"]["links"]) == projection.number_of_edges()
    data = vosviewer_json(coauthor_graph(bridged_cliques()), seed=42)
    clusters = {item["label"]: item["cluster"] for item in data["network"]["items"]}
    assert clusters["a1 x"] == clusters["a4 x"] == 1 and clusters["b1 y"] == 2
    first = data["network"]["items"][0]
    assert first["weights"] == {"Links": 4, "Total link strength": 4, "Documents": 2}
    assert data["config"]["terminology"]["items"] == "authors"


def test_nothing_is_cached_on_the_callers_graphs_and_partitions_are_passed_explicitly(G):
    """`analyze` and `louvain` leave the projections' `graph` dicts as they were; a Partition
    computed once gives the same report and map as computing it again, and a Partition with other
    parameters is refused."""
    from kg.analysis import louvain
    from kg.errors import ArgumentError

    C, T = coauthor_graph(G), topic_graph(G, normalize="association")
    before = (dict(C.graph), dict(T.graph), dict(G.graph))
    pc, pt = louvain(C, seed=42), louvain(T, seed=42)
    given = analyze(G, coauthors=C, topics=T, coauthor_communities=pc, topic_communities=pt)
    assert (dict(C.graph), dict(T.graph), dict(G.graph)) == before
    assert given == analyze(G)
    assert vosviewer_json(C, membership=pc.membership) == vosviewer_json(C)
    with pytest.raises(ArgumentError, match="seed 7"):
        analyze(G, coauthors=C, topics=T, coauthor_communities=louvain(C, seed=7))


HOSTILE_NAMES = ["<script>alert(1)</script>", "Pipe | Name", "Back Slash\\", "*Star* _under_ `tick`",
                 "[link](http://x.example)", "Amp &lt; Sand", "~~Struck~~ $x$"]


class _Cells(__import__("html.parser").parser.HTMLParser):
    """The rows of every table of rendered HTML (each a list of cell texts) and the tags met inside cells."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows, self.tags_in_cells, self._cell = [], set(), None

    def handle_starttag(self, tag, attrs):
        if self._cell is not None:
            self.tags_in_cells.add(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def test_report_markdown_escapes_input_text():
    """Names and method labels reach report.md as text: rendered by a CommonMark/GFM renderer, no
    tag or inline markup of theirs takes effect, no `|` or trailing backslash breaks a row, and each
    cell reads back exactly as the input wrote it."""
    markdown_it = pytest.importorskip("markdown_it")
    labels = ["<img src=x onerror=alert(1)>|GAN", "x_1 *y*"]
    G = build_graph([paper("h1", HOSTILE_NAMES, LLM)], {"h1": (Method("m1", labels[0]), Method("m2", labels[1]))})
    text = to_markdown(analyze(G))
    assert "<script>" not in text and "<img" not in text
    cells = _Cells()
    cells.feed(markdown_it.MarkdownIt("commonmark").enable("table").render(text))
    assert cells.tags_in_cells == set()  # no <script>, <img>, <a>, <em>, <code>, ... inside any cell
    header = ["label", "papers", "coauthors", "strength", "degree_centrality", "betweenness", "eigenvector",
              "component", "community"]
    start = cells.rows.index(header)
    authors = cells.rows[start + 1:start + 1 + len(HOSTILE_NAMES)]
    assert all(len(row) == len(header) for row in authors)  # no row split or merged by a | or a \
    assert sorted(row[0] for row in authors) == sorted(HOSTILE_NAMES)  # read back whole
    methods = [row[0] for row in cells.rows if row and row[0] in labels]
    assert sorted(set(methods)) == sorted(labels)
