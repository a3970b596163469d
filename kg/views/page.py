"""The HTML views: the co-author map and the topic map, each one self-contained page.

`coauthor_view(G)` and `topic_view(G)` read the knowledge graph (and its projections from
`kg.graph.build`) and return a `View`, a pyvis `Network` whose nodes and edges carry what the page needs:
seeded positions (`kg.views.layout`), colours, filter keys and tooltip contents. `write_html(view, path)`
writes it, `render_html(view)` returns the page, `display(view)` shows it in a notebook.

Guarantees (tested in a real browser, see docs/views.md):
- offline: vis-network (read from the installed pyvis package) and our script and style are
  inlined; the page loads nothing, not even from a CDN (pyvis's own template does, even "in_line");
- safe text: every name, label and sentence from the input is data. Node and edge data travel as
  JSON inside `<script type="application/json">` with `<`, `>`, `&`, U+2028 and U+2029 escaped,
  and the page builds tooltips with `textContent`, so `</script>` or `<img onerror=...>` is text;
- fast: positions are computed here and physics is off, so 2,000+ nodes open at once.
"""
from __future__ import annotations

import functools
import html
import json
import os
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import networkx as nx
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup
from pyvis.network import Network

from kg.analysis import communities
from kg.errors import ArgumentError
from kg.graph import coauthor_graph, nodes_of_kind, paper_authors, paper_methods, paper_track, topic_graph
from kg._util.io import atomic_write
from kg.views.layout import community_layout
from kg.names import fold
from kg._util.progress import progress

if TYPE_CHECKING:
    from IPython.display import HTML

T = TypeVar("T")

#: The vis-network build inlined into every page (shipped inside the pyvis package).
VIS_VERSION = "9.1.2"
#: Qualitative colours (Tableau 20 order, strong shades first); further groups share `OTHER_COLOR`.
PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
    "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#9edae5", "#dbdb8d",
)
OTHER_COLOR = "#b0b0b0"
#: Papers, co-authors or evidence sentences listed per tooltip section (the rest is counted).
TIP_ITEMS = 8
#: How the page names papers without a known track.
NO_TRACK = "(no track)"
#: Edges above which links are hidden while dragging or zooming (keeps big maps fluid).
LARGE_EDGES = 2000
#: Nodes a view keeps by default (those with most papers): bigger maps take long to open and to
#: read. Pass `top_n=None` for all; the page notes any cut.
DEFAULT_TOP_N = 3000
#: Links a view keeps by default (the heaviest): a dense topic map of 10,000 papers has 300,000,
#: which no one can read and a browser draws slowly. Pass `top_links=None` for all.
DEFAULT_TOP_LINKS = 20_000

#: vis-network options shared by both views (a View's `options` is a plain dict of these).
VIS_OPTIONS: dict[str, Any] = {
    "autoResize": True,
    "physics": {"enabled": False},
    "layout": {"improvedLayout": False},
    "interaction": {"hover": True, "tooltipDelay": 120, "multiselect": False},
    "nodes": {
        "shape": "dot", "borderWidth": 1,
        "font": {"face": "system-ui, -apple-system, Segoe UI, sans-serif", "color": "#222222"},
        "scaling": {"min": 8, "max": 30, "label": {"enabled": True, "min": 12, "max": 24, "drawThreshold": 5}},
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
    the rows ({text, detail}) that tooltip items cite by index, and `quotes`, the evidence
    sentences they cite by index (`{"paper": i, "quotes": [j, ...]}`).
    `generate_html` is our renderer, so pyvis's own `write_html`/`show` also give the safe page.
    """

    def __init__(self, meta: dict[str, Any]) -> None:
        super().__init__(height="100%", width="100%", cdn_resources="in_line", heading="")
        self.meta = meta
        self.options = json.loads(json.dumps(VIS_OPTIONS))  # a deep copy the caller may tweak

    def add_records(self, nodes: Iterable[dict], edges: Iterable[dict]) -> None:
        """Add vis-network node and edge dicts in bulk.

        pyvis's `add_edge` scans every existing edge and node on each call (quadratic: minutes for
        a large map); projection edges are unique by construction, so no scan is needed.
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
        return _iframe(render_html(self))


# ------------------------------------------------------------------------------------- views
def coauthor_view(
    G: nx.DiGraph,
    *,
    counting: str = "full",
    min_weight: float = 0,
    min_papers: int = 1,
    top_n: int | None = DEFAULT_TOP_N,
    top_links: int | None = DEFAULT_TOP_LINKS,
    track: str | None = None,
    seed: int = 42,
    resolution: float = 1.0,
    within: nx.Graph | None = None,
) -> View:
    """The co-author map: authors sized by papers, coloured by (seeded Louvain) community, linked by
    shared papers (`counting` "full" or "fractional"). Tooltips list an author's papers with their
    track and the top co-authors; a link's tooltip lists the shared papers.

    `min_papers` and `top_n` (the most prolific authors; `DEFAULT_TOP_N`, None = all) cut nodes,
    `min_weight` and `top_links` (the heaviest links; `DEFAULT_TOP_LINKS`, None = all) cut links,
    `track` keeps only the papers of one track or area (its label, any case); the page notes what
    was cut. Communities are those of the links shown. `within`, the whole co-author graph of `G`
    (`coauthor_graph(G, counting)`) when the caller has it, is cut instead of projecting again
    (not with `track`, which projects the track's papers).
    """
    H, track_note = _restrict_to_track(G, track)
    P = coauthor_graph(H, counting=counting, min_weight=min_weight, min_papers=min_papers, top_n=top_n,
                       top_links=top_links, within=within if track is None else None)
    weight_label = "shared papers" if counting == "full" else "fractional co-authorship"
    membership = communities(P, seed=seed, resolution=resolution)
    view = _new_view(P, "coauthors", "Co-authors", "authors", track, weight_label,
                     sizes="Node size: papers. Link width: " + weight_label + ".",
                     notes=[*track_note, *_cut_notes(P, "authors", "most prolific")])
    papers = _Papers(H)
    papers_of = {a: [p for p in H.predecessors(a) if H.nodes[p]["kind"] == "paper"] for a in P}
    node_tracks = {a: papers.tracks(papers_of[a]) for a in P}
    colors, legend = _community_colors(P, membership)
    view.meta["legend"].update(title="Community", entries=legend)

    def node_tip(author: str) -> dict:
        data = H.nodes[author]
        lines = [_count(P.nodes[author]["papers"], "paper"), f"Community {membership[author]}"]
        if len(data.get("names", [])) > 1:
            lines.append("Written as: " + "; ".join(data["names"]))
        partners = sorted(P[author].items(), key=lambda item: (-item[1]["weight"], P.nodes[item[0]]["label"]))
        return _tip(data["label"], lines, [
            _section("Papers", papers_of[author], papers.cite),
            _section("Top co-authors", partners, lambda partner: {
                "text": P.nodes[partner[0]]["label"], "detail": _link_detail(partner[1], counting)}),
        ])

    def edge_tip(u: str, v: str, d: dict) -> dict:
        return _tip(f"{P.nodes[u]['label']} — {P.nodes[v]['label']}", [_link_detail(d, counting)],
                    [_section("Shared papers", d["papers"], papers.cite)])

    _fill(view, P, membership, colors, papers, node_tracks, node_tip, edge_tip, seed)
    return view


def topic_view(
    G: nx.DiGraph,
    *,
    normalize: str | None = None,
    color_by: str = "track",
    min_weight: float = 0,
    min_papers: int = 1,
    top_n: int | None = DEFAULT_TOP_N,
    top_links: int | None = DEFAULT_TOP_LINKS,
    track: str | None = None,
    seed: int = 42,
    resolution: float = 1.0,
    within: nx.Graph | None = None,
) -> View:
    """The topic map: methods sized by the papers mentioning them, coloured by their main track
    (`color_by="track"`) or their community (`"community"`), linked by co-occurrence (or its
    association strength, `normalize="association"`). Tooltips list the papers behind a method or a
    link, each with the sentence that mentions the method.

    The cuts (`min_papers`, `top_n` = the most frequent methods, `min_weight`, `top_links`, `track`)
    are those of `coauthor_view`, and so is `within` (here the whole `topic_graph(G)`, any `normalize`).
    """
    if color_by not in ("track", "community"):
        raise ArgumentError(f"color_by must be 'track' or 'community', not {color_by!r}")
    H, track_note = _restrict_to_track(G, track)
    P = topic_graph(H, normalize=normalize, min_weight=min_weight, min_papers=min_papers, top_n=top_n,
                    top_links=top_links, within=within if track is None else None)
    weight_label = "association strength" if normalize == "association" else "papers mentioning both"
    membership = communities(P, seed=seed, resolution=resolution)
    view = _new_view(P, "topics", "Topics", "methods", track, weight_label,
                     sizes="Node size: papers mentioning the method. Link width: " + weight_label + ".",
                     notes=[*track_note, *_cut_notes(P, "methods", "most frequent")])
    evidence: dict[str, dict[str, str]] = defaultdict(dict)  # method -> paper -> first sentence
    for paper in nodes_of_kind(H, "paper"):
        for method in paper_methods(H, paper):
            mentions = H.edges[paper, method].get("evidence") or [{}]
            evidence[method][paper] = mentions[0].get("sentence", "")
    papers = _Papers(H)
    node_tracks = {m: papers.tracks(evidence[m]) for m in P}
    if color_by == "track":
        colors, legend = _track_colors(P, papers, evidence)
    else:
        colors, legend = _community_colors(P, membership)
    view.meta["legend"].update(title="Main track" if color_by == "track" else "Community", entries=legend)

    def node_tip(method: str) -> dict:
        data = P.nodes[method]
        lines = [f"Mentioned in {_count(data['papers'], 'paper')}", f"Community {membership[method]}"]
        if data.get("alt_labels"):
            lines.insert(0, "Also: " + "; ".join(data["alt_labels"]))
        return _tip(data["label"], lines, [
            _section("Papers", list(evidence[method].items()), lambda item: papers.cite(item[0], [item[1]])),
        ])

    def edge_tip(u: str, v: str, d: dict) -> dict:
        line = f"Mentioned together in {_count(d['count'], 'paper')}"
        if normalize == "association":
            line += f" · association strength {d['weight']:.3g}"
        return _tip(f"{P.nodes[u]['label']} — {P.nodes[v]['label']}", [line], [
            _section("Papers", d["papers"], lambda p: papers.cite(p, [evidence[u][p], evidence[v][p]])),
        ])

    _fill(view, P, membership, colors, papers, node_tracks, node_tip, edge_tip, seed)
    return view


# ----------------------------------------------------------------------------------- output
def render_html(view: View) -> str:
    """The page: one HTML document with vis-network, our script, style and the data inlined."""
    data = {"meta": view.meta, "nodes": view.nodes, "edges": view.edges, "options": view.options}
    return _template().render(title=view.meta["title"], vis_version=VIS_VERSION, vis_js=_vis_js(),
                              script=_asset("view.js"), style=_asset("view.css"), data=data)


def write_html(view: View, path: str | os.PathLike[str]) -> Path:
    """Write the page to `path` atomically; return the path."""
    return atomic_write(path, render_html(view))


def write_views(G: nx.DiGraph, out_dir: str | os.PathLike[str], *, counting: str = "full",
                normalize: str | None = None, color_by: str = "track", min_weight: float = 0,
                top_n: int | None = DEFAULT_TOP_N, top_links: int | None = DEFAULT_TOP_LINKS,
                track: str | None = None, seed: int = 42, resolution: float = 1.0, quiet: bool = False,
                coauthors: nx.Graph | None = None, topics: nx.Graph | None = None) -> list[Path]:
    """Write `coauthors.html` and `topics.html` into `out_dir` (what `kg views` does); return the paths.

    `coauthors` and `topics` are the whole projections when the caller has them (as `kg build`
    has), cut for the views instead of projecting again. A progress bar names the view being
    rendered on a terminal unless `quiet`."""
    shared = {"min_weight": min_weight, "top_n": top_n, "top_links": top_links, "track": track, "seed": seed,
              "resolution": resolution}
    out = Path(out_dir)
    views: list[tuple[str, Callable[[], View]]] = [
        ("coauthors.html", lambda: coauthor_view(G, counting=counting, within=coauthors, **shared)),
        ("topics.html", lambda: topic_view(G, normalize=normalize, color_by=color_by, within=topics, **shared)),
    ]
    return [write_html(make(), out / name)
            for name, make in progress(views, "rendering", unit="view", quiet=quiet, describe=lambda v: v[0])]


def display(view: View, height: int = 650) -> HTML:
    """Show a view in a notebook (Jupyter, JupyterLab, VS Code): the page in a sandboxed `srcdoc`
    iframe, so it needs no file, no server and no CDN, and its style cannot leak into the notebook."""
    from IPython.display import HTML

    return HTML(_iframe(render_html(view), height))


def script_json(data: Any) -> Markup:
    """JSON that is safe inside an HTML `<script>` element: `<`, `>`, `&`, U+2028 and U+2029 are
    written as `\\uXXXX` escapes (they can only occur inside JSON strings, where that is the same
    text), so no input can close the element or open a comment."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return Markup(text)


# ---------------------------------------------------------------------------------- helpers
class _Numbered(Generic[T]):
    """Values listed once each, in order of first use: `number(key)` is the index in `values` of
    `make(key)`, made the first time `key` is asked for."""

    def __init__(self, make: Callable[[str], T]) -> None:
        self.values: list[T] = []
        self._make = make
        self._numbers: dict[str, int] = {}

    def number(self, key: str) -> int:
        number = self._numbers.get(key)
        if number is None:
            number = self._numbers[key] = len(self.values)
            self.values.append(self._make(key))
        return number


class _Papers:
    """The papers of the graph a view shows, as its tooltips cite them.

    `track[paper]` is the paper's track label (`NO_TRACK` when unknown); `cite(paper, quotes)`
    returns a tooltip item that refers to the paper by its number in `rows` (label, track and first
    authors) and to its evidence sentences by their numbers in `quotes`, so a paper or a sentence
    cited by many nodes and links is written into the page once.
    """

    def __init__(self, H: nx.DiGraph) -> None:
        self.H = H
        self.track: dict[str, str] = {}
        for paper in nodes_of_kind(H, "paper"):
            node = paper_track(H, paper)
            self.track[paper] = NO_TRACK if node is None else H.nodes[node]["label"]
        self.rows = _Numbered(self._row)
        self.quotes = _Numbered(str)

    def cite(self, paper: str, quotes: Sequence[str] = ()) -> dict:
        cited = [self.quotes.number(q) for q in dict.fromkeys(quotes) if q]
        return {"paper": self.rows.number(paper), **({"quotes": cited} if cited else {})}

    def tracks(self, papers: Iterable[str]) -> list[str]:
        return sorted({self.track[p] for p in papers})

    def _row(self, paper: str) -> dict:
        data = self.H.nodes[paper]
        authors = [self.H.nodes[a]["label"] for a in paper_authors(self.H, paper)]
        byline = ", ".join(authors[:3]) + (" et al." if len(authors) > 3 or data.get("authors_truncated") else "")
        return {"text": data["label"], "detail": " · ".join(filter(None, [self.track[paper], byline]))}


def _new_view(P: nx.Graph, kind: str, title: str, noun: str, track: str | None, weight_label: str, *,
              sizes: str, notes: list[str]) -> View:
    weights = [w for _, _, w in P.edges(data="weight")]
    low, high = (min(weights), max(weights)) if weights else (0, 0)
    integral = all(float(w).is_integer() for w in weights)
    return View({
        "kind": kind, "title": title if track is None else f"{title} — {track}", "noun": noun,
        "legend": {"title": "", "entries": [], "sizes": sizes},
        "tracks": [], "communities": [], "notes": notes, "papers": [], "quotes": [],
        "weight": {"min": _round(low), "max": _round(high), "label": weight_label,
                   "step": 1 if integral else _round((high - low) / 100) or 1},
    })


def _fill(view: View, P: nx.Graph, membership: dict[str, int], colors: dict[str, str], papers: _Papers,
          node_tracks: dict[str, list[str]], node_tip: Callable[[str], dict],
          edge_tip: Callable[[str, str, dict], dict], seed: int) -> None:
    """Lay out `P` and add its nodes and edges to `view`, with filter choices for tracks and communities
    and the table of the papers the tooltips cite."""
    groups = _members(membership)
    positions = community_layout(P, [groups[n] for n in sorted(groups)], seed=seed)
    track_counts = Counter(t for tracks in node_tracks.values() for t in tracks)
    view.meta["tracks"] = [{"value": i, "label": t, "count": c}
                           for i, (t, c) in enumerate(sorted(track_counts.items()))]
    # Nodes and links name their tracks by index (a link's papers are papers of its ends: all its tracks are here).
    track_index = {choice["label"]: choice["value"] for choice in view.meta["tracks"]}
    view.add_records(
        ({"id": n, "label": d["label"], "value": d["papers"], "x": positions[n][0], "y": positions[n][1],
          "color": colors[n], "community": membership[n], "tracks": [track_index[t] for t in node_tracks[n]],
          "tip": node_tip(n)}
         for n, d in P.nodes(data=True)),
        ({"id": i, "from": u, "to": v, "value": _round(d["weight"]), "weight": _round(d["weight"]),
          "tracks": [track_index[t] for t in papers.tracks(d["papers"])], "tip": edge_tip(u, v, d)}
         for i, (u, v, d) in enumerate(P.edges(data=True))),
    )
    view.meta["papers"], view.meta["quotes"] = papers.rows.values, papers.quotes.values
    if P.number_of_edges() > LARGE_EDGES:
        view.options["interaction"].update(hideEdgesOnDrag=True, hideEdgesOnZoom=True)
    view.meta["communities"] = [
        {"value": n, "label": f"{n}: " + ", ".join(_leaders(P, groups[n])), "count": len(groups[n])}
        for n in sorted(groups)]


def _restrict_to_track(G: nx.DiGraph, track: str | None) -> tuple[nx.DiGraph, list[str]]:
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
    return G.subgraph(keep), [f"Only the {_count(len(papers), 'paper')} in track {track}."]


def _cut_notes(P: nx.Graph, noun: str, ranking: str) -> list[str]:
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


def _community_colors(P: nx.Graph, membership: dict[str, int]) -> tuple[dict[str, str], list[dict]]:
    """Colour by community number (1 = largest); communities past the palette share grey."""
    sizes = Counter(membership.values())
    colors = {n: PALETTE[c - 1] if c <= len(PALETTE) else OTHER_COLOR for n, c in membership.items()}
    legend = [{"color": PALETTE[c - 1], "label": f"Community {c}: " + ", ".join(_leaders(P, members)),
               "count": sizes[c]}
              for c, members in sorted(_members(membership).items()) if c <= len(PALETTE)]
    rest = [c for c in sizes if c > len(PALETTE)]
    if rest:
        legend.append({"color": OTHER_COLOR, "label": f"{len(rest):,} smaller communities",
                       "count": sum(sizes[c] for c in rest)})
    return colors, legend


def _track_colors(P: nx.Graph, papers: _Papers, evidence: dict[str, dict[str, str]]
                  ) -> tuple[dict[str, str], list[dict]]:
    """Colour each method by its main track (where most of its papers are; ties to a known track, then
    by label); the 18 tracks that are main to most methods get colours, the others share grey."""
    main = {}
    for method in P:
        counts = Counter(papers.track[p] for p in evidence[method])
        main[method] = min(counts, key=lambda t: (-counts[t], t == NO_TRACK, t)) if counts else NO_TRACK
    tally = Counter(main.values())
    ranked = sorted(tally, key=lambda t: (t == NO_TRACK, -tally[t], t))
    known = [t for t in ranked if t != NO_TRACK][:len(PALETTE)]
    palette = {t: PALETTE[i] for i, t in enumerate(known)}
    legend = [{"color": palette[t], "label": t, "count": tally[t]} for t in known]
    others = [t for t in ranked if t not in palette]
    if others:
        label = NO_TRACK if others == [NO_TRACK] else "other tracks" + (f" or {NO_TRACK}" if NO_TRACK in others else "")
        legend.append({"color": OTHER_COLOR, "label": label, "count": sum(tally[t] for t in others)})
    return {m: palette.get(t, OTHER_COLOR) for m, t in main.items()}, legend


def _members(membership: dict[str, int]) -> dict[int, list[str]]:
    groups: dict[int, list[str]] = defaultdict(list)
    for node, number in membership.items():
        groups[number].append(node)
    return groups


def _leaders(P: nx.Graph, members: Sequence[str], k: int = 3) -> list[str]:
    """The labels of the `k` members with most papers (ties by label)."""
    ranked = sorted(members, key=lambda n: (-P.nodes[n]["papers"], P.nodes[n]["label"]))
    return [P.nodes[n]["label"] for n in ranked[:k]]




def _link_detail(d: dict, counting: str) -> str:
    text = _count(d["count"], "shared paper")
    return text if counting == "full" else f"{text} · weight {d['weight']:.3g}"


def _tip(title: str, lines: list[str], sections: list[dict]) -> dict:
    return {"title": title, "lines": lines, "sections": [s for s in sections if s["items"]]}


def _section(heading: str, items: Sequence[T], item: Callable[[T], dict]) -> dict:
    """A tooltip section: the first `TIP_ITEMS` of `items` made into tooltip items, the rest counted
    (only the items shown are cited, so the page holds no paper or sentence nobody sees)."""
    return {"heading": heading, "items": [item(x) for x in items[:TIP_ITEMS]],
            "more": max(len(items) - TIP_ITEMS, 0)}


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _round(x: float) -> float:
    return round(float(x), 4)


def _iframe(page: str, height: int = 650) -> str:
    """The page as an isolated iframe (wrapped in a div: IPython warns about a bare `<iframe>` in HTML)."""
    return (f'<div class="kg-view"><iframe srcdoc="{html.escape(page, quote=True)}" sandbox="allow-scripts" '
            f'style="width:100%;height:{int(height)}px;border:1px solid #ddd" title="kg view"></iframe></div>')


@functools.lru_cache(maxsize=1)
def _template():
    env = Environment(loader=PackageLoader("kg.views", "templates"), autoescape=True, undefined=StrictUndefined,
                      keep_trailing_newline=True)
    env.filters["script_json"] = script_json
    return env.get_template("view.html.j2")


@functools.lru_cache(maxsize=None)
def _asset(name: str) -> Markup:
    """Our own script or style from kg/templates, checked to be safe to inline."""
    return _inlinable(resources.files("kg.views").joinpath("templates", name).read_text(encoding="utf-8"), name)


@functools.lru_cache(maxsize=1)
def _vis_js() -> Markup:
    """vis-network's standalone build from the installed pyvis package (its licence header included)."""
    source = resources.files("pyvis").joinpath("templates", "lib", f"vis-{VIS_VERSION}", "vis-network.min.js")
    return _inlinable(source.read_text(encoding="utf-8"), f"pyvis vis-network {VIS_VERSION}")


def _inlinable(text: str, name: str) -> Markup:
    """Trusted code (never input data) that cannot end its `<script>`/`<style>` element early."""
    lowered = text.lower()
    if "</script" in lowered or "</style" in lowered or "<!--" in lowered:
        raise ArgumentError(f"{name} contains '</script', '</style' or '<!--' and cannot be inlined; "
                         "reinstall pyvis==0.3.2 or report this bug")
    return Markup(text)
