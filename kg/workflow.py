"""`kg build`: the whole job, read -> extract -> graph -> RDF / analysis / views, into one folder.

A build writes into a staging folder beside its output folder and switches it in at the end
(`kg._util.publish`): the folder a user opens holds the old build or the new one, never a mix.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

import networkx as nx

from kg._util import parallel
from kg._util.io import atomic_open, json_encoder
from kg._util.progress import progress
from kg._util.publish import staged
from kg.errors import ArgumentError
from kg.readers import ReadResult, reading
from kg.records import paper_to_dict
from kg.views.options import DEFAULT_DATASETS, DEFAULT_TOP_LINKS, DEFAULT_TOP_N

Inputs = Sequence[str | os.PathLike[str]] | None


@dataclass(frozen=True)
class BuildOptions:
    """Every choice a build makes, in one place (`kg build`'s options; `kg.toml` sets their defaults).

    Reading: `format`, `strict`. Extraction: `spacy_model`, `workers`. Graph: `aliases`. RDF:
    `base_iri`. Analysis and maps: `counting`, `seed`, `resolution`. Views: `min_weight`, `top_n`,
    `top_links` (None = no cap), `datasets` (how many the topic map shows; 0 = none). `quiet`: no
    progress bars. `scheduler`: `tcp://host:port` or `local:N` reads, deduplicates and extracts on
    that Dask cluster and writes Parquet tables into the build's `tables/` (`kg.engine`, needs
    ``pip install 'kg[dask]'``); None = in this process. `partitioned`: also `graph.nt` in gzip
    parts (`graph-00000.nt.gz` ...) and, in one process, the Parquet tables (needs pandas and
    pyarrow); done anyway when `graph.nt` is larger than `kg.rdf.parts.AUTO_BYTES` (the tables
    then only if pyarrow is there). `lean` (with a `scheduler`): the workers also link the concepts
    and write the RDF as gzip parts, and this process never holds the papers or the hub graph; the
    build folder then holds the parts and the Parquet tables only (`kg.engine.lean`).
    """

    format: str = "auto"
    strict: bool = False
    spacy_model: str | None = None
    workers: int = 1
    aliases: str | os.PathLike[str] | None = None
    base_iri: str | None = None
    counting: str = "full"
    seed: int = 42
    resolution: float = 1.0
    min_weight: float = 0
    top_n: int | None = DEFAULT_TOP_N
    top_links: int | None = DEFAULT_TOP_LINKS
    datasets: int = DEFAULT_DATASETS
    quiet: bool = False
    scheduler: str | None = None
    partitioned: bool = False
    lean: bool = False

    def updated(self, **changes: object) -> BuildOptions:
        """A copy with `changes`; a name that is no option is an `ArgumentError`."""
        unknown = sorted(set(changes) - {f.name for f in fields(self)})
        if unknown:
            raise ArgumentError(f"unknown build option(s): {', '.join(unknown)}")
        return replace(self, **changes)


@dataclass
class BuildResult:
    """What a build read, made and wrote.

    `report` is the report without its full tables (report.json has them; each is a CSV file,
    `table_file(name)`): its summary sections, top rows, notes and input. `graph` is the hub
    graph; `files` the paths written.
    """

    read: ReadResult
    graph: nx.DiGraph
    report: dict
    out_dir: Path
    files: list[Path] = field(default_factory=list)

    @property
    def problems(self) -> list:
        return self.read.problems

    def table_file(self, name: str) -> Path:
        """The CSV file of one of the report's tables, as the build wrote it.

        Parameters
        ----------
        name : str
            `authors`, `coauthor_edges`, `methods`, `method_pairs`, `datasets`, `tracks`,
            `cross_track` or `possible_duplicates` (`.csv` may be given too).

        Returns
        -------
        pathlib.Path
            The file in `out_dir`, e.g. for ``pandas.read_csv`` (list cells are joined with `; `).

        Examples
        --------
        >>> import tempfile
        >>> result = build(None, tempfile.mkdtemp(), quiet=True)
        >>> result.table_file("authors").name
        'authors.csv'
        """
        path = self.out_dir / (name if name.endswith(".csv") else f"{name}.csv")
        if path not in self.files:
            tables = ", ".join(p.stem for p in self.files if p.suffix == ".csv")
            raise ArgumentError(f"the build wrote no table {name!r}; its tables: {tables}")
        return path

    def summary(self) -> str:
        """Three lines: what was read, what the graph holds, what was written where.

        Tracks are counted as the report counts them: every track a paper is filed under, a
        subarea (`Area · Subarea`) or an area alone (a one-level track).
        """
        counts: dict[str, int] = {}
        for _, kind in self.graph.nodes(data="kind"):
            counts[kind] = counts.get(kind, 0) + 1
        filed = {v for _, v, rel in self.graph.edges(data="rel") if rel == "in_track"}
        one_level = sum(self.graph.nodes[v]["kind"] == "area" for v in filed)
        made = (f"{counts.get('paper', 0)} papers, {counts.get('author', 0)} authors, {len(filed)} tracks "
                f"({len(filed) - one_level} area · subarea, {one_level} area only), {counts.get('area', 0)} areas, "
                f"{counts.get('method', 0)} methods, {counts.get('dataset', 0)} datasets")
        wrote = ", ".join(p.name for p in self.files)
        return f"{self.read.summary()}\ngraph: {made}\nwrote {len(self.files)} files to {self.out_dir}{os.sep}: {wrote}"


def write_papers_jsonl(papers: Sequence, path: Path) -> Path:
    """The normalised records, one JSON object a line (the `kg papers --json` shape)."""
    encode = json_encoder(sort_keys=True)
    with atomic_open(path) as out:
        for paper in papers:
            out.write(encode(paper_to_dict(paper)) + "\n")
    return path


def load_graph(inputs: Inputs = None, options: BuildOptions | None = None, **changes: object
               ) -> tuple[ReadResult, nx.DiGraph]:
    """Read `inputs`, extract method terms and build the hub graph: the first three arrows of the flow.

    Shared by `kg build`, `kg analyze` and `kg views`. A bad aliases file fails before the long work
    starts. Reading and extraction show progress bars on a terminal unless `quiet`.

    Parameters
    ----------
    inputs : sequence of paths, optional
        Input files; None reads the embedded sample listing.
    options : BuildOptions, optional
        The options (reading, extraction, aliases); default `BuildOptions()`.
    **changes
        Options changed for this call, e.g. ``strict=True`` (names of `BuildOptions` fields).

    Returns
    -------
    (ReadResult, networkx.DiGraph)
        What was read (papers and problems) and the hub graph.

    Examples
    --------
    >>> result, G = load_graph(quiet=True)
    >>> len(result.papers), G.graph["n_papers"]
    (20, 20)
    """
    from kg.extract import extract_concepts, make_pipeline
    from kg.graph import build_graph
    from kg.graph.aliases import load_aliases

    o = (options or BuildOptions()).updated(**changes)
    alias_table = load_aliases(o.aliases) if o.aliases else None
    nlp = make_pipeline(o.spacy_model)
    result, papers = reading(inputs, format=o.format, strict=o.strict, quiet=o.quiet)
    found = extract_concepts(papers, nlp=nlp, workers=o.workers, quiet=o.quiet)  # starts on the first papers read
    return result, build_graph(result.papers, found.methods, datasets=found.datasets, aliases=alias_table)


def input_summary(result: ReadResult) -> dict:
    """The report's `input` section: what was read, merged and skipped."""
    return {"files": result.files, "papers": len(result.papers), "duplicates_merged": result.duplicates,
            "records_skipped": result.skipped}


def build(inputs: Inputs = None, out_dir: str | os.PathLike[str] = "exports", options: BuildOptions | None = None,
          **changes: object) -> BuildResult:
    """Run the whole job on `inputs` and publish every export in `out_dir` as one folder.

    `min_weight`, `top_n`, `top_links` and `datasets` are the views' thresholds (`kg.views.write_views`); the
    other exports hold the whole graph. The files are written into a staging folder beside
    `out_dir` that replaces it at the end, so `out_dir` holds the previous build until then. `workers` > 1 runs extraction in that many processes, then
    (where processes fork) writes the whole-graph files (papers.jsonl, RDF, GraphML, GEXF, and the
    query store, which a new interpreter bulk-loads from graph.nt while GraphML and GEXF are
    written) in a forked process while this one makes the topic projection, and the maps and views in another
    while this one writes the analysis. The co-author projection is made first: the RDF's collaborations
    come from it. In one process the whole-graph files come next, so the memory their writing used is
    freed before the topic projection is made, the maps and views come before the analysis, and the
    store's loader runs beside all that and is waited for last. Progress bars (reading,
    extraction, then one step per export written here) show on a terminal unless `quiet`.

    Parameters
    ----------
    inputs : sequence of paths, optional
        Input files; None reads the embedded sample listing.
    out_dir : path, default "exports"
        The folder to publish.
    options : BuildOptions, optional
        Every option of the build; default `BuildOptions()`.
    **changes
        Options changed for this call, e.g. ``counting="fractional"``, ``quiet=True``.

    Returns
    -------
    BuildResult
        What was read, the hub graph, the report (without its full tables: they are in
        report.json and the CSV files, `BuildResult.table_file`) and the files now in `out_dir`.

    Examples
    --------
    >>> import tempfile
    >>> result = build(None, tempfile.mkdtemp(), quiet=True)
    >>> len(result.read.papers), "graph.nt" in [path.name for path in result.files]
    (20, True)
    """
    from kg.rdf import DEFAULT_BASE_IRI, check_base_iri

    o = (options or BuildOptions()).updated(**changes)
    base_iri = check_base_iri(o.base_iri or DEFAULT_BASE_IRI)  # a bad IRI fails before the long work
    if o.lean:
        return _lean_build(inputs, out_dir, o, base_iri)
    tables = _can_write_tables(o.partitioned and o.scheduler is None)
    with staged(out_dir) as out, _cluster(o) as client:
        if client is not None:  # kg.engine: the first arrows on a Dask cluster, same result
            from kg.engine import cluster_graph
            result, G = cluster_graph(client, inputs, out, format=o.format, strict=o.strict,
                                      spacy_model=o.spacy_model, aliases=o.aliases, quiet=o.quiet)
        else:
            result, G = load_graph(inputs, o)
        report, written = _write_all(result, G, out, o, base_iri)
        written["parts"] = _write_parts(G, out, o, client, tables)
    order = ("papers.jsonl", "RDF", "store", "GraphML", "GEXF", "VOSviewer", "analysis", "views", "parts")
    files = [Path(out_dir) / path.relative_to(out) for name in order for path in written[name]]
    return BuildResult(read=result, graph=G, report=report, out_dir=Path(out_dir), files=files)


def _lean_build(inputs: Inputs, out_dir: str | os.PathLike[str], o: BuildOptions, base_iri: str):
    """`build` with `o.lean`: everything on the cluster's workers (`kg.engine.lean`), published as one folder."""
    if o.scheduler is None:
        raise ArgumentError("a lean build runs on a Dask cluster: give --scheduler (tcp://HOST:PORT or local:N)")
    from kg.engine.lean import lean_build

    with staged(out_dir) as out, _cluster(o) as client:
        result = lean_build(client, inputs, out, format=o.format, strict=o.strict, spacy_model=o.spacy_model,
                            aliases=o.aliases, base_iri=base_iri, quiet=o.quiet)
    return result.moved(out, Path(out_dir))


@contextlib.contextmanager
def _cluster(o: BuildOptions) -> Iterator[object]:
    """The client of `o.scheduler` for the whole build (None without one)."""
    if o.scheduler is None:
        yield None
        return
    from kg.engine import connect
    with connect(o.scheduler, quiet=o.quiet) as client:
        yield client


def _can_write_tables(required: bool) -> bool:
    """Whether pandas and pyarrow are there to write Parquet in this process; an `ArgumentError`
    when `required` (`partitioned` without a scheduler) and they are not."""
    try:
        import pandas  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError:
        if required:
            raise ArgumentError("partitioned outputs need pandas and pyarrow: pip install 'kg[dask]'") from None
        return False
    return True


def _write_parts(G: nx.DiGraph, out: Path, o: BuildOptions, client: object, tables: bool) -> list[Path]:
    """With `o.partitioned`, or a `graph.nt` above `AUTO_BYTES`: its gzip parts (made by the
    cluster's workers when there is one), and the Parquet tables (already written by the engine
    on a cluster; here when `tables`). Else nothing."""
    from kg.rdf.parts import AUTO_BYTES, write_graph_parts

    nt_path = out / "graph.nt"
    if not o.partitioned and nt_path.stat().st_size <= AUTO_BYTES:
        return []
    if client is not None:
        from kg.engine import map_on
        return write_graph_parts(nt_path, out, run=map_on(client)) + sorted((out / "tables").rglob("*.parquet"))
    parts = write_graph_parts(nt_path, out)
    if not tables:
        return parts
    from kg.exports.tables import write_tables
    return parts + write_tables(G, out / "tables")


def _write_all(result: ReadResult, G: nx.DiGraph, out: Path, o: BuildOptions, base_iri: str
               ) -> tuple[dict, dict[str, list[Path]]]:
    """Every export of the build into the folder `out`: the report, and step name -> files written."""
    from kg.analysis import analyze, louvain, write_report
    from kg.exports import write_gexf, write_graphml, write_vosviewer
    from kg.graph import coauthor_graph, topic_graph
    from kg.rdf import STORE_NAME, write_rdf
    from kg.views import write_views

    quiet, counting, seed, resolution = o.quiet, o.counting, o.seed, o.resolution
    aside = o.workers > 1 and parallel.can_fork()
    coauthors = coauthor_graph(G, counting=counting)  # the RDF's collaborations come from it too

    loading: list[parallel.Fresh[Path]] = []  # the query store's loader
    store: Steps = [("store", lambda: [loading[0].result()])]  # its files, once it is loaded

    def whole_graph(later: contextlib.ExitStack) -> dict[str, list[Path]]:
        """papers.jsonl, RDF, GraphML, GEXF, and the query store, which a new interpreter bulk-loads
        from graph.nt meanwhile (Oxigraph's threads do not survive a fork, so neither a forked process
        nor one that forks later may load it). A forked writer waits for the store once GraphML and
        GEXF are written; in one process the loader is left running on `later` and waited for last."""
        with contextlib.ExitStack() as stack:
            def write_rdf_then_load() -> list[Path]:
                files = write_rdf(G, out, base_iri=base_iri, coauthors=coauthors)
                loading.append((stack if aside else later).enter_context(
                    parallel.Fresh("kg.rdf.store", "write_store", str(out / "graph.nt"), str(out / STORE_NAME))))
                return files

            return _run_each([
                ("papers.jsonl", lambda: [write_papers_jsonl(result.papers, out / "papers.jsonl")]),
                ("RDF", write_rdf_then_load),
                ("GraphML", lambda: [write_graphml(G, out / "graph.graphml")]),
                ("GEXF", lambda: [write_gexf(G, out / "graph.gexf")]),
            ] + (store if aside else []), quiet or aside)

    with contextlib.ExitStack() as later, parallel.Aside(lambda: whole_graph(later), fork=aside) as first:
        if not aside:  # in one process, these first (see the docstring)
            first.result()
        topics = topic_graph(G, normalize="association")
        # Louvain once, before a fork: the maps and the report share it
        by_author, by_topic = (louvain(P, seed=seed, resolution=resolution) for P in (coauthors, topics))
        report: dict = {}

        def write_analysis() -> list[Path]:
            report.update(analyze(G, counting=counting, seed=seed, resolution=resolution, coauthors=coauthors,
                                  topics=topics, coauthor_communities=by_author, topic_communities=by_topic),
                          input=input_summary(result))
            files = write_report(report, out)
            del report["tables"]  # written; the result keeps the summary, and the projections can go
            return files

        maps: Steps = [
            ("VOSviewer", lambda: [
                write_vosviewer(coauthors, out / "coauthors.vosviewer.json", seed=seed, resolution=resolution,
                                membership=by_author.membership),
                write_vosviewer(topics, out / "topics.vosviewer.json", seed=seed, resolution=resolution,
                                membership=by_topic.membership)]),
            ("views", lambda: write_views(G, out, counting=counting, seed=seed, resolution=resolution,
                                          min_weight=o.min_weight, top_n=o.top_n, top_links=o.top_links, datasets=o.datasets,
                                          quiet=True,
                                          coauthors=coauthors, topics=topics)),
        ]
        with _steps_aside(maps, aside, quiet) as second:
            if not aside:  # likewise the maps and views
                second.result()
            written = _run_each([("analysis", write_analysis)], quiet)
            written.update(second.result())
        written.update(first.result())
        if not aside:
            written.update(_run_each(store, quiet))
    return report, written


Steps = list[tuple[str, Callable[[], list[Path]]]]


def _steps_aside(steps: Steps, fork: bool, quiet: bool) -> parallel.Aside[dict[str, list[Path]]]:
    """Export steps written by a forked process while this one goes on (it shares the graph and
    projections as they are then; nothing is pickled), or here when their files are asked for;
    `result()` maps step name -> files written."""
    return parallel.Aside(lambda: _run_each(steps, quiet or fork), fork=fork)


def _run_each(steps: Steps, quiet: bool) -> dict[str, list[Path]]:
    """Run the steps in order (a progress bar unless `quiet`): step name -> the files it wrote."""
    return {name: step() for name, step in progress(steps, "writing", unit="step", quiet=quiet,
                                                    describe=lambda s: s[0])}
