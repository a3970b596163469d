"""The report's tables: one row per author, link, track, track pair, method or data set, each a
`kg.analysis.Table` whose order is fixed here (formulas in docs/analysis.md) and whose rows are
made when it is iterated: only the order and the figures the rows are read from are held.
`kg.analysis.assemble.analyze` gathers them."""
from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import combinations

import networkx as nx
import numpy as np

from kg.analysis._common import rounded, sort_keys
from kg.analysis.table import Table, cols, joined, pair
from kg.graph import nodes_of_kind, paper_authors, paper_methods, paper_track

#: Methods listed per track and per data set.
TRACK_TOP_METHODS = 5

#: Rows of the edge tables turned from positions into rows at a time.
_EDGE_BATCH = 4096


def author_table(C: nx.Graph, membership: Mapping[str, int], component: Mapping[str, int],
                 between: Mapping[str, float], eigen: Mapping[str, float]) -> Table:
    """One row per author of the co-author graph, most papers first (then strength, then key).

    Parameters
    ----------
    C : networkx.Graph
        The co-author graph (`coauthor_graph`).
    membership, component, between, eigen : mapping
        Author key -> community, component, betweenness, eigenvector centrality.

    Returns
    -------
    Table
        `authors`: `key`, `label`, `papers`, `coauthors`, `strength`, `degree_centrality`,
        `betweenness`, `eigenvector`, `component`, `community`.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.analysis import author_table
    >>> C = nx.Graph([("a", "b", {"weight": 2})])
    >>> nx.set_node_attributes(C, {"a": {"label": "A", "papers": 2}, "b": {"label": "B", "papers": 3}})
    >>> one = dict.fromkeys(C, 1)
    >>> [(r["label"], r["strength"], r["degree_centrality"]) for r in author_table(C, one, one, one, one)]
    [('B', 2, 1.0), ('A', 2, 1.0)]
    """
    scale = 1 / (C.number_of_nodes() - 1) if C.number_of_nodes() > 1 else 0.0  # as nx.degree_centrality
    strength = {node: rounded(s) for node, s in C.degree(weight="weight")}
    papers = dict(C.nodes(data="papers"))
    order = sort_keys(list(C), (papers.__getitem__, True), (strength.__getitem__, True), (None, False))
    del papers

    def rows() -> Iterator[dict]:
        nodes, degree = C.nodes, C.degree
        for node in order:
            data, n = nodes[node], degree(node)
            yield {"key": node, "label": data["label"], "papers": data["papers"], "coauthors": n,
                   "strength": strength[node], "degree_centrality": rounded(n * scale),
                   "betweenness": rounded(between[node]), "eigenvector": rounded(eigen[node]),
                   "component": component[node], "community": membership[node]}

    return Table("authors", rows, AUTHOR_COLUMNS, len(order))


AUTHOR_COLUMNS = cols("key", "label", "papers", "coauthors", "strength", "degree_centrality", "betweenness",
                      "eigenvector", "component", "community")


def edge_table(P: nx.Graph, *, weight_name: str, year_of: Mapping[str, int] | None = None,
               name: str | None = None) -> Table:
    """One row per link of a projection, heaviest first: endpoints, labels, count, weight, papers.

    The order is computed once from flat arrays (no object per link); each row is made when the
    table is iterated.

    Parameters
    ----------
    P : networkx.Graph
        A projection; node attribute `label`, edge attributes `count`, `weight`, `papers`.
    weight_name : str
        The name of the weight column (`weight`, `association`).
    year_of : mapping, optional
        Paper node -> year (`kg.analysis.trends.paper_years`); when given, each row also has
        `first_year` and `last_year` of its dated papers (None when none is dated).
    name : str, optional
        The table's name; default `coauthor_edges` for `weight`, `method_pairs` otherwise.

    Returns
    -------
    Table
        Sorted by count, then weight (both descending), then the endpoints' keys.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.analysis import edge_table
    >>> P = nx.Graph([("a", "b", {"count": 1, "weight": 0.5, "papers": ["paper:p1"]})])
    >>> nx.set_node_attributes(P, {"a": "A", "b": "B"}, "label")
    >>> list(edge_table(P, weight_name="association"))
    [{'source': 'a', 'target': 'b', 'source_label': 'A', 'target_label': 'B', 'count': 1, 'association': 0.5, 'papers': ['paper:p1']}]
    """
    nodes = sorted(P)
    rank = {node: i for i, node in enumerate(nodes)}
    sources, targets, counts, weights = [], [], [], []
    for u, v, d in P.edges(data=True):
        sources.append(rank[u])
        targets.append(rank[v])
        counts.append(d["count"])
        weights.append(rounded(d["weight"]))
    del rank
    # the last key sorts first: count, then weight (both descending), then the endpoints' keys
    order = np.lexsort((np.asarray(targets, dtype=np.int64), np.asarray(sources, dtype=np.int64),
                        -np.asarray(weights, dtype=float), -np.asarray(counts, dtype=np.int64)))
    del counts, weights

    def rows() -> Iterator[dict]:
        label, adjacency = P.nodes, P.adj
        for start in range(0, len(order), _EDGE_BATCH):
            for i in order[start:start + _EDGE_BATCH].tolist():
                u, v = nodes[sources[i]], nodes[targets[i]]
                d = adjacency[u][v]
                row = {"source": u, "target": v, "source_label": label[u]["label"],
                       "target_label": label[v]["label"], "count": d["count"], weight_name: rounded(d["weight"]),
                       "papers": d["papers"]}
                if year_of is not None:
                    years = [year_of[p] for p in d["papers"] if p in year_of]
                    row["first_year"], row["last_year"] = (min(years), max(years)) if years else (None, None)
                yield row

    columns = cols("source", "target", "source_label", "target_label", "count", weight_name) + [
        ("papers", joined("papers"))] + (cols("first_year", "last_year") if year_of is not None else [])
    default = "coauthor_edges" if weight_name == "weight" else "method_pairs"
    return Table(name or default, rows, columns, len(order))


def _top_methods(G: nx.DiGraph, papers: Iterable[str]) -> list[tuple[str, int]]:
    """The `TRACK_TOP_METHODS` methods `papers` mention most, with how many of them do: most
    first, then by key."""
    methods = Counter(m for p in papers for m in paper_methods(G, p))
    return heapq.nsmallest(TRACK_TOP_METHODS, methods.items(), key=lambda item: (-item[1], item[0]))


def _papers_by_track(G: nx.DiGraph) -> dict[str, list[str]]:
    by_track: dict[str, list[str]] = defaultdict(list)
    for paper in nodes_of_kind(G, "paper"):
        track = paper_track(G, paper)
        if track is not None:
            by_track[track].append(paper)
    return by_track


def track_table(G: nx.DiGraph) -> Table:
    """One row per track: papers, distinct authors, top methods; most papers first.

    A track is the node papers' `in_track` edges reach: a subarea track, or an area for one-level
    tracks. Papers without a track are in no row. Tracks are few: the rows are made here.

    Parameters
    ----------
    G : networkx.DiGraph
        The knowledge graph: its papers' tracks (`in_track`), authors and methods are read.

    Returns
    -------
    Table
        `tracks`: `key`, `label`, `area`, `subarea`, `papers`, `authors`, `top_methods`
        ([{key, label, papers}]).

    Examples
    --------
    >>> import kg
    >>> from kg.analysis import track_table
    >>> first = track_table(kg.build_graph(kg.read().papers)).head(1)[0]
    >>> first["label"], first["papers"]
    ('Deep Learning · Large Language Models', 5)
    """
    rows = []
    for track, papers in _papers_by_track(G).items():
        data = G.nodes[track]
        rows.append({
            "key": track, "label": data["label"], "area": data.get("area", data["label"]),
            "subarea": data.get("subarea"), "papers": len(papers),
            "authors": len({a for p in papers for a in paper_authors(G, p)}),
            "top_methods": [{"key": m, "label": G.nodes[m]["label"], "papers": n} for m, n in _top_methods(G, papers)],
        })
    rows.sort(key=lambda r: (-r["papers"], r["key"]))
    return Table.of("tracks", rows, cols("key", "label", "area", "subarea", "papers", "authors")
                    + [("top_methods", joined("top_methods", "label"))])


def cross_track(G: nx.DiGraph) -> Table:
    """Pairs of tracks linked by the authors who publish in both, most shared authors first.

    Parameters
    ----------
    G : networkx.DiGraph
        The knowledge graph: its papers' tracks and authors are read.

    Returns
    -------
    Table
        `cross_track`: `tracks` (two keys, sorted), `labels`, `shared_authors`, `authors` (their
        labels).

    Examples
    --------
    >>> import kg
    >>> from kg.analysis import cross_track
    >>> from kg.records import Author, Paper, Track
    >>> ana = Author("Ana Silva", "ana-silva")
    >>> papers = [Paper("p1", (ana,), "x", "x", Track("Vision")), Paper("p2", (ana,), "y", "y", Track("Robotics"))]
    >>> [(r["labels"], r["authors"]) for r in cross_track(kg.build_graph(papers))]
    [(['Robotics', 'Vision'], ['Ana Silva'])]
    """
    tracks_of: dict[str, set[str]] = defaultdict(set)
    for track, papers in _papers_by_track(G).items():
        for paper in papers:
            for author in paper_authors(G, paper):
                tracks_of[author].add(track)
    shared: dict[tuple[str, str], list[str]] = defaultdict(list)
    for author in sorted(tracks_of):
        for two in combinations(sorted(tracks_of[author]), 2):
            shared[two].append(author)
    del tracks_of
    order = sorted(shared, key=lambda two: (-len(shared[two]), two))

    def rows() -> Iterator[dict]:
        for two in order:
            authors = shared[two]
            yield {"tracks": list(two), "labels": [G.nodes[t]["label"] for t in two],
                   "shared_authors": len(authors), "authors": [G.nodes[a]["label"] for a in authors]}

    return Table("cross_track", rows, CROSS_TRACK_COLUMNS, len(order))


CROSS_TRACK_COLUMNS = [("track_a", pair("tracks", 0)), ("track_b", pair("tracks", 1)),
                       ("label_a", pair("labels", 0)), ("label_b", pair("labels", 1))] + cols("shared_authors") + [
                       ("authors", joined("authors"))]


def method_table(G: nx.DiGraph, T: nx.Graph, membership: Mapping[str, int],
                 year_of: Mapping[str, int] | None = None) -> Table:
    """One row per method: papers (frequency), mentions, tracks reached, co-occurrence, community.

    Parameters
    ----------
    G : networkx.DiGraph
        The knowledge graph.
    T : networkx.Graph
        Its topic graph (`topic_graph`).
    membership : mapping
        Method key -> community.
    year_of : mapping, optional
        Paper node -> year; when given, each row also has `papers_by_year` ({"2023": n} for every
        year of `year_of`), and the CSV a `papers_<year>` column per year.

    Returns
    -------
    Table
        `methods`: `key`, `label`, `alt_labels`, `papers`, `mentions`, `cooccurring`, `tracks`,
        `track_labels`, `community` (and `papers_by_year`); most papers first, then most
        mentions, then key.

    Examples
    --------
    >>> import kg
    >>> from kg.analysis import communities, method_table
    >>> papers = kg.read().papers
    >>> G = kg.build_graph(papers, kg.extract_methods(papers))
    >>> T = kg.topic_graph(G, normalize="association")
    >>> len(method_table(G, T, communities(T))) == T.number_of_nodes()
    True
    """
    tracks: dict[str, set[str]] = defaultdict(set)
    mentions: Counter = Counter()
    by_year: dict[str, Counter] = defaultdict(Counter)
    for paper in nodes_of_kind(G, "paper"):
        track = paper_track(G, paper)
        year = None if year_of is None else year_of.get(paper)
        for _, method, data in G.out_edges(paper, data=True):
            if data["rel"] == "mentions":
                mentions[method] += data["count"]
                if track is not None:
                    tracks[method].add(track)
                if year is not None:
                    by_year[method][year] += 1
    order = sorted(T, key=lambda m: (-T.nodes[m]["papers"], -mentions[m], m))
    years = sorted(set(year_of.values())) if year_of is not None else None

    def rows() -> Iterator[dict]:
        for m in order:
            data, reached = T.nodes[m], tracks.get(m, ())
            row = {"key": m, "label": data["label"], "alt_labels": data["alt_labels"], "papers": data["papers"],
                   "mentions": mentions[m], "cooccurring": T.degree(m), "tracks": len(reached),
                   "track_labels": sorted(G.nodes[t]["label"] for t in reached), "community": membership[m]}
            if years is not None:
                counts = by_year.get(m, {})
                row["papers_by_year"] = {str(y): counts.get(y, 0) for y in years}
            yield row

    columns = (cols("key", "label") + [("alt_labels", joined("alt_labels"))]
               + cols("papers", "mentions", "cooccurring", "tracks") + [("track_labels", joined("track_labels"))]
               + cols("community") + [(f"papers_{y}", _by_year(str(y))) for y in years or ()])
    return Table("methods", rows, columns, len(order))


def _by_year(year: str) -> Callable[[dict], int]:
    """The `papers_<year>` cell of a method row."""
    return lambda row: row["papers_by_year"][year]


def bridging_methods(methods: Iterable[dict], top: int | None = None) -> list[dict]:
    """Methods used in two or more tracks, the widest-reaching first.

    Parameters
    ----------
    methods : iterable of dict
        Rows of `method_table` (read once).
    top : int, optional
        Keep only the first `top` (without holding the others).

    Returns
    -------
    list of dict
        The rows with `tracks` >= 2, by tracks, then papers (descending), then key.

    Examples
    --------
    >>> from kg.analysis import bridging_methods
    >>> bridging_methods([{"key": "m:a", "tracks": 1, "papers": 5}, {"key": "m:b", "tracks": 2, "papers": 1}])
    [{'key': 'm:b', 'tracks': 2, 'papers': 1}]
    """
    rows = (m for m in methods if m["tracks"] >= 2)
    key = lambda r: (-r["tracks"], -r["papers"], r["key"])  # noqa: E731
    return sorted(rows, key=key) if top is None else heapq.nsmallest(top, rows, key=key)


def dataset_table(G: nx.DiGraph) -> Table:
    """One row per data set or benchmark: papers that mention it, mentions, and the methods used with it.

    Parameters
    ----------
    G : networkx.DiGraph
        The knowledge graph: its data sets, the papers that use them (`uses_dataset`, with the
        mention `count`) and those papers' methods are read.

    Returns
    -------
    Table
        `datasets`: `key`, `label`, `alt_labels`, `papers`, `mentions`, `top_methods` (labels of
        the methods its papers mention most); most papers first, then most mentions, then key.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_node("paper:1", kind="paper"); G.add_node("dataset:mnist", kind="dataset", label="MNIST", alt_labels=[])
    >>> G.add_edge("paper:1", "dataset:mnist", rel="uses_dataset", count=2)
    >>> [(row["label"], row["papers"], row["mentions"]) for row in dataset_table(G)]
    [('MNIST', 1, 2)]
    """
    def papers_of(dataset: str) -> list[str]:
        return [p for p, _, rel in G.in_edges(dataset, data="rel") if rel == "uses_dataset"]

    def mentions(dataset: str, papers: list[str]) -> int:
        return sum(G.edges[p, dataset].get("count", 0) for p in papers)

    figures = {d: (len(ps), mentions(d, ps)) for d in nodes_of_kind(G, "dataset") for ps in (papers_of(d),)}
    order = sorted(figures, key=lambda d: (-figures[d][0], -figures[d][1], d))

    def rows() -> Iterator[dict]:
        for dataset in order:
            data, papers = G.nodes[dataset], papers_of(dataset)
            yield {"key": dataset, "label": data["label"], "alt_labels": list(data.get("alt_labels", [])),
                   "papers": len(papers), "mentions": figures[dataset][1],
                   "top_methods": [G.nodes[m]["label"] for m, _ in _top_methods(G, papers)]}

    return Table("datasets", rows, cols("key", "label") + [("alt_labels", joined("alt_labels"))]
                 + cols("papers", "mentions") + [("top_methods", joined("top_methods"))], len(order))
