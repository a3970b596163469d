"""kg: conference paper listings -> a scholarly knowledge graph (NetworkX, RDF/SPARQL, pyvis views).

The public API mirrors the command line: `kg.read()` = `kg papers`, `kg.build()` = `kg build`, ...
"""
from __future__ import annotations

from kg.readers import ReadResult, iter_papers, read, sample_path

__version__ = "0.1.0"
