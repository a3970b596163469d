"""Turtle, written by pyoxigraph from the N-Triples, with our prefixes."""
from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import networkx as nx
import pyoxigraph as ox

from kg.rdf.iris import DEFAULT_BASE_IRI
from kg.rdf.ntriples import iter_ntriples
from kg.rdf.outputs import Output, binary_output
from kg.rdf.vocab import PREFIXES

#: Our prefixes, longest namespace first: the order in which Turtle declares them.
TURTLE_PREFIXES = dict(sorted(PREFIXES.items(), key=lambda item: -len(item[1])))


class _LinesReader(io.RawIOBase):
    """A readable binary stream over text lines made on demand (pyoxigraph parses it as it reads)."""

    def __init__(self, lines: Iterator[str]) -> None:
        self._lines, self._pending = lines, b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while not self._pending:
            line = next(self._lines, None)
            if line is None:
                return 0
            self._pending = line.encode("utf-8")
        size = min(len(buffer), len(self._pending))
        buffer[:size], self._pending = self._pending[:size], self._pending[size:]
        return size


def ntriples_to_turtle(source: str | os.PathLike[str] | IO[bytes], output: Output) -> None:
    """Write the N-Triples of `source` (a path or a binary file) as Turtle with our prefixes.

    Examples
    --------
    >>> import io
    >>> out = io.BytesIO()
    >>> ntriples_to_turtle(io.BytesIO(b'<https://w3id.org/kg/a/x> <https://schema.org/name> "X" .\\n'), out)
    >>> print(out.getvalue().decode().splitlines()[-1])
    <https://w3id.org/kg/a/x> schema:name "X" .
    """
    if isinstance(source, (str, os.PathLike)):
        triples = ox.parse(path=Path(source), format=ox.RdfFormat.N_TRIPLES)
    else:
        triples = ox.parse(input=source, format=ox.RdfFormat.N_TRIPLES)
    with binary_output(output) as handle:
        ox.serialize(triples, output=handle, format=ox.RdfFormat.TURTLE, prefixes=TURTLE_PREFIXES)


def write_turtle(G: nx.DiGraph, output: Output, base_iri: str = DEFAULT_BASE_IRI,
                 language: str | None = "en", coauthors: nx.Graph | None = None) -> None:
    """Write the export as Turtle to a path or an open binary file (streamed through pyoxigraph).

    Examples
    --------
    >>> import io, networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_node("area:vision", kind="area", label="Vision")
    >>> out = io.BytesIO()
    >>> write_turtle(G, out)
    >>> b'skos:prefLabel "Vision"@en' in out.getvalue()
    True
    """
    ntriples_to_turtle(io.BufferedReader(_LinesReader(iter_ntriples(G, base_iri, language, coauthors))), output)
