"""The co-author view: authors sized by papers, coloured by community, linked by shared papers."""
from __future__ import annotations

from functools import partial

import networkx as nx

from kg.graph import coauthor_graph
from kg.views.colors import community_colors
from kg.views.options import ViewOptions, with_changes
from kg.views.page import View, Whole, fill, new_view, project
from kg.views.tips import Papers, count, link_detail, section, tip


def coauthor_view(
    G: nx.DiGraph,
    options: ViewOptions | None = None,
    *,
    within: nx.Graph | Whole | None = None,
    **changes,
) -> View:
    """The co-author map of a knowledge graph.

    Authors are sized by papers, coloured by (seeded Louvain) community and linked by shared papers
    (`counting` "full" or "fractional"). Tooltips list an author's papers with their track and the
    top co-authors; a link's tooltip lists the shared papers. The page notes what the cuts left out;
    communities are those of the links shown.

    Parameters
    ----------
    G : nx.DiGraph
        The knowledge graph (`kg.build_graph`, `kg.load_graph`).
    options : ViewOptions, optional
        The cuts, weights and seeds (default: `ViewOptions()`).
    within : nx.Graph or Whole, optional
        The whole co-author graph of `G` (`coauthor_graph(G, counting=...)`) when the caller has it,
        or a `Whole` of it and its communities (`kg.analysis.communities`, same seed and resolution):
        it is cut instead of projecting again (not with `track`, which projects the track's papers),
        and its communities are used when the view shows all of it; otherwise Louvain runs on the
        links shown.
    **changes
        Fields of `ViewOptions` to change (`top_n=500`, `counting="fractional"`, ...).

    Returns
    -------
    View
        The co-author map, a pyvis `Network`: `write_html(view, path)` writes it.

    Examples
    --------
    >>> import kg
    >>> from kg.views import coauthor_view
    >>> _, G = kg.load_graph(quiet=True)  # the embedded sample
    >>> view = coauthor_view(G, top_n=10)
    >>> len(view.nodes), view.meta["noun"], view.meta["notes"][0].startswith("Showing 10 of ")
    (10, 'authors', True)
    """
    options = with_changes(options, changes)
    H, P, notes, membership, opening = project(G, options, partial(coauthor_graph, counting=options.counting), within,
                                               "authors", "most prolific")
    weight_label = "shared papers" if options.counting == "full" else "fractional co-authorship"
    view = new_view(P, "coauthors", "Co-authors", "authors", options.track, weight_label,
                    sizes="Node size: papers. Link width: " + weight_label + ".", notes=notes, opening=opening)
    papers = Papers(H)
    papers_of = {a: [p for p in H.predecessors(a) if H.nodes[p]["kind"] == "paper"] for a in P}
    colors, legend = community_colors(P, membership)
    view.meta["legend"].update(title="Community", entries=legend)

    def node_tip(author: str) -> dict:
        data = H.nodes[author]
        lines = [count(P.nodes[author]["papers"], "paper"), f"Community {membership[author]}"]
        if len(data.get("names", [])) > 1:
            lines.append("Written as: " + "; ".join(data["names"]))
        partners = sorted(P[author].items(), key=lambda item: (-item[1]["weight"], P.nodes[item[0]]["label"]))
        return tip(data["label"], lines, [
            section("Papers", papers_of[author], papers.cite),
            section("Top co-authors", partners, lambda partner: {
                "text": P.nodes[partner[0]]["label"], "detail": link_detail(partner[1], options.counting)}),
        ])

    def edge_tip(u: str, v: str, d: dict) -> dict:
        return tip(f"{P.nodes[u]['label']} — {P.nodes[v]['label']}", [link_detail(d, options.counting)],
                   [section("Shared papers", d["papers"], papers.cite)])

    fill(view, P, membership, colors, papers, papers_of, node_tip, edge_tip, options.seed)
    return view
