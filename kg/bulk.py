"""Python's cyclic garbage collector paused while kg builds big acyclic structures."""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def bulk_work() -> Iterator[None]:
    """The cyclic garbage collector paused, then restored as it was (a context manager or a decorator).

    A build allocates millions of dicts, tuples and strings that form no cycles, and each full
    collection walks all of them again: at 10k papers the graph and its projections take about
    twice as long with it on, and the RDF export spent 2.5 s in six collections. Extraction leaves
    ~1,500 cyclic objects per 10k papers behind, collected once it is back on.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
