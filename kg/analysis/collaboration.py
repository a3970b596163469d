"""Collaboration indicators of a knowledge graph: authorships, authors per paper, single-author
share, collaboration index (formulas in docs/analysis.md)."""
from __future__ import annotations

import networkx as nx

from kg.analysis._common import rounded
from kg.graph import nodes_of_kind


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
