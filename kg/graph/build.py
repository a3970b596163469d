"""Records -> the NetworkX knowledge graph, the hub every export reads (contract: `kg.graph.nodes`).

Everything is deterministic: same input, same nodes and edges in the same order, so the exports
built from the graph are byte-identical from run to run.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

import networkx as nx

from kg.graph.nodes import area_node, author_node, dataset_node, method_node, paper_node, track_node
from kg.names import fold
from kg.records import Author, Method, MethodMention, Paper

if TYPE_CHECKING:
    from kg.graph.aliases import Aliases

#: A sentence that announces the paper's own contribution ("we propose X", "this paper introduces X").
_PROPOSES = re.compile(
    r"\b(?:we|this\s+(?:paper|work|article))\s+(?:propose|introduce|present|develop)s?\b", re.IGNORECASE
)


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

    A paper's label is its title when the record has one. Listings have no titles, so there it is
    derived: `build_graph` uses the label of the method it proposes (`proposed_method`) when it
    has one, else this; the node's `label_source` says which (`title`, `method` or `authors`).
    """
    if not paper.authors:
        return f"paper {paper.display_id}"
    first = paper.authors[0].name
    return first if len(paper.authors) == 1 and not paper.authors_truncated else f"{first} et al."


def _paper_attributes(paper: Paper, label: str, label_source: str, n_authors: int) -> dict:
    attrs = {
        "kind": "paper", "label": label, "label_source": label_source, "key": paper.key, "id": paper.id, "title": paper.title,
        "abstract": paper.abstract, "text": paper.text, "authors_truncated": paper.authors_truncated,
        "n_authors": n_authors, "year": paper.year, "venue": paper.venue, "doi": paper.doi,
        "keywords": list(paper.keywords) or None,
        "source_file": paper.source.file if paper.source else None,
        "source_line": paper.source.line if paper.source else None,
    }
    return {k: v for k, v in attrs.items() if v is not None}


def _evidence(method: Method, shared: dict) -> tuple[MethodMention, ...]:
    """The `evidence` of a `mentions` edge: the method's mentions as compact records. Equal mention
    texts and offsets are stored once, through `shared` (one per graph): a large corpus repeats a
    few thousand of each millions of times, and extraction (in several processes) makes each anew."""
    one = shared.setdefault
    return tuple([MethodMention(one(m.text, m.text), one(m.start, m.start), one(m.end, m.end), m.sentence)
                  for m in method.mentions])


class Signature(NamedTuple):
    """One author of one paper as the graph counts them: the author key, the name as written, the
    external ids (`scheme:id`) and the label the aliases file gives (or None)."""
    key: str
    name: str
    ids: tuple[str, ...]
    label: str | None


def resolver(aliases: Aliases | None) -> Callable[[Paper, Author], tuple[str, str | None]]:
    """`(paper, author) -> (author key, label or None)`: through `aliases` when given."""
    return aliases.resolve if aliases is not None else (lambda paper, author: (author.key, None))


def signatures(paper: Paper, resolve: Callable[[Paper, Author], tuple[str, str | None]]) -> list[Signature]:
    """The distinct authors of `paper` in order (their positions are 1, 2, ...).

    One name written twice without an id (`Chao Liu, Chao Liu`) is two people: the second gets the
    key `<key>--<paper key>-<position>`; two spellings merged by the aliases file, or one external
    id twice, are one person, at the first position.
    """
    signed: list[Signature] = []
    for position, author in enumerate(paper.authors, start=1):
        key, label = resolve(paper, author)
        if any(key == s.key for s in signed):
            if author.ids or label is not None or not any(s.key == key and fold(s.name) == fold(author.name)
                                                          for s in signed):
                continue  # one person, as an external id or the aliases file says: the first position
            key = f"{key}--{paper.key}-{position}"  # one name twice on a paper: two people of that name
        signed.append(Signature(key, author.name, tuple(f"{scheme}:{value}" for scheme, value in author.ids), label))
    return signed


def _concept_labels(kept: Sequence[tuple[Paper, list]], concepts: Mapping[str, Sequence[Method]]
                    ) -> tuple[dict[str, str], dict[str, set[str]]]:
    """Concept key -> the label first seen (the node's label), and -> every label and variant seen."""
    labels: dict[str, str] = {}
    alts: dict[str, set[str]] = defaultdict(set)
    for paper, _ in kept:
        for concept in concepts.get(paper.key, ()):
            labels.setdefault(concept.key, concept.label)
            alts[concept.key].update(concept.alt_labels, {concept.label})
    return labels, alts


def build_graph(
    papers: Iterable[Paper],
    methods: Mapping[str, Sequence[Method]] | None = None,
    *,
    datasets: Mapping[str, Sequence[Method]] | None = None,
    aliases: Aliases | None = None,
) -> nx.DiGraph:
    """Build the knowledge graph from records (and the methods extracted per `Paper.key`).

    Nodes are inserted papers first (input order), then authors, tracks, areas and methods in order
    of first appearance; edges paper by paper (authors by position, track, methods in the given
    order). A paper that appears twice (same key) is kept once (`G.graph["duplicate_papers"]`). One
    name written twice on one paper without an id (`Chao Liu, Chao Liu`) is two people: the second
    is an author node of its own (`author:<key>--<paper key>-<position>`); two spellings merged by
    `aliases`, or one external id twice, are one person at the first position. Author nodes carry
    the external ids of their records (`ids`: sorted `scheme:id` strings) when there are any.

    Parameters
    ----------
    papers : iterable of Paper
        The records, as the readers make them.
    methods : mapping, optional
        `Paper.key` -> the paper's `Method`s (what `kg.extract_methods` returns).
    datasets : mapping, optional
        `Paper.key` -> the data sets and benchmarks it mentions (`kg.extract.extract_concepts(...).datasets`):
        `dataset:<key>` nodes, linked by `uses_dataset` edges; never methods.
    aliases : Aliases, optional
        Author merges and splits (`kg.load_aliases`), applied before anything is counted.

    Returns
    -------
    networkx.DiGraph
        The hub graph; its contract is `kg.graph.nodes` and docs/analysis.md.

    Examples
    --------
    >>> import kg
    >>> papers = kg.read().papers
    >>> G = build_graph(papers, kg.extract_methods(papers))
    >>> G.graph["n_papers"], G.nodes[papers[0].node]["kind"]
    (20, 'paper')
    """
    methods, datasets = methods or {}, datasets or {}
    resolve = resolver(aliases)
    G = nx.DiGraph(kind="kg")

    kept: list[tuple[Paper, list[tuple[str, str]]]] = []  # (paper, [(author key, name as written)])
    seen_papers: set[str] = set()
    spellings: dict[str, Counter] = {}  # author key -> spelling counts (insertion = first seen)
    canonical: dict[str, str] = {}  # author key -> label the aliases file gives
    external: dict[str, set[str]] = defaultdict(set)  # author key -> "scheme:id" of every record
    duplicates = 0
    for paper in papers:
        if paper.key in seen_papers:
            duplicates += 1
            continue
        seen_papers.add(paper.key)
        signed = signatures(paper, resolve)
        for s in signed:
            external[s.key].update(s.ids)
            spellings.setdefault(s.key, Counter())[s.name] += 1
            if s.label is not None:
                canonical.setdefault(s.key, s.label)
        kept.append((paper, [(s.key, s.name) for s in signed]))

    method_labels, method_alts = _concept_labels(kept, methods)
    dataset_labels, dataset_alts = _concept_labels(kept, datasets)

    for paper, signed in kept:
        proposed = None if paper.title else proposed_method(methods.get(paper.key, ()))
        if paper.title:
            label, source = paper.title, "title"
        elif proposed is not None:
            label, source = method_labels[proposed.key], "method"
        else:
            label, source = paper_label(paper), "authors"
        G.add_node(paper_node(paper), **_paper_attributes(paper, label, source, len(signed)))
    for key, counts in spellings.items():
        # most_common keeps first-seen order among equal counts: ties go to the first spelling seen.
        label = canonical.get(key) or counts.most_common(1)[0][0]
        ids = {"ids": sorted(external[key])} if external[key] else {}
        G.add_node(author_node(key), kind="author", label=label, names=sorted(counts), **ids)
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
    for key, label in dataset_labels.items():
        G.add_node(dataset_node(key), kind="dataset", label=label, alt_labels=sorted(dataset_alts[key] - {label}))

    shared: dict = {}
    for paper, signed in kept:
        source = paper_node(paper)
        for position, (key, name) in enumerate(signed, start=1):
            G.add_edge(source, author_node(key), rel="authored_by", position=position, name=name)
        if paper.track is not None:
            G.add_edge(source, track_node(paper.track), rel="in_track")
        for method in methods.get(paper.key, ()):
            G.add_edge(source, method_node(method.key), rel="mentions", count=method.count,
                       evidence=_evidence(method, shared))
        for dataset in datasets.get(paper.key, ()):
            G.add_edge(source, dataset_node(dataset.key), rel="uses_dataset", count=dataset.count,
                       evidence=_evidence(dataset, shared))

    kinds = Counter(kind for _, kind in G.nodes(data="kind"))
    G.graph.update({f"n_{kind}s": kinds.get(kind, 0) for kind in ("paper", "author", "track", "area", "method", "dataset")})
    G.graph["n_truncated"] = sum(paper.authors_truncated for paper, _ in kept)
    G.graph["duplicate_papers"] = duplicates
    return G
