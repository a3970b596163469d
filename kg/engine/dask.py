"""`kg build --scheduler ADDRESS`: reading, identity, extraction and the pair tables on a Dask cluster.

On the workers: each partition is read (`kg.engine.partitions`, with the readers' own
`kg.readers.iter_part`) and kept there; the groups of records that may be one paper are found by
shuffles on their identity keys and each group merged by the readers' own rules
(`kg.engine.identity`); the distinct papers go through the worker's spaCy pipeline (built once per
worker thread), reduced to what corpus-level linking needs. The co-author and method pair tables
are Dask group-bys (a shuffle on the paper, then on the pair), written by the workers as Parquet
into `DIR/tables/` with the authorship and mention tables.

On the client: the problems, then the distinct papers with what extraction found in them (never
the records read); they are put in input order, linked into concepts (`kg.extract`) and built
into the hub graph (`kg.graph`), from which `kg.build` writes every other file as it does in one
process: same inputs, same bytes.
"""
from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, nullcontext
from pathlib import Path

import networkx as nx

from kg.engine import identity, tasks
from kg.engine.partitions import DEFAULT_PARTITION_BYTES, Partition, count_lines, numbered, plan
from kg.errors import ArgumentError
from kg.readers import ReadResult, fatal, sample_path

#: Records are Python objects in object columns: no conversion to Arrow strings, and shuffles by
#: tasks (a peer-to-peer shuffle would convert the partitions to Arrow).
_CONFIG = {"dataframe.convert-string": False, "dataframe.shuffle.method": "tasks"}
#: Papers per extraction partition at most (more partitions when the inputs have fewer).
EXTRACT_PAPERS = 1000


@contextmanager
def connect(scheduler: str, *, quiet: bool = True) -> Iterator[object]:
    """A `distributed.Client` for `scheduler`: `tcp://host:port` (a running scheduler) or `local:N`
    (a LocalCluster of N single-threaded worker processes on 127.0.0.1, closed on exit).

    Raises ArgumentError for any other address, or when Dask is not installed.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ArgumentError("--scheduler needs Dask: pip install 'kg[dask]'") from None
    with ExitStack() as stack:
        if scheduler.startswith("local:"):
            count = scheduler.partition(":")[2]
            if not count.isdigit() or int(count) < 1:
                raise ArgumentError(f"--scheduler {scheduler!r}: write local:N with N >= 1 worker processes")
            cluster = stack.enter_context(LocalCluster(
                n_workers=int(count), threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None, silence_logs=logging.ERROR if quiet else logging.WARNING))
            client = stack.enter_context(Client(cluster))
        elif "://" in scheduler:
            try:
                client = stack.enter_context(Client(scheduler, timeout="30s"))
            except OSError as exc:
                raise ArgumentError(f"--scheduler {scheduler!r}: cannot reach the Dask scheduler ({exc})") from None
        else:
            raise ArgumentError(f"--scheduler {scheduler!r}: give tcp://HOST:PORT or local:N")
        yield client


def map_on(client: object) -> Callable[[Callable, list[tuple]], list]:
    """`run(function, argument tuples)` -> the results in order, computed on `client`'s workers
    (e.g. `kg.rdf.write_graph_parts`' compressions into the build folder on shared storage)."""
    return lambda function, jobs: client.gather(client.map(function, *zip(*jobs))) if jobs else []


def cluster_graph(
    scheduler: str | object,
    inputs: Sequence[str | os.PathLike[str]] | None,
    out_dir: str | os.PathLike[str],
    *,
    format: str = "auto",
    strict: bool = False,
    spacy_model: str | None = None,
    aliases: str | os.PathLike[str] | None = None,
    require_authors: bool = True,
    partition_bytes: int = DEFAULT_PARTITION_BYTES,
    quiet: bool = False,
) -> tuple[ReadResult, nx.DiGraph]:
    """Read and extract `inputs` on the Dask cluster at `scheduler`, write the Parquet tables into
    `out_dir/tables/`, and return what `kg.workflow.load_graph` returns in one process.

    Parameters
    ----------
    scheduler : str or distributed.Client
        `tcp://host:port` or `local:N` (see `connect`), or the client of a cluster already connected.
    inputs : sequence of paths or None
        The input files (`FILE@YEAR` as for `kg.read`; None or empty: the embedded sample); every
        worker must be able to read them.
    out_dir : path
        The build folder; the workers write `tables/<name>/part.N.parquet` into it.
    format, strict, spacy_model, aliases, require_authors, quiet
        As for `kg.build`.
    partition_bytes : int
        About how many bytes of a JSONL file one partition reads.

    Returns
    -------
    tuple of ReadResult and nx.DiGraph
        The papers in input order with every problem (skipped records, merged duplicates, notices),
        and the hub graph.

    Examples
    --------
    >>> result, G = cluster_graph("local:2", ["papers.jsonl"], "out")  # doctest: +SKIP
    """
    import dask
    import dask.dataframe as dd

    from kg.exports.tables import frames
    from kg.extract import make_pipeline
    from kg.extract.concepts import _link_both  # the corpus-level half of kg.extract
    from kg.graph import build_graph
    from kg.graph.aliases import load_aliases

    alias_table = load_aliases(aliases) if aliases else None
    make_pipeline(spacy_model)  # an uninstalled model fails here, before the cluster starts
    files = [str(path) for path in (inputs or [sample_path()])]
    connected = connect(scheduler, quiet=quiet) if isinstance(scheduler, str) else nullcontext(scheduler)
    with connected as client, dask.config.set(_CONFIG):
        parts = numbered_parts(client, files, format, partition_bytes)
        result, found = _read_and_extract(client, parts, files, strict, require_authors, spacy_model)
        concepts = _link_both(found)
        G = build_graph(result.papers, concepts.methods, datasets=concepts.datasets, aliases=alias_table)
        tables = {name: dd.from_pandas(frame, npartitions=max(1, min(len(parts), len(frame))), sort=False)
                  for name, frame in frames(G).items()}
        write_row_tables(tables, Path(out_dir) / "tables", max(len(parts), 1))
    return result, G


def waited(futures: object, desc: str, unit: str, quiet: bool) -> None:
    """Wait for `futures` (or a persisted collection's), drawing a progress bar of them on a
    terminal unless `quiet` (`kg._util.progress`)."""
    from distributed import as_completed, futures_of

    from kg._util.progress import progress

    futures = futures_of(futures)
    for _ in progress(as_completed(futures), desc, total=len(futures), unit=unit, quiet=quiet):
        pass


def numbered_parts(client: object, files: list[str], format: str, partition_bytes: int) -> list[Partition]:
    """The partitions of `files` (`kg.engine.partitions.plan`), each knowing the line it starts on
    (the lines of each JSONL byte range counted on the workers)."""
    parts = plan(files, format, partition_bytes)
    ranged = [part for part in parts if part.end is not None]
    counts = dict(zip((p.index for p in ranged), client.gather(client.map(count_lines, ranged))))
    return numbered(parts, [counts.get(part.index, 0) for part in parts])


def _read_and_extract(client: object, parts: list[Partition], files: list[str], strict: bool,
                      require_authors: bool, spacy_model: str | None) -> tuple[ReadResult, list]:
    """Read, merge and extract on the workers; gather the problems, then the distinct papers with
    what extraction found in them (each in input order). The records read stay on the workers."""
    problems, found = found_frame(client, parts, strict, require_authors, spacy_model)
    found = found.compute().sort_values("seq")
    return ReadResult(list(found["paper"]), problems, files), list(found["found"])


def found_frame(client: object, parts: list[Partition], strict: bool, require_authors: bool,
                spacy_model: str | None) -> tuple[list, object]:
    """Read, merge and extract on the workers: the problems (gathered, in input order; with
    `strict` the first fatal one is raised) and the distinct papers with what extraction found in
    them, as a Dask frame (`tasks.FOUND_META`) left on the workers."""
    import dask.dataframe as dd

    records = client.persist(dd.from_map(identity.read_frame, parts, require_authors=require_authors,
                                         meta=identity.RECORDS_META, enforce_metadata=False))
    width = max(len(parts), 1)
    read_papers = int(records["paper"].sum().compute())
    chunks = max(width, math.ceil(read_papers / EXTRACT_PAPERS))
    merged = client.persist(identity.merged(records, *identity.group_labels(records, width, client), chunks))
    problems = dd.concat([records[~records["paper"]], merged[~merged["paper"]]]).compute()
    problems = list(problems.sort_values("seq", kind="stable")["record"])
    del records  # released on the workers
    first = next((problem for problem in problems if fatal(problem)), None)
    if strict and first is not None:
        raise first
    return problems, merged[merged["paper"]].map_partitions(tasks.extract_partition, spacy_model, meta=tasks.FOUND_META)


def write_row_tables(rows: dict[str, object], folder: Path, width: int, whole_papers: bool = False,
                     pairs: Sequence[tuple[str, str, str]] | None = None) -> None:
    """The authorship and mention rows (Dask frames of `kg.exports.tables.COLUMNS`' columns), and
    the co-author and method pair tables grouped from them (a shuffle on the paper unless each
    paper's rows are in one partition already, `whole_papers`; the pairs of each paper; a shuffle
    on the pair), written by the workers as Parquet into `folder`. `pairs`: which pair tables
    (`kg.exports.tables.PAIRS` items; default all)."""
    import dask

    from kg.exports.tables import PAIRS, pair_rows, pair_table

    writes = [frame.to_parquet(folder / name, write_index=False, compute=False) for name, frame in rows.items()]
    pair_meta = pair_rows(rows["authorship"]._meta, "author")
    table_meta = pair_table(pair_meta)
    for name, source, member in PAIRS if pairs is None else pairs:
        by_paper = rows[source] if whole_papers else rows[source].shuffle("paper", npartitions=width,
                                                                           shuffle_method="tasks")
        pairs = by_paper.map_partitions(pair_rows, member, meta=pair_meta)
        grouped = pairs.shuffle(["source", "target"], npartitions=width, shuffle_method="tasks").map_partitions(
            pair_table, meta=table_meta)
        writes.append(grouped.to_parquet(folder / name, write_index=False, compute=False))
    dask.compute(*writes)
