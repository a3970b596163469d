"""`write_rdf`: the three RDF files of a build (N-Triples, Turtle, JSON-LD)."""
from __future__ import annotations

import os
from pathlib import Path

import networkx as nx

from kg.rdf.iris import DEFAULT_BASE_IRI
from kg.rdf.jsonld import JsonLdWriter
from kg.rdf.model import statements
from kg.rdf.ntriples import NTriplesWriter
from kg.rdf.turtle import TurtleWriter
from kg.rdf.writer import write_subjects


def write_rdf(G: nx.DiGraph, out_dir: str | os.PathLike[str], base_iri: str = DEFAULT_BASE_IRI,
              language: str | None = "en", coauthors: nx.Graph | None = None) -> list[Path]:
    """Write `graph.ttl`, `graph.nt` and `graph.jsonld` into `out_dir`.

    One streamed pass over the sorted statements writes all three, subject by subject, each
    atomically (`kg.rdf.writer.write_subjects`).

    Parameters
    ----------
    G : networkx.DiGraph
        A kg graph (`kg.graph.build_graph`).
    out_dir : str or path
        The folder written into (made if missing).
    base_iri : str
        The base of the IRIs minted for nodes (`check_base_iri`).
    language : str or None
        The language tag of texts (abstracts, labels); None for none.
    coauthors : networkx.Graph, optional
        The whole co-author projection of `G` (`kg.graph.build.coauthor_graph(G)`, any counting,
        no cuts), if already made: the `kg:Collaboration` nodes come from it; else it is made here.

    Returns
    -------
    list of Path
        The paths of `graph.ttl`, `graph.nt` and `graph.jsonld`.

    Examples
    --------
    >>> import tempfile, networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_node("area:vision", kind="area", label="Vision")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     [p.name for p in write_rdf(G, folder)]
    ['graph.ttl', 'graph.nt', 'graph.jsonld']
    """
    out = Path(out_dir)
    ttl_path, nt_path, jsonld_path = out / "graph.ttl", out / "graph.nt", out / "graph.jsonld"
    write_subjects(statements(G, base_iri, language, coauthors),
                   [(TurtleWriter(), ttl_path), (NTriplesWriter(), nt_path), (JsonLdWriter(base_iri), jsonld_path)])
    return [ttl_path, nt_path, jsonld_path]
