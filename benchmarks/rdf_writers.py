"""Turtle and JSON-LD: the hand-written writers against the libraries, on a synthetic corpus.

Issue 19's rule: Turtle and JSON-LD come from pyoxigraph or rdflib unless the hand-written writer
is at least twice as fast. This prints, for the graph of `--papers` synthetic papers, the CPU
seconds of this process (steadier than wall-clock time on a shared machine) of each way, median of
`--repeat` rounds, the ways interleaved within each round so that a change in the machine's load
falls on all of them: the statements alone; N-Triples alone; Turtle alone (hand-written, from the
statements); N-Triples + Turtle and N-Triples + JSON-LD in one pass (the hand-written Turtle and
JSON-LD by difference); `write_rdf` (all three in one pass, as `kg build`); Turtle by pyoxigraph
from graph.nt (parse + serialise, with our prefixes); pyoxigraph's JSON-LD (expanded, not our
compacted shape); with `--rdflib`, rdflib's compacting JSON-LD serialiser (parse graph.nt + serialise).

    python benchmarks/rdf_writers.py --papers 10000 [--repeat 3] [--rdflib]
"""
from __future__ import annotations

import argparse
import shutil
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
from kg.rdf.terms import TURTLE_PREFIXES  # noqa: E402
from kg.rdf.turtle import TurtleWriter  # noqa: E402
from kg.rdf.vocab import PREFIXES  # noqa: E402
from kg.rdf.write import write_rdf  # noqa: E402
from kg.rdf.writer import write_subjects  # noqa: E402


def _graph(papers: int, seed: int):
    from kg.extract import extract, make_pipeline
    from kg.graph import build_graph

    records = list(corpus.iter_papers(papers, seed))
    return build_graph(records, extract(records, nlp=make_pipeline(None), workers=2))


def _cpu_seconds(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rdflib", action="store_true", help="also time rdflib's JSON-LD (minutes at 10k)")
    args = parser.parse_args(argv)
    G = _graph(args.papers, args.seed)
    folder = Path(tempfile.mkdtemp(prefix="kg-rdf-writers-"))
    try:  # graph.nt alone is hundreds of MB at 10k papers: never left behind
        nt_path = folder / "graph.nt"

        def walk(*writers: type) -> None:
            """The statements written by each of `writers` (none: the statements alone) into `folder`."""
            targets = [(writer(), folder / f"{writer.__name__}.out") for writer in writers]
            if targets:
                write_subjects(statements(G), targets)
            else:
                for _ in statements(G):
                    pass

        def oxigraph_turtle() -> None:
            ox.serialize(ox.parse(path=nt_path, format=ox.RdfFormat.N_TRIPLES), output=folder / "ox.ttl",
                         format=ox.RdfFormat.TURTLE, prefixes=TURTLE_PREFIXES)

        def oxigraph_jsonld() -> None:
            ox.serialize(ox.parse(path=nt_path, format=ox.RdfFormat.N_TRIPLES), output=folder / "ox.jsonld",
                         format=ox.RdfFormat.JSON_LD, prefixes=PREFIXES)

        ways: dict[str, Callable[[], object]] = {
            "statements alone": walk,
            "N-Triples (hand-written)": lambda: walk(NTriplesWriter),
            "Turtle alone (hand-written, statements included)": lambda: walk(TurtleWriter),
            "N-Triples + Turtle, one pass (hand-written)": lambda: walk(NTriplesWriter, TurtleWriter),
            "N-Triples + JSON-LD, one pass (hand-written)": lambda: walk(NTriplesWriter, JsonLdWriter),
            "write_rdf (N-Triples + Turtle + JSON-LD, one pass)": lambda: write_rdf(G, folder),
            "Turtle by pyoxigraph from graph.nt": oxigraph_turtle,
            "JSON-LD by pyoxigraph from graph.nt (expanded)": oxigraph_jsonld,
        }
        write_rdf(G, folder)  # graph.nt for pyoxigraph, and a first pass that warms the caches
        times: dict[str, list[float]] = {name: [] for name in ways}
        for _ in range(args.repeat):  # interleaved: each round runs every way once
            for name, fn in ways.items():
                times[name].append(_cpu_seconds(fn))
        rows = {name: statistics.median(seconds) for name, seconds in times.items()}
        if args.rdflib:
            import rdflib

            def rdflib_jsonld() -> None:
                graph = rdflib.Graph().parse(nt_path, format="nt")
                graph.serialize(folder / "rdflib.jsonld", format="json-ld", context=jsonld_context())

            rows["JSON-LD by rdflib from graph.nt (compacted)"] = _cpu_seconds(rdflib_jsonld)
        nt_alone = rows["N-Triples (hand-written)"]
        rows["Turtle (hand-written), by difference"] = rows["N-Triples + Turtle, one pass (hand-written)"] - nt_alone
        rows["JSON-LD (hand-written), by difference"] = rows["N-Triples + JSON-LD, one pass (hand-written)"] - nt_alone
        rows["former write_rdf (N-Triples + JSON-LD pass, then pyoxigraph's Turtle), sum"] = (
            rows["N-Triples + JSON-LD, one pass (hand-written)"] + rows["Turtle by pyoxigraph from graph.nt"])
        rows["Turtle: pyoxigraph / hand-written (by difference)"] = (rows["Turtle by pyoxigraph from graph.nt"]
                                                                     / rows["Turtle (hand-written), by difference"])
        print(f"{args.papers} papers: {G.number_of_nodes()} nodes, {G.number_of_edges()} edges, "
              f"graph.nt {nt_path.stat().st_size / 1e6:.0f} MB; "
              f"CPU seconds, median of {args.repeat} interleaved rounds")
        for name, seconds in rows.items():
            unit = "x" if name.startswith("Turtle: ") else "s"
            print(f"{name:<75} {seconds:8.2f} {unit}")
        return rows
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
