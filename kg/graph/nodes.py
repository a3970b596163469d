"""The graph's contract: node keys of each kind, and reading a paper's authors, methods, datasets and track.

    paper:<key>   -authored_by->  author:<author key>     (position, name as written)
    paper:<key>   -in_track---->  track:<area>--<sub>      (or area:<area> for one-level tracks)
    track:<...>   -broader----->  area:<area>
    paper:<key>   -mentions---->  method:<key>             (count, evidence)
    paper:<key>   -uses_dataset->  dataset:<key>           (count, evidence)

`evidence` is a tuple of `kg.records.MethodMention` (text, start, end, sentence), in text order.
"""
from __future__ import annotations

import networkx as nx

from kg.names import slugify
from kg.records import Paper, Track


def paper_node(paper: Paper) -> str:
    return f"paper:{paper.key}"


def author_node(key: str) -> str:
    return f"author:{key}"


def area_node(area: str) -> str:
    return f"area:{slugify(area)}"


def track_node(track: Track) -> str:
    """The node a paper's `in_track` edge points to: the subarea's track node, or the area itself."""
    if track.subarea is None:
        return area_node(track.area)
    return f"track:{slugify(track.area)}--{slugify(track.subarea)}"


def method_node(key: str) -> str:
    return f"method:{key}"


def dataset_node(key: str) -> str:
    return f"dataset:{key}"


def nodes_of_kind(G: nx.DiGraph, kind: str) -> list[str]:
    """Node keys of one kind, in graph order."""
    return [n for n, k in G.nodes(data="kind") if k == kind]


def paper_authors(G: nx.DiGraph, paper: str) -> list[str]:
    """The author nodes of a paper node, by position."""
    edges = [(d["position"], v) for _, v, d in G.out_edges(paper, data=True) if d["rel"] == "authored_by"]
    return [v for _, v in sorted(edges)]


def paper_methods(G: nx.DiGraph, paper: str) -> list[str]:
    """The method nodes a paper node mentions, in edge order."""
    return [v for _, v, rel in G.out_edges(paper, data="rel") if rel == "mentions"]


def paper_datasets(G: nx.DiGraph, paper: str) -> list[str]:
    """The dataset nodes a paper node uses (its `uses_dataset` edges), in edge order.

    Examples
    --------
    >>> G = nx.DiGraph()
    >>> G.add_edge("paper:1", "method:svm", rel="mentions")
    >>> G.add_edge("paper:1", "dataset:mnist", rel="uses_dataset")
    >>> paper_datasets(G, "paper:1"), paper_methods(G, "paper:1")
    (['dataset:mnist'], ['method:svm'])
    """
    return [v for _, v, rel in G.out_edges(paper, data="rel") if rel == "uses_dataset"]


def paper_track(G: nx.DiGraph, paper: str) -> str | None:
    """The track (or area, for one-level tracks) node of a paper node; None when unknown."""
    return next((v for _, v, rel in G.out_edges(paper, data="rel") if rel == "in_track"), None)
