"""N-Triples, written by hand: canonical lines in byte-sorted order, streamed subject by subject.

N-Triples is a line format; the escaping (`kg.rdf.terms.string_literal`) is tested against
pyoxigraph's parser. Writing a subject is filling a layout made once per list of predicates.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

import networkx as nx

from kg._util.io import Output
from kg.rdf.iris import DEFAULT_BASE_IRI
from kg.rdf.model import statements
from kg.rdf.terms import Statement, Term
from kg.rdf.writer import SubjectWriter, write_subjects


class NTriplesWriter(SubjectWriter):
    """N-Triples lines: per statement, a subject slot, ` <p> `, an object slot and ` .\\n`."""

    def layout(self, predicates: tuple[Term, ...]) -> list[str | None]:
        return [piece for p in predicates for piece in (None, f" {p[0]} ", None, " .\n")]

    def fill(self, pieces: list[str | None], subject: str, objects: list[str]) -> None:
        pieces[0::4] = [f"<{subject}>"] * len(objects)
        pieces[2::4] = objects


def iter_ntriples(G: nx.DiGraph, base_iri: str = DEFAULT_BASE_IRI, language: str | None = "en",
                  coauthors: nx.Graph | None = None) -> Iterator[str]:
    """The export as canonical N-Triples lines in byte-sorted order, without building an rdflib graph.

    Parameters
    ----------
    G, base_iri, language, coauthors
        The graph and the export's settings, as for `kg.rdf.model.iter_triples`.

    Returns
    -------
    iterator of str
        One line per triple, each ending with `\\n`.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_node("area:vision", kind="area", label="Vision")
    >>> print(next(line for line in iter_ntriples(G) if "prefLabel" in line), end="")
    <https://w3id.org/kg/area/vision> <http://www.w3.org/2004/02/skos/core#prefLabel> "Vision"@en .
    """
    return ntriples_lines(statements(G, base_iri, language, coauthors))


def ntriples_lines(subjects: Iterable[tuple[str, list[Statement]]]) -> Iterator[str]:
    """The N-Triples lines of `subjects` (subject IRI, its statements), e.g. of
    `kg.rdf.model.node_statements`, in their order."""
    return (f"<{s}> {p[0]} {o[0]} .\n" for s, made in subjects for p, o in made)


def write_ntriples(G: nx.DiGraph, output: Output, base_iri: str = DEFAULT_BASE_IRI,
                   language: str | None = "en", coauthors: nx.Graph | None = None) -> None:
    """Write the export as N-Triples (the lines of `iter_ntriples`) to a path or an open binary file.

    Examples
    --------
    >>> import io, networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_node("area:vision", kind="area", label="Vision")
    >>> out = io.BytesIO()
    >>> write_ntriples(G, out)
    >>> out.getvalue().count(b"\\n") == len(list(iter_ntriples(G)))
    True
    """
    write_subjects(statements(G, base_iri, language, coauthors), [(NTriplesWriter(), output)])
