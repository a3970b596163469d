"""kg: conference paper listings -> a scholarly knowledge graph (NetworkX, RDF/SPARQL, pyvis views).

The public API mirrors the command line: `kg.read()` = `kg papers`, `kg.build()` = `kg build`,
`kg.extract()` = `kg keywords`, `kg.analyze()` = `kg analyze`, `kg.query()` = `kg query`.
Heavy modules (spaCy, rdflib, pyvis) load on first use, so `import kg` stays fast.
"""
from __future__ import annotations

import importlib

from kg.readers import ReadResult, iter_papers, read, sample_path

__version__ = "0.1.0"

_LAZY = {
    "build": "kg.pipeline", "load_graph": "kg.pipeline", "BuildResult": "kg.pipeline",
    "extract": "kg.extract", "make_pipeline": "kg.extract",
    "build_graph": "kg.graph", "coauthor_graph": "kg.graph", "topic_graph": "kg.graph",
    "load_aliases": "kg.aliases", "analyze": "kg.analysis", "write_report": "kg.report",
    "to_rdf": "kg.rdf", "write_rdf": "kg.rdf",
    "query": "kg.sparql", "named_queries": "kg.sparql",
    "coauthor_view": "kg.views", "topic_view": "kg.views", "write_html": "kg.views", "display": "kg.views",
    "evaluate": "kg.evaluate",
}

__all__ = ["ReadResult", "iter_papers", "read", "sample_path", "__version__", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'kg' has no attribute {name!r}")
