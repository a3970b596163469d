"""Datasets and benchmarks on the topic map: the most used ones, as their own kind of node beside the methods.

A dataset is linked to the methods shown as methods are linked to each other, by co-occurrence: the
papers that use the dataset and mention the method (or its association strength, computed on the
dataset-method links). The page lays the datasets out after the methods, each beside the method it
shares most papers with, so the methods sit where they sit on a page without datasets.
"""
from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

import networkx as nx

from kg.graph import association_strength, paper_datasets, paper_methods
from kg.views.colors import DATASET_COLOR, DATASET_SHAPE
from kg.views.options import ViewOptions
from kg.views.tips import Papers, count, evidence_section, first_sentences, section, tip

#: The legend entry of the datasets (the swatch is the colour; the label names the shape).
LEGEND_LABEL = "◆ datasets and benchmarks"


class Datasets(NamedTuple):
    """The datasets a topic map shows: `graph`, its projection with them added (nodes of kind
    "dataset", with `shape` and `community`, the community of the method they are drawn beside, or
    None; links to methods as the projection's: `count`, `weight`, `papers`), `shown`, their nodes
    (most papers first), `evidence` (dataset -> paper -> the first sentence naming it) and `notes`
    on what was cut."""

    graph: nx.Graph
    shown: list[str]
    evidence: dict[str, dict[str, str]]
    notes: list[str]


def add_datasets(H: nx.DiGraph, P: nx.Graph, membership: dict[str, int], options: ViewOptions) -> Datasets:
    """The `options.datasets` datasets of `H` with most papers (at least `options.min_papers`, ties by
    key), added to the topic projection `P` of `H` with their links to its methods.

    Links get `options.normalize`'s weight and are cut by `options.min_weight` and, as their own
    set, `options.top_links`. `P` is not changed.

    Parameters
    ----------
    H : nx.DiGraph
        The part of the knowledge graph the view shows (its track).
    P : nx.Graph
        The topic projection the view shows (`topic_graph`).
    membership : dict
        The communities of `P`'s methods.
    options : ViewOptions
        The view's options (`datasets`, `min_papers`, `normalize`, `min_weight`, `top_links`).

    Returns
    -------
    Datasets
        The projection with the datasets, which ones, their evidence and notes.

    Examples
    --------
    >>> import kg
    >>> from kg.graph import topic_graph
    >>> from kg.views import ViewOptions
    >>> _, G = kg.load_graph(quiet=True)  # the embedded sample
    >>> P = topic_graph(G)
    >>> found = add_datasets(G, P, dict.fromkeys(P, 1), ViewOptions(datasets=3))
    >>> len(found.shown), found.graph.nodes[found.shown[0]]["kind"], found.notes[0].startswith("Showing 3 of")
    (3, 'dataset', True)
    """
    evidence = first_sentences(H, paper_datasets)
    eligible = sorted((d for d, papers in evidence.items() if len(papers) >= options.min_papers),
                      key=lambda d: (-len(evidence[d]), d))
    shown = eligible[:options.datasets]
    pairs: dict[tuple[str, str], list[str]] = defaultdict(list)
    for dataset in shown:
        for paper in sorted(evidence[dataset]):
            for method in paper_methods(H, paper):
                if method in P:
                    pairs[dataset, method].append(paper)
    weights = association_strength(pairs) if options.normalize == "association" else \
        {pair: len(papers) for pair, papers in pairs.items()}
    links = options.cuts.links(weights)
    Q = P.copy()
    Q.add_nodes_from((d, {"kind": "dataset", "label": H.nodes[d]["label"], "shape": DATASET_SHAPE,
                          "alt_labels": list(H.nodes[d].get("alt_labels", [])), "papers": len(evidence[d])})
                     for d in shown)
    Q.add_edges_from((d, m, {"count": len(pairs[d, m]), "weight": weights[d, m], "papers": pairs[d, m]})
                     for d, m in links)
    for dataset in shown:
        anchor = min(Q[dataset], key=lambda m: (-Q[dataset][m]["weight"], m), default=None)
        Q.nodes[dataset]["community"] = membership.get(anchor)
    notes = [f"Showing {len(shown):,} of {len(eligible):,} datasets and benchmarks (the {options.datasets:,}"
             f" used by most papers)."] if len(shown) < len(eligible) else []
    return Datasets(Q, shown, {d: evidence[d] for d in shown}, notes)


def legend_entry(found: Datasets) -> dict:
    """The legend entry of the datasets shown."""
    return {"color": DATASET_COLOR, "label": LEGEND_LABEL, "count": len(found.shown)}


def dataset_tip(found: Datasets, dataset: str, papers: Papers) -> dict:
    """A dataset's tooltip: its papers, each with the sentence naming the dataset, and the methods
    shown that the same papers mention (most papers first)."""
    Q = found.graph
    data = Q.nodes[dataset]
    lines = ["Dataset or benchmark", f"Used in {count(data['papers'], 'paper')}"]
    if data["alt_labels"]:
        lines.insert(1, "Also: " + "; ".join(data["alt_labels"]))
    methods = sorted(Q[dataset], key=lambda m: (-Q[dataset][m]["count"], Q.nodes[m]["label"]))
    return tip(data["label"], lines, [
        evidence_section("Papers", found.evidence[dataset], papers),
        section("Methods in the same papers", methods,
                lambda m: {"text": Q.nodes[m]["label"], "detail": count(Q[dataset][m]["count"], "paper")}),
    ])
