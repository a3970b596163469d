"""The embedded 20-paper sample end to end (read -> extract -> graph -> analysis -> exports), and
byte-for-byte determinism across runs and hash seeds."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from kg.analysis import analyze
from kg.exports import write_graphml, write_vosviewer
from kg.extract import extract, make_pipeline
from kg.graph import build_graph, coauthor_graph, nodes_of_kind, paper_authors, paper_track
from kg.readers import read
from kg.analysis.report import to_json, write_report

ROOT = Path(__file__).resolve().parents[1]
IJCAI = Path(__file__).resolve().parents[2] / "shared" / "data" / "ijcai2024_listing.txt"

#: Builds the sample's graph and report into argv[1]; run in subprocesses with different hash seeds.
BUILD_SCRIPT = """
import sys
from kg.analysis import analyze
from kg.exports import write_gexf, write_graphml, write_vosviewer
from kg.extract import extract, make_pipeline
from kg.graph import build_graph, coauthor_graph, topic_graph
from kg.readers import read
from kg.analysis.report import write_report
papers = read(None).papers
G = build_graph(papers, extract(papers, nlp=make_pipeline(None)))
write_report(analyze(G), sys.argv[1])
write_graphml(G, sys.argv[1] + "/graph.graphml")
write_gexf(G, sys.argv[1] + "/graph.gexf")
write_vosviewer(coauthor_graph(G), sys.argv[1] + "/coauthors.vosviewer.json")
write_vosviewer(topic_graph(G, normalize="association"), sys.argv[1] + "/topics.vosviewer.json")
"""
COMPARED = ("report.json", "report.md", "authors.csv", "methods.csv", "graph.graphml", "graph.gexf",
            "coauthors.vosviewer.json", "topics.vosviewer.json")


@pytest.fixture(scope="module")
def sample():
    papers = read(None).papers
    G = build_graph(papers, extract(papers, nlp=make_pipeline(None)))
    return G, analyze(G)


def test_jing_liu_joins_two_papers_into_one_component(sample):
    G, _ = sample
    papers = [p for p in nodes_of_kind(G, "paper") if "author:jing-liu" in paper_authors(G, p)]
    assert len(papers) == 2
    C = coauthor_graph(G)
    component = nx.node_connected_component(C, "author:jing-liu")
    assert component == set(paper_authors(G, papers[0])) | set(paper_authors(G, papers[1]))


def test_untracked_papers_truncation_and_odd_names(sample):
    G, report = sample
    untracked = [p for p in nodes_of_kind(G, "paper") if paper_track(G, p) is None]
    assert len(untracked) == 3 and report["corpus"]["papers_without_track"] == 3
    assert G.nodes["author:zhou-xun"]["label"] == "zhou Xun"
    assert "author:zeng" in G
    labels = {G.nodes[a]["label"] for a in nodes_of_kind(G, "author")}
    assert not any("等" in label for label in labels)
    assert report["corpus"]["truncated_author_lists"] == 1
    truncated = report["corpus"]["truncated_papers"][0]
    assert "author:zhou-xun" in paper_authors(G, truncated)
    assert report["tables"]["tracks"] and all(t["papers"] > 0 for t in report["tables"]["tracks"])
    assert report["corpus"]["methods"] > 0 and report["tables"]["method_pairs"]
    assert json.loads(to_json(report)) == report


def test_builds_are_byte_identical_across_runs_and_hash_seeds(sample, tmp_path):
    G, report = sample
    here = tmp_path / "here"
    write_report(report, here)
    write_graphml(G, here / "graph.graphml")
    write_vosviewer(coauthor_graph(G), here / "coauthors.vosviewer.json")
    runs = []
    for hash_seed in ("1", "12345"):
        out = tmp_path / f"seed{hash_seed}"
        out.mkdir()
        env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
        subprocess.run([sys.executable, "-c", BUILD_SCRIPT, str(out)], check=True, env=env, cwd=ROOT, timeout=120)
        runs.append(out)
    for name in COMPARED:
        assert (runs[0] / name).read_bytes() == (runs[1] / name).read_bytes(), name
    for name in ("report.json", "graph.graphml", "coauthors.vosviewer.json"):
        assert (here / name).read_bytes() == (runs[0] / name).read_bytes(), name


def test_cli_analyze(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "kg", "analyze", "--json", "-q", "-o", str(tmp_path),
                           "--counting", "fractional", "--top", "5"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=True)
    report = json.loads(done.stdout)
    assert report["parameters"]["counting"] == "fractional" and len(report["top_authors"]) == 5
    assert report["input"]["papers"] == 20
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8")) == report
    assert (tmp_path / "tracks.csv").read_text(encoding="utf-8").startswith("key,label,area,subarea,papers")
    bad = subprocess.run([sys.executable, "-m", "kg", "analyze", "--aliases", str(tmp_path / "missing.yaml")],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert bad.returncode == 1 and "missing.yaml" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.skipif(not IJCAI.exists(), reason="../shared/data/ijcai2024_listing.txt not available")
def test_ijcai_listing_top_n_cut():
    G = build_graph(read([IJCAI]).papers)
    assert G.graph["n_papers"] == 1044
    C = coauthor_graph(G, top_n=300)
    assert C.graph["cut"]["nodes_total"] == G.graph["n_authors"] and C.number_of_nodes() == 300
    kept = min(C.nodes[n]["papers"] for n in C)
    assert all(len(G.in_edges(a)) <= kept for a in nodes_of_kind(G, "author") if a not in C)
