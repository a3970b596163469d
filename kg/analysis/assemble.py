"""`analyze`: the co-authorship and topic report of a knowledge graph, gathered from the
communities, centralities and tables into one dict with stable keys and deterministically sorted
lists, its full tables as `kg.analysis.Table`s (rows made as they are read);
`kg.analysis.report` renders it (Markdown, JSON, CSV).
"""
from __future__ import annotations

import networkx as nx

from kg.analysis.centrality import betweenness, component_summary, eigenvector_components
from kg.analysis.communities import Partition, community_summary, louvain
from kg.analysis.trends import paper_years, trends
from kg.analysis.collaboration import collaboration
from kg.analysis.tables import (author_table, bridging_methods, cross_track, dataset_table, edge_table, method_table,
                                track_table)
from kg.errors import ArgumentError
from kg.graph.aliases import possible_duplicates
from kg.graph import coauthor_graph, nodes_of_kind, paper_methods, paper_track, topic_graph

#: The version of the report's shape; bumped when a key changes meaning.
REPORT_VERSION = 1


def _partition(P: nx.Graph, given: Partition | None, *, seed: int, resolution: float, name: str) -> Partition:
    """`given` when the caller computed it (with these parameters), else Louvain now."""
    if given is None:
        return louvain(P, seed=seed, resolution=resolution)
    if (given.seed, given.resolution) != (seed, resolution):
        raise ArgumentError(f"{name} were computed with seed {given.seed}, resolution {given.resolution}; "
                         f"the report asks for seed {seed}, resolution {resolution}")
    return given


def analyze(
    G: nx.DiGraph,
    *,
    counting: str = "full",
    seed: int = 42,
    resolution: float = 1.0,
    top: int = 20,
    coauthors: nx.Graph | None = None,
    topics: nx.Graph | None = None,
    coauthor_communities: Partition | None = None,
    topic_communities: Partition | None = None,
) -> dict:
    """The co-authorship and topic report of a knowledge graph (docs/analysis.md lists every key).

    Summary lists hold the `top` first rows; `tables` holds every table whole (the CSV files) as
    `kg.analysis.Table`s: each makes its rows from the graph and projections when it is iterated,
    so the report of a large corpus is not held whole (`write_report` writes each row to
    report.json and its CSV file as it is made). All lists are sorted deterministically and
    `kg._util.io.json_chunks` writes every value, so the same graph and parameters give a
    byte-identical report.json.

    Parameters
    ----------
    G : networkx.DiGraph
        The knowledge graph (`build_graph`).
    counting : {"full", "fractional"}
        Co-authorship counting.
    seed, resolution : int, float
        Louvain's seed and resolution; `seed` also seeds sampled betweenness.
    top : int
        Rows in each summary list.
    coauthors, topics : networkx.Graph, optional
        The projections (`coauthor_graph(G, counting=counting)`, `topic_graph(G,
        normalize="association")`) when the caller has them already.
    coauthor_communities, topic_communities : Partition, optional
        Their communities (`louvain(P, seed=seed, resolution=resolution)`) when the caller has
        computed them already, as `kg build` has for its VOSviewer maps.

    Returns
    -------
    dict
        The report; `report["tables"]` maps a table's name to its `Table`.

    Examples
    --------
    >>> import kg
    >>> papers = kg.read().papers
    >>> report = kg.analyze(kg.build_graph(papers, kg.extract_methods(papers)))
    >>> report["corpus"]["papers"], report["top_authors"][0]["label"]
    (20, 'Jing Liu')
    >>> authors = report["tables"]["authors"]
    >>> len(authors) == report["corpus"]["authors"], authors.head(1) == report["top_authors"][:1]
    (True, True)
    """
    C = coauthors if coauthors is not None else coauthor_graph(G, counting=counting)
    T = topics if topics is not None else topic_graph(G, normalize="association")
    author_partition = _partition(C, coauthor_communities, seed=seed, resolution=resolution,
                                  name="coauthor_communities")
    topic_partition = _partition(T, topic_communities, seed=seed, resolution=resolution, name="topic_communities")
    components, component_of = component_summary(C)
    between, sampled = betweenness(C, seed=seed)
    eigen, fallbacks = eigenvector_components(C)
    authors = author_table(C, author_partition.membership, component_of, between, eigen)
    year_of = paper_years(G) or None  # None: no paper has a year, and no table has year columns
    methods = method_table(G, T, topic_partition.membership, year_of)
    tracks = track_table(G)
    pairs = cross_track(G)
    truncated = sorted(p for p in nodes_of_kind(G, "paper") if G.nodes[p]["authors_truncated"])
    untracked = [p for p in nodes_of_kind(G, "paper") if paper_track(G, p) is None]
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
    undated = G.graph.get("n_papers", 0) - len(year_of) if year_of else 0
    if undated:
        notes.append(f"{undated} paper(s) have no year; they are in no year's figures (never guessed).")
    if fallbacks:
        notes.append(f"eigenvector centrality did not converge in {len(fallbacks)} "
                     "component(s); normalised strength was used there.")

    datasets = dataset_table(G)
    report = {
        "kg_report": REPORT_VERSION,
        "parameters": {"counting": counting, "seed": seed, "resolution": resolution, "top": top,
                       "topic_normalization": "association"},
        "corpus": {
            "papers": G.graph.get("n_papers", 0), "authors": G.graph.get("n_authors", 0),
            "tracks": len(tracks), "areas": G.graph.get("n_areas", 0), "methods": G.graph.get("n_methods", 0),
            "datasets": G.graph.get("n_datasets", 0),
            "coauthor_links": C.number_of_edges(), "method_links": T.number_of_edges(),
            "papers_without_track": len(untracked), "papers_without_methods":
                sum(1 for p in nodes_of_kind(G, "paper") if not paper_methods(G, p)),
            "truncated_author_lists": len(truncated), "truncated_papers": truncated,
        },
        "collaboration": collaboration(G, C),
        "components": components,
        "communities": {
            "coauthors": community_summary(C, author_partition, top=top),
            "topics": community_summary(T, topic_partition, top=top),
        },
        "top_authors": authors.head(top),
        "tracks": tracks.head(top),
        "cross_track": pairs.head(top),
        "top_methods": methods.head(top),
        "method_pairs": method_pairs.head(top),
        "bridging_methods": bridging_methods(methods, top),
        "top_datasets": datasets.head(top),
        "possible_duplicates": possible_duplicates(G),
        "notes": notes,
        "tables": {
            "authors": authors,
            "coauthor_edges": edge_table(C, weight_name="weight", year_of=year_of),
            "methods": methods,
            "method_pairs": method_pairs,
            "tracks": tracks,
            "cross_track": pairs,
            "datasets": datasets,
        },
    }
    if year_of:
        report = _with_trends(report, trends(G), top)
    return report


def _with_trends(report: dict, found: dict, top: int) -> dict:
    """`report` with a `trends` section (the `top` first rows of each list of `found`) before `notes`."""
    lists = ("rising", "declining", "emerging", "bursts")
    section = {"parameters": found["parameters"], "years": found["years"],
               "papers_without_year": found["papers_without_year"],
               **{name: found[name][:top] for name in lists},
               "tracks": {name: found["tracks"][name][:top] for name in lists},
               "new_authors_by_year": found["new_authors_by_year"]}
    ordered = {}
    for key, value in report.items():
        if key == "notes":
            ordered["trends"] = section
        ordered[key] = value
    return ordered
