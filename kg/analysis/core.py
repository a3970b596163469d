"""Co-authorship and topic metrics over the knowledge graph and its projections.

Plain functions over NetworkX graphs; the heavy algorithms run in compiled code (igraph's C
Louvain, modularity and betweenness; LAPACK/ARPACK eigenvectors), never hand-written.
`analyze(G)` gathers them into one JSON-serialisable report with stable keys and
deterministically sorted lists; `kg.analysis.report` renders it (Markdown, JSON, CSV).

Formulas (also in docs/analysis.md):
- strength of an author = Σ of the weights of their co-author links (full or fractional counting);
- degree centrality = co-authors / (authors - 1); betweenness = normalised, unweighted
  shortest-path betweenness (NetworkX's definition and scaling, computed by igraph), exact up to
  `EXACT_BETWEENNESS_WORK` (nodes + links) and estimated from a seeded sample of source nodes
  above it (the report's notes say so);
- eigenvector centrality is computed per connected component (it is undefined across
  components: power iteration on a disconnected graph converges to the largest component only);
  each component's vector has unit length, isolated authors get 0;
- collaboration index = authors of multi-authored papers / number of multi-authored papers;
- communities: igraph's Louvain (`community_multilevel(weights, resolution)`, seeded), numbered
  1.. by size (largest first, ties by smallest member key); modularity with the same resolution.
"""
from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import combinations
from operator import itemgetter
from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from kg.graph.aliases import possible_duplicates
from kg.graph import coauthor_graph, nodes_of_kind, paper_authors, paper_methods, paper_track, topic_graph

if TYPE_CHECKING:
    import igraph
    from scipy.sparse import coo_array, sparray

#: The version of the report's shape; bumped when a key changes meaning.
REPORT_VERSION = 1
#: Methods listed per track.
TRACK_TOP_METHODS = 5
#: Members named per community in the summary.
COMMUNITY_MEMBERS = 5


def _sort_by(rows: list[dict], *columns: tuple[str, bool]) -> list[dict]:
    """`rows` sorted in place by `columns` (name, descending), the most significant first: one
    stable pass per column from the least significant, so no key tuple is made per row (the two
    link tables have 2.5 million rows at 100k papers: a 4-tuple and a negated float each, 0.28 GB)."""
    for name, descending in reversed(columns):
        rows.sort(key=itemgetter(name), reverse=descending)
    return rows


def _r(x: float) -> float:
    """Round for the report: stable, readable, far below any meaningful difference; ints stay ints."""
    return x if isinstance(x, int) else round(float(x), 6)


def _edge_list(P: nx.Graph) -> tuple[list[str], list[int], list[int], list[float]]:
    """`P`'s node keys in sorted order, and its links (in `P`'s order) as the positions of their
    ends in that list and their weights (1 where missing): one pass, for igraph and scipy alike.
    Flat lists, no tuple per link: fewer objects for the garbage collector to walk."""
    nodes = sorted(P)
    index = {node: i for i, node in enumerate(nodes)}
    sources, targets, weights = [], [], []
    for u, v, w in P.edges(data="weight", default=1):
        sources.append(index[u])
        targets.append(index[v])
        weights.append(w)
    return nodes, sources, targets, weights


def _igraph(P: nx.Graph) -> tuple[igraph.Graph, list[str]]:
    """`P` as an igraph graph (vertex i = the i-th node key in sorted order; attribute `weight`)
    and the sorted node keys.

    igraph is imported here, not at the top: it imports matplotlib where that is installed
    (~1 s), which commands that never analyse should not pay for.
    """
    import igraph

    nodes, sources, targets, weights = _edge_list(P)
    return igraph.Graph(n=len(nodes), edges=zip(sources, targets), edge_attrs={"weight": weights}), nodes


# -------------------------------------------------------------------------------- communities
def _louvain(P: nx.Graph, *, seed: int, resolution: float) -> dict:
    """igraph's Louvain on `P`, seeded: `membership` (node -> community number, 1 = largest, ties
    by smallest member key) and its `modularity` (None without links, where it is undefined).

    igraph draws from one process-wide generator; it is a `random.Random(seed)` for this call
    and igraph's default (the `random` module) again afterwards (igraph cannot report the one
    it had). The same graph and seed always give the same partition.
    """
    import igraph

    g, nodes = _igraph(P)
    igraph.set_random_number_generator(random.Random(seed))
    try:
        found = g.community_multilevel(weights="weight", resolution=resolution)
    finally:
        igraph.set_random_number_generator(random)
    ordered = sorted(([nodes[i] for i in members] for members in found), key=lambda c: (-len(c), min(c)))
    return {"membership": {node: i for i, members in enumerate(ordered, start=1) for node in members},
            "modularity": found.modularity if sum(g.es["weight"]) else None}


def _partition(P: nx.Graph, *, seed: int, resolution: float) -> dict:
    """The Louvain result of `P` for (seed, resolution), computed once (see `communities`)."""
    cache = P.graph.setdefault("louvain", {})
    if (seed, resolution) not in cache:
        cache[seed, resolution] = _louvain(P, seed=seed, resolution=resolution)
    return cache[seed, resolution]


def communities(P: nx.Graph, *, seed: int = 42, resolution: float = 1.0) -> dict[str, int]:
    """Seeded Louvain communities of a projection: node -> community number (1 = largest).

    Louvain is the slowest step on a big projection (2 s on a dense 300k-link topic graph), so the
    result (with its modularity) is kept in `P.graph["louvain"]` by (seed, resolution): the report
    and the VOSviewer export of one projection run it once. Projections are not changed after
    they are made.
    """
    return dict(_partition(P, seed=seed, resolution=resolution)["membership"])


def modularity(P: nx.Graph, membership: dict[str, int], *, resolution: float = 1.0) -> float | None:
    """Modularity of a partition (None for a graph without links, where it is undefined)."""
    if P.number_of_edges() == 0 or P.size(weight="weight") == 0:
        return None
    g, nodes = _igraph(P)
    return g.modularity([membership[n] for n in nodes], weights="weight", resolution=resolution)


def community_summary(P: nx.Graph, *, resolution: float, seed: int, top: int) -> dict:
    """Count, modularity and the `top` largest of the seeded Louvain communities of `P`, with
    their best-known members."""
    partition = _partition(P, seed=seed, resolution=resolution)
    groups: dict[int, list[str]] = defaultdict(list)
    for node, number in partition["membership"].items():
        groups[number].append(node)
    q = partition["modularity"]
    listed = []
    for number in sorted(groups)[:top]:
        members = sorted(groups[number], key=lambda n: (-P.nodes[n]["papers"], n))
        listed.append({"community": number, "size": len(members),
                       "members": [P.nodes[n]["label"] for n in members[:COMMUNITY_MEMBERS]]})
    return {"algorithm": "louvain", "resolution": resolution, "seed": seed, "count": len(groups),
            "modularity": None if q is None else _r(q), "largest": listed}


# ----------------------------------------------------------------------------------- centrality
#: Components larger than this get their eigenvector from ARPACK (sparse, Lanczos), smaller ones
#: from LAPACK on dense blocks, all components of one size in one call (exact, microseconds each).
ARPACK_COMPONENT = 100


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Leading eigenvectors (along the last axis) made non-negative and of unit length: the Perron
    vector of a connected component has one sign throughout, either of which LAPACK may return."""
    vectors = np.abs(vectors)
    return vectors / np.linalg.norm(vectors, axis=-1, keepdims=True)


def _adjacency(P: nx.Graph) -> tuple[list[str], coo_array]:
    """`P`'s node keys in sorted order and its symmetric weighted adjacency matrix in that order."""
    from scipy.sparse import coo_array

    nodes, sources, targets, weights = _edge_list(P)
    u, v, w = np.array(sources, dtype=np.int64), np.array(targets, dtype=np.int64), np.array(weights, dtype=float)
    pair = u != v  # a self-loop is one matrix entry, any other link two
    rows, cols = np.concatenate([u, v[pair]]), np.concatenate([v, u[pair]])
    return nodes, coo_array((np.concatenate([w, w[pair]]), (rows, cols)), shape=(len(nodes), len(nodes)))


def _arpack_vector(block: sparray) -> np.ndarray:
    """The leading eigenvector of one large component's adjacency matrix; raises
    ArpackNoConvergence. `v0` = ones: deterministic, and never orthogonal to the answer."""
    from scipy.sparse.linalg import eigsh

    return _unit(eigsh(block, k=1, which="LA", v0=np.ones(block.shape[0]))[1][:, 0])


def _dense_vectors(A: coo_array, labels: np.ndarray, local: np.ndarray, same: np.ndarray, size: int) -> np.ndarray:
    """The leading eigenvectors of the components numbered `same` (each of `size` nodes), one row
    each, from their adjacency matrices stacked into one (count, size, size) array for LAPACK.
    `labels` is each node's component, `local` its position within it."""
    inside = np.isin(labels[A.row], same)
    rows, cols = A.row[inside], A.col[inside]
    blocks = np.zeros((len(same), size, size))
    blocks[np.searchsorted(same, labels[rows]), local[rows], local[cols]] = A.data[inside]
    return _unit(np.linalg.eigh(blocks)[1][..., -1])


def eigenvector_by_component(P: nx.Graph) -> dict[str, float]:
    """Eigenvector centrality (weighted) within each connected component; isolated nodes get 0.

    Computed per component because on a disconnected graph it only ever sees the dominant one:
    exactly by LAPACK for small components (those of one size in one call), by ARPACK for large
    ones (`ARPACK_COMPONENT`). A component where ARPACK fails to converge falls back to its
    normalised strength; its smallest node key is appended to `P.graph["eigenvector_fallback"]`
    (and `analyze` says so in `notes`).
    """
    from scipy.sparse.csgraph import connected_components
    from scipy.sparse.linalg import ArpackNoConvergence

    nodes, A = _adjacency(P)
    csr = A.tocsr()
    _, labels = connected_components(csr, directed=False)
    sizes = np.bincount(labels, minlength=1)
    order = np.argsort(labels, kind="stable")  # the nodes of each component together, in key order
    starts = np.cumsum(sizes) - sizes
    local = np.empty(len(nodes), dtype=np.int64)
    local[order] = np.arange(len(nodes)) - starts[labels[order]]
    values = np.zeros(len(nodes))
    for size in np.unique(sizes[sizes > 1]):
        same = np.flatnonzero(sizes == size)
        members = order[starts[same][:, None] + np.arange(size)]  # one row of node positions per component
        if size <= ARPACK_COMPONENT:
            values[members] = _dense_vectors(A, labels, local, same, size)
            continue
        for row in members:
            block = csr[row][:, row]
            try:
                values[row] = _arpack_vector(block)
            except ArpackNoConvergence:
                values[row] = _unit(block.sum(axis=1))
                P.graph.setdefault("eigenvector_fallback", []).append(nodes[row[0]])
    return dict(zip(nodes, values.tolist()))


def component_summary(P: nx.Graph) -> tuple[dict, dict[str, int]]:
    """Components of a projection (count, size distribution, largest, its share) and node -> component
    number (1 = largest, ties by smallest member key)."""
    comps = sorted(nx.connected_components(P), key=lambda c: (-len(c), min(c)))
    sizes = Counter(len(c) for c in comps)
    n = P.number_of_nodes()
    largest = len(comps[0]) if comps else 0
    summary = {
        "count": len(comps), "largest": largest, "largest_share": _r(largest / n) if n else 0.0,
        "isolated": sizes.get(1, 0),
        "sizes": [{"size": size, "components": count} for size, count in sorted(sizes.items(), reverse=True)],
    }
    return summary, {node: i for i, comp in enumerate(comps, start=1) for node in comp}


# ------------------------------------------------------------------------------------- authors
#: Above this many nodes + links, betweenness is estimated from sampled sources (Brandes' all-pairs
#: algorithm is O(n·m): ~2.5 minutes for the 38,000 authors of 10,000 papers even in igraph's C).
EXACT_BETWEENNESS_WORK = 6_000
#: The sample's budget: sources × (nodes + links) stays near this, with at least 32 sources.
SAMPLED_BETWEENNESS_BUDGET = 5_000_000


def betweenness(C: nx.Graph, *, seed: int) -> tuple[dict[str, float], int | None]:
    """Normalised betweenness of every node, and the number of sampled sources (None = exact).

    The values of `nx.betweenness_centrality(C, k, seed=seed)` (same sampled sources, same
    scaling), computed by igraph: igraph counts each undirected pair once where NetworkX counts
    it from both ends, hence the factor 2.
    """
    n, work = C.number_of_nodes(), C.number_of_nodes() + C.number_of_edges()
    k = None if work <= EXACT_BETWEENNESS_WORK else min(n, max(32, SAMPLED_BETWEENNESS_BUDGET // work))
    if n < 3:  # no node lies between two others
        return dict.fromkeys(C, 0.0), k
    g, nodes = _igraph(C)
    if k is None or k == n:
        scale = 2 / ((n - 1) * (n - 2))
        return {node: b * scale for node, b in zip(nodes, g.betweenness(directed=False))}, k
    sources = set(random.Random(seed).sample(list(C), k))  # the sources NetworkX draws for this seed
    index = {node: i for i, node in enumerate(nodes)}
    raw = g.betweenness(directed=False, sources=sorted(index[s] for s in sources))  # sorted: same sums
    source_scale, other_scale = 2 / ((k - 1) * (n - 2)), 2 / (k * (n - 2))  # a source is between the other k - 1 only
    return {node: b * (source_scale if node in sources else other_scale) for node, b in zip(nodes, raw)}, k


def author_table(C: nx.Graph, membership: dict[str, int], component: dict[str, int],
                 between: dict[str, float]) -> list[dict]:
    """One row per author of the co-author graph, most papers first (then strength, then key)."""
    scale = 1 / (C.number_of_nodes() - 1) if C.number_of_nodes() > 1 else 0.0  # as nx.degree_centrality
    eigen = eigenvector_by_component(C)
    degree, strength = dict(C.degree()), dict(C.degree(weight="weight"))
    rows = [{
        "key": node, "label": data["label"], "papers": data["papers"],
        "coauthors": degree[node], "strength": _r(strength[node]),
        "degree_centrality": _r(degree[node] * scale), "betweenness": _r(between[node]),
        "eigenvector": _r(eigen[node]), "component": component[node], "community": membership[node],
    } for node, data in C.nodes(data=True)]
    return _sort_by(rows, ("papers", True), ("strength", True), ("key", False))


def edge_table(P: nx.Graph, *, weight_name: str) -> list[dict]:
    """One row per link of a projection, heaviest first: endpoints, labels, count, weight, papers."""
    label = dict(P.nodes(data="label"))
    rows = [{"source": u, "target": v, "source_label": label[u], "target_label": label[v],
             "count": d["count"], weight_name: _r(d["weight"]), "papers": d["papers"]}
            for u, v, d in P.edges(data=True)]
    return _sort_by(rows, ("count", True), (weight_name, True), ("source", False), ("target", False))


def collaboration(G: nx.DiGraph, C: nx.Graph) -> dict:
    """Collaboration indicators. Truncated lists (`等`) count their listed authors only, so the
    per-paper figures are lower bounds for those papers; a truncated list is multi-authored."""
    papers = [G.nodes[p] for p in nodes_of_kind(G, "paper")]
    multi = [p["n_authors"] for p in papers if p["n_authors"] > 1 or p["authors_truncated"]]
    single = sum(1 for p in papers if p["n_authors"] == 1 and not p["authors_truncated"])
    authorships = sum(p["n_authors"] for p in papers)
    n_authors = C.number_of_nodes()
    return {
        "papers": len(papers), "authorships": authorships,
        "authors_per_paper": _r(authorships / len(papers)) if papers else 0.0,
        "papers_per_author": _r(authorships / n_authors) if n_authors else 0.0,
        "coauthors_per_author": _r(2 * C.number_of_edges() / n_authors) if n_authors else 0.0,
        "single_author_papers": single,
        "single_author_share": _r(single / len(papers)) if papers else 0.0,
        "multi_authored_papers": len(multi),
        "collaboration_index": _r(sum(multi) / len(multi)) if multi else 0.0,
        "papers_without_authors": sum(1 for p in papers if p["n_authors"] == 0),
    }


# -------------------------------------------------------------------------------------- tracks
def _papers_by_track(G: nx.DiGraph) -> dict[str, list[str]]:
    by_track: dict[str, list[str]] = defaultdict(list)
    for paper in nodes_of_kind(G, "paper"):
        track = paper_track(G, paper)
        if track is not None:
            by_track[track].append(paper)
    return by_track


def track_table(G: nx.DiGraph) -> list[dict]:
    """One row per track (the node papers' `in_track` edges reach: a subarea track, or an area for
    one-level tracks): papers, distinct authors, top methods. Most papers first."""
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
    """Pairs of tracks linked by the authors who publish in both (most shared authors first)."""
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


# ------------------------------------------------------------------------------------- methods
def method_table(G: nx.DiGraph, T: nx.Graph, membership: dict[str, int]) -> list[dict]:
    """One row per method: papers (frequency), mentions, tracks reached, co-occurrence, community."""
    tracks: dict[str, set[str]] = defaultdict(set)
    mentions: Counter = Counter()
    for paper in nodes_of_kind(G, "paper"):
        track = paper_track(G, paper)
        for _, method, data in G.out_edges(paper, data=True):
            if data["rel"] == "mentions":
                mentions[method] += data["count"]
                if track is not None:
                    tracks[method].add(track)
    rows = [{
        "key": m, "label": T.nodes[m]["label"], "alt_labels": T.nodes[m]["alt_labels"],
        "papers": T.nodes[m]["papers"], "mentions": mentions[m], "cooccurring": T.degree(m),
        "tracks": len(tracks[m]), "track_labels": sorted(G.nodes[t]["label"] for t in tracks[m]),
        "community": membership[m],
    } for m in T]
    return sorted(rows, key=lambda r: (-r["papers"], -r["mentions"], r["key"]))


def bridging_methods(methods: Sequence[dict]) -> list[dict]:
    """Methods used in two or more tracks, the widest-reaching first."""
    rows = [m for m in methods if m["tracks"] >= 2]
    return sorted(rows, key=lambda r: (-r["tracks"], -r["papers"], r["key"]))


# -------------------------------------------------------------------------------------- report
def analyze(
    G: nx.DiGraph,
    *,
    counting: str = "full",
    seed: int = 42,
    resolution: float = 1.0,
    top: int = 20,
    coauthors: nx.Graph | None = None,
    topics: nx.Graph | None = None,
) -> dict:
    """The co-authorship and topic report of a knowledge graph (see docs/analysis.md for every key).

    Summary lists hold the `top` first rows; `tables` holds every row (the CSV files). All lists
    are sorted deterministically and every value is JSON-serialisable, so the same graph and
    parameters give a byte-identical report.json. `coauthors` and `topics` are the projections
    (`coauthor_graph(G, counting=counting)`, `topic_graph(G, normalize="association")`) when the
    caller has them already, as `kg build` has for its VOSviewer maps.
    """
    C = coauthors if coauthors is not None else coauthor_graph(G, counting=counting)
    T = topics if topics is not None else topic_graph(G, normalize="association")
    author_communities = communities(C, seed=seed, resolution=resolution)
    topic_communities = communities(T, seed=seed, resolution=resolution)
    components, component_of = component_summary(C)
    between, sampled = betweenness(C, seed=seed)
    authors = author_table(C, author_communities, component_of, between)
    methods = method_table(G, T, topic_communities)
    tracks = track_table(G)
    pairs = cross_track(G)
    truncated = sorted(p for p in nodes_of_kind(G, "paper") if G.nodes[p]["authors_truncated"])
    untracked = [p for p in nodes_of_kind(G, "paper") if paper_track(G, p) is None]
    bridges = bridging_methods(methods)
    method_pairs = edge_table(T, weight_name="association")

    notes = []
    if sampled is not None:
        notes.append(f"betweenness is estimated from {sampled} seeded sample sources (seed {seed}), "
                     f"not computed exactly: the co-author graph has {C.number_of_nodes()} authors.")
    if truncated:
        notes.append(f"{len(truncated)} paper(s) have a truncated author list (等 / et al.): only the listed "
                     "authors are counted, so their co-author sets are incomplete.")
    if untracked:
        notes.append(f"{len(untracked)} paper(s) have no track; they are in no track's figures (never guessed).")
    if C.graph.get("eigenvector_fallback"):
        notes.append(f"eigenvector centrality did not converge in {len(C.graph['eigenvector_fallback'])} "
                     "component(s); normalised strength was used there.")

    return {
        "kg_report": REPORT_VERSION,
        "parameters": {"counting": counting, "seed": seed, "resolution": resolution, "top": top,
                       "topic_normalization": "association"},
        "corpus": {
            "papers": G.graph.get("n_papers", 0), "authors": G.graph.get("n_authors", 0),
            "tracks": len(tracks), "areas": G.graph.get("n_areas", 0), "methods": G.graph.get("n_methods", 0),
            "coauthor_links": C.number_of_edges(), "method_links": T.number_of_edges(),
            "papers_without_track": len(untracked), "papers_without_methods":
                sum(1 for p in nodes_of_kind(G, "paper") if not paper_methods(G, p)),
            "truncated_author_lists": len(truncated), "truncated_papers": truncated,
        },
        "collaboration": collaboration(G, C),
        "components": components,
        "communities": {
            "coauthors": community_summary(C, resolution=resolution, seed=seed, top=top),
            "topics": community_summary(T, resolution=resolution, seed=seed, top=top),
        },
        "top_authors": authors[:top],
        "tracks": tracks[:top],
        "cross_track": pairs[:top],
        "top_methods": methods[:top],
        "method_pairs": method_pairs[:top],
        "bridging_methods": bridges[:top],
        "possible_duplicates": possible_duplicates(G),
        "notes": notes,
        "tables": {
            "authors": authors,
            "coauthor_edges": edge_table(C, weight_name="weight"),
            "methods": methods,
            "method_pairs": method_pairs,
            "tracks": tracks,
            "cross_track": pairs,
        },
    }
