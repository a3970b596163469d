"""Centrality and connectivity of a projection: eigenvector centrality per connected component
(LAPACK for small components, ARPACK for large ones), betweenness (igraph, NetworkX's scaling),
and the component summary. Compiled code does the work; nothing is stored on the graph.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from kg.analysis._common import edge_list, rounded, to_igraph

if TYPE_CHECKING:
    from scipy.sparse import coo_array, sparray

#: Components larger than this get their eigenvector from ARPACK (sparse, Lanczos), smaller ones
#: from LAPACK on dense blocks, all components of one size in one call (exact).
ARPACK_COMPONENT = 100
#: Above this many nodes + links, betweenness is estimated from sampled sources (Brandes' all-pairs
#: algorithm is O(n·m); docs/analysis.md gives its cost on real corpora).
EXACT_BETWEENNESS_WORK = 6_000
#: The sample's budget: sources × (nodes + links) stays near this, with at least 32 sources.
SAMPLED_BETWEENNESS_BUDGET = 5_000_000


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Leading eigenvectors (along the last axis) made non-negative and of unit length: the Perron
    vector of a connected component has one sign throughout, either of which LAPACK may return."""
    vectors = np.abs(vectors)
    return vectors / np.linalg.norm(vectors, axis=-1, keepdims=True)


def _adjacency(P: nx.Graph) -> tuple[list[str], coo_array]:
    """`P`'s node keys in sorted order and its symmetric weighted adjacency matrix in that order."""
    from scipy.sparse import coo_array

    nodes, sources, targets, weights = edge_list(P)
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


def eigenvector_components(P: nx.Graph) -> tuple[dict[str, float], list[str]]:
    """Eigenvector centrality per connected component, and where it fell back to strength.

    Parameters
    ----------
    P : networkx.Graph
        An undirected graph; edge attribute `weight` (1 where missing).

    Returns
    -------
    values : dict
        Node key -> centrality (see `eigenvector_by_component`).
    fallbacks : list of str
        The smallest node key of each component where ARPACK did not converge, whose values are
        its normalised strengths instead.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.analysis import eigenvector_components
    >>> values, fallbacks = eigenvector_components(nx.Graph([("a", "b")]))
    >>> round(values["a"], 6), fallbacks
    (0.707107, [])
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
    fallbacks = []
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
                fallbacks.append(nodes[row[0]])
    return dict(zip(nodes, values.tolist())), fallbacks


def eigenvector_by_component(P: nx.Graph) -> dict[str, float]:
    """Eigenvector centrality (weighted) within each connected component; isolated nodes get 0.

    Computed per component because on a disconnected graph it only ever sees the dominant one:
    exactly by LAPACK for small components (those of one size in one call), by ARPACK for large
    ones (`ARPACK_COMPONENT`). Each component's vector has unit length. A component where ARPACK
    fails to converge gets its normalised strength (`eigenvector_components` says which).

    Parameters
    ----------
    P : networkx.Graph
        The projection, as `eigenvector_components` takes it.

    Returns
    -------
    dict
        Node key -> centrality, as `nx.eigenvector_centrality(weight="weight")` defines it per component.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.analysis import eigenvector_by_component
    >>> P = nx.Graph([("a", "b"), ("b", "c")]); P.add_node("d")
    >>> {n: round(v, 4) for n, v in sorted(eigenvector_by_component(P).items())}
    {'a': 0.5, 'b': 0.7071, 'c': 0.5, 'd': 0.0}
    """
    return eigenvector_components(P)[0]


def component_summary(P: nx.Graph) -> tuple[dict, dict[str, int]]:
    """Connected components of a projection, summarised, and each node's component.

    Parameters
    ----------
    P : networkx.Graph
        An undirected graph.

    Returns
    -------
    summary : dict
        `count`, `largest`, `largest_share` (of nodes), `isolated`, `sizes` ([{size, components}],
        largest first).
    component : dict
        Node key -> component number (1 = largest, ties by smallest member key).

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.analysis import component_summary
    >>> P = nx.Graph([("b", "c")]); P.add_node("a")
    >>> summary, component = component_summary(P)
    >>> summary["count"], summary["largest_share"], sorted(component.items())
    (2, 0.666667, [('a', 2), ('b', 1), ('c', 1)])
    """
    comps = sorted(nx.connected_components(P), key=lambda c: (-len(c), min(c)))
    sizes = Counter(len(c) for c in comps)
    n = P.number_of_nodes()
    largest = len(comps[0]) if comps else 0
    summary = {
        "count": len(comps), "largest": largest, "largest_share": rounded(largest / n) if n else 0.0,
        "isolated": sizes.get(1, 0),
        "sizes": [{"size": size, "components": count} for size, count in sorted(sizes.items(), reverse=True)],
    }
    return summary, {node: i for i, comp in enumerate(comps, start=1) for node in comp}


def betweenness(C: nx.Graph, *, seed: int) -> tuple[dict[str, float], int | None]:
    """Normalised betweenness of every node, and the number of sampled sources (None = exact).

    The values of `nx.betweenness_centrality(C, k, seed=seed)` (same sampled sources, same
    scaling), computed by igraph: igraph counts each undirected pair once where NetworkX counts
    it from both ends, hence the factor 2. Exact up to `EXACT_BETWEENNESS_WORK` (nodes + links),
    estimated from a seeded sample of sources above it.

    Parameters
    ----------
    C : networkx.Graph
        An undirected graph (weights are ignored: they are strengths, not distances).
    seed : int
        Seed of the sample of sources.

    Returns
    -------
    values : dict
        Node key -> normalised betweenness.
    sampled : int or None
        Sources sampled, None when exact.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.analysis import betweenness
    >>> values, sampled = betweenness(nx.path_graph(["a", "b", "c"]), seed=42)
    >>> values, sampled
    ({'a': 0.0, 'b': 1.0, 'c': 0.0}, None)
    """
    n, work = C.number_of_nodes(), C.number_of_nodes() + C.number_of_edges()
    k = None if work <= EXACT_BETWEENNESS_WORK else min(n, max(32, SAMPLED_BETWEENNESS_BUDGET // work))
    if n < 3:  # no node lies between two others
        return dict.fromkeys(C, 0.0), k
    g, nodes = to_igraph(C)
    if k is None or k == n:
        scale = 2 / ((n - 1) * (n - 2))
        return {node: b * scale for node, b in zip(nodes, g.betweenness(directed=False))}, k
    sources = set(random.Random(seed).sample(list(C), k))  # the sources NetworkX draws for this seed
    index = {node: i for i, node in enumerate(nodes)}
    raw = g.betweenness(directed=False, sources=sorted(index[s] for s in sources))  # sorted: same sums
    source_scale, other_scale = 2 / ((k - 1) * (n - 2)), 2 / (k * (n - 2))  # a source is between the other k - 1 only
    return {node: b * (source_scale if node in sources else other_scale) for node, b in zip(nodes, raw)}, k
