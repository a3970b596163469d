"""The hub graph's big tables as Parquet (`DIR/tables/`): authorship, mentions, co-author and
method pairs, for DuckDB, Spark or pandas at a size where CSV and GraphML are slow.

`frames` gives the authorship and mention rows; `pair_rows` and `pair_table` group them into pair
tables. They work on any pandas partition holding whole papers (`pair_rows`) or whole pairs
(`pair_table`), so `kg.engine` runs them as Dask group-bys after shuffles, and `write_tables`
runs them on the whole frames in one process. Needs pandas and pyarrow (`pip install 'kg[dask]'`).
"""
from __future__ import annotations

import os
from itertools import combinations
from pathlib import Path

import networkx as nx
import pandas as pd

#: The tables, one folder (of `part.N.parquet` files) each.
TABLES = ("authorship", "mentions", "coauthor_pairs", "method_pairs")
#: Each pair table: its name, the table of rows it is grouped from, and the column paired.
PAIRS = (("coauthor_pairs", "authorship", "author"), ("method_pairs", "mentions", "method"))


def frames(G: nx.DiGraph) -> dict[str, pd.DataFrame]:
    """The authorship (paper, position, author, name) and mention (paper, method, mentions) rows
    of the hub graph, in its edge order."""
    authorship = [(u, d["position"], v, d["name"]) for u, v, d in G.edges(data=True) if d["rel"] == "authored_by"]
    mentions = [(u, v, d["count"]) for u, v, d in G.edges(data=True) if d["rel"] == "mentions"]
    return {
        "authorship": pd.DataFrame(authorship, columns=["paper", "position", "author", "name"]).astype(
            {"paper": "string", "position": "int64", "author": "string", "name": "string"}),
        "mentions": pd.DataFrame(mentions, columns=["paper", "method", "mentions"]).astype(
            {"paper": "string", "method": "string", "mentions": "int64"}),
    }


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
    columns = {"source": "string", "target": "string", "count": "int64", "fractional": "float64", "papers": "string"}
    if frame.empty:
        return pd.DataFrame({name: pd.Series([], dtype=dtype) for name, dtype in columns.items()})
    grouped = frame.groupby(["source", "target"], sort=True)
    table = pd.DataFrame({"count": grouped["paper"].size(), "fractional": grouped["fractional"].sum(),
                          "papers": grouped["paper"].agg(lambda papers: "; ".join(sorted(papers)))})
    return table.reset_index().astype(columns)


def write_tables(G: nx.DiGraph, folder: str | os.PathLike[str]) -> list[Path]:
    """The four tables of `G` in one process, each as `folder/<table>/part.0.parquet` (the layout
    the engine's workers write, in more parts).

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
    tables = frames(G)
    for name, source, member in PAIRS:
        tables[name] = pair_table(pair_rows(tables[source], member))
    written = []
    for name in TABLES:
        path = Path(folder) / name / "part.0.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        tables[name].to_parquet(path, index=False)
        written.append(path)
    return written
