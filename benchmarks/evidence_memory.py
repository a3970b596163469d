"""Memory of the mention evidence on the hub graph's edges, measured with tracemalloc.

Every `mentions` and `uses_dataset` edge keeps its evidence (each mention's text, offsets and
sentence). This builds the graph of `--papers` synthetic papers (`benchmarks/corpus.py`) with
tracemalloc tracing from before extraction, so every evidence object is traced where it is made,
and prints:

* **graph stage**: memory the traced process holds after `build_graph` once extraction's results
  are dropped, minus what it held before `build_graph` (net), and the highest point during
  `build_graph` above that start (peak);
* **evidence**: what dropping every edge's `evidence` frees (the evidence and nothing else: texts,
  offsets and sentences are referenced by it alone), per mention too; of which the distinct
  sentence strings, and the distinct mention texts and offsets (`sys.getsizeof`), the rest being
  the records and their containers.

Figures are tracemalloc's (Python allocations, not RSS). Compare them between runs of the same
corpus (same `--papers` and `--seed`).

    python benchmarks/evidence_memory.py --papers 10000 [--seed 0] [--workers 1] [--data-dir ../shared/data]
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make the kg package importable
    sys.path.insert(0, str(ROOT))

import corpus  # noqa: E402
from kg.extract import extract_concepts, make_pipeline  # noqa: E402
from kg.graph import build_graph  # noqa: E402

MB = 1024 * 1024


def _field(item: object, name: str) -> object:
    """A field of one evidence item, a record's attribute or a dict's key (the shape before issue 24)."""
    return item[name] if isinstance(item, dict) else getattr(item, name)


def _distinct_bytes(items: Sequence[object], names: Sequence[str]) -> int:
    """`sys.getsizeof` of the distinct objects (by identity) in the fields `names` of `items`."""
    seen = {id(value): value for item in items for value in (_field(item, name) for name in names)}
    return sum(map(sys.getsizeof, seen.values()))


def measure(papers: int, seed: int, workers: int, vocab: corpus.Vocabulary | None = None) -> dict[str, float]:
    """Build the graph of `papers` synthetic papers under tracemalloc; the figures `main` prints."""
    records = list(corpus.iter_papers(papers, seed, vocab))
    nlp = make_pipeline(None)
    tracemalloc.start()
    found = extract_concepts(records, nlp=nlp, workers=workers, quiet=True)
    start, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    G = build_graph(records, found.methods, datasets=found.datasets)
    _, peak = tracemalloc.get_traced_memory()
    del found
    held, _ = tracemalloc.get_traced_memory()
    items = [item for _, _, evidence in G.edges(data="evidence") if evidence for item in evidence]
    sentences = _distinct_bytes(items, ("sentence",))
    texts = _distinct_bytes(items, ("text", "start", "end"))
    mentions = len(items)
    del items
    for _, _, data in G.edges(data=True):
        data.pop("evidence", None)
    dropped, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    evidence = held - dropped
    return {"papers": papers, "mentions": mentions, "graph_net": held - start, "graph_peak": peak - start,
            "evidence": evidence, "per_mention": evidence / max(mentions, 1), "sentences": sentences,
            "texts": texts, "records": evidence - sentences - texts}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=10000, help="synthetic papers (default: 10000)")
    parser.add_argument("--seed", type=int, default=0, help="corpus seed (default: 0)")
    parser.add_argument("--workers", type=int, default=1, help="extraction processes (default: 1)")
    parser.add_argument("--data-dir", type=Path, default=corpus.DATA_DIR,
                        help="folder of ijcai2024.jsonl, the corpus vocabulary (default: ../shared/data)")
    args = parser.parse_args(argv)
    vocab = corpus.load_vocabulary(args.data_dir)
    print(f"# {os.cpu_count()} cores, Python {platform.python_version()}, kg from {ROOT}, vocabulary: {vocab.source}")
    began = time.perf_counter()
    r = measure(args.papers, args.seed, args.workers, vocab)
    print(f"papers {r['papers']}, mentions on edges {r['mentions']} ({time.perf_counter() - began:.0f} s under tracemalloc)")
    print(f"graph stage: net {r['graph_net'] / MB:.1f} MB, peak {r['graph_peak'] / MB:.1f} MB (tracemalloc)")
    print(f"evidence: {r['evidence'] / MB:.1f} MB, {r['per_mention']:.0f} B per mention; of which "
          f"sentences {r['sentences'] / MB:.1f} MB, texts and offsets {r['texts'] / MB:.1f} MB, "
          f"records and containers {r['records'] / MB:.1f} MB ({r['records'] / max(r['mentions'], 1):.0f} B per mention)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
