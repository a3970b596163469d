"""kg: conference paper listings -> a scholarly knowledge graph (NetworkX, RDF/SPARQL, pyvis views).

The public API mirrors the command line: `kg.read()` = `kg papers`, `kg.build()` = `kg build`,
`kg.extract()` = `kg keywords`, `kg.analyze()` = `kg analyze`, `kg.query()` = `kg query`.
Heavy modules (spaCy, rdflib, pyvis) load on first use, so `import kg` stays fast.

`kg.extract` and `kg.evaluate` are both a function of this API and a submodule of the package. Once
the submodule is imported (by `kg.build()`, say), Python binds the name to the module; so these two
submodules are made callable: `kg.extract(papers)` calls `kg.extract.extract(papers)` whatever was
imported first, and `kg.extract.make_pipeline` still works.
"""
from __future__ import annotations

import importlib
import sys
import types

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


#: Submodules named like the API function they hold: calling the module calls the function.
_CALLABLE_SUBMODULES = ("extract", "evaluate")


class _CallableModule(types.ModuleType):
    """A submodule that shares its name with the function it exports; calling it calls that function."""

    def __call__(self, *args, **kwargs):
        return getattr(self, self.__name__.rpartition(".")[2])(*args, **kwargs)


class _Package(types.ModuleType):
    """The `kg` package: makes `kg.extract`/`kg.evaluate` callable when the import system binds them."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _CALLABLE_SUBMODULES and type(value) is types.ModuleType and value.__name__ == f"kg.{name}":
            value.__class__ = _CallableModule
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str):
    if name in _CALLABLE_SUBMODULES:
        return importlib.import_module(f"kg.{name}")  # bound on the package, callable (see above)
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'kg' has no attribute {name!r}")
