"""The topic view: methods sized by papers, coloured by main track or community, linked by co-occurrence;
the most used datasets and benchmarks beside them (`kg.views.datasets`)."""
from __future__ import annotations

from functools import partial

import networkx as nx

from kg.graph import paper_methods, topic_graph
from kg.views.colors import DATASET_COLOR, community_colors, track_colors
from kg.views.datasets import add_datasets, dataset_tip, legend_entry
from kg.views.options import ViewOptions, with_changes
from kg.views.page import View, Whole, fill, new_view, project
from kg.views.tips import NO_TRACK, Papers, count, evidence_section, first_sentences, section, tip


def topic_view(
    G: nx.DiGraph,
    options: ViewOptions | None = None,
    *,
    within: nx.Graph | Whole | None = None,
    **changes,
) -> View:
    """The topic map of a knowledge graph.

    Methods are sized by the papers mentioning them, coloured by their main track
    (`color_by="track"`) or their community (`"community"`), and linked by co-occurrence (or its
    association strength, `normalize="association"`). Tooltips list the papers behind a method or
    a link, each with the sentence that mentions the method. The `options.datasets` datasets and
    benchmarks used by most papers are shown too, as dark grey diamonds linked to the methods their
    papers mention (`kg.views.datasets`).

    Parameters
    ----------
    G : nx.DiGraph
        The knowledge graph (`kg.build_graph`, `kg.load_graph`).
    options : ViewOptions, optional
        The cuts, weights, colouring and seeds (default: `ViewOptions()`).
    within : nx.Graph or Whole, optional
        The whole topic graph of `G` (`topic_graph(G)`, any `normalize`) when the caller has it, or a
        `Whole` of it and its communities: cut as in `coauthor_view`, its communities used when the
        view shows all of it with the same link weights.
    **changes
        Fields of `ViewOptions` to change (`top_n=200`, `normalize="association"`, ...).

    Returns
    -------
    View
        The topic map; `display(view)` shows it in a notebook.

    Examples
    --------
    >>> import kg
    >>> from kg.views import topic_view
    >>> _, G = kg.load_graph(quiet=True)  # the embedded sample
    >>> view = topic_view(G, top_n=12, color_by="community", datasets=0)
    >>> len(view.nodes), view.meta["legend"]["title"]
    (12, 'Community')
    >>> with_datasets = topic_view(G, top_n=12, datasets=3)
    >>> [n["shape"] for n in with_datasets.nodes if n["id"].startswith("dataset:")]
    ['diamond', 'diamond', 'diamond']
    """
    options = with_changes(options, changes)
    normalize = options.normalize
    H, P, notes, membership, opening = project(G, options, partial(topic_graph, normalize=normalize), within,
                                               "methods", "most frequent")
    weight_label = "association strength" if normalize == "association" else "papers mentioning both"
    evidence = first_sentences(H, paper_methods)  # method -> paper -> first sentence
    papers = Papers(H)
    if options.color_by != "community" and any(track != NO_TRACK for track in papers.track.values()):
        colors, legend, title = track_colors(P, papers, evidence)
    else:  # by community, as asked or because no paper has a track
        (colors, legend), title = community_colors(P, membership), "Community"
        if options.color_by != "community":
            notes.append("No paper has a track: methods are coloured by community.")
    found = add_datasets(H, P, membership, options) if options.datasets else None
    sizes = "Node size: papers mentioning the method. Link width: " + weight_label + "."
    if found is not None and found.shown:
        Q, noun = found.graph, "methods and datasets"
        colors.update(dict.fromkeys(found.shown, DATASET_COLOR))
        evidence.update(found.evidence)
        legend.append(legend_entry(found))
        notes.extend(found.notes)
        sizes = "Node size: papers mentioning the method or using the dataset. Link width: " + weight_label + "."
    else:
        Q, noun = P, "methods"
    view = new_view(Q, "topics", "Topics", noun, options.track, weight_label, sizes=sizes, notes=notes,
                    opening=opening)
    view.meta["legend"].update(title=title, entries=legend)

    def node_tip(node: str) -> dict:
        if found is not None and node in found.evidence:
            return dataset_tip(found, node, papers)
        data = P.nodes[node]
        lines = [f"Mentioned in {count(data['papers'], 'paper')}", f"Community {membership[node]}"]
        if data.get("alt_labels"):
            lines.insert(0, "Also: " + "; ".join(data["alt_labels"]))
        return tip(data["label"], lines, [evidence_section("Papers", evidence[node], papers)])

    def edge_tip(u: str, v: str, d: dict) -> dict:
        line = f"Mentioned together in {count(d['count'], 'paper')}"
        if normalize == "association":
            line += f" · association strength {d['weight']:.3g}"
        return tip(f"{Q.nodes[u]['label']} — {Q.nodes[v]['label']}", [line], [
            section("Papers", d["papers"], lambda p: papers.cite(p, [evidence[u][p], evidence[v][p]])),
        ])

    fill(view, Q, membership, colors, papers, evidence, node_tip, edge_tip, options.seed,
         satellites=found.shown if found is not None else ())
    return view
