"""The report's tables: one row per author, link, track, track pair or method, each list sorted
deterministically (formulas in docs/analysis.md). `kg.analysis.assemble.analyze` gathers them."""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from itertools import combinations

import networkx as nx

from kg.analysis._common import rounded, sort_by
from kg.graph import nodes_of_kind, paper_authors, paper_methods, paper_track

#: Methods listed per track.
TRACK_TOP_METHODS = 5


def author_table(C: nx.Graph, membership: Mapping[str, int], component: Mapping[str, int],
                 between: Mapping[str, float], eigen: Mapping[str, float]) -> list[dict]:
    """One row per author of the co-author graph, most papers first (then strength, then key).

    Parameters
    ----------
    C : networkx.Graph
        The co-author graph (`coauthor_graph`).
    membership, component, between, eigen : mapping
        Author key -> community, component, betweenness, eigenvector centrality.

    Returns
    -------
    list of dict
        `key`, `label`, `papers`, `coauthors`, `strength`, `degree_centrality`, `betweenness`,
        `eigenvector`, `component`, `community`.

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
    degree, strength = dict(C.degree()), dict(C.degree(weight="weight"))
    rows = [{
        "key": node, "label": data["label"], "papers": data["papers"],
        "coauthors": degree[node], "strength": rounded(strength[node]),
        "degree_centrality": rounded(degree[node] * scale), "betweenness": rounded(between[node]),
        "eigenvector": rounded(eigen[node]), "component": component[node], "community": membership[node],
    } for node, data in C.nodes(data=True)]
    return sort_by(rows, ("papers", True), ("strength", True), ("key", False))


def edge_table(P: nx.Graph, *, weight_name: str, year_of: Mapping[str, int] | None = None) -> list[dict]:
    """One row per link of a projection, heaviest first: endpoints, labels, count, weight, papers.

    Parameters
    ----------
    P : networkx.Graph
        A projection; node attribute `label`, edge attributes `count`, `weight`, `papers`.
    weight_name : str
        The name of the weight column (`weight`, `association`).
    year_of : mapping, optional
        Paper node -> year (`kg.analysis.trends.paper_years`); when given, each row also has
        `first_year` and `last_year` of its dated papers (None when none is dated).

    Returns
    -------
    list of dict
        Sorted by count, then weight (both descending), then the endpoints' keys.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.analysis import edge_table
    >>> P = nx.Graph([("a", "b", {"count": 1, "weight": 0.5, "papers": ["paper:p1"]})])
    >>> nx.set_node_attributes(P, {"a": "A", "b": "B"}, "label")
    >>> edge_table(P, weight_name="association")
    [{'source': 'a', 'target': 'b', 'source_label': 'A', 'target_label': 'B', 'count': 1, 'association': 0.5, 'papers': ['paper:p1']}]
    """
    label = dict(P.nodes(data="label"))
    rows = [{"source": u, "target": v, "source_label": label[u], "target_label": label[v],
             "count": d["count"], weight_name: rounded(d["weight"]), "papers": d["papers"]}
            for u, v, d in P.edges(data=True)]
    if year_of is not None:
        for row in rows:
            years = [year_of[p] for p in row["papers"] if p in year_of]
            row["first_year"], row["last_year"] = (min(years), max(years)) if years else (None, None)
    return sort_by(rows, ("count", True), (weight_name, True), ("source", False), ("target", False))


def collaboration(G: nx.DiGraph, C: nx.Graph) -> dict:
    """Collaboration indicators of a knowledge graph.

    Truncated lists (`等`) count their listed authors only, so the per-paper figures are lower
    bounds for those papers; a truncated list is multi-authored.

    Parameters
    ----------
    G : networkx.DiGraph
        The knowledge graph (`build_graph`).
    C : networkx.Graph
        Its co-author graph.

    Returns
    -------
    dict
        `papers`, `authorships`, `authors_per_paper`, `papers_per_author`, `coauthors_per_author`,
        `single_author_papers`, `single_author_share`, `multi_authored_papers`,
        `collaboration_index`, `papers_without_authors`.

    Examples
    --------
    >>> import kg
    >>> from kg.analysis import collaboration
    >>> G = kg.build_graph(kg.read().papers)
    >>> c = collaboration(G, kg.coauthor_graph(G))
    >>> c["papers"], c["authorships"], c["single_author_papers"]
    (20, 107, 0)
    """
    papers = [G.nodes[p] for p in nodes_of_kind(G, "paper")]
    multi = [p["n_authors"] for p in papers if p["n_authors"] > 1 or p["authors_truncated"]]
    single = sum(1 for p in papers if p["n_authors"] == 1 and not p["authors_truncated"])
    authorships = sum(p["n_authors"] for p in papers)
    n_authors = C.number_of_nodes()
    return {
        "papers": len(papers), "authorships": authorships,
        "authors_per_paper": rounded(authorships / len(papers)) if papers else 0.0,
        "papers_per_author": rounded(authorships / n_authors) if n_authors else 0.0,
        "coauthors_per_author": rounded(2 * C.number_of_edges() / n_authors) if n_authors else 0.0,
        "single_author_papers": single,
        "single_author_share": rounded(single / len(papers)) if papers else 0.0,
        "multi_authored_papers": len(multi),
        "collaboration_index": rounded(sum(multi) / len(multi)) if multi else 0.0,
        "papers_without_authors": sum(1 for p in papers if p["n_authors"] == 0),
    }


def _papers_by_track(G: nx.DiGraph) -> dict[str, list[str]]:
    by_track: dict[str, list[str]] = defaultdict(list)
    for paper in nodes_of_kind(G, "paper"):
        track = paper_track(G, paper)
        if track is not None:
            by_track[track].append(paper)
    return by_track


def track_table(G: nx.DiGraph) -> list[dict]:
    """One row per track: papers, distinct authors, top methods; most papers first.

    A track is the node papers' `in_track` edges reach: a subarea track, or an area for one-level
    tracks. Papers without a track are in no row.

    Parameters
    ----------
    G : networkx.DiGraph
        The knowledge graph: its papers' tracks (`in_track`), authors and methods are read.

    Returns
    -------
    list of dict
        `key`, `label`, `area`, `subarea`, `papers`, `authors`, `top_methods` ([{key, label, papers}]).

    Examples
    --------
    >>> import kg
    >>> from kg.analysis import track_table
    >>> rows = track_table(kg.build_graph(kg.read().papers))
    >>> rows[0]["label"], rows[0]["papers"]
    ('Deep Learning · Large Language Models', 5)
    """
    rows = []
    for track, papers in _papers_by_track(G).items():
        data = G.nodes[track]
        methods = Counter(m for p in papers for m in paper_methods(G, p))
        top_methods = sorted(methods, key=lambda m: (-methods[m], m))[:TRACK_TOP_METHODS]
        rows.append({
            "key": track, "label": data["label"], "area": data.get("area", data["label"]),
            "subarea": data.get("subarea"), "papers": len(papers),
            "authors": len({a for p in papers for a in paper_authors(G, p)}),
            "top_methods": [{"key": m, "label": G.nodes[m]["label"], "papers": methods[m]} for m in top_methods],
        })
    return sorted(rows, key=lambda r: (-r["papers"], r["key"]))


def cross_track(G: nx.DiGraph) -> list[dict]:
    """Pairs of tracks linked by the authors who publish in both, most shared authors first.

    Parameters
    ----------
    G : networkx.DiGraph
        The knowledge graph: its papers' tracks and authors are read.

    Returns
    -------
    list of dict
        `tracks` (two keys, sorted), `labels`, `shared_authors`, `authors` (their labels).

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
        for pair in combinations(sorted(tracks_of[author]), 2):
            shared[pair].append(author)
    rows = [{"tracks": list(pair), "labels": [G.nodes[t]["label"] for t in pair], "shared_authors": len(authors),
             "authors": [G.nodes[a]["label"] for a in authors]} for pair, authors in shared.items()]
    return sorted(rows, key=lambda r: (-r["shared_authors"], r["tracks"]))


def method_table(G: nx.DiGraph, T: nx.Graph, membership: Mapping[str, int],
                 year_of: Mapping[str, int] | None = None) -> list[dict]:
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
        year of `year_of`).

    Returns
    -------
    list of dict
        `key`, `label`, `alt_labels`, `papers`, `mentions`, `cooccurring`, `tracks`,
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
    rows = [{
        "key": m, "label": T.nodes[m]["label"], "alt_labels": T.nodes[m]["alt_labels"],
        "papers": T.nodes[m]["papers"], "mentions": mentions[m], "cooccurring": T.degree(m),
        "tracks": len(tracks[m]), "track_labels": sorted(G.nodes[t]["label"] for t in tracks[m]),
        "community": membership[m],
    } for m in T]
    if year_of is not None:
        years = sorted(set(year_of.values()))
        for row in rows:
            row["papers_by_year"] = {str(y): by_year[row["key"]][y] for y in years}
    return sorted(rows, key=lambda r: (-r["papers"], -r["mentions"], r["key"]))


def bridging_methods(methods: Sequence[dict]) -> list[dict]:
    """Methods used in two or more tracks, the widest-reaching first.

    Parameters
    ----------
    methods : sequence of dict
        Rows of `method_table`.

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
    rows = [m for m in methods if m["tracks"] >= 2]
    return sorted(rows, key=lambda r: (-r["tracks"], -r["papers"], r["key"]))


def dataset_table(G: nx.DiGraph) -> list[dict]:
    """One row per data set or benchmark: papers that mention it, mentions, and the methods used with it.

    Parameters
    ----------
    G : networkx.DiGraph
        The knowledge graph: its data sets, the papers that use them (`uses_dataset`, with the
        mention `count`) and those papers' methods are read.

    Returns
    -------
    list of dict
        `key`, `label`, `alt_labels`, `papers`, `mentions`, `top_methods` (labels of the methods its
        papers mention most); most papers first, then most mentions, then key.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_node("paper:1", kind="paper"); G.add_node("dataset:mnist", kind="dataset", label="MNIST", alt_labels=[])
    >>> G.add_edge("paper:1", "dataset:mnist", rel="uses_dataset", count=2)
    >>> [(row["label"], row["papers"], row["mentions"]) for row in dataset_table(G)]
    [('MNIST', 1, 2)]
    """
    rows = []
    for dataset in nodes_of_kind(G, "dataset"):
        papers = [p for p, _, rel in G.in_edges(dataset, data="rel") if rel == "uses_dataset"]
        methods = Counter(m for p in papers for m in paper_methods(G, p))
        rows.append({"key": dataset, "label": G.nodes[dataset]["label"],
                     "alt_labels": list(G.nodes[dataset].get("alt_labels", [])), "papers": len(papers),
                     "mentions": sum(G.edges[p, dataset].get("count", 0) for p in papers),
                     "top_methods": [G.nodes[m]["label"] for m in sorted(methods, key=lambda m: (-methods[m], m))[:5]]})
    return sorted(rows, key=lambda r: (-r["papers"], -r["mentions"], r["key"]))
