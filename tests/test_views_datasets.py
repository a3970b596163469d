"""Datasets and benchmarks on the topic map: their own node kind beside the methods (kg.views.datasets)."""
from __future__ import annotations

import networkx as nx
import pytest

from kg.cli import main
from kg.errors import ArgumentError
from kg.graph import association_strength, paper_datasets, topic_graph
from kg.views import ViewOptions, render_html, topic_view
from kg.views.colors import DATASET_COLOR, PALETTE
from kg.views.datasets import add_datasets
from test_views import page_data
from views_data import BOLD_BENCH, hub_graph


@pytest.fixture(scope="module")
def G() -> nx.DiGraph:
    return hub_graph(datasets=True)


def by_id(view) -> dict[str, dict]:
    return {n["id"]: n for n in view.nodes}


def test_paper_datasets_reads_the_uses_dataset_edges(G):
    assert paper_datasets(G, "paper:p2") == ["dataset:imagenet", "dataset:glue"]
    assert paper_datasets(G, "paper:p6") == []


def test_no_datasets_gives_the_page_of_a_graph_without_them(G):
    assert render_html(topic_view(G, datasets=0)) == render_html(topic_view(hub_graph()))


def test_top_datasets_are_diamonds_in_their_own_colour_and_legend_entry(G):
    view = topic_view(G, datasets=3)
    nodes = by_id(view)
    shown = [n for n in nodes if n.startswith("dataset:")]
    assert shown == ["dataset:atari", "dataset:imagenet", "dataset:glue"]  # most papers, ties by key
    assert {nodes[n]["shape"] for n in shown} == {"diamond"} and {nodes[n]["color"] for n in shown} == {DATASET_COLOR}
    assert all("shape" not in d and d["color"] != DATASET_COLOR for n, d in nodes.items() if n.startswith("method:"))
    assert DATASET_COLOR not in PALETTE
    assert [nodes[n]["value"] for n in shown] == [2, 2, 1]
    assert view.meta["legend"]["entries"][-1] == {"color": DATASET_COLOR, "label": "◆ datasets and benchmarks",
                                                  "count": 3}
    assert "Showing 3 of 4 datasets and benchmarks (the 3 used by most papers)." in view.meta["notes"]
    assert view.meta["noun"] == "methods and datasets"
    assert "or using the dataset" in view.meta["legend"]["sizes"]


def test_datasets_are_linked_to_methods_by_the_papers_they_share(G):
    view = topic_view(G, datasets=4)
    links = {frozenset((e["from"], e["to"])): e for e in view.edges}
    atari_ts = links[frozenset(("dataset:atari", "method:ts"))]
    assert atari_ts["weight"] == 2  # p3 and p4 use Atari and mention Thompson sampling
    assert links[frozenset(("dataset:atari", "method:gp-ucb"))]["weight"] == 1
    assert not any(u.startswith("dataset:") and v.startswith("dataset:") for u, v in map(tuple, links))
    # a dataset's community is that of the method it shares most papers with
    assert by_id(view)["dataset:atari"]["community"] == by_id(view)["method:ts"]["community"]
    edge_tip = atari_ts["tip"]
    assert edge_tip["lines"] == ["Mentioned together in 2 papers"]
    quotes = page_data(render_html(view))["meta"]["quotes"]
    cited = [quotes[q] for item in edge_tip["sections"][0]["items"] for q in item["quotes"]]
    assert "Atari games test exploration." in cited and "Thompson sampling explores." in cited


def test_dataset_tooltip_lists_its_papers_with_the_sentence_and_its_methods(G):
    view = topic_view(G, datasets=4)
    data = page_data(render_html(view))
    tip = by_id(view)["dataset:imagenet"]["tip"]
    assert tip["title"] == "ImageNet" and tip["lines"][:2] == ["Dataset or benchmark", "Used in 2 papers"]
    papers, methods = tip["sections"]
    assert papers["heading"] == "Papers"
    assert {data["meta"]["quotes"][q] for item in papers["items"] for q in item["quotes"]} == {
        "We train on ImageNet <i>at scale</i>.", "ImageNet again."}
    assert methods["heading"] == "Methods in the same papers"
    assert [(i["text"], i["detail"]) for i in methods["items"]] == [("LoRA", "2 papers"),
                                                                    ("quantization-aware training", "2 papers")]


def test_dataset_names_and_sentences_are_never_markup(G):
    page = render_html(topic_view(G, datasets=4))
    assert BOLD_BENCH not in page and "<i>at scale</i>" not in page  # escaped inside the JSON
    data = page_data(page)
    assert any(n["label"] == BOLD_BENCH for n in data["nodes"])
    assert "We release <b>SafeBench</b> & more." in data["meta"]["quotes"]


def test_methods_keep_their_places_and_communities(G):
    without, with_ = by_id(topic_view(G, datasets=0)), by_id(topic_view(G, datasets=4))
    for node, record in without.items():
        assert (with_[node]["x"], with_[node]["y"], with_[node]["community"]) == (record["x"], record["y"],
                                                                                 record["community"])
    placed = {(n["x"], n["y"]) for n in with_.values()}
    assert len(placed) == len(with_)  # every dataset has a place of its own


def test_association_strength_and_cuts_apply_to_dataset_links(G):
    P = topic_graph(G)
    found = add_datasets(G, P, dict.fromkeys(P, 1), ViewOptions(datasets=4, normalize="association"))
    pairs = {tuple(sorted((u, v))): d["papers"] for u, v, d in found.graph.edges(data=True)
             if u.startswith("dataset:") or v.startswith("dataset:")}
    expected = association_strength(pairs)
    assert {pair: found.graph.edges[pair]["weight"] for pair in pairs} == expected
    heavy = add_datasets(G, P, dict.fromkeys(P, 1), ViewOptions(datasets=4, min_weight=2))
    assert sorted(heavy.graph.edges("dataset:atari")) == [("dataset:atari", "method:ts")]
    few = add_datasets(G, P, dict.fromkeys(P, 1), ViewOptions(datasets=4, min_papers=2))
    assert few.shown == ["dataset:atari", "dataset:imagenet"] and few.notes == []
    assert not any(n.startswith("dataset:") for n in P)  # P itself is left as it was


def test_track_restriction_keeps_the_datasets_of_its_papers(G):
    view = topic_view(G, datasets=4, track="Reinforcement Learning")
    assert [n for n in by_id(view) if n.startswith("dataset:")] == ["dataset:atari"]


def test_datasets_option_is_checked_and_set_from_the_command_line_and_kg_toml(tmp_path, monkeypatch):
    with pytest.raises(ArgumentError, match="datasets must be 0"):
        ViewOptions(datasets=-1)
    monkeypatch.chdir(tmp_path)
    assert main(["views", "-q", "-o", "a", "--datasets", "2"]) == 0  # the embedded sample
    diamonds = [n for n in page_data((tmp_path / "a" / "topics.html").read_text())["nodes"] if n.get("shape")]
    assert len(diamonds) == 2
    (tmp_path / "kg.toml").write_text("datasets = 0\n")
    assert main(["views", "-q", "-o", "b"]) == 0
    assert not any(n.get("shape") for n in page_data((tmp_path / "b" / "topics.html").read_text())["nodes"])
    assert main(["views", "-q", "-o", "c", "--datasets", "-1"]) == 2


def test_kg_build_passes_datasets_to_the_topic_map(tmp_path):
    from kg.cli import make_parser
    from kg.cli.common import build_options
    from kg.workflow import build

    assert build_options(make_parser().parse_args(["build", "--datasets", "3"])).datasets == 3
    assert build_options(make_parser().parse_args(["build"])).datasets == ViewOptions().datasets == 15
    build(None, tmp_path / "out", datasets=2, quiet=True)  # the embedded sample
    nodes = page_data((tmp_path / "out" / "topics.html").read_text())["nodes"]
    assert [n["shape"] for n in nodes if "shape" in n] == ["diamond", "diamond"]
