"""The two projections of the hub graph: co-authorship (authors) and the topic map (methods).

Each is a new undirected graph derived from the hub; every edge lists the papers behind it, so a
user can always ask "why is this link here?".
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from itertools import combinations
from typing import NamedTuple

import networkx as nx

from kg.errors import ArgumentError
from kg.graph.nodes import nodes_of_kind, paper_authors, paper_methods


@dataclass(frozen=True)
class Cuts:
    """What a projection keeps of its nodes and links; the default keeps everything.

    Nodes with fewer than `min_papers` papers go, then all but the `top_n` with most papers (ties
    by key); of the links left, those lighter than `min_weight` go, then all but the `top_links`
    heaviest (ties by key). None means no cap.

    Examples
    --------
    >>> cuts = Cuts(min_papers=2, top_n=1)
    >>> cuts.nodes({"a": 3, "b": 3, "c": 1})
    ['a']
    >>> Cuts(top_links=1).links({("a", "b"): 1.0, ("a", "c"): 2.0})
    [('a', 'c')]
    """

    min_weight: float = 0
    min_papers: int = 1
    top_n: int | None = None
    top_links: int | None = None

    def nodes(self, counts: Mapping[str, int]) -> list[str]:
        """The keys of `counts` (node -> papers) kept by `min_papers` and `top_n`, sorted."""
        keys = sorted(k for k, n in counts.items() if n >= self.min_papers)
        if self.top_n is not None:
            keys = sorted(sorted(keys, key=lambda k: (-counts[k], k))[:max(self.top_n, 0)])
        return keys

    def links(self, weights: Mapping[tuple[str, str], float], pairs: Iterable[tuple[str, str]] | None = None
              ) -> list[tuple[str, str]]:
        """The `pairs` (default: all of `weights`) kept by `min_weight` and `top_links`, sorted."""
        links = sorted(pair for pair in (weights if pairs is None else pairs) if weights[pair] >= self.min_weight)
        if self.top_links is not None and len(links) > self.top_links:
            links = sorted(sorted(links, key=lambda pair: (-weights[pair], pair))[:max(self.top_links, 0)])
        return links


#: A projection's links: (u, v) with u < v -> the papers they share, sorted (edges share these lists).
Pairs = dict[tuple[str, str], list[str]]


class _PairTable(NamedTuple):
    """What a projection is cut from: papers per node (every node of the kind), and per linked
    pair its papers and raw weight (before any normalisation)."""

    counts: dict[str, int]
    papers: Pairs
    weights: dict[tuple[str, str], float]


def _pair_table(G: nx.DiGraph, kind: str, members: Callable[[str], list[str]],
                weigh: Callable[[Pairs, dict[str, int]], dict[tuple[str, str], float]]) -> _PairTable:
    """One pass over the papers: `members(paper)` lists a paper's nodes of `kind`; `weigh(pairs,
    sizes)` gives each pair its raw weight (`sizes`: paper -> number of members)."""
    groups = [(paper, sorted(members(paper))) for paper in sorted(nodes_of_kind(G, "paper"))]  # lists come out sorted
    counts = dict.fromkeys(nodes_of_kind(G, kind), 0)
    pairs: Pairs = defaultdict(list)
    for paper, group in groups:
        for node in group:
            counts[node] += 1
        for pair in combinations(group, 2):
            pairs[pair].append(paper)
    return _PairTable(counts, pairs, weigh(pairs, {paper: len(group) for paper, group in groups}))


def is_whole(P: nx.Graph, kind: str | None = None) -> bool:
    """Whether `P` is a whole projection (of `kind`, when given): made with no node or link cut.

    Examples
    --------
    >>> import kg
    >>> C = coauthor_graph(kg.build_graph(kg.read().papers))
    >>> is_whole(C, "coauthor"), is_whole(C, "topic"), is_whole(coauthor_graph(kg.build_graph(kg.read().papers), top_n=5))
    (True, False, False)
    """
    cut = P.graph.get("cut", {})
    return (kind is None or P.graph.get("kind") == kind) and cut.get("nodes_kept") == cut.get("nodes_total") \
        and cut.get("edges_kept") == cut.get("edges_total")


def _table_of(P: nx.Graph, name: str, raw: str) -> _PairTable:
    """The pair table of a whole projection `P` (named `name`, raw weights in edge attribute `raw`)."""
    if not is_whole(P, name):
        raise ArgumentError(f"`within` must be a whole {name} projection (made with no cuts)")
    papers: Pairs = {}
    weights: dict[tuple[str, str], float] = {}
    for u, v, data in P.edges(data=True):
        pair = (u, v) if u < v else (v, u)
        papers[pair], weights[pair] = data["papers"], data[raw]
    return _PairTable(dict(P.nodes(data="papers")), papers, weights)


def _project(
    table: _PairTable,
    kind: str,
    name: str,
    node_attrs: Callable[[str], dict],
    *,
    normalize: Callable[[Pairs], dict[tuple[str, str], float]] | None,
    cuts: Cuts,
) -> nx.Graph:
    """The shared co-occurrence projection, cut from its pair table: nodes that occur together on a
    paper are linked.

    `cuts` keeps nodes; `normalize(pairs)`, when given, replaces the raw weights on the network
    left after the node cuts; then `cuts` cuts links. Links are cut in plain dicts and only the
    kept ones become edges. Nodes and edges are inserted sorted by key, so the result (and any
    seeded algorithm run on it) does not depend on the input order.
    """
    keep = cuts.nodes(table.counts)
    pairs = table.papers
    if len(keep) < len(table.counts):
        kept = set(keep)
        pairs = {(u, v): papers for (u, v), papers in pairs.items() if u in kept and v in kept}
    weights = normalize(pairs) if normalize is not None else table.weights
    links = cuts.links(weights, pairs)
    P = nx.Graph(kind=name)
    P.add_nodes_from((node, {"kind": kind, **node_attrs(node), "papers": table.counts[node]}) for node in keep)
    P.add_edges_from((u, v, {"count": len(pairs[u, v]), "weight": weights[u, v], "papers": pairs[u, v]})
                     for u, v in links)
    P.graph["cut"] = {
        "nodes_total": len(table.counts), "nodes_kept": P.number_of_nodes(),
        "edges_total": len(table.papers), "edges_kept": P.number_of_edges(),
        **asdict(cuts),
    }
    return P


def coauthor_graph(
    G: nx.DiGraph,
    counting: str = "full",
    *,
    cuts: Cuts | None = None,
    within: nx.Graph | None = None,
    **changes,
) -> nx.Graph:
    """The co-authorship network: author nodes, linked when they share a paper.

    Edge `weight`: with `counting="full"` the number of shared papers; with `"fractional"` each
    paper with n authors gives each of its author pairs 1/(n-1) (VOSviewer's fractional counting:
    an author's total link strength then equals the number of their multi-author papers). `count`
    is always the number of shared papers, `papers` their node keys (sorted). Nodes carry `label`,
    `papers` (how many papers) and `kind`; authors without co-authors stay as isolated nodes.
    Truncated author lists (`等`) count only the listed authors. `cuts` cut nodes first, then
    links; `P.graph["cut"]` says what was cut. `within`, the whole co-author graph of `G` with the
    same `counting` made before, is cut instead of reading `G`'s papers again.

    Parameters
    ----------
    G : networkx.DiGraph
        The hub graph (`build_graph`).
    counting : {"full", "fractional"}
        How a shared paper weighs a link.
    cuts : Cuts, optional
        What to keep (default: `Cuts()`, everything).
    within : networkx.Graph, optional
        The whole projection made before, cut instead of `G`.
    **changes
        Fields of `Cuts` to change (`top_n=100`, `min_weight=2`, ...).

    Returns
    -------
    networkx.Graph
        Author nodes (`label`, `papers`), links (`weight`, `count`, `papers`), `graph["cut"]`.

    Examples
    --------
    >>> import kg
    >>> C = coauthor_graph(kg.build_graph(kg.read().papers))
    >>> C.graph["kind"], C.graph["counting"], C.number_of_nodes() > 0
    ('coauthor', 'full', True)
    """
    if counting not in ("full", "fractional"):
        raise ArgumentError(f"counting must be 'full' or 'fractional', not {counting!r}")
    if within is not None and within.graph.get("counting") != counting:
        raise ArgumentError(f"`within` was made with counting {within.graph.get('counting')!r}, not {counting!r}")
    table = _table_of(within, "coauthor", "weight") if within is not None else _pair_table(
        G, "author", lambda paper: paper_authors(G, paper), _count_weights if counting == "full" else _fractional_weights)
    P = _project(table, "author", "coauthor", lambda node: {"label": G.nodes[node]["label"]}, normalize=None,
                 cuts=replace(cuts or Cuts(), **changes))
    P.graph["counting"] = counting
    return P


def association_strength(pairs: Pairs) -> dict[tuple[str, str], float]:
    """The association strength of each link (VOSviewer's default normalisation):

        AS_ij = 2m · c_ij / (k_i · k_j)

    where c_ij is the co-occurrence count of i and j (`len(pairs[i, j])`), k_i = Σ_j c_ij the
    total co-occurrence of i (its total link strength) and m = Σ_{i<j} c_ij the total over all
    links. This is van Eck & Waltman (2009) s_A = c_ij / (w_i w_j) scaled by 2m so that 1 is what
    independence of i and j predicts: >1 means they meet more often than their frequencies alone
    explain.
    """
    strength: Counter[str] = Counter()
    for (u, v), papers in pairs.items():
        strength[u] += len(papers)
        strength[v] += len(papers)
    total = sum(len(papers) for papers in pairs.values())
    return {(u, v): 2 * total * len(papers) / (strength[u] * strength[v]) for (u, v), papers in pairs.items()}


def topic_graph(
    G: nx.DiGraph,
    normalize: str | None = None,
    *,
    cuts: Cuts | None = None,
    within: nx.Graph | None = None,
    **changes,
) -> nx.Graph:
    """The topic map: method nodes, linked when two methods are mentioned by the same paper.

    Edge `count` = papers mentioning both, `papers` their node keys; `weight` = count, or with
    `normalize="association"` the association strength (see `association_strength`), computed on
    the network left after the node cuts (as VOSviewer does after selecting items). Nodes carry
    `label`, `alt_labels` and `papers` (how many papers mention the method). The cuts are those of
    `coauthor_graph`; `within`, the whole topic graph of `G` made before (any `normalize`), is cut
    instead of reading `G`'s papers again.

    Parameters
    ----------
    G : networkx.DiGraph
        The hub graph (`build_graph`).
    normalize : {None, "association"}
        Raw co-occurrence counts, or association strength as link weight.
    cuts : Cuts, optional
        What to keep, as in `coauthor_graph`.
    within : networkx.Graph, optional
        The whole topic graph made before, cut instead of `G`.
    **changes
        Fields of `Cuts` to change, as in `coauthor_graph`.

    Returns
    -------
    networkx.Graph
        Method nodes (`label`, `alt_labels`, `papers`), links (`weight`, `count`, `papers`).

    Examples
    --------
    >>> import kg
    >>> papers = kg.read().papers
    >>> T = topic_graph(kg.build_graph(papers, kg.extract_methods(papers)), top_n=10)
    >>> T.graph["kind"], T.number_of_nodes()
    ('topic', 10)
    """
    if normalize not in (None, "association"):
        raise ArgumentError(f"normalize must be None or 'association', not {normalize!r}")
    table = _table_of(within, "topic", "count") if within is not None else _pair_table(
        G, "method", lambda paper: paper_methods(G, paper), _count_weights)
    P = _project(table, "method", "topic",
                 lambda node: {"label": G.nodes[node]["label"], "alt_labels": list(G.nodes[node].get("alt_labels", []))},
                 normalize=association_strength if normalize == "association" else None,
                 cuts=replace(cuts or Cuts(), **changes))
    P.graph["normalize"] = normalize or "none"
    return P


def _count_weights(pairs: Pairs, sizes: Mapping[str, int]) -> dict[tuple[str, str], float]:
    """Raw co-occurrence: weight = count."""
    return {pair: len(papers) for pair, papers in pairs.items()}


def _fractional_weights(pairs: Pairs, sizes: Mapping[str, int]) -> dict[tuple[str, str], float]:
    """Fractional counting: a paper with n members gives each of its pairs 1/(n-1)."""
    return {pair: sum(1.0 / (sizes[paper] - 1) for paper in papers) for pair, papers in pairs.items()}
