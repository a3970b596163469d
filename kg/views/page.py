"""Page assembly: the `View` (a pyvis Network) both maps fill, and its rendering into one HTML file.

A view's nodes and edges are vis-network records with our extra keys (`tracks`, `community`, `tip`);
`meta` is what the page shows around the network. `render_html` puts them, vis-network, our script
and style into one self-contained page (see `kg.views.assets` for what makes it safe and offline).
"""
from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

import networkx as nx
from pyvis.network import Network

from kg._util.io import open_output, written
from kg.analysis import communities
from kg.errors import ArgumentError
from kg.graph import is_whole, nodes_of_kind, paper_track
from kg.names import fold
from kg.views.assets import VIS_VERSION, asset, template, vis_js
from kg.views.colors import leaders, members
from kg.views.layout import first_look_layout, place_beside
from kg.views.options import FIRST_LOOK_LINKS, ViewOptions, first_look_levels
from kg.views.tips import Papers, count

#: Edges above which links are hidden while dragging or zooming (keeps big maps fluid).
LARGE_EDGES = 2000

#: vis-network options shared by both views (a View's `options` is a plain dict of these).
VIS_OPTIONS: dict[str, Any] = {
    "autoResize": True,
    "physics": {"enabled": False},
    "layout": {"improvedLayout": False},
    "interaction": {"hover": True, "tooltipDelay": 120, "multiselect": False},
    "nodes": {
        "shape": "dot", "borderWidth": 1,
        "font": {"face": "system-ui, -apple-system, Segoe UI, sans-serif", "color": "#222222"},
        # The page draws the labels itself (most important first, never overlapping): vis-network's are off.
        "scaling": {"min": 8, "max": 30, "label": {"enabled": False, "drawThreshold": 1_000_000}},
    },
    "edges": {
        "smooth": False, "selectionWidth": 1.5,
        "color": {"color": "#9aa5b1", "highlight": "#d62728", "hover": "#4a5560", "opacity": 0.75},
        "scaling": {"min": 1, "max": 8},
    },
}


class View(Network):
    """A pyvis Network ready for our page.

    Besides pyvis's `nodes` and `edges` (vis-network dicts, with our extra keys `tracks`,
    `community` and `tip`) it holds `meta`, what the page shows around the network:
    `kind`, `title`, `noun` (what a node is), `legend` {title, entries [{color, label, count}],
    sizes}, `tracks` and `communities` (the filter choices, [{value, label, count}]; a node's or
    link's `tracks` are the values of its tracks' choices, the indices of `meta.tracks`), `weight`
    {min, max, step, label} for the link-weight slider, `notes` (what was cut, and why), `papers`,
    the rows ({text, detail}) that tooltip items cite by index (and nodes list in `rows`, for search
    by title), `quotes`, the evidence sentences they cite by index (`{"paper": i, "quotes": [j, ...]}`),
    `opening`, the first look the page opens on, and `years` ({min, max}, or None when no paper has
    a year; nodes and links then carry `years`, nodes their mean `year`, for the overlay).
    `generate_html` is our renderer, so pyvis's own `write_html`/`show` also give the safe page.
    """

    def __init__(self, meta: dict[str, Any]) -> None:
        super().__init__(height="100%", width="100%", cdn_resources="in_line", heading="")
        self.meta = meta
        self.options = json.loads(json.dumps(VIS_OPTIONS))  # a deep copy the caller may tweak

    def add_records(self, nodes: Iterable[dict], edges: Iterable[dict]) -> None:
        """Add vis-network node and edge dicts in bulk.

        pyvis's `add_edge` scans every existing edge and node on each call (quadratic in the map's
        size); projection edges are unique by construction, so no scan is needed.
        """
        for node in nodes:
            self.nodes.append(node)
            self.node_ids.append(node["id"])
            self.node_map[node["id"]] = node
        self.edges.extend(edges)

    def generate_html(self, name: str = "index.html", local: bool = True, notebook: bool = False) -> str:
        """The self-contained page (pyvis's signature; the arguments do not change anything)."""
        return render_html(self)

    def _repr_html_(self) -> str:
        from kg.views.notebook import iframe

        return iframe(render_html(self))


def render_html(view: View) -> str:
    """The page: one HTML document with vis-network, our script, style and the data inlined.

    Parameters
    ----------
    view : View
        A view made by `coauthor_view` or `topic_view`.

    Returns
    -------
    str
        The whole page; the same view gives the same text.

    Examples
    --------
    >>> import kg
    >>> from kg.views import coauthor_view
    >>> _, G = kg.load_graph(quiet=True)  # the embedded sample
    >>> render_html(coauthor_view(G, top_n=10)).startswith("<!DOCTYPE html>")
    True
    """
    data = {"meta": view.meta, "nodes": view.nodes, "edges": view.edges, "options": view.options}
    return template().render(title=view.meta["title"], vis_version=VIS_VERSION, vis_js=vis_js(),
                             script=asset("labels.js") + "\n" + asset("view.js"), style=asset("view.css"), data=data)


def write_html(view: View, path: str | os.PathLike[str] | BinaryIO) -> Path | None:
    """Write the page of `view` to `path` (atomically) or to a file opened in binary mode.

    Parameters
    ----------
    view : View
        A view made by `coauthor_view` or `topic_view`.
    path : str, PathLike or binary file
        The HTML file to write (missing folders are made), or an open binary file, which is
        written in UTF-8 and left open.

    Returns
    -------
    Path or None
        The page's path, or None for a file: the caller has it (as for every kg writer).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import kg
    >>> from kg.views import topic_view, write_html
    >>> _, G = kg.load_graph(quiet=True)  # the embedded sample
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> write_html(topic_view(G, top_n=20), folder / "topics.html").name
    'topics.html'
    >>> import io
    >>> buffer = io.BytesIO()
    >>> write_html(topic_view(G, top_n=20), buffer)
    >>> buffer.getvalue().startswith(b"<!DOCTYPE html>")
    True
    """
    with open_output(path) as out:
        out.write(render_html(view))
    return written(path)


# ------------------------------------------------------------------- shared by both views
def restrict_to_track(G: nx.DiGraph, track: str | None) -> tuple[nx.DiGraph, list[str]]:
    """The part of `G` about the papers of one track or area (matched by label, any case) and a note."""
    if track is None:
        return G, []
    wanted = fold(track)
    papers = []
    for paper in nodes_of_kind(G, "paper"):
        node = paper_track(G, paper)
        if node is not None and wanted in {fold(G.nodes[node]["label"]), fold(G.nodes[node].get("area", ""))}:
            papers.append(paper)
    if not papers:
        known = sorted({G.nodes[t]["label"] for t in nodes_of_kind(G, "track") + nodes_of_kind(G, "area")})
        raise ArgumentError(f"no paper is in track {track!r}; known tracks and areas: {', '.join(known) or 'none'}")
    keep = set(papers).union(*(G.successors(p) for p in papers))
    return G.subgraph(keep), [f"Only the {count(len(papers), 'paper')} in track {track}."]


class Whole(NamedTuple):
    """A whole projection of the graph a view shows, as the caller made it (`coauthor_graph(G)`,
    `topic_graph(G)`: no cuts), with its communities when the caller has them too
    (`kg.analysis.communities`, with the view's seed and resolution).

    Examples
    --------
    >>> import kg
    >>> from kg.views import Whole, coauthor_view
    >>> _, G = kg.load_graph(quiet=True)  # the embedded sample
    >>> C = kg.coauthor_graph(G)
    >>> coauthor_view(G, within=Whole(C)).nodes == coauthor_view(G).nodes
    True
    """

    graph: nx.Graph
    membership: Mapping[str, int] | None = None


class Projected(NamedTuple):
    """What a view shows: `H` the part of `G` in the track, `P` its projection as the page holds it,
    `notes` on what was left out, `membership` the communities of `P`, and `opening` the page's
    first look ({"minPapers", "maxLinks"}: its opening filters; "colors": "groups" (track or
    community) or "year", the overlay colouring by mean publication year)."""

    H: nx.DiGraph
    P: nx.Graph
    notes: list[str]
    membership: dict[str, int]
    opening: dict[str, Any]


def project(G: nx.DiGraph, options: ViewOptions, make: Callable[..., nx.Graph], within: nx.Graph | Whole | None,
            noun: str, ranking: str) -> Projected:
    """The part `H` of `G` in `options.track`, projected by `make(H, cuts=..., within=...)` with the cuts
    of `options` (cut from `within`, a bare graph or a `Whole`, when given and no track is asked for),
    and the first look the page opens at (`first_look_levels`): `noun` names the nodes and `ranking`
    the order of a `top_n` cut in the notes."""
    H, track_note = restrict_to_track(G, options.track)
    given = Whole(within) if isinstance(within, nx.Graph) else within
    if options.track is not None:  # the track's papers are projected anew
        given = None
    whole, held = given.graph if given is not None else None, options.min_papers
    opening = {"minPapers": options.min_papers, "maxLinks": None, "colors": "year" if options.color_by == "year" else "groups"}
    if options.first_look:
        if whole is None:  # the whole projection once, to choose the levels from and cut twice
            whole = make(H)
        counts = [c for _, c in whole.nodes(data="papers")]
        level, held = first_look_levels(counts, options.min_papers)
        opening.update(minPapers=level, maxLinks=FIRST_LOOK_LINKS)
    P = make(H, cuts=replace(options.cuts, min_papers=held), within=whole)
    notes = [*track_note, *cut_notes(P, noun, ranking)]
    if options.first_look:
        shown = sum(c >= opening["minPapers"] for c in counts)
        if shown < P.number_of_nodes() or P.number_of_edges() > opening["maxLinks"]:  # the first look hides some
            notes.append(_first_look_note(P, opening, noun, shown, len(counts)))
    return Projected(H, P, notes, view_communities(P, options, given), opening)


def _first_look_note(P: nx.Graph, opening: dict, noun: str, shown: int, total: int) -> str:
    """What the page opens on, and how to see more."""
    level, held = opening["minPapers"], min((c for _, c in P.nodes(data="papers")), default=1)
    text = (f"First look: the {shown:,} of {total:,} {noun} with at least {count(level, 'paper')}"
            f" and at most the {opening['maxLinks']:,} heaviest links between them.")
    wider = [f"lower Min. papers (to {held}: {P.number_of_nodes():,} {noun})"] if held < level else []
    wider.append("raise Max. links")
    return f"{text} To see more, {' or '.join(wider)}."


def view_communities(P: nx.Graph, options: ViewOptions, whole: Whole | None) -> dict[str, int]:
    """The communities of the links shown: `whole.membership` (those of `whole.graph`, the projection
    `P` was cut from) when the cut left all of it and the weights are the same; else Louvain on `P`."""
    membership = whole.membership if whole is not None else None
    if membership is not None and is_whole(P) and set(membership) == set(P) and all(
            whole.graph.has_edge(u, v) and whole.graph[u][v]["weight"] == w for u, v, w in P.edges(data="weight")):
        return dict(membership)
    return communities(P, seed=options.seed, resolution=options.resolution)


def new_view(P: nx.Graph, kind: str, title: str, noun: str, track: str | None, weight_label: str, *,
             sizes: str, notes: list[str], opening: dict[str, Any]) -> View:
    """An empty view of projection `P`, with its title, weight slider range and notes."""
    weights = [w for _, _, w in P.edges(data="weight")]
    low, high = (min(weights), max(weights)) if weights else (0, 0)
    integral = all(float(w).is_integer() for w in weights)
    return View({
        "kind": kind, "title": title if track is None else f"{title} — {track}", "noun": noun,
        "legend": {"title": "", "entries": [], "sizes": sizes},
        "tracks": [], "communities": [], "notes": notes, "papers": [], "quotes": [], "opening": opening,
        "weight": {"min": rounded(low), "max": rounded(high), "label": weight_label,
                   "step": 1 if integral else rounded((high - low) / 100) or 1},
    })


def fill(view: View, P: nx.Graph, membership: dict[str, int], colors: dict[str, str], papers: Papers,
         node_papers: Mapping[str, Iterable[str]], node_tip: Callable[[str], dict],
         edge_tip: Callable[[str, str, dict], dict], seed: int, satellites: Sequence[str] = ()) -> None:
    """Lay out `P` and add its nodes and edges to `view`, with filter choices for tracks and communities
    and the table of the papers the tooltips cite (and search finds by title).

    A node lists all its papers (`rows`, for search by title); where papers have years, nodes and
    links list the years of their papers (`years`, for the year filter) and a node has its mean
    publication year (`year`, for the overlay colouring). `satellites` (the topic map's datasets) are
    nodes of `P` outside `membership`: laid out after the others, each beside its strongest link, with
    the `community` and vis-network `shape` their node data give."""
    groups = members(membership)
    level = view.meta["opening"]["minPapers"]
    core = P.subgraph(membership) if satellites else P
    positions = first_look_layout(core, [groups[n] for n in sorted(groups)],
                                  [n for n, c in core.nodes(data="papers") if c >= level], seed=seed)
    if satellites:
        positions = place_beside(P, positions, [[n] for n in satellites], seed=seed)
    node_tracks = {n: papers.tracks(node_papers[n]) for n in P}
    track_counts = Counter(t for tracks in node_tracks.values() for t in tracks)
    view.meta["tracks"] = [{"value": i, "label": t, "count": c}
                           for i, (t, c) in enumerate(sorted(track_counts.items()))]
    # Nodes and links name their tracks by index (a link's papers are papers of its ends: all its tracks are here).
    track_index = {choice["label"]: choice["value"] for choice in view.meta["tracks"]}
    dated = any(year is not None for year in papers.year.values())

    def node(n: str, d: dict) -> dict:
        record = {"id": n, "label": d["label"], "value": d["papers"], "x": positions[n][0], "y": positions[n][1],
                  "color": colors[n], "community": membership[n] if n in membership else d.get("community"),
                  "tracks": [track_index[t] for t in node_tracks[n]],
                  "rows": sorted(papers.rows.number(p) for p in node_papers[n])}
        if "shape" in d:
            record["shape"] = d["shape"]
        content = node_tip(n)
        if dated:
            years = [papers.year[p] for p in node_papers[n] if papers.year[p] is not None]
            record.update(years=sorted(set(years)), year=round(sum(years) / len(years), 2) if years else None)
            if years:
                span = f"{min(years)}–{max(years)}" if min(years) < max(years) else str(years[0])
                content["lines"].append(f"Years: {span} (mean {record['year']:.1f})")
        return {**record, "tip": content}

    def edge(i: int, u: str, v: str, d: dict) -> dict:
        record = {"id": i, "from": u, "to": v, "value": rounded(d["weight"]), "weight": rounded(d["weight"]),
                  "tracks": [track_index[t] for t in papers.tracks(d["papers"])]}
        if dated:
            record["years"] = sorted({papers.year[p] for p in d["papers"] if papers.year[p] is not None})
        return {**record, "tip": edge_tip(u, v, d)}

    view.add_records((node(n, d) for n, d in P.nodes(data=True)),
                     (edge(i, u, v, d) for i, (u, v, d) in enumerate(P.edges(data=True))))
    view.meta["papers"], view.meta["quotes"] = papers.rows.values, papers.quotes.values
    known = [year for year in papers.year.values() if year is not None]
    view.meta["years"] = {"min": min(known), "max": max(known)} if known else None
    if P.number_of_edges() > LARGE_EDGES:
        view.options["interaction"].update(hideEdgesOnDrag=True, hideEdgesOnZoom=True)
    view.meta["communities"] = [
        {"value": n, "label": f"{n}: " + ", ".join(leaders(P, groups[n])), "count": len(groups[n])}
        for n in sorted(groups)]


def cut_notes(P: nx.Graph, noun: str, ranking: str) -> list[str]:
    """Visible notes for what the projection cut (P.graph["cut"])."""
    cut = P.graph.get("cut", {})
    notes = []
    if cut.get("nodes_kept", 0) < cut.get("nodes_total", 0):
        capped = cut.get("top_n") is not None and cut["nodes_kept"] >= cut["top_n"]  # else min_papers cut more
        why = [f"the {cut['top_n']:,} {ranking}"] if capped else []
        if cut.get("min_papers", 1) > 1:
            why.append(f"at least {cut['min_papers']} papers each")
        notes.append(f"Showing {cut['nodes_kept']:,} of {cut['nodes_total']:,} {noun} ({'; '.join(why)}).")
    if cut.get("edges_kept", 0) < cut.get("edges_total", 0):
        why = "between the shown " + noun
        if cut.get("min_weight"):
            why += f", weight at least {cut['min_weight']:g}"
        if cut.get("top_links") is not None and cut["edges_kept"] >= cut["top_links"]:
            why += f", the {cut['top_links']:,} heaviest"
        notes.append(f"Showing {cut['edges_kept']:,} of {cut['edges_total']:,} links ({why}).")
    return notes


def rounded(x: float) -> float:
    """A weight as the page shows it (4 decimals: stable text, enough to order links)."""
    return round(float(x), 4)
