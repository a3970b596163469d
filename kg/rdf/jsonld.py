"""JSON-LD, written by hand: one compacted node object a line, streamed subject by subject.

Neither library writes this shape fast enough: pyoxigraph writes expanded JSON-LD only, and
rdflib's compacting serialiser is far slower (benchmarks/README.md, "Turtle and JSON-LD: library
or hand-written", has the figures). Each node object is what `json.dumps(node, ensure_ascii=False)`
would write, with our prefixes as the `@context` and a single value unwrapped.
"""
from __future__ import annotations

import json

import networkx as nx

from kg.rdf.iris import DEFAULT_BASE_IRI
from kg.rdf.model import statements
from kg.rdf.outputs import Output, text_output
from kg.rdf.terms import Statement, Term, json_string
from kg.rdf.vocab import PREFIXES


def jsonld_context(base_iri: str = DEFAULT_BASE_IRI) -> dict[str, str]:
    """The JSON-LD `@context` of `graph.jsonld`: our prefixes plus `kgr:` for the base IRI.

    Examples
    --------
    >>> jsonld_context("https://example.org/")["kgr"], jsonld_context()["schema"]
    ('https://example.org/', 'https://schema.org/')
    """
    return {**PREFIXES, "kgr": base_iri}


def _layout(predicates: tuple[Term, ...]) -> list[str | None]:
    """The texts of a node object whose statements have these predicates, with a slot (None) for
    the `{"@id": ...` opening and one for each object; several values of a key go in a list."""
    layout: list[str | None] = [None]
    close = ""  # `]` once a predicate's several values are all written
    for i, p in enumerate(predicates):
        first = i == 0 or predicates[i - 1] != p
        last = i + 1 == len(predicates) or predicates[i + 1] != p
        layout += [f"{close}, {p[1]}: {'' if last else '['}" if first else ", ", None]
        close = "" if first else "]"
    layout.append(f"{close}}}")
    return layout


class JsonLdWriter:
    """The JSON-LD node object of one subject (`text`), from a layout made once per predicate list."""

    def __init__(self) -> None:
        self._layouts: dict[tuple[Term, ...], list[str | None]] = {}

    def text(self, subject: str, made: list[Statement]) -> str:
        predicates = tuple(p for p, _ in made)
        layout = self._layouts.get(predicates)
        if layout is None:
            layout = self._layouts[predicates] = _layout(predicates)
        pieces = layout.copy()
        pieces[0] = f'{{"@id": {json_string(subject)}'
        pieces[2::2] = [o[1] for _, o in made]
        return "".join(pieces)


def jsonld_head(base_iri: str = DEFAULT_BASE_IRI) -> str:
    """The document's text before its first node object."""
    context = json.dumps(jsonld_context(base_iri), ensure_ascii=False, sort_keys=True)
    return f'{{"@context": {context},\n "@graph": ['


#: Between node objects, and after the last.
JSONLD_SEPARATOR, JSONLD_TAIL = ",\n", "\n]}\n"


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
    writer = JsonLdWriter()
    with text_output(output) as handle:
        handle.write(jsonld_head(base_iri))
        separator = "\n"
        for subject, made in statements(G, base_iri, language, coauthors):
            handle.write(separator + writer.text(subject, made))
            separator = JSONLD_SEPARATOR
        handle.write(JSONLD_TAIL)
