"""The hub graph's big tables as Parquet (`DIR/tables/`): authorship, mentions, co-author and
method pairs, for DuckDB, Spark or pandas at a size where CSV and GraphML are slow.

`frames` gives the authorship and mention rows; `pair_rows` and `pair_table` group them into pair
tables. They work on any pandas partition holding whole papers (`pair_rows`) or whole pairs
(`pair_table`), so `kg.engine` runs them as Dask group-bys after shuffles. In one process,
`write_tables` makes the same rows from the graph as it writes them, without holding a whole
table. Needs pandas and pyarrow (`pip install 'kg[dask]'`).
"""
from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import combinations, islice
from pathlib import Path

import networkx as nx
import pandas as pd

from kg.graph.nodes import nodes_of_kind, paper_authors, paper_methods

#: The tables, one folder (of `part.N.parquet` files) each.
TABLES = ("authorship", "mentions", "coauthor_pairs", "method_pairs")
#: Each pair table: its name, the table of rows it is grouped from, and the column paired.
PAIRS = (("coauthor_pairs", "authorship", "author"), ("method_pairs", "mentions", "method"))


#: Each table's columns and their pandas types.
PAIR_COLUMNS = {"source": "string", "target": "string", "count": "int64", "fractional": "float64", "papers": "string"}
COLUMNS = {
    "authorship": {"paper": "string", "position": "int64", "author": "string", "name": "string"},
    "mentions": {"paper": "string", "method": "string", "mentions": "int64"},
    "coauthor_pairs": PAIR_COLUMNS,
    "method_pairs": PAIR_COLUMNS,
}


def frames(G: nx.DiGraph) -> dict[str, pd.DataFrame]:
    """The authorship (paper, position, author, name) and mention (paper, method, mentions) rows
    of the hub graph, in its edge order."""
    return {name: typed_frame(list(rows), COLUMNS[name]) for name, rows in _edge_rows(G).items()}


def _edge_rows(G: nx.DiGraph) -> dict[str, Iterator[tuple]]:
    """The authorship and mention rows of `G`, made as they are read."""
    edges = G.edges(data=True)
    return {"authorship": ((u, d["position"], v, d["name"]) for u, v, d in edges if d["rel"] == "authored_by"),
            "mentions": ((u, v, d["count"]) for u, v, d in edges if d["rel"] == "mentions")}


def typed_frame(rows: list[tuple], columns: Mapping[str, object]) -> pd.DataFrame:
    """`rows` as a frame with the names and pandas types of `columns` (no rows: a Dask frame's `meta`)."""
    return pd.DataFrame(rows, columns=list(columns)).astype(columns)


def pair_rows(frame: pd.DataFrame, member: str) -> pd.DataFrame:
    """(source, target, paper, fractional weight) for each pair of `member`s on one paper
    (source < target; a paper with n members gives each pair 1/(n-1)). A paper's rows must be in one partition."""
    rows = []
    for paper, group in frame.groupby("paper", sort=False)[member]:
        names = sorted(set(group))
        rows += [(u, v, paper, 1.0 / (len(names) - 1)) for u, v in combinations(names, 2)]
    return pd.DataFrame(rows, columns=["source", "target", "paper", "fractional"]).astype(
        {"source": "string", "target": "string", "paper": "string", "fractional": "float64"})


def pair_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per pair (sorted): papers shared (`count`), fractional weight, the papers (sorted, `; `-joined)."""
    if frame.empty:
        return typed_frame([], PAIR_COLUMNS)
    frame = frame.sort_values(["source", "target", "paper"])
    grouped = frame.groupby(["source", "target"], sort=False)  # sorted already: groups in order, papers sorted
    counts = grouped["paper"].size()
    papers, ends = frame["paper"].tolist(), counts.to_numpy().cumsum()
    table = pd.DataFrame({"count": counts, "fractional": grouped["fractional"].sum(),
                          "papers": ["; ".join(papers[end - n:end]) for n, end in zip(counts.tolist(), ends.tolist())]})
    return table.reset_index().astype(PAIR_COLUMNS)


def write_tables(G: nx.DiGraph, folder: str | os.PathLike[str]) -> list[Path]:
    """The four tables of `G` in one process, each as `folder/<table>/part.0.parquet` (the layout
    the engine's workers write, in more parts), streamed: rows are written in batches as they are
    made, and the pairs one source node at a time, so no table is held whole. Same rows, in the same
    order, as `frames`, `pair_rows` and `pair_table` give (the fractional weights to the last bit or so).

    Parameters
    ----------
    G : networkx.DiGraph
        A kg hub graph (`kg.graph.build_graph`).
    folder : path
        The tables folder (made if missing), e.g. the build's `tables/`.

    Returns
    -------
    list of Path
        The files written, in `TABLES` order.

    Examples
    --------
    >>> import tempfile
    >>> from kg.workflow import load_graph
    >>> _, G = load_graph(quiet=True)
    >>> [p.parent.name for p in write_tables(G, tempfile.mkdtemp())]
    ['authorship', 'mentions', 'coauthor_pairs', 'method_pairs']
    """
    rows = {**_edge_rows(G), "coauthor_pairs": _pairs(G, "author", lambda paper: paper_authors(G, paper)),
            "method_pairs": _pairs(G, "method", lambda paper: paper_methods(G, paper))}
    return [_write_batches(Path(folder) / name / "part.0.parquet", rows[name], COLUMNS[name]) for name in TABLES]


#: Rows per Parquet row group written by `write_tables`.
BATCH = 1 << 16


def _pairs(G: nx.DiGraph, kind: str, members: Callable[[str], list[str]]) -> Iterator[tuple]:
    """`pair_table`'s rows for the nodes of `kind` (`members(paper)`: a paper's nodes of that kind),
    sorted, made one source node at a time from its papers (the nodes linking to it)."""
    groups: dict[str, list[str]] = {}  # paper -> its members, made once

    def group(paper: str) -> list[str]:
        found = groups.get(paper)
        if found is None:
            found = groups[paper] = sorted(set(members(paper)))
        return found

    for source in sorted(nodes_of_kind(G, kind)):
        shared: dict[str, list[str]] = {}
        for paper in G.pred[source]:
            for target in group(paper):
                if target > source:
                    shared.setdefault(target, []).append(paper)
        for target in sorted(shared):
            papers = sorted(shared[target])
            yield (source, target, len(papers), math.fsum(1.0 / (len(group(p)) - 1) for p in papers),
                   "; ".join(papers))


def _write_batches(path: Path, rows: Iterable[tuple], columns: dict[str, str]) -> Path:
    """`rows` written to the Parquet file `path` `BATCH` at a time, with the pandas types of `columns`
    (read back as `to_parquet` would have written them)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    rows = iter(rows)
    with contextlib.ExitStack() as stack:
        writer = None
        while True:
            batch = list(islice(rows, BATCH))
            if writer is not None and not batch:
                return path
            table = pa.Table.from_pandas(typed_frame(batch, columns), preserve_index=False)
            if writer is None:
                writer = stack.enter_context(pq.ParquetWriter(path, table.schema))
            writer.write_table(table)
