"""Seeded, fast node positions for the HTML views (pixels, ready for vis-network with physics off).

A force-directed layout of a whole graph costs quadratic time per iteration in the number of nodes
and flings loose parts into a ring. Here the graph is laid out in levels, as "group-in-a-box" and
Graphviz's component packing do:

1. every community on its own, in a disc (vectorised Fruchterman-Reingold, tiny matrices);
2. the communities of one connected group (linked by co-authors across communities) as discs, placed
   by a force layout of their link weights and pushed apart until no two overlap;
3. the groups as boxes, packed largest first on a sheet as wide as a window, each as high and then as
   far left as it fits (isolated authors and small teams fill the space beside and under the big
   cluster rather than a ring or rows of their own).

The quadratic work is then per community, not per graph (timings: docs/views.md). Same graph, same
communities, same seed: same positions (rounded to 0.1 px so the HTML is stable).
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence

import networkx as nx
import numpy as np

Positions = dict[Hashable, tuple[float, float]]

#: Width / height of the sheet the groups are packed on: a browser window is wider than high.
ASPECT = 1.6


def community_layout(
    graph: nx.Graph,
    communities: Sequence[Sequence[Hashable]],
    *,
    seed: int = 0,
    weight: str = "weight",
    spacing: float = 60.0,
) -> Positions:
    """Positions for every node of `graph`, given a partition of its nodes into `communities`.

    Parameters
    ----------
    graph : nx.Graph
        The graph to lay out; its link weights (attribute `weight`, default 1) pull nodes together.
    communities : sequence of sequences of nodes
        A partition of the nodes of `graph` (e.g. Louvain's); each is laid out in its own disc.
    seed : int
        Seed of the random start: the same inputs give the same positions.
    weight : str
        The edge attribute holding link weights.
    spacing : float
        The typical distance between linked nodes, in pixels: a community of n nodes fills a disc
        of radius about `spacing * sqrt(n) / 2`.

    Returns
    -------
    dict
        node -> (x, y) in pixels, rounded to 0.1.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.views.layout import community_layout
    >>> G = nx.Graph([("a", "b"), ("b", "c"), ("x", "y")])
    >>> positions = community_layout(G, [["a", "b", "c"], ["x", "y"]], seed=1)
    >>> sorted(positions), positions == community_layout(G, [["a", "b", "c"], ["x", "y"]], seed=1)
    (['a', 'b', 'c', 'x', 'y'], True)
    """
    rng = np.random.default_rng(seed)
    members = [sorted(c, key=str) for c in communities]
    index = {node: i for i, group in enumerate(members) for node in group}
    radii = np.array([spacing * (0.5 + 0.55 * np.sqrt(len(group) - 1)) for group in members])

    inside: list[list[tuple[Hashable, Hashable, float]]] = [[] for _ in members]
    between = nx.Graph()
    between.add_nodes_from(range(len(members)))
    for u, v, w in graph.edges(data=weight, default=1.0):
        i, j = index[u], index[v]
        if i == j:
            inside[i].append((u, v, w))
        else:
            previous = between.get_edge_data(i, j, {"weight": 0.0})["weight"]
            between.add_edge(i, j, weight=previous + w)

    discs = [_unit_disc(_force(_adjacency(group, edges), rng)) for group, edges in zip(members, inside)]
    groups = sorted((sorted(c) for c in nx.connected_components(between)), key=lambda c: (-len(c), c[0]))
    centres = np.zeros((len(members), 2))
    for group in (g for g in groups if len(g) > 1):
        centres[group] = _place_discs(nx.to_numpy_array(between, nodelist=group), radii[group], rng, spacing)
    offsets = _shelf_pack([(centres[g] - radii[g, None]).min(axis=0) for g in groups],
                          [(centres[g] + radii[g, None]).max(axis=0) for g in groups], gap=spacing)
    for group, offset in zip(groups, offsets):
        centres[group] += offset

    positions: Positions = {}
    for group, centre, radius, disc in zip(members, centres, radii, discs):
        for node, (x, y) in zip(group, centre + radius * disc):
            positions[node] = (round(float(x), 1), round(float(y), 1))
    return positions


def first_look_layout(
    graph: nx.Graph,
    communities: Sequence[Sequence[Hashable]],
    first: Sequence[Hashable],
    *,
    seed: int = 0,
    spacing: float = 60.0,
) -> Positions:
    """Positions that lay out the nodes in `first` (those a page opens on) as `community_layout`
    does, compactly, and the other nodes where they appear when the reader widens the map: next to
    their strongest linked node already placed, or (when they have none) packed under the sheet.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.views.layout import first_look_layout
    >>> G = nx.Graph([("a", "b"), ("b", "c"), ("x", "y")])
    >>> sorted(first_look_layout(G, [["a", "b", "c"], ["x", "y"]], ["a", "b"], seed=1))
    ['a', 'b', 'c', 'x', 'y']
    """
    chosen = set(first)
    within = [[n for n in c if n in chosen] for c in communities]
    positions = community_layout(graph.subgraph(chosen), [c for c in within if c], seed=seed, spacing=spacing)
    return place_beside(graph, positions, communities, seed=seed, spacing=spacing)


def place_beside(
    graph: nx.Graph,
    positions: Positions,
    communities: Sequence[Sequence[Hashable]],
    *,
    seed: int = 0,
    spacing: float = 60.0,
) -> Positions:
    """`positions` and positions for the other nodes of `graph`: each next to its strongest linked node
    already placed (in passes, so chains of links are followed), and those linked to none packed under
    the sheet by `community_layout` (each in its community of `communities`, which must cover them).

    Parameters
    ----------
    graph : nx.Graph
        The graph whose nodes are placed; link weights (attribute `weight`) choose the anchors.
    positions : dict
        The nodes placed already (not changed: a new dict is returned).
    communities : sequence of sequences of nodes
        Groups covering the nodes not in `positions` (others are ignored), for those linked to none.
    seed : int
        Seed of the offsets from the anchors.
    spacing : float
        The largest distance from an anchor, and the gap above the packed nodes, in pixels.

    Returns
    -------
    dict
        node -> (x, y) for every node of `graph`, rounded to 0.1.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.views.layout import place_beside
    >>> G = nx.Graph([("a", "b"), ("b", "c")])
    >>> G.add_node("z")
    >>> placed = place_beside(G, {"a": (0.0, 0.0)}, [["b", "c"], ["z"]], seed=1)
    >>> sorted(placed), placed["a"]
    (['a', 'b', 'c', 'z'], (0.0, 0.0))
    >>> bool(30 <= (placed["b"][0] ** 2 + placed["b"][1] ** 2) ** 0.5 <= 60.1)  # b is beside a
    True
    """
    positions = dict(positions)
    rng = np.random.default_rng(seed)
    waiting = sorted((n for n in graph if n not in positions), key=str)
    while True:  # each pass places the nodes linked to a placed one, next to the strongest such link
        placed = []
        for node in waiting:
            links = [(d.get("weight", 1.0), str(m), m) for m, d in graph[node].items() if m in positions]
            if links:
                _, _, anchor = max(links)
                angle, reach = rng.uniform(0, 2 * np.pi), spacing * rng.uniform(0.5, 1.0)
                x, y = positions[anchor]
                placed.append((node, (round(x + reach * np.cos(angle), 1), round(y + reach * np.sin(angle), 1))))
        if not placed:
            break
        positions.update(placed)
        waiting = [n for n in waiting if n not in positions]
    if waiting:
        rest = set(waiting)
        apart = community_layout(graph.subgraph(rest), [c for c in ([n for n in c if n in rest] for c in communities)
                                                          if c], seed=seed, spacing=spacing)
        bottom = max((y for _, y in positions.values()), default=0.0) + 2 * spacing
        top = min(y for _, y in apart.values())
        positions.update((n, (x, round(y - top + bottom, 1))) for n, (x, y) in apart.items())
    return positions


def _adjacency(nodes: Sequence[Hashable], edges: Sequence[tuple[Hashable, Hashable, float]]) -> np.ndarray:
    """The weight matrix of `nodes`, scaled so the strongest link is 1 (weights of any unit lay out alike)."""
    position = {node: i for i, node in enumerate(nodes)}
    matrix = np.zeros((len(nodes), len(nodes)))
    for u, v, w in edges:
        matrix[position[u], position[v]] = matrix[position[v], position[u]] = w
    peak = matrix.max(initial=0.0)
    return matrix / peak if peak > 0 else matrix


def _place_discs(weights: np.ndarray, radii: np.ndarray, rng: np.random.Generator, gap: float) -> np.ndarray:
    """Centres for discs of `radii` linked by `weights`: force layout scaled to their area, then separated."""
    layout = _unit_disc(_force(weights / weights.max(), rng, gravity=0.3))
    return _separate(layout * np.sqrt((radii**2).sum()) * 1.2, radii + gap / 2)


def _force(adjacency: np.ndarray, rng: np.random.Generator, *, gravity: float = 0.05) -> np.ndarray:
    """Fruchterman-Reingold on a dense weight matrix, with a pull to the centre so loose parts stay near.

    Small graphs settle in fewer steps: 15 + 3 per node, at most 60 (most communities are small).
    The n x n work is done in place in single precision, to spare allocations and memory traffic on
    large communities (positions are then rounded to 0.1 px, far coarser than float32's error).
    """
    n = adjacency.shape[0]
    if n <= 1:
        return np.zeros((n, 2))
    iterations = min(60, 15 + 3 * n)
    pos = (rng.random((n, 2)) - 0.5).astype(np.float32)
    k = 1.0 / np.sqrt(n)
    temperature = 0.1
    cooling = temperature / (iterations + 1)
    pull = (adjacency / k).astype(np.float32)
    dx, dy, distance, force = (np.empty((n, n), np.float32) for _ in range(4))
    for _ in range(iterations):  # x and y as 2-D matrices: a third of the work of one (n, n, 2) array
        x, y = pos[:, 0], pos[:, 1]
        np.subtract(x[:, None], x[None, :], out=dx)
        np.subtract(y[:, None], y[None, :], out=dy)
        np.multiply(dx, dx, out=distance)
        np.multiply(dy, dy, out=force)
        distance += force
        np.sqrt(distance, out=distance)
        np.maximum(distance, 0.01, out=distance)
        np.multiply(distance, distance, out=force)  # force = k^2 / distance^2 - pull * distance
        np.divide(np.float32(k * k), force, out=force)
        np.multiply(pull, distance, out=distance)
        force -= distance
        dx *= force
        dy *= force
        displacement = np.stack([dx.sum(axis=1), dy.sum(axis=1)], axis=1) - gravity * pos
        length = np.maximum(np.sqrt((displacement**2).sum(axis=-1)), 0.01)
        pos += (displacement * (temperature / length)[:, None]).astype(np.float32)
        temperature -= cooling
    return pos.astype(np.float64)


def _unit_disc(pos: np.ndarray) -> np.ndarray:
    """Centre `pos` on the origin and scale it into the unit disc."""
    if len(pos) == 0:
        return pos
    pos = pos - pos.mean(axis=0)
    reach = np.sqrt((pos**2).sum(axis=1)).max()
    return pos / reach if reach > 0 else pos


def _separate(centres: np.ndarray, radii: np.ndarray, *, sweeps: int = 200) -> np.ndarray:
    """Push discs apart (each pair by half their overlap, along the line joining them) until none overlap."""
    centres = centres.copy()
    order = np.arange(len(centres))
    for sweep in range(sweeps):
        delta = centres[:, None, :] - centres[None, :, :]
        distance = np.sqrt((delta**2).sum(axis=-1))
        overlap = radii[:, None] + radii[None, :] - distance
        np.fill_diagonal(overlap, 0.0)
        if overlap.max(initial=0.0) <= 1e-6:
            break
        # Coincident centres get a fixed, opposite pair of directions instead of a division by zero.
        fallback = np.sign(order[None, :] - order[:, None])[..., None] * [np.cos(sweep), np.sin(sweep)]
        direction = np.where(distance[..., None] > 1e-9, delta / np.maximum(distance, 1e-9)[..., None], fallback)
        centres += 0.5 * np.einsum("ijk,ij->ik", direction, np.maximum(overlap, 0.0))
    return centres


def _shelf_pack(lows: Sequence[np.ndarray], highs: Sequence[np.ndarray], *, gap: float,
                aspect: float = ASPECT) -> list[np.ndarray]:
    """Offsets that move each box (`lows[i]`..`highs[i]`) onto a sheet about `aspect` times as wide as
    high, in the given order (largest first), each as high up and then as far left as it fits
    (a skyline packer: small boxes fill the space beside and under the big ones, not rows of their own)."""
    sizes = [(float(w) + gap, float(h) + gap) for w, h in (high - low for low, high in zip(lows, highs))]
    width = max([float(np.sqrt(sum(w * h for w, h in sizes) * aspect)) * 1.05] + [w for w, _ in sizes])
    skyline = [(0.0, width, 0.0)]  # segments (x, width, top of what is packed there), left to right
    corners = []
    for w, h in sizes:
        best = None
        for i, (x, _, _) in enumerate(skyline):
            if x + w > width + 1e-6:
                break
            top, reach, j = 0.0, x, i
            while reach < x + w - 1e-6:  # the segments under the box
                top = max(top, skyline[j][2])
                reach = skyline[j][0] + skyline[j][1]
                j += 1
            if best is None or top < best[0] - 1e-6:
                best = (top, x)
        top, x = best
        corners.append((x, top))
        skyline = _raise(skyline, x, w, top + h)
    height = max((y + h for (_, y), (_, h) in zip(corners, sizes)), default=0.0)
    total = np.array([width, height])
    return [np.array(corner) - low - total / 2 for corner, low in zip(corners, lows)]


def _raise(skyline: list[tuple[float, float, float]], x: float, w: float, top: float) -> list[tuple[float, float, float]]:
    """The skyline with the span x..x+w raised to `top` (neighbouring segments of one height merged)."""
    out = [(x, w, top)]
    for sx, sw, st in skyline:
        end = sx + sw
        if end <= x + 1e-9 or sx >= x + w - 1e-9:
            out.append((sx, sw, st))
            continue
        if sx < x:
            out.append((sx, x - sx, st))
        if end > x + w:
            out.append((x + w, end - x - w, st))
    merged: list[tuple[float, float, float]] = []
    for segment in sorted(out):
        if merged and abs(merged[-1][2] - segment[2]) < 1e-9:
            merged[-1] = (merged[-1][0], merged[-1][1] + segment[1], segment[2])
        else:
            merged.append(segment)
    return merged
