"""Peak memory of the analysis and report stage alone, as `kg build` runs it.

    python benchmarks/report_memory.py --papers 10000 [--seed 0] [--kg DIR] [--graph-cache FILE] [--no-trace]

The synthetic corpus (`benchmarks/corpus.py`) is read, extracted and built into the hub graph
(or loaded from `--graph-cache`, written on the first run, so that several runs measure the same
graph); both projections and their Louvain communities are made as `kg build` makes them, then
the stage is measured: `write_report(analyze(G, coauthors=..., topics=..., ...), DIR)`.
Printed as one JSON line: `traced_peak_MB` (the highest Python memory allocated during the stage
and still held at that moment, by `tracemalloc`, started just before it), `rss_growth_MB` (how
far the process's high-water mark rose during the stage) and `seconds` (under tracing, so slower
than in `kg build`; `--no-trace` times the stage untraced, with no traced peak). `--kg DIR`
imports kg from another checkout (e.g. the main branch) to compare before and after on the same
graph.
"""
from __future__ import annotations

import argparse
import json
import pickle
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
MB = 2**20


def _graph(papers: int, seed: int, cache: Path | None):
    """The hub graph of the synthetic corpus, from `cache` when it is there."""
    if cache is not None and cache.exists():
        with cache.open("rb") as handle:
            return pickle.load(handle)
    import corpus
    from kg.extract import extract_concepts, make_pipeline
    from kg.graph import build_graph

    records = list(corpus.iter_papers(papers, seed))
    found = extract_concepts(records, nlp=make_pipeline(None), workers=1, quiet=True)
    G = build_graph(records, found.methods, datasets=found.datasets)
    if cache is not None:
        with cache.open("wb") as handle:
            pickle.dump(G, handle, protocol=pickle.HIGHEST_PROTOCOL)
    return G


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kg", type=Path, default=BENCH_DIR.parent, help="the checkout to import kg from")
    parser.add_argument("--graph-cache", type=Path, help="pickle of the graph, written when missing")
    parser.add_argument("--no-trace", dest="trace", action="store_false", help="time the stage without tracemalloc")
    args = parser.parse_args(argv)
    sys.path[:0] = [str(args.kg.resolve()), str(BENCH_DIR)]

    import kg
    from kg.analysis import analyze, louvain, write_report
    from kg.graph import coauthor_graph, topic_graph

    G = _graph(args.papers, args.seed, args.graph_cache)
    C, T = coauthor_graph(G), topic_graph(G, normalize="association")
    by_author, by_topic = louvain(C, seed=42), louvain(T, seed=42)
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        if args.trace:
            tracemalloc.start()
        start = time.perf_counter()
        write_report(analyze(G, coauthors=C, topics=T, coauthor_communities=by_author, topic_communities=by_topic),
                     out)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1] if args.trace else None
        tracemalloc.stop()
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        written = sum(f.stat().st_size for f in Path(out).iterdir())
    print(json.dumps({"kg": str(Path(kg.__file__).parent.parent), "papers": G.graph["n_papers"],
                      "coauthor_links": C.number_of_edges(), "method_links": T.number_of_edges(),
                      "traced_peak_MB": None if peak is None else round(peak / MB, 1),
                      "rss_growth_MB": round((after - before) / 1024, 1),
                      "seconds": round(seconds, 2), "written_MB": round(written / MB, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
