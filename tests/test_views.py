"""kg.views and kg.views.layout without a browser: page content, safety, cuts, determinism, CLI.

The pages' behaviour in a real browser is tested in test_views_browser.py.
"""
from __future__ import annotations

import doctest
import json
import math
import re
from itertools import combinations

import networkx as nx
import pytest
from pyvis.network import Network

import kg.views.assets
import kg.views.coauthors
import kg.views.files
import kg.views.layout
import kg.views.notebook
import kg.views.options
import kg.views.page
import kg.views.topics
from kg.analysis import communities
from kg.cli import main
from kg.errors import ArgumentError
from kg.graph import build_graph, coauthor_graph, topic_graph
from kg.views.layout import community_layout
from kg.records import Author, Method, MethodMention, Paper
from kg.views import (DEFAULT_TOP_N, View, ViewOptions, Whole, coauthor_view, display, render_html, topic_view,
                      write_html, write_views)
from kg.views.assets import script_json
from kg.views.tips import TIP_ITEMS
from views_data import SCRIPT_LABEL, XSS_NAME, dated_graph, hub_graph


@pytest.fixture(scope="module")
def G() -> nx.DiGraph:
    return hub_graph()


def page_data(page: str) -> dict:
    """The JSON data island of a rendered page."""
    match = re.search(r'<script type="application/json" id="kg-data">(.*?)</script>', page, re.S)
    return json.loads(match.group(1))


def test_script_json_cannot_close_the_script_element():
    data = {"name": "</script><!-- a & b \u2028 \u2029 >", "n": 1}
    text = str(script_json(data))
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == data


def test_page_is_self_contained_and_names_are_never_markup(G):
    page = render_html(coauthor_view(G))
    assert re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page) is None
    assert "<link" not in page and "@import" not in page
    assert "vis-network 9.1.2" in page and "Apache License 2.0" in page and "MIT License" in page
    assert XSS_NAME not in page  # only its escaped form travels, inside the JSON data island
    assert XSS_NAME in [node["label"] for node in page_data(page)["nodes"]]
    topics = render_html(topic_view(G))
    assert SCRIPT_LABEL not in topics and topics.count("</script>") == 3  # data, vis-network, ours


def test_view_is_a_pyvis_network_whose_own_writer_gives_our_page(G, tmp_path):
    view = coauthor_view(G)
    assert isinstance(view, Network)
    view.write_html(str(tmp_path / "pyvis.html"))  # pyvis's method, through our generate_html
    assert (tmp_path / "pyvis.html").read_text(encoding="utf-8") == render_html(view)
    assert not (tmp_path / "lib").exists() and view.options["physics"] == {"enabled": False}


def test_coauthor_view_nodes_edges_and_tooltips(G):
    view = coauthor_view(G)
    assert len(view.nodes) == 7 and len(view.edges) == 7
    ada = next(n for n in view.nodes if n["label"] == "Ada Lovelace")
    assert ada["value"] == 2 and [view.meta["tracks"][t]["label"] for t in ada["tracks"]] == [
        "Deep Learning · Large Language Models"]
    papers, coauthors = ada["tip"]["sections"]
    cited = [view.meta["papers"][item["paper"]] for item in papers["items"]]
    assert [row["text"] for row in cited] == ["quantization-aware training"] * 2
    assert cited[0]["detail"] == "Deep Learning · Large Language Models · Ada Lovelace, Alan Turing, " + XSS_NAME
    assert coauthors["items"][0] == {"text": "Alan Turing", "detail": "2 shared papers"}
    link = next(e for e in view.edges if {e["from"], e["to"]} == {ada["id"], "author:alan-turing"})
    assert link["weight"] == 2 and link["tip"]["lines"] == ["2 shared papers"]
    assert all(isinstance(n["x"], float) and n["community"] >= 1 for n in view.nodes)


def test_tooltips_cite_each_paper_and_sentence_once():
    n = TIP_ITEMS + 3  # papers mentioning both methods: more than a tooltip lists
    papers = [Paper(key=f"p{i}", authors=(Author(f"Author {i}", f"author-{i}"),), abstract="x", text="x")
              for i in range(n)]
    shared = "We combine graph search with beam search."
    methods = {p.key: [Method(key=m, label=m, mentions=(MethodMention(m, 0, 5, shared),))
                       for m in ("graph search", "beam search")] for p in papers}
    view = topic_view(build_graph(papers, methods))
    assert view.meta["quotes"] == [shared]  # one sentence behind both methods in every paper: written once
    (link,) = view.edges
    section = link["tip"]["sections"][0]
    assert len(section["items"]) == TIP_ITEMS and section["more"] == 3
    assert all(item["quotes"] == [0] for item in section["items"])
    assert all(len(node["tip"]["sections"][0]["items"]) == TIP_ITEMS for node in view.nodes)
    cited = {item["paper"] for tip in [link["tip"]] + [node["tip"] for node in view.nodes]
             for item in tip["sections"][0]["items"]}
    assert len(cited) < n  # the tooltips cite only the papers they list...
    assert len(view.meta["papers"]) == n  # ...but every paper is in the page once, for search by title
    assert all(node["rows"] == list(range(n)) for node in view.nodes)


def test_fractional_counting_changes_weights_not_structure(G):
    view = coauthor_view(G, counting="fractional")
    weights = sorted(e["weight"] for e in view.edges)
    assert len(view.edges) == 7 and weights[0] == 0.5 and "fractional" in view.meta["weight"]["label"]
    assert view.meta["weight"]["step"] != 1


def test_topic_view_evidence_colour_and_normalisation(G):
    view = topic_view(G)
    assert len(view.nodes) == 5 and len(view.edges) == 4
    ts = next(n for n in view.nodes if n["label"] == "Thompson sampling")
    quotes = [view.meta["quotes"][q] for item in ts["tip"]["sections"][0]["items"] for q in item["quotes"]]
    assert "Shannon meets Thompson sampling." in quotes
    assert view.meta["legend"]["entries"][0]["label"] == "Reinforcement Learning · Deep RL"
    by_community = topic_view(G, color_by="community", normalize="association")
    assert by_community.meta["legend"]["entries"][0]["label"].startswith("Community 1")
    assert "association strength" in by_community.edges[0]["tip"]["lines"][0]
    with pytest.raises(ArgumentError, match="color_by"):
        topic_view(G, color_by="size")


def test_cuts_are_noted_on_the_page(G):
    view = coauthor_view(G, top_n=3, min_weight=2)
    assert len(view.nodes) == 3
    assert "Showing 3 of 7 authors (the 3 most prolific)." in view.meta["notes"]
    assert any(note.startswith("Showing 1 of 7 links") for note in view.meta["notes"])
    assert coauthor_view(G).meta["notes"] == []
    capped = coauthor_view(G, top_links=2)
    assert len(capped.edges) == 2
    assert any(note.startswith("Showing 2 of 7 links") and "the 2 heaviest" in note for note in capped.meta["notes"])
    notes = coauthor_view(G, min_papers=2).meta["notes"]  # the default top_n cut nothing: not named
    assert notes and all("most prolific" not in note and "at least 2 papers" in note for note in notes[:1])


def test_track_restriction_matches_track_or_area_labels(G):
    view = coauthor_view(G, track="reinforcement learning")
    assert sorted(n["label"] for n in view.nodes) == ["Alan Turing", "Barbara Liskov", "Edsger Dijkstra",
                                                      "Grace Hopper"]
    assert view.meta["notes"] == ["Only the 2 papers in track reinforcement learning."]
    assert len(topic_view(G, track="Deep Learning · Large Language Models").nodes) == 2
    with pytest.raises(ArgumentError, match="known tracks and areas: Deep Learning"):
        coauthor_view(G, track="Astrology")


def test_same_input_same_page(G):
    assert render_html(topic_view(hub_graph(), seed=3)) == render_html(topic_view(G, seed=3))


def test_write_html_and_write_views(G, tmp_path):
    assert write_html(coauthor_view(G), tmp_path / "a" / "c.html").read_text(encoding="utf-8").startswith(
        "<!DOCTYPE html>")
    files = write_views(G, tmp_path, top_n=4)
    assert [f.name for f in files] == ["coauthors.html", "topics.html"]
    assert len(page_data(files[1].read_text(encoding="utf-8"))["nodes"]) == 4


def test_views_cut_from_whole_projections_are_the_same_pages(G, tmp_path):
    plain = write_views(G, tmp_path / "plain", top_n=4, min_weight=1)
    reused = write_views(G, tmp_path / "reused", top_n=4, min_weight=1, coauthors=coauthor_graph(G),
                         topics=topic_graph(G, normalize="association"))
    assert [p.read_bytes() for p in plain] == [p.read_bytes() for p in reused]


def test_communities_computed_by_the_caller_are_used_only_for_what_they_describe(G, tmp_path):
    whole = coauthor_graph(G)
    membership = communities(whole, seed=42)
    assert coauthor_view(G, within=Whole(whole, membership)).nodes == coauthor_view(G).nodes
    swapped = {node: 99 - number for node, number in membership.items()}  # recognisably not Louvain's
    assert {n["community"] for n in coauthor_view(G, within=Whole(whole, swapped)).nodes} == set(swapped.values())
    cut = coauthor_view(G, within=Whole(whole, swapped), top_n=3)  # a part of `whole`: Louvain on it
    assert all(n["community"] < 10 for n in cut.nodes)
    topics = topic_graph(G, normalize="association")  # other weights than the view's: not used
    fake = dict.fromkeys(topics, 77)
    assert {n["community"] for n in topic_view(G, within=Whole(topics, fake)).nodes} != {77}
    assert {n["community"] for n in topic_view(G, within=Whole(topics, fake), normalize="association").nodes} \
        == {77}
    files = write_views(G, tmp_path, coauthors=Whole(whole, swapped), quiet=True)
    assert "Community 99" not in files[0].read_text(encoding="utf-8")  # Community 99 - 1 = 98 is the first
    assert '"community":98' in files[0].read_text(encoding="utf-8")


def test_options_object_and_keywords_make_the_same_view(G):
    options = ViewOptions(top_n=4, counting="fractional", seed=7)
    assert render_html(coauthor_view(G, options)) == render_html(coauthor_view(G, top_n=4, counting="fractional",
                                                                               seed=7))
    assert render_html(topic_view(G, options, top_n=3)) == render_html(topic_view(G, top_n=3, seed=7))
    with pytest.raises(ArgumentError, match="normalize must be None or 'association'"):
        ViewOptions(normalize="cosine")
    with pytest.raises(TypeError):
        coauthor_view(G, colour="red")


def test_docstring_examples_run():
    """The Examples sections of the public API are doctests, run here with the suite."""
    modules = [kg.views.layout, kg.views.options, kg.views.assets, kg.views.page, kg.views.coauthors, kg.views.topics,
               kg.views.notebook, kg.views.files]
    results = [doctest.testmod(module, optionflags=doctest.ELLIPSIS) for module in modules]
    assert sum(r.attempted for r in results) >= 20 and sum(r.failed for r in results) == 0


def test_display_is_a_sandboxed_srcdoc_iframe(G):
    shown = display(coauthor_view(G), height=480)
    assert shown.data.startswith('<div class="kg-view"><iframe srcdoc="&lt;!DOCTYPE html&gt;')
    assert 'sandbox="allow-scripts"' in shown.data and "height:480px" in shown.data
    assert "</script>" not in shown.data  # the whole page is one escaped attribute value
    assert View._repr_html_(coauthor_view(G)) == display(coauthor_view(G)).data


def test_layout_is_seeded_and_keeps_nodes_apart():
    graph = nx.Graph()
    for team in range(60):  # 60 teams of 5, a few bridges between consecutive teams
        members = [f"t{team}-{i}" for i in range(5)]
        graph.add_edges_from(combinations(members, 2), weight=1)
        if team % 3:
            graph.add_edge(f"t{team}-0", f"t{team - 1}-1", weight=1)
    graph.add_nodes_from(f"alone-{i}" for i in range(40))
    groups = sorted(nx.community.louvain_communities(graph, seed=1), key=lambda c: (-len(c), min(c)))
    positions = community_layout(graph, groups, seed=5, spacing=90)
    assert positions == community_layout(graph, groups, seed=5, spacing=90) and len(positions) == 340
    points = list(positions.values())
    closest = min(math.dist(p, q) for p, q in combinations(points, 2))
    assert closest > 9  # no two nodes on top of each other (a tenth of the spacing)


def test_cli_views_writes_both_pages_and_reports_bad_tracks(tmp_path, capsys):
    assert main(["views", "-o", str(tmp_path), "--top-n", "8", "--quiet"]) == 0
    data = page_data((tmp_path / "coauthors.html").read_text(encoding="utf-8"))
    assert len(data["nodes"]) == 8 and data["meta"]["notes"][0].startswith("Showing 8 of ")
    assert main(["views", "-o", str(tmp_path), "--track", "Astrology"]) == 2
    assert "no paper is in track 'Astrology'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["views", "--help"])
    usage = capsys.readouterr().out
    assert "kg views listing.txt -o out/ --top-n 500" in usage and f"default: {DEFAULT_TOP_N}," in usage


def test_graph_without_methods_or_links_still_renders():
    G = build_graph([Paper(key="k", authors=(Author("Solo", "solo"),), abstract="x", text="x")], {})
    topics, coauthors = topic_view(G), coauthor_view(G)
    assert (len(topics.nodes), len(coauthors.nodes), len(coauthors.edges)) == (0, 1, 0)
    assert page_data(render_html(topics))["meta"]["weight"] == {"min": 0, "max": 0, "label": "papers mentioning both",
                                                                "step": 1}


def test_first_look_is_chosen_from_the_data_and_stated():
    papers = [Paper(key=f"solo{i}", title=f"Solo work {i}", authors=(Author(f"Solo {i}", f"solo-{i}"),),
                    abstract="x", text="x") for i in range(600)]
    papers += [Paper(key=f"team{i}-{k}", title=f"Team paper {i}.{k}", abstract="x", text="x",
                     authors=(Author(f"Lead {i}", f"lead-{i}"), Author(f"Second {i}", f"second-{i}")))
               for i in range(50) for k in range(3)]
    G = build_graph(papers, {})
    view = coauthor_view(G)
    assert view.meta["opening"] == {"minPapers": 2, "maxLinks": 1000, "colors": "groups"}  # 100 authors with 3 papers, not 700
    assert len(view.nodes) == 700  # the page holds the next level, to widen to
    assert view.meta["notes"][-1] == ("First look: the 100 of 700 authors with at least 2 papers and at most the "
                                      "1,000 heaviest links between them. To see more, lower Min. papers (to 1: "
                                      "700 authors) or raise Max. links.")
    lead = next(n for n in view.nodes if n["label"] == "Lead 0")
    assert sorted(view.meta["papers"][r]["text"] for r in lead["rows"]) == [f"Team paper 0.{k}" for k in range(3)]
    everything = coauthor_view(G, first_look=False)
    assert everything.meta["opening"] == {"minPapers": 1, "maxLinks": None, "colors": "groups"}
    assert not any(note.startswith("First look") for note in everything.meta["notes"])


def test_years_give_each_node_its_years_and_mean_year_for_the_overlay():
    G = dated_graph()
    view = coauthor_view(G)
    assert view.meta["years"] == {"min": 2020, "max": 2023} and view.meta["opening"]["colors"] == "groups"
    nodes = {n["label"]: n for n in view.nodes}
    assert nodes["Old Hand"]["years"] == [2020, 2021] and nodes["Old Hand"]["year"] == 2020.5
    assert nodes["Bridge"]["year"] == 2021.5 and nodes["New Face"]["year"] == 2023
    assert "Years: 2020–2023 (mean 2021.5)" in nodes["Bridge"]["tip"]["lines"]
    link = next(e for e in view.edges if {e["from"], e["to"]} == {nodes["Bridge"]["id"], nodes["Old Hand"]["id"]})
    assert link["years"] == [2020, 2021]
    assert "2021" in view.meta["papers"][nodes["Old Hand"]["rows"][1]]["detail"]
    topics = topic_view(G, color_by="year")
    assert topics.meta["opening"]["colors"] == "year" and topics.meta["legend"]["title"] == "Community"
    assert {n["label"]: n["year"] for n in topics.nodes}["new method"] == 2023
    undated = coauthor_view(hub_graph())  # no years: no year keys, no year range
    assert undated.meta["years"] is None and "years" not in undated.nodes[0]
