"""Corpus-level linking on a Dask cluster: the rounds of `kg.extract.linking` with the papers left
on the workers.

Each round counts on every partition (`tasks.count_partition`), sums the counts in a tree of
merges on the workers (`linking.merged`, a few partitions' counts at a time), brings the sum to
the client, decides the round's table there and puts it in the next round's graph (a literal the
scheduler sends to the workers that need it, kept as lineage: a partition lost with its worker
is linked again). The last
step applies the tables partition by partition (`tasks.link_partition`). No paper crosses to the
client: only counts (of names and forms, not of papers) and tables do.
"""
from __future__ import annotations

from typing import Any

from kg.engine import tasks
from kg.engine.dask import _CONFIG, waited
from kg.extract.labels import MAX_CONCEPTS
from kg.extract.linking import merged, run_rounds

#: Partitions' counts merged by one task of the tree of sums.
MERGE_WIDTH = 8


def link_frame(client: Any, found: Any, max_concepts: int | None = MAX_CONCEPTS, quiet: bool = True) -> Any:
    """The papers of `found` with their method and data-set concepts, linked over all of them.

    Parameters
    ----------
    client : distributed.Client
        The cluster's client.
    found : dask.dataframe.DataFrame
        The distinct papers and what extraction found in them (`tasks.FOUND_META`: `seq`,
        `paper`, `found`), e.g. `kg.engine.dask.found_frame`'s. Persisted here first, so that
        extraction runs once for all the rounds.
    max_concepts : int or None
        At most this many concepts of a kind per paper, the salient ones (None: all).
    quiet : bool
        No progress bar of the partitions extracted (drawn on a terminal only).

    Returns
    -------
    dask.dataframe.DataFrame
        Persisted, `tasks.LINKED_META`: `seq`, `paper`, `methods` and `datasets` (tuples of
        `kg.records.Method`, what `kg.extract.concepts._link_both` gives under `paper.key`), the
        partitions of `found` with their rows in the same order.

    Examples
    --------
    >>> linked = link_frame(client, found_frame(client, parts, False, True, None)[1])  # doctest: +SKIP
    """
    import dask
    from dask import delayed
    from distributed import wait

    with dask.config.set(_CONFIG):
        found = client.persist(found)
        waited(found, "extracting", "partition", quiet)
        parts = found.to_delayed()

        def counted(count: Any, tables: tuple) -> Any:
            counts = [delayed(tasks.count_partition)(part, count, *tables) for part in parts]
            while len(counts) > 1:
                counts = [delayed(merged)(counts[i:i + MERGE_WIDTH]) for i in range(0, len(counts), MERGE_WIDTH)]
            return client.compute(counts[0]).result()

        def share(table: Any) -> Any:
            # a graph literal, not a scattered future: a partition lost with its worker is linked
            # again from its lineage, the table included
            return delayed(table, pure=False, traverse=False)

        tables = run_rounds(counted, share)
        linked = client.persist(found.map_partitions(tasks.link_partition, *tables, max_concepts=max_concepts,
                                                     meta=tasks.LINKED_META, enforce_metadata=False))
        del found, parts  # each partition of found goes once it is linked
        wait(linked)
    return linked
