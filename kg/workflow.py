"""`kg build`: the whole job, read -> extract -> graph -> RDF / analysis / views, into one folder.

Every output is written atomically, so an interrupted build never leaves a half-written file.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from kg._util import parallel
from kg._util.io import atomic_open, json_encoder
from kg._util.progress import progress
from kg.readers import ReadResult, reading
from kg.records import paper_to_dict
from kg.views.page import DEFAULT_TOP_LINKS, DEFAULT_TOP_N


@dataclass
class BuildResult:
    """What a build read, made and wrote."""

    read: ReadResult
    graph: nx.DiGraph
    report: dict
    out_dir: Path
    files: list[Path] = field(default_factory=list)

    @property
    def problems(self) -> list:
        return self.read.problems

    def summary(self) -> str:
        counts: dict[str, int] = {}
        for _, kind in self.graph.nodes(data="kind"):
            counts[kind] = counts.get(kind, 0) + 1
        made = ", ".join(f"{counts.get(k, 0)} {k}s" for k in ("paper", "author", "track", "area", "method"))
        wrote = ", ".join(p.name for p in self.files)
        return f"{self.read.summary()}\ngraph: {made}\nwrote {len(self.files)} files to {self.out_dir}/: {wrote}"


def write_papers_jsonl(papers: Sequence, path: Path) -> Path:
    """The normalised records, one JSON object a line (the `kg papers --json` shape)."""
    encode = json_encoder(sort_keys=True)
    with atomic_open(path) as out:
        for paper in papers:
            out.write(encode(paper_to_dict(paper)) + "\n")
    return path


def load_graph(
    inputs: Sequence[str | os.PathLike[str]] | None = None,
    *,
    format: str = "auto",
    strict: bool = False,
    spacy_model: str | None = None,
    aliases: str | os.PathLike[str] | None = None,
    workers: int = 1,
    quiet: bool = False,
) -> tuple[ReadResult, nx.DiGraph]:
    """Read `inputs` (None = the embedded sample), extract method terms, build the hub graph.

    The first three arrows of the data flow, shared by `kg build`, `kg analyze` and `kg views`.
    A bad aliases file fails before the long work starts. Reading and extraction show progress
    bars on a terminal unless `quiet`.
    """
    from kg.graph.aliases import load_aliases
    from kg.extract import extract, make_pipeline
    from kg.graph.build import build_graph

    alias_table = load_aliases(aliases) if aliases else None
    nlp = make_pipeline(spacy_model)
    result, papers = reading(inputs, format=format, strict=strict, quiet=quiet)
    methods = extract(papers, nlp=nlp, workers=workers, quiet=quiet)  # the workers start on the first papers read
    return result, build_graph(result.papers, methods, aliases=alias_table)


def input_summary(result: ReadResult) -> dict:
    """The report's `input` section: what was read, merged and skipped."""
    return {"files": result.files, "papers": len(result.papers), "duplicates_merged": result.duplicates,
            "records_skipped": result.skipped}


def build(
    inputs: Sequence[str | os.PathLike[str]] | None = None,
    out_dir: str | os.PathLike[str] = "exports",
    *,
    format: str = "auto",
    strict: bool = False,
    spacy_model: str | None = None,
    base_iri: str | None = None,
    aliases: str | os.PathLike[str] | None = None,
    workers: int = 1,
    counting: str = "full",
    seed: int = 42,
    resolution: float = 1.0,
    min_weight: float = 0,
    top_n: int | None = DEFAULT_TOP_N,
    top_links: int | None = DEFAULT_TOP_LINKS,
    quiet: bool = False,
) -> BuildResult:
    """Run the whole job on `inputs` (None = the embedded sample) and write every export into `out_dir`.

    `min_weight`, `top_n` and `top_links` are the views' thresholds (`kg.views.write_views`); the
    other exports hold the whole graph. `workers` > 1 runs extraction in that many processes, then
    (where processes fork) writes the whole-graph files (papers.jsonl, RDF, GraphML, GEXF) in a
    forked process while this one makes the projections, and the maps and views in another while
    this one writes the analysis. In one process the whole-graph files come first, so the memory
    their writing used is freed before the projections are made, and the maps and views come
    before the analysis, whose tables stay (at 100k papers 0.8 GB). Progress bars (reading,
    extraction, then one step per export written here) show on a terminal unless `quiet`.
    """
    from kg.analysis.core import analyze, communities
    from kg.exports.core import write_gexf, write_graphml, write_vosviewer
    from kg.graph.build import coauthor_graph, topic_graph
    from kg.rdf import DEFAULT_BASE_IRI, STORE_NAME, check_base_iri, write_rdf, write_store
    from kg.analysis.report import write_report
    from kg.views.page import write_views

    base_iri = check_base_iri(base_iri or DEFAULT_BASE_IRI)  # a bad IRI fails before the long work
    out = Path(out_dir)
    result, G = load_graph(inputs, format=format, strict=strict, spacy_model=spacy_model, aliases=aliases,
                           workers=workers, quiet=quiet)
    whole_graph: Steps = [
        ("papers.jsonl", lambda: [write_papers_jsonl(result.papers, out / "papers.jsonl")]),
        ("RDF", lambda: [*write_rdf(G, out, base_iri=base_iri), write_store(out / "graph.nt", out / STORE_NAME)]),
        ("GraphML", lambda: [write_graphml(G, out / "graph.graphml")]),
        ("GEXF", lambda: [write_gexf(G, out / "graph.gexf")]),
    ]
    aside = workers > 1 and parallel.can_fork()
    with _steps_aside(whole_graph, aside, quiet) as first:
        if not aside:  # in one process, these first (see the docstring)
            first.result()
        coauthors, topics = coauthor_graph(G, counting=counting), topic_graph(G, normalize="association")
        for P in (coauthors, topics):  # Louvain once, before a fork: the maps, report and views share it
            communities(P, seed=seed, resolution=resolution)
        report: dict = {}

        def write_analysis() -> list[Path]:
            report.update(analyze(G, counting=counting, seed=seed, resolution=resolution, coauthors=coauthors,
                                  topics=topics), input=input_summary(result))
            return write_report(report, out)

        maps: Steps = [
            ("VOSviewer", lambda: [
                write_vosviewer(coauthors, out / "coauthors.vosviewer.json", seed=seed, resolution=resolution),
                write_vosviewer(topics, out / "topics.vosviewer.json", seed=seed, resolution=resolution)]),
            ("views", lambda: write_views(G, out, counting=counting, seed=seed, resolution=resolution,
                                          min_weight=min_weight, top_n=top_n, top_links=top_links, quiet=True,
                                          coauthors=coauthors, topics=topics)),
        ]
        with _steps_aside(maps, aside, quiet) as second:
            if not aside:  # likewise the maps and views (at 100k papers, a peak of 4.65 GB instead of 4.99)
                second.result()
            written = _run_each([("analysis", write_analysis)], quiet)
            written.update(second.result())
        written.update(first.result())
    order = ("papers.jsonl", "RDF", "GraphML", "GEXF", "VOSviewer", "analysis", "views")
    files = [path for name in order for path in written[name]]
    return BuildResult(read=result, graph=G, report=report, out_dir=out, files=files)


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
