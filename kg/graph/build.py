"""Records -> the NetworkX knowledge graph (the hub every export reads), and its two projections.

`build_graph` turns `Paper`s (and the `Method`s extraction found in them) into one `nx.DiGraph`
whose node keys, attributes and edge relations are a fixed contract (see docs/analysis.md):

    paper:<key>   -authored_by->  author:<author key>     (position, name as written)
    paper:<key>   -in_track---->  track:<area>--<sub>      (or area:<area> for one-level tracks)
    track:<...>   -broader----->  area:<area>
    paper:<key>   -mentions---->  method:<key>             (count, evidence)

The projections (`coauthor_graph`, `topic_graph`) are new undirected graphs derived from it; every
edge lists the papers behind it so a user can always ask "why is this link here?".

Everything is deterministic: same input, same nodes and edges in the same order, so the exports
built from the graph are byte-identical from run to run.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple

import networkx as nx

from kg.errors import UsageError
from kg.names import slugify
from kg.records import Method, Paper, Track

if TYPE_CHECKING:
    from kg.graph.aliases import Aliases

#: A sentence that announces the paper's own contribution ("we propose X", "this paper introduces X").
_PROPOSES = re.compile(
    r"\b(?:we|this\s+(?:paper|work|article))\s+(?:propose|introduce|present|develop)s?\b", re.IGNORECASE
)


# ------------------------------------------------------------------------------------ node keys
def paper_node(paper: Paper) -> str:
    return f"paper:{paper.key}"


def author_node(key: str) -> str:
    return f"author:{key}"


def area_node(area: str) -> str:
    return f"area:{slugify(area)}"


def track_node(track: Track) -> str:
    """The node a paper's `in_track` edge points to: the subarea's track node, or the area itself."""
    if track.subarea is None:
        return area_node(track.area)
    return f"track:{slugify(track.area)}--{slugify(track.subarea)}"


def method_node(key: str) -> str:
    return f"method:{key}"


# ---------------------------------------------------------------------------------- build_graph
def proposed_method(methods: Sequence[Method]) -> Method | None:
    """The method a paper proposes: the first whose mention follows "we propose/introduce/present"
    in its sentence; else the paper's first method; None when it has none."""
    for method in methods:
        for mention in method.mentions:
            announced = _PROPOSES.search(mention.sentence)
            if announced and mention.sentence.find(mention.text, announced.end()) >= 0:
                return method
    return methods[0] if methods else None


def paper_label(paper: Paper) -> str:
    """The display label of a paper without methods: `First Author et al.` (`First Author` when alone).

    Listings have no titles, so a paper's label is derived: `build_graph` uses the label of the
    method it proposes (`proposed_method`) when it has one, else this.
    """
    if not paper.authors:
        return f"paper {paper.display_id}"
    first = paper.authors[0].name
    return first if len(paper.authors) == 1 and not paper.authors_truncated else f"{first} et al."


def _paper_attributes(paper: Paper, label: str, n_authors: int) -> dict:
    attrs = {
        "kind": "paper", "label": label, "key": paper.key, "id": paper.id, "title": paper.title,
        "abstract": paper.abstract, "text": paper.text, "authors_truncated": paper.authors_truncated,
        "n_authors": n_authors, "year": paper.year, "venue": paper.venue,
        "keywords": list(paper.keywords) or None,
        "source_file": paper.source.file if paper.source else None,
        "source_line": paper.source.line if paper.source else None,
    }
    return {k: v for k, v in attrs.items() if v is not None}


def _evidence(method: Method, shared: dict) -> list[dict]:
    """The `evidence` of a `mentions` edge. Equal mention texts and offsets are stored once,
    through `shared` (one per graph): the 1.6 million items of the 100,000-paper benchmark corpus
    hold 3,118 distinct texts and 1,914 distinct offsets (170 MB less as separate objects)."""
    one = shared.setdefault
    return [{"text": one(m.text, m.text), "start": one(m.start, m.start), "end": one(m.end, m.end),
             "sentence": m.sentence} for m in method.mentions]


def build_graph(
    papers: Iterable[Paper],
    methods: Mapping[str, Sequence[Method]] | None = None,
    *,
    aliases: Aliases | None = None,
) -> nx.DiGraph:
    """Build the knowledge graph from records (and the methods extracted per `Paper.key`).

    Nodes are inserted papers first (input order), then authors, tracks, areas and methods in order
    of first appearance; edges paper by paper (authors by position, track, methods in the given
    order). A paper that appears twice (same key) is kept once (`G.graph["duplicate_papers"]`); an
    author listed twice on one paper (e.g. merged by `aliases`) keeps the first position. `aliases`
    (see `kg.graph.aliases`) is applied to every author before anything is counted.
    """
    methods = methods or {}
    resolve: Callable = aliases.resolve if aliases is not None else (lambda paper, author: (author.key, None))
    G = nx.DiGraph(kind="kg")

    kept: list[tuple[Paper, list[tuple[str, str]]]] = []  # (paper, [(author key, name as written)])
    seen_papers: set[str] = set()
    spellings: dict[str, Counter] = {}  # author key -> spelling counts (insertion = first seen)
    canonical: dict[str, str] = {}  # author key -> label the aliases file gives
    duplicates = 0
    for paper in papers:
        if paper.key in seen_papers:
            duplicates += 1
            continue
        seen_papers.add(paper.key)
        signatures: list[tuple[str, str]] = []
        for author in paper.authors:
            key, label = resolve(paper, author)
            if any(key == k for k, _ in signatures):
                continue
            signatures.append((key, author.name))
            spellings.setdefault(key, Counter())[author.name] += 1
            if label is not None:
                canonical.setdefault(key, label)
        kept.append((paper, signatures))

    method_labels: dict[str, str] = {}  # method key -> label first seen (the node's label)
    method_alts: dict[str, set[str]] = defaultdict(set)
    for paper, _ in kept:
        for method in methods.get(paper.key, ()):
            method_labels.setdefault(method.key, method.label)
            method_alts[method.key].update(method.alt_labels, {method.label})

    for paper, signatures in kept:
        proposed = proposed_method(methods.get(paper.key, ()))
        label = method_labels[proposed.key] if proposed is not None else paper_label(paper)
        G.add_node(paper_node(paper), **_paper_attributes(paper, label, len(signatures)))
    for key, counts in spellings.items():
        # most_common keeps first-seen order among equal counts: ties go to the first spelling seen.
        label = canonical.get(key) or counts.most_common(1)[0][0]
        G.add_node(author_node(key), kind="author", label=label, names=sorted(counts))
    for paper, _ in kept:
        if paper.track is not None:
            area = area_node(paper.track.area)
            if area not in G:
                G.add_node(area, kind="area", label=paper.track.area)
            track = track_node(paper.track)
            if track not in G:
                G.add_node(track, kind="track", label=paper.track.label, area=paper.track.area,
                           subarea=paper.track.subarea)
                G.add_edge(track, area, rel="broader")
    for key, label in method_labels.items():
        G.add_node(method_node(key), kind="method", label=label, alt_labels=sorted(method_alts[key] - {label}))

    shared: dict = {}
    for paper, signatures in kept:
        source = paper_node(paper)
        for position, (key, name) in enumerate(signatures, start=1):
            G.add_edge(source, author_node(key), rel="authored_by", position=position, name=name)
        if paper.track is not None:
            G.add_edge(source, track_node(paper.track), rel="in_track")
        for method in methods.get(paper.key, ()):
            G.add_edge(source, method_node(method.key), rel="mentions", count=method.count,
                       evidence=_evidence(method, shared))

    kinds = Counter(kind for _, kind in G.nodes(data="kind"))
    G.graph.update({f"n_{kind}s": kinds.get(kind, 0) for kind in ("paper", "author", "track", "area", "method")})
    G.graph["n_truncated"] = sum(paper.authors_truncated for paper, _ in kept)
    G.graph["duplicate_papers"] = duplicates
    return G


# ------------------------------------------------------------------------------------ accessors
def nodes_of_kind(G: nx.DiGraph, kind: str) -> list[str]:
    """Node keys of one kind, in graph order."""
    return [n for n, k in G.nodes(data="kind") if k == kind]


def paper_authors(G: nx.DiGraph, paper: str) -> list[str]:
    """The author nodes of a paper node, by position."""
    edges = [(d["position"], v) for _, v, d in G.out_edges(paper, data=True) if d["rel"] == "authored_by"]
    return [v for _, v in sorted(edges)]


def paper_methods(G: nx.DiGraph, paper: str) -> list[str]:
    """The method nodes a paper node mentions, in edge order."""
    return [v for _, v, rel in G.out_edges(paper, data="rel") if rel == "mentions"]


def paper_track(G: nx.DiGraph, paper: str) -> str | None:
    """The track (or area, for one-level tracks) node of a paper node; None when unknown."""
    return next((v for _, v, rel in G.out_edges(paper, data="rel") if rel == "in_track"), None)


# ---------------------------------------------------------------------------------- projections
def _select(counts: Mapping[str, int], min_papers: int, top_n: int | None) -> list[str]:
    """Keys with at least `min_papers`, then the `top_n` with most papers (ties by key); sorted by key."""
    keys = sorted(k for k, n in counts.items() if n >= min_papers)
    if top_n is not None:
        keys = sorted(sorted(keys, key=lambda k: (-counts[k], k))[:max(top_n, 0)])
    return keys


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


def _table_of(P: nx.Graph, name: str, raw: str) -> _PairTable:
    """The pair table of a whole projection `P` (named `name`, raw weights in edge attribute `raw`)."""
    cut = P.graph.get("cut", {})
    if P.graph.get("kind") != name or cut.get("nodes_kept") != cut.get("nodes_total") or \
            cut.get("edges_kept") != cut.get("edges_total"):
        raise UsageError(f"`within` must be a whole {name} projection (made with no cuts)")
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
    min_weight: float,
    min_papers: int,
    top_n: int | None,
    top_links: int | None = None,
) -> nx.Graph:
    """The shared co-occurrence projection, cut from its pair table: nodes that occur together on a
    paper are linked.

    `min_papers`/`top_n` keep nodes; `normalize(pairs)`, when given, replaces the raw weights on
    the network left after the node cuts; then `min_weight` and `top_links` cut links. Links are
    cut in plain dicts and only the kept ones become edges. Nodes and edges are inserted sorted by
    key, so the result (and any seeded algorithm run on it) does not depend on the input order.
    """
    keep = _select(table.counts, min_papers, top_n)
    pairs = table.papers
    if len(keep) < len(table.counts):
        kept = set(keep)
        pairs = {(u, v): papers for (u, v), papers in pairs.items() if u in kept and v in kept}
    weights = normalize(pairs) if normalize is not None else table.weights
    links = sorted(pair for pair in pairs if weights[pair] >= min_weight)
    if top_links is not None and len(links) > top_links:
        ranked = sorted(links, key=lambda pair: (-weights[pair], pair))
        links = sorted(ranked[:max(top_links, 0)])
    P = nx.Graph(kind=name)
    P.add_nodes_from((node, {"kind": kind, **node_attrs(node), "papers": table.counts[node]}) for node in keep)
    P.add_edges_from((u, v, {"count": len(pairs[u, v]), "weight": weights[u, v], "papers": pairs[u, v]})
                     for u, v in links)
    P.graph["cut"] = {
        "nodes_total": len(table.counts), "nodes_kept": P.number_of_nodes(),
        "edges_total": len(table.papers), "edges_kept": P.number_of_edges(),
        "min_weight": min_weight, "min_papers": min_papers, "top_n": top_n, "top_links": top_links,
    }
    return P


def coauthor_graph(
    G: nx.DiGraph,
    counting: str = "full",
    min_weight: float = 0,
    min_papers: int = 1,
    top_n: int | None = None,
    top_links: int | None = None,
    *,
    within: nx.Graph | None = None,
) -> nx.Graph:
    """The co-authorship network: author nodes, linked when they share a paper.

    Edge `weight`: with `counting="full"` the number of shared papers; with `"fractional"` each
    paper with n authors gives each of its author pairs 1/(n-1) (VOSviewer's fractional counting:
    an author's total link strength then equals the number of their multi-author papers). `count`
    is always the number of shared papers, `papers` their node keys (sorted). Nodes carry `label`,
    `papers` (how many papers) and `kind`; authors without co-authors stay as isolated nodes.
    Truncated author lists (`等`) count only the listed authors. `min_papers`/`top_n` cut nodes
    first, then `min_weight` cuts edges, then `top_links` keeps the heaviest links (ties by key);
    `P.graph["cut"]` says what was cut. `within`, the whole co-author graph of `G` with the same
    `counting` made before, is cut instead of reading `G`'s papers again.
    """
    if counting not in ("full", "fractional"):
        raise UsageError(f"counting must be 'full' or 'fractional', not {counting!r}")
    if within is not None and within.graph.get("counting") != counting:
        raise UsageError(f"`within` was made with counting {within.graph.get('counting')!r}, not {counting!r}")
    table = _table_of(within, "coauthor", "weight") if within is not None else _pair_table(
        G, "author", lambda paper: paper_authors(G, paper), _count_weights if counting == "full" else _fractional_weights)
    P = _project(table, "author", "coauthor", lambda node: {"label": G.nodes[node]["label"]}, normalize=None,
                 min_weight=min_weight, min_papers=min_papers, top_n=top_n, top_links=top_links)
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
    min_weight: float = 0,
    min_papers: int = 1,
    top_n: int | None = None,
    top_links: int | None = None,
    *,
    within: nx.Graph | None = None,
) -> nx.Graph:
    """The topic map: method nodes, linked when two methods are mentioned by the same paper.

    Edge `count` = papers mentioning both, `papers` their node keys; `weight` = count, or with
    `normalize="association"` the association strength (see `association_strength`), computed on
    the network left after the node cuts (as VOSviewer does after selecting items). Nodes carry
    `label`, `alt_labels` and `papers` (how many papers mention the method). The cuts are those of
    `coauthor_graph`; `within`, the whole topic graph of `G` made before (any `normalize`), is cut
    instead of reading `G`'s papers again.
    """
    if normalize not in (None, "association"):
        raise UsageError(f"normalize must be None or 'association', not {normalize!r}")
    table = _table_of(within, "topic", "count") if within is not None else _pair_table(
        G, "method", lambda paper: paper_methods(G, paper), _count_weights)
    P = _project(table, "method", "topic",
                 lambda node: {"label": G.nodes[node]["label"], "alt_labels": list(G.nodes[node].get("alt_labels", []))},
                 normalize=association_strength if normalize == "association" else None,
                 min_weight=min_weight, min_papers=min_papers, top_n=top_n, top_links=top_links)
    P.graph["normalize"] = normalize or "none"
    return P


def _count_weights(pairs: Pairs, sizes: Mapping[str, int]) -> dict[tuple[str, str], float]:
    """Raw co-occurrence: weight = count."""
    return {pair: len(papers) for pair, papers in pairs.items()}


def _fractional_weights(pairs: Pairs, sizes: Mapping[str, int]) -> dict[tuple[str, str], float]:
    """Fractional counting: a paper with n members gives each of its pairs 1/(n-1)."""
    return {pair: sum(1.0 / (sizes[paper] - 1) for paper in papers) for pair, papers in pairs.items()}
