"""`kg build`: the whole job, read -> extract -> graph -> RDF / analysis / views, into one folder.

Every output is written atomically, so an interrupted build never leaves a half-written file.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Sequence

import networkx as nx

from kg.io import atomic_open
from kg.readers import ReadResult, read
from kg.records import paper_to_dict


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
    with atomic_open(path) as out:
        for paper in papers:
            out.write(json.dumps(paper_to_dict(paper), ensure_ascii=False, sort_keys=True) + "\n")
    return path


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
    quiet: bool = False,
) -> BuildResult:
    """Run the whole job on `inputs` (None = the embedded sample) and write every export into `out_dir`."""
    from kg.aliases import load_aliases
    from kg.analysis import analyze
    from kg.exports import write_gexf, write_graphml, write_vosviewer
    from kg.extract import extract, make_pipeline
    from kg.graph import build_graph, coauthor_graph, topic_graph
    from kg.rdf import DEFAULT_BASE_IRI, write_rdf
    from kg.report import write_report
    from kg.views import coauthor_view, topic_view, write_html

    out = Path(out_dir)
    result = read(inputs, format=format, strict=strict)
    papers = result.papers
    methods = extract(papers, nlp=make_pipeline(spacy_model), workers=workers)
    G = build_graph(papers, methods, aliases=load_aliases(aliases) if aliases else None)

    files = [write_papers_jsonl(papers, out / "papers.jsonl")]
    files += write_rdf(G, out, base_iri=base_iri or DEFAULT_BASE_IRI)
    files.append(write_graphml(G, out / "graph.graphml"))
    files.append(write_gexf(G, out / "graph.gexf"))
    files.append(write_vosviewer(coauthor_graph(G, counting=counting), out / "coauthors.vosviewer.json", seed=seed))
    files.append(write_vosviewer(topic_graph(G, normalize="association"), out / "topics.vosviewer.json", seed=seed))
    report = analyze(G, counting=counting, seed=seed, resolution=resolution)
    report["input"] = {"files": result.files, "papers": len(papers), "duplicates_merged": result.duplicates,
                       "records_skipped": result.skipped}
    files += write_report(report, out)
    files.append(write_html(coauthor_view(G, counting=counting, seed=seed), out / "coauthors.html"))
    files.append(write_html(topic_view(G, seed=seed), out / "topics.html"))
    return BuildResult(read=result, graph=G, report=report, out_dir=out, files=files)
