"""Where the work runs beyond one process: `kg build --scheduler ADDRESS` on a Dask cluster.

`cluster_graph` does the first arrows of the data flow (read, deduplicate, extract, graph) with
the reading, deduplication (`kg.engine.identity`), extraction and the big tables on Dask workers; `connect` gives the
client of a scheduler address, `map_on` runs a function over argument tuples on its workers. See docs/scaling.md for what runs where.
"""
from __future__ import annotations

__all__ = ["cluster_graph", "connect", "map_on"]


def __getattr__(name: str) -> object:
    if name in __all__:  # Dask is imported only when the engine is used
        from kg.engine import dask as engine
        return getattr(engine, name)
    raise AttributeError(name)
