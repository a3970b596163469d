"""JSON-LD, written by hand: one compacted node object a line, streamed subject by subject.

Neither library writes this shape fast enough: pyoxigraph writes expanded JSON-LD only, and
rdflib's compacting serialiser is far slower (benchmarks/README.md, "Turtle and JSON-LD: library
or hand-written", has the figures). Each node object is what `json.dumps(node, ensure_ascii=False)`
would write, with our prefixes as the `@context` and a single value unwrapped.
"""
from __future__ import annotations

import json

import networkx as nx

from kg._util.io import Output
from kg.rdf.iris import DEFAULT_BASE_IRI
from kg.rdf.model import statements
from kg.rdf.terms import Term, json_string
from kg.rdf.vocab import PREFIXES
from kg.rdf.writer import SubjectWriter, runs, write_subjects


def jsonld_context(base_iri: str = DEFAULT_BASE_IRI) -> dict[str, str]:
    """The JSON-LD `@context` of `graph.jsonld`: our prefixes plus `kgr:` for the base IRI.

    Examples
    --------
    >>> jsonld_context("https://example.org/")["kgr"], jsonld_context()["schema"]
    ('https://example.org/', 'https://schema.org/')
    """
    return {**PREFIXES, "kgr": base_iri}


class JsonLdWriter(SubjectWriter):
    """JSON-LD node objects, one a line between `head` and `tail`: per predicate its key, then its
    object slot, several values of a key in a list; the subject slot takes `{"@id": ...`."""

    form = 2
    tail = "\n]}\n"

    def __init__(self, base_iri: str = DEFAULT_BASE_IRI) -> None:
        super().__init__()
        context = json.dumps(jsonld_context(base_iri), ensure_ascii=False, sort_keys=True)
        self.head = f'{{"@context": {context},\n "@graph": ['
        self._separator = "\n"  # before the first node object; ",\n" before the others

    def layout(self, predicates: tuple[Term, ...]) -> list[str | None]:
        layout: list[str | None] = [None]
        close = ""  # `]` once a predicate's several values are all written
        for p, first, last in runs(predicates):
            layout += [f"{close}, {p[2]}: {'' if last else '['}" if first else ", ", None]
            close = "" if first else "]"
        layout.append(f"{close}}}")
        return layout

    def subject(self, iri: str) -> str:
        separator, self._separator = self._separator, ",\n"
        return f'{separator}{{"@id": {json_string(iri)}'


def write_jsonld(G: nx.DiGraph, output: Output, base_iri: str = DEFAULT_BASE_IRI,
                 language: str | None = "en", coauthors: nx.Graph | None = None) -> None:
    """Write the export as compacted JSON-LD (`@context` and `@graph`) to a path or an open binary file.

    Examples
    --------
    >>> import io, json, networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_node("area:vision", kind="area", label="Vision")
    >>> out = io.BytesIO()
    >>> write_jsonld(G, out)
    >>> [node["skos:prefLabel"] for node in json.loads(out.getvalue())["@graph"] if "kg:Area" in node["@type"]]
    [{'@language': 'en', '@value': 'Vision'}]
    """
    write_subjects(statements(G, base_iri, language, coauthors), [(JsonLdWriter(base_iri), output)])
