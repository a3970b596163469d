"""kg: paper listings and bibliographic exports -> a scholarly knowledge graph (NetworkX, RDF/SPARQL, pyvis).

The public API mirrors the command line: `kg.read()` = `kg papers`, `kg.build()` = `kg build`,
`kg.extract_methods()` = `kg keywords`, `kg.evaluate_methods()` = `kg eval`, `kg.analyze()` =
`kg analyze`, `kg.trends()` = `kg trends`, `kg.query()` = `kg query`. Names load their module on
first use, so `import kg` stays fast; the packages (`kg.readers`, `kg.extract`, `kg.graph`, `kg.rdf`, `kg.analysis`,
`kg.views`, `kg.exports`) follow the data flow.
"""
from __future__ import annotations

import importlib

__version__ = "0.1.0"

#: API name -> (module, name in that module).
_LAZY = {
    "read": ("kg.readers", "read"), "iter_papers": ("kg.readers", "iter_papers"),
    "ReadResult": ("kg.readers", "ReadResult"), "sample_path": ("kg.readers", "sample_path"),
    "build": ("kg.workflow", "build"), "load_graph": ("kg.workflow", "load_graph"),
    "BuildResult": ("kg.workflow", "BuildResult"), "BuildOptions": ("kg.workflow", "BuildOptions"),
    "extract_methods": ("kg.extract", "extract"), "make_pipeline": ("kg.extract", "make_pipeline"),
    "evaluate_methods": ("kg.evaluate", "evaluate"),
    "build_graph": ("kg.graph", "build_graph"), "coauthor_graph": ("kg.graph", "coauthor_graph"),
    "topic_graph": ("kg.graph", "topic_graph"), "load_aliases": ("kg.graph.aliases", "load_aliases"),
    "analyze": ("kg.analysis", "analyze"), "write_report": ("kg.analysis", "write_report"),
    "trends": ("kg.analysis.trends", "trends"),
    "to_rdf": ("kg.rdf", "to_rdf"), "write_rdf": ("kg.rdf", "write_rdf"),
    "query": ("kg.rdf", "query"), "named_queries": ("kg.rdf", "named_queries"),
    "coauthor_view": ("kg.views", "coauthor_view"), "topic_view": ("kg.views", "topic_view"),
    "write_html": ("kg.views", "write_html"), "display": ("kg.views", "display"),
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        module, attribute = _LAZY[name]
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module 'kg' has no attribute {name!r}")
