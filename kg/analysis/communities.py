"""Communities of a projection: seeded Louvain (igraph's C implementation), modularity, and the
report's summary of them.

Nothing is stored on the projection: `louvain` returns a `Partition` (membership and modularity),
which a caller that needs it several times (the report, the VOSviewer maps) computes once and
passes on.
"""
from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

import networkx as nx

from kg.analysis._common import rounded, to_igraph

#: Members named per community in the summary.
COMMUNITY_MEMBERS = 5


@dataclass(frozen=True)
class Partition:
    """The seeded Louvain communities of one projection.

    Attributes
    ----------
    membership : dict
        Node key -> community number; 1 is the largest community, ties by smallest member key.
    modularity : float or None
        Modularity of the partition at `resolution` (None for a graph without links).
    seed, resolution : int, float
        The parameters it was computed with.
    """

    membership: Mapping[str, int]
    modularity: float | None
    seed: int
    resolution: float


def louvain(P: nx.Graph, *, seed: int = 42, resolution: float = 1.0) -> Partition:
    """Seeded Louvain communities of a projection, with their modularity.

    igraph draws from one process-wide generator; it is a `random.Random(seed)` for this call and
    igraph's default (the `random` module) again afterwards. The same graph and seed always give
    the same partition, whatever the global random state.

    Parameters
    ----------
    P : networkx.Graph
        An undirected graph; edge attribute `weight` (1 where missing).
    seed : int
        Seed of Louvain's random order.
    resolution : float
        Above 1, more and smaller communities.

    Returns
    -------
    Partition
        Membership (1 = largest community) and modularity.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.analysis import louvain
    >>> P = nx.Graph([("a", "b"), ("b", "c"), ("a", "c"), ("x", "y"), ("y", "z"), ("x", "z"), ("c", "x")])
    >>> partition = louvain(P, seed=42)
    >>> sorted(partition.membership.items())
    [('a', 1), ('b', 1), ('c', 1), ('x', 2), ('y', 2), ('z', 2)]
    >>> round(partition.modularity, 4)
    0.3571
    """
    import igraph

    g, nodes = to_igraph(P)
    igraph.set_random_number_generator(random.Random(seed))
    try:
        found = g.community_multilevel(weights="weight", resolution=resolution)
    finally:
        igraph.set_random_number_generator(random)
    ordered = sorted(([nodes[i] for i in members] for members in found), key=lambda c: (-len(c), min(c)))
    membership = {node: i for i, members in enumerate(ordered, start=1) for node in members}
    return Partition(membership, found.modularity if sum(g.es["weight"]) else None, seed, resolution)


def communities(P: nx.Graph, *, seed: int = 42, resolution: float = 1.0) -> dict[str, int]:
    """Seeded Louvain communities of a projection: node -> community number (1 = largest).

    The membership alone, for a caller that needs neither the modularity nor the parameters with it.

    Parameters
    ----------
    P, seed, resolution : networkx.Graph, int, float
        The projection and Louvain's parameters, as `louvain` takes them.

    Returns
    -------
    dict
        Node key -> community number (`louvain(P, ...).membership`, a new dict).

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.analysis import communities
    >>> P = nx.Graph([("a", "b"), ("b", "c"), ("a", "c"), ("x", "y"), ("y", "z"), ("x", "z"), ("c", "x")])
    >>> communities(P, seed=42)["a"], communities(P, seed=42)["z"]
    (1, 2)
    """
    return dict(louvain(P, seed=seed, resolution=resolution).membership)


def modularity(P: nx.Graph, membership: Mapping[str, int], *, resolution: float = 1.0) -> float | None:
    """Modularity of a partition, as `networkx.community.modularity` defines it (weighted).

    Parameters
    ----------
    P : networkx.Graph
        An undirected graph; edge attribute `weight` (1 where missing).
    membership : mapping
        Node key -> community (any hashable numbering).
    resolution : float
        The resolution parameter of modularity.

    Returns
    -------
    float or None
        None for a graph without links, where modularity is undefined.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.analysis import modularity
    >>> P = nx.Graph([("a", "b"), ("b", "c"), ("a", "c"), ("x", "y"), ("y", "z"), ("x", "z"), ("c", "x")])
    >>> round(modularity(P, {"a": 1, "b": 1, "c": 1, "x": 2, "y": 2, "z": 2}), 4)
    0.3571
    """
    if P.number_of_edges() == 0 or P.size(weight="weight") == 0:
        return None
    g, nodes = to_igraph(P)
    return g.modularity([membership[n] for n in nodes], weights="weight", resolution=resolution)


def community_summary(P: nx.Graph, partition: Partition, *, top: int) -> dict:
    """The report's summary of a partition: count, modularity and the `top` largest communities,
    each with its best-known members (most papers first).

    Parameters
    ----------
    P : networkx.Graph
        A projection; node attributes `label` and `papers`.
    partition : Partition
        Its communities (`louvain(P, ...)`).
    top : int
        Communities listed.

    Returns
    -------
    dict
        `algorithm`, `resolution`, `seed`, `count`, `modularity` (rounded), `largest`
        ([{community, size, members}]).

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.analysis import community_summary, louvain
    >>> P = nx.Graph([("a", "b"), ("b", "c"), ("a", "c"), ("x", "y"), ("y", "z"), ("x", "z"), ("c", "x")])
    >>> nx.set_node_attributes(P, 1, "papers"); nx.set_node_attributes(P, {n: n.upper() for n in P}, "label")
    >>> summary = community_summary(P, louvain(P), top=1)
    >>> summary["count"], summary["modularity"], summary["largest"]
    (2, 0.357143, [{'community': 1, 'size': 3, 'members': ['A', 'B', 'C']}])
    """
    groups: dict[int, list[str]] = defaultdict(list)
    for node, number in partition.membership.items():
        groups[number].append(node)
    q = partition.modularity
    listed = []
    for number in sorted(groups)[:top]:
        members = sorted(groups[number], key=lambda n: (-P.nodes[n]["papers"], n))
        listed.append({"community": number, "size": len(members),
                       "members": [P.nodes[n]["label"] for n in members[:COMMUNITY_MEMBERS]]})
    return {"algorithm": "louvain", "resolution": partition.resolution, "seed": partition.seed,
            "count": len(groups), "modularity": None if q is None else rounded(q), "largest": listed}
