"""kg.rdf: the knowledge graph as RDF (N-Triples, Turtle, JSON-LD), SPARQL on it, and its endpoint.

Modules, in the order data flows through them:

* `vocab`: our namespaces and prefixes (closed: an unknown term raises AttributeError);
* `iris`: the IRIs minted for graph nodes; checks of the base IRI and language tag;
* `terms`: RDF terms escaped once for each syntax; `model`: graph -> statements, subject by subject;
* `writer`: what the writers share; `ntriples`, `turtle`, `jsonld`: one syntax each (hand-written);
  `write`: `write_rdf`, the build's three files in one pass;
* `parts`: `graph.nt` cut into gzip parts for parallel bulk loading;
* `roundtrip`: `to_rdf` (rdflib) and `from_rdf` (back to NetworkX);
* `named`: the named queries; `store`: the Oxigraph stores; `results`: rows and their formats;
* `sparql`: `query`, which runs them; `serve`: the read-only endpoint; `push`: upload.

Names load their module on first use, so `kg query` imports only what it runs.
"""
from __future__ import annotations

import importlib

#: Public name -> its module.
_LAZY = {
    "DEFAULT_BASE_IRI": "kg.rdf.iris", "check_base_iri": "kg.rdf.iris", "check_language": "kg.rdf.iris",
    "encode_segment": "kg.rdf.iris", "node_iri": "kg.rdf.iris", "iri_node": "kg.rdf.iris",
    "KG": "kg.rdf.vocab", "SCHEMA": "kg.rdf.vocab", "PREFIXES": "kg.rdf.vocab",
    "ONTOLOGY_PATH": "kg.rdf.vocab", "SHAPES_PATH": "kg.rdf.vocab",
    "Lit": "kg.rdf.model", "iter_triples": "kg.rdf.model",
    "iter_ntriples": "kg.rdf.ntriples", "write_ntriples": "kg.rdf.ntriples",
    "write_jsonld": "kg.rdf.jsonld", "jsonld_context": "kg.rdf.jsonld",
    "write_turtle": "kg.rdf.turtle",
    "write_rdf": "kg.rdf.write", "write_store": "kg.rdf.store", "STORE_NAME": "kg.rdf.store",
    "write_graph_parts": "kg.rdf.parts",
    "open_store": "kg.rdf.store", "resolve_data": "kg.rdf.store",
    "to_rdf": "kg.rdf.roundtrip", "from_rdf": "kg.rdf.roundtrip", "bind_prefixes": "kg.rdf.roundtrip",
    "query": "kg.rdf.sparql", "named_queries": "kg.rdf.named", "get_named_query": "kg.rdf.named",
    "load_store": "kg.rdf.store", "format_result": "kg.rdf.results", "QueryResult": "kg.rdf.results",
    "NamedQuery": "kg.rdf.named",
    "serve": "kg.rdf.serve", "push": "kg.rdf.push",
}

__all__ = list(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'kg.rdf' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
