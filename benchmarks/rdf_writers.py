"""Turtle and JSON-LD: the hand-written writers against the libraries, on a synthetic corpus.

Issue 19's rule: Turtle and JSON-LD come from pyoxigraph or rdflib unless the hand-written writer
is at least twice as fast. This prints, for the graph of `--papers` synthetic papers, the seconds
of each way (CPU seconds of this process, median of `--repeat` runs: steadier than wall-clock time on a shared machine): the statements alone, N-Triples alone (hand-written, as
kg writes it), N-Triples and JSON-LD in one pass (kg's JSON-LD, by difference), Turtle by
pyoxigraph from graph.nt (kg's Turtle), pyoxigraph's JSON-LD (expanded, not our compacted shape),
and with `--rdflib` rdflib's compacting JSON-LD serialiser (parse graph.nt + serialise).

    python benchmarks/rdf_writers.py --papers 10000 [--repeat 3] [--rdflib]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pyoxigraph as ox  # noqa: E402

import corpus  # noqa: E402
from kg.rdf.jsonld import JsonLdWriter, jsonld_context  # noqa: E402
from kg.rdf.model import statements  # noqa: E402
from kg.rdf.ntriples import NTriplesWriter  # noqa: E402
from kg.rdf.turtle import ntriples_to_turtle  # noqa: E402
from kg.rdf.vocab import PREFIXES  # noqa: E402


def _graph(papers: int, seed: int):
    from kg.extract import extract, make_pipeline
    from kg.graph import build_graph

    records = list(corpus.iter_papers(papers, seed))
    return build_graph(records, extract(records, nlp=make_pipeline(None), workers=2))


def _median(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rdflib", action="store_true", help="also time rdflib's JSON-LD (minutes at 10k)")
    args = parser.parse_args(argv)
    G = _graph(args.papers, args.seed)
    folder = Path(tempfile.mkdtemp(prefix="kg-rdf-writers-"))
    nt_path = folder / "graph.nt"

    def walk(nt: bool, jsonld: bool) -> None:
        nt_writer, jsonld_writer = NTriplesWriter(), JsonLdWriter()
        with open(nt_path if nt else folder / "unused.nt", "w", encoding="utf-8") as nt_file, \
                open(folder / "graph.jsonld", "w", encoding="utf-8") as jsonld_file:
            for subject, made in statements(G):
                if nt:
                    nt_file.write(nt_writer.text(subject, made))
                if jsonld:
                    jsonld_file.write(jsonld_writer.text(subject, made))

    rows = {
        "statements alone": _median(lambda: walk(False, False), args.repeat),
        "N-Triples (hand-written)": _median(lambda: walk(True, False), args.repeat),
        "N-Triples + JSON-LD, one pass (hand-written)": _median(lambda: walk(True, True), args.repeat),
        "Turtle by pyoxigraph from graph.nt": _median(lambda: ntriples_to_turtle(nt_path, folder / "graph.ttl"),
                                                      args.repeat),
        "JSON-LD by pyoxigraph from graph.nt (expanded)": _median(lambda: ox.serialize(
            ox.parse(path=nt_path, format=ox.RdfFormat.N_TRIPLES), output=folder / "ox.jsonld",
            format=ox.RdfFormat.JSON_LD, prefixes=PREFIXES), args.repeat),
    }
    if args.rdflib:
        import rdflib

        def rdflib_jsonld() -> None:
            graph = rdflib.Graph().parse(nt_path, format="nt")
            graph.serialize(folder / "rdflib.jsonld", format="json-ld", context=jsonld_context())

        rows["JSON-LD by rdflib from graph.nt (compacted)"] = _median(rdflib_jsonld, 1)
    rows["JSON-LD (hand-written), by difference"] = (rows["N-Triples + JSON-LD, one pass (hand-written)"]
                                                    - rows["N-Triples (hand-written)"])
    print(f"{args.papers} papers: {G.number_of_nodes()} nodes, {G.number_of_edges()} edges, "
          f"graph.nt {nt_path.stat().st_size / 1e6:.0f} MB; CPU seconds, median of {args.repeat}")
    for name, seconds in rows.items():
        print(f"{name:<50} {seconds:8.2f} s")
    return rows


if __name__ == "__main__":
    main()
