"""What the analysis modules share: rounding and sorting for the report, and a projection as the
flat edge lists igraph and scipy take (node keys in sorted order)."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import networkx as nx

if TYPE_CHECKING:
    import igraph


def sort_keys(items: list, *keys: tuple[Callable[[object], object] | None, bool]) -> list:
    """`items` sorted in place by `keys` (key function or None for the item itself, descending),
    the most significant first: one stable pass per key from the least significant, so no key
    tuple is made per item."""
    for key, descending in reversed(keys):
        items.sort(key=key, reverse=descending)
    return items


def rounded(x: float) -> float:
    """Round for the report: stable, readable, far below any meaningful difference; ints stay ints."""
    return x if isinstance(x, int) else round(float(x), 6)


def edge_list(P: nx.Graph) -> tuple[list[str], list[int], list[int], list[float]]:
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


def to_igraph(P: nx.Graph) -> tuple[igraph.Graph, list[str]]:
    """`P` as an igraph graph (vertex i = the i-th node key in sorted order; attribute `weight`)
    and the sorted node keys.

    igraph is imported here, not at the top: it imports matplotlib where that is installed, which
    commands that never analyse should not pay for (docs/analysis.md, "Performance notes").
    """
    import igraph

    nodes, sources, targets, weights = edge_list(P)
    return igraph.Graph(n=len(nodes), edges=zip(sources, targets), edge_attrs={"weight": weights}), nodes
