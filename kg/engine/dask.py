"""`kg build --scheduler ADDRESS`: reading, deduplication, extraction and the big tables on a Dask cluster.

On the workers: each partition is read (`kg.engine.partitions`); the records are shuffled on the
paper key, then the key groups that carry an id on that id, and each group is merged into one paper
as the in-process reader merges duplicates; each paper goes through the worker's spaCy pipeline
(built once per worker thread). From the persisted papers, Dask DataFrame group-bys make the
authorship and mention tables and the co-author and method pair tables, written by the workers as
Parquet into `DIR/tables/`. The short forms that link acronyms across papers are a group-by too.

On the client: the distinct papers and their reduced extraction records are gathered in input
order, linked into method concepts (`kg.extract`), and built into the hub graph (`kg.graph`), from
which `kg.build` writes every other file as it does in one process: same inputs, same bytes.
"""
from __future__ import annotations

import logging
import operator
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, ExitStack
from pathlib import Path

import networkx as nx

from kg.engine import tasks
from kg.engine.partitions import DEFAULT_PARTITION_BYTES, count_lines, numbered, plan
from kg.errors import UsageError
from kg.readers import ReadResult, sample_path

#: Records are Python objects in object columns: no conversion to Arrow strings, and shuffles by
#: tasks (a peer-to-peer shuffle would convert the partitions to Arrow).
_CONFIG = {"dataframe.convert-string": False, "dataframe.shuffle.method": "tasks"}
#: The Parquet tables written into `DIR/tables/`, one folder (of part files) each.
TABLES = ("authorship", "mentions", "coauthor_pairs", "method_pairs")


@contextmanager
def connect(scheduler: str, *, quiet: bool = True) -> Iterator[object]:
    """A `distributed.Client` for `scheduler`: `tcp://host:port` (a running scheduler) or `local:N`
    (a LocalCluster of N single-threaded worker processes on 127.0.0.1, closed on exit).

    Raises UsageError for any other address, or when Dask is not installed.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'kg[dask]'") from None
    with ExitStack() as stack:
        if scheduler.startswith("local:"):
            count = scheduler.partition(":")[2]
            if not count.isdigit() or int(count) < 1:
                raise UsageError(f"--scheduler {scheduler!r}: write local:N with N >= 1 worker processes")
            cluster = stack.enter_context(LocalCluster(
                n_workers=int(count), threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None, silence_logs=logging.ERROR if quiet else logging.WARNING))
            client = stack.enter_context(Client(cluster))
        elif "://" in scheduler:
            try:
                client = stack.enter_context(Client(scheduler, timeout="30s"))
            except OSError as exc:
                raise UsageError(f"--scheduler {scheduler!r}: cannot reach the Dask scheduler ({exc})") from None
        else:
            raise UsageError(f"--scheduler {scheduler!r}: give tcp://HOST:PORT or local:N")
        yield client


def cluster_graph(
    scheduler: str,
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
    """Read, deduplicate and extract `inputs` on the Dask cluster at `scheduler`, write the Parquet
    tables into `out_dir/tables/`, and return what `kg.workflow.load_graph` returns in one process.

    Parameters
    ----------
    scheduler : str
        `tcp://host:port` or `local:N` (see `connect`).
    inputs : sequence of paths or None
        The input files (None or empty: the embedded sample); every worker must be able to read them.
    out_dir : path
        The build folder; the workers write `tables/<name>/part.N.parquet` into it.
    format, strict, spacy_model, aliases, require_authors, quiet
        As for `kg.build`.
    partition_bytes : int
        About how many bytes of a JSONL file one partition reads.

    Returns
    -------
    tuple of ReadResult and nx.DiGraph
        The papers in input order with every problem (skipped records, merged duplicates), and the hub graph.

    Examples
    --------
    >>> result, G = cluster_graph("local:2", ["papers.jsonl"], "out")  # doctest: +SKIP
    """
    import dask
    import dask.dataframe as dd

    from distributed import wait

    from kg.extract.concepts import _link  # the corpus-level half of kg.extract
    from kg.extract.vocab import vocabulary
    from kg.graph.aliases import load_aliases
    from kg.graph.build import build_graph
    from kg.extract.pipeline import make_pipeline

    alias_table = load_aliases(aliases) if aliases else None
    make_pipeline(spacy_model)  # an uninstalled model fails here, before the cluster starts
    files = [str(path) for path in (inputs or [sample_path()])]
    parts = plan(files, format, partition_bytes)
    tables = Path(out_dir) / "tables"
    with connect(scheduler, quiet=quiet) as client, dask.config.set(_CONFIG):
        ranged = [part for part in parts if part.end is not None]
        counts = dict(zip((p.index for p in ranged), client.gather(client.map(count_lines, ranged))))
        parts = numbered(parts, [counts.get(part.index, 0) for part in parts])

        reads = client.map(tasks.read, parts, require_authors=require_authors)
        frames = client.map(operator.itemgetter(0), reads)
        problem_lists = client.map(operator.itemgetter(1), reads)
        records = dd.from_delayed(frames, meta=tasks.READ_META, verify_meta=False)
        width = max(len(parts), 1)
        by_key = records.shuffle("key", npartitions=width, shuffle_method="tasks").map_partitions(
            tasks.group_by_key, meta=tasks.GROUP_META)
        by_id = by_key[by_key["id"].notnull()].shuffle("id", npartitions=width, shuffle_method="tasks").map_partitions(
            tasks.group_by_id, meta=tasks.GROUP_META)
        groups = dd.concat([by_key[by_key["id"].isnull()], by_id])
        papers = groups.map_partitions(tasks.merge_and_extract, spacy_model, meta=tasks.PAPER_META).persist()
        problems = [item for chunk in client.gather(problem_lists) for item in chunk]
        wait(papers)
        del reads, frames, problem_lists  # the records now live in `papers`
        if strict and problems:
            raise tasks.problem(min(problems, key=operator.itemgetter(0)))

        _write_tables(papers, tables, alias_table, vocabulary().lexicon_pairs, width)
        gathered = papers[["pos", "paper", "found", "notices"]].compute().sort_values("pos")
    problems += [notice for notices in gathered["notices"] for notice in notices]
    result = ReadResult(papers=list(gathered["paper"]), files=files,
                        problems=[tasks.problem(item) for item in sorted(problems, key=operator.itemgetter(0))])
    methods = _link(list(gathered["found"]))
    return result, build_graph(result.papers, methods, aliases=alias_table)


def _write_tables(papers, tables: Path, aliases: object | None, lexicon_pairs, width: int) -> None:
    """The authorship and mention tables and the co-author and method pair tables, as Dask
    group-bys over the persisted papers, written by the workers as Parquet."""
    votes = papers.map_partitions(tasks.acronym_rows, meta={"short": object, "concept": object})
    counted = votes.groupby(["short", "concept"]).size().compute()
    shorts = tasks.chosen_short_forms(((s, c, int(n)) for (s, c), n in counted.items()), lexicon_pairs)

    authorship = papers.map_partitions(tasks.authorship_rows, aliases, meta=tasks.authorship_rows(
        papers._meta, None))
    mentions = papers.map_partitions(tasks.mention_rows, shorts, meta=tasks.mention_rows(papers._meta, {}))
    pair_meta = tasks.pair_rows(authorship._meta, "author")
    table_meta = tasks.pair_table(pair_meta)
    pairs = {
        "coauthor_pairs": authorship.map_partitions(tasks.pair_rows, "author", meta=pair_meta),
        "method_pairs": mentions.map_partitions(tasks.pair_rows, "method", meta=pair_meta),
    }
    import dask
    writes = [authorship.to_parquet(tables / "authorship", write_index=False, compute=False),
              mentions.to_parquet(tables / "mentions", write_index=False, compute=False)]
    for name, rows in pairs.items():
        grouped = rows.shuffle(["source", "target"], npartitions=width, shuffle_method="tasks").map_partitions(
            tasks.pair_table, meta=table_meta)
        writes.append(grouped.to_parquet(tables / name, write_index=False, compute=False))
    dask.compute(*writes)

