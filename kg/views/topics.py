"""The topic view: methods sized by papers, coloured by main track or community, linked by co-occurrence."""
from __future__ import annotations

from collections import defaultdict
from functools import partial

import networkx as nx

from kg.graph import nodes_of_kind, paper_methods, topic_graph
from kg.views.colors import community_colors, track_colors
from kg.views.options import ViewOptions, with_changes
from kg.views.page import View, fill, new_view, project
from kg.views.tips import NO_TRACK, Papers, count, section, tip


def topic_view(
    G: nx.DiGraph,
    options: ViewOptions | None = None,
    *,
    within: nx.Graph | None = None,
    membership: dict[str, int] | None = None,
    **changes,
) -> View:
    """The topic map of a knowledge graph.

    Methods are sized by the papers mentioning them, coloured by their main track
    (`color_by="track"`) or their community (`"community"`), and linked by co-occurrence (or its
    association strength, `normalize="association"`). Tooltips list the papers behind a method or
    a link, each with the sentence that mentions the method.

    Parameters
    ----------
    G : nx.DiGraph
        The knowledge graph (`kg.build_graph`, `kg.load_graph`).
    options : ViewOptions, optional
        The cuts, weights, colouring and seeds (default: `ViewOptions()`).
    within : nx.Graph, optional
        The whole topic graph of `G` (`topic_graph(G)`, any `normalize`) when the caller has it: it
        is cut instead of projecting again (not with `track`).
    membership : dict, optional
        The communities of `within` (same seed and resolution), used when the view shows all of
        `within` with the same link weights; otherwise Louvain runs on the links shown.
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
    >>> view = topic_view(G, top_n=12, color_by="community")
    >>> len(view.nodes), view.meta["legend"]["title"]
    (12, 'Community')
    """
    options = with_changes(options, changes)
    normalize = options.normalize
    H, P, notes, membership, opening = project(G, options, partial(topic_graph, normalize=normalize), within,
                                               membership, "methods", "most frequent")
    weight_label = "association strength" if normalize == "association" else "papers mentioning both"
    view = new_view(P, "topics", "Topics", "methods", options.track, weight_label,
                    sizes="Node size: papers mentioning the method. Link width: " + weight_label + ".",
                    notes=notes, opening=opening)
    evidence: dict[str, dict[str, str]] = defaultdict(dict)  # method -> paper -> first sentence
    for paper in nodes_of_kind(H, "paper"):
        for method in paper_methods(H, paper):
            mentions = H.edges[paper, method].get("evidence")
            evidence[method][paper] = mentions[0].sentence if mentions else ""
    papers = Papers(H)
    if options.color_by != "community" and any(track != NO_TRACK for track in papers.track.values()):
        colors, legend, title = track_colors(P, papers, evidence)
    else:  # by community, as asked or because no paper has a track
        (colors, legend), title = community_colors(P, membership), "Community"
        if options.color_by != "community":
            view.meta["notes"].append("No paper has a track: methods are coloured by community.")
    view.meta["legend"].update(title=title, entries=legend)

    def node_tip(method: str) -> dict:
        data = P.nodes[method]
        lines = [f"Mentioned in {count(data['papers'], 'paper')}", f"Community {membership[method]}"]
        if data.get("alt_labels"):
            lines.insert(0, "Also: " + "; ".join(data["alt_labels"]))
        return tip(data["label"], lines, [
            section("Papers", list(evidence[method].items()), lambda item: papers.cite(item[0], [item[1]])),
        ])

    def edge_tip(u: str, v: str, d: dict) -> dict:
        line = f"Mentioned together in {count(d['count'], 'paper')}"
        if normalize == "association":
            line += f" · association strength {d['weight']:.3g}"
        return tip(f"{P.nodes[u]['label']} — {P.nodes[v]['label']}", [line], [
            section("Papers", d["papers"], lambda p: papers.cite(p, [evidence[u][p], evidence[v][p]])),
        ])

    fill(view, P, membership, colors, papers, evidence, node_tip, edge_tip, options.seed)
    return view
