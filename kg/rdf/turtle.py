"""Turtle, written by hand: the bytes pyoxigraph's Turtle serialiser writes from our N-Triples with
our prefixes, streamed subject by subject from the same statements.

Issue 19 keeps a hand-written serialiser only where `make bench` shows it at least twice as fast
as the library's; benchmarks/README.md ("Turtle and JSON-LD: library or hand-written") has the
figures, and the tests compare the bytes with pyoxigraph's on hostile graphs. The term texts
(prefixed names, escapes, bare numbers) are made with the terms (`kg.rdf.terms`); this module lays
them out as pyoxigraph does: `s p o , o ;`, then one `p o` a line after a tab, ending in ` .`.
"""
from __future__ import annotations

import networkx as nx

from kg._util.io import Output
from kg.rdf.iris import DEFAULT_BASE_IRI
from kg.rdf.model import statements
from kg.rdf.terms import TURTLE_PREFIXES, Term, turtle_iri
from kg.rdf.writer import SubjectWriter, runs, write_subjects

#: The prefix declarations, written before the first triple (an empty graph is an empty file).
TURTLE_PRELUDE = "".join(f"@prefix {name}: <{namespace}> .\n" for name, namespace in TURTLE_PREFIXES.items())
_NEXT_PREDICATE = " ;\n\t"


class TurtleWriter(SubjectWriter):
    """Turtle subjects: the subject slot, then per predicate ` ;\\n\\t` and its text (or ` , ` for
    its next value) and an object slot, then ` .\\n`."""

    form = 1

    def __init__(self) -> None:
        super().__init__()
        self._prelude = TURTLE_PRELUDE

    def layout(self, predicates: tuple[Term, ...]) -> list[str | None]:
        layout: list[str | None] = [None]
        for i, (p, first, _) in enumerate(runs(predicates)):
            layout += [f"{_NEXT_PREDICATE if i else ' '}{p[1]} " if first else " , ", None]
        layout.append(" .\n")
        return layout

    def subject(self, iri: str) -> str:
        return turtle_iri(iri)

    def text(self, subject: str, predicates: tuple[Term, ...], objects: list[Term]) -> str:
        if not objects:
            return ""
        text = super().text(subject, predicates, objects)
        if self._prelude:
            text, self._prelude = self._prelude + text, ""
        return text


def write_turtle(G: nx.DiGraph, output: Output, base_iri: str = DEFAULT_BASE_IRI,
                 language: str | None = "en", coauthors: nx.Graph | None = None) -> None:
    """Write the export as Turtle with our prefixes to a path or an open binary file (same
    parameters as `kg.rdf.ntriples.iter_ntriples`).

    Examples
    --------
    >>> import io, networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_node("method:gp-ucb", kind="method", label="GP-UCB", alt_labels=["GP UCB"])
    >>> write_turtle(G, out := io.BytesIO())
    >>> [line.strip() for line in out.getvalue().decode().splitlines() if "GP" in line]
    ['skos:altLabel "GP UCB"@en ;', 'skos:prefLabel "GP-UCB"@en ;']
    """
    write_subjects(statements(G, base_iri, language, coauthors), [(TurtleWriter(), output)])
