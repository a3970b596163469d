"""Words per second of our extraction against `spacy.blank("en")` alone, on the same abstracts.

    python benchmarks/extraction_speed.py [INPUT] [--workers N] [--limit N]

INPUT defaults to `../shared/data/ijcai2024.jsonl` (1,044 abstracts, read and cleaned by
kg.readers), else the embedded sample. Rows: the blank tokenizer pipeline alone (the floor),
`make_pipeline()` through `nlp.pipe` (tokenizer + sentencizer + kg_methods), and the whole
`kg.extract.extract()` (pipe + corpus-level linking); with the trained pipeline too when installed.
Each run starts from a fresh pipeline in a fresh (forked) process, as `kg build` does, and the
fastest of `--repeat` runs counts. One more row times `extract()` a second time in its process,
after an untimed first pass over the same abstracts: with every word already seen (tokenizer
cache, lexemes, per-word and per-text judgements), it shows what a corpus costs once its words
repeat, as in a large one.
`main()` prints the table and returns `{row: {"seconds", "words_per_s", "ratio_to_blank"}}`.
"""
from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import spacy

from kg._util import parallel
from kg.errors import ArgumentError
from kg.extract import extract, make_pipeline
from kg.readers import read

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "ijcai2024.jsonl"


def load_papers(input: str | None, limit: int | None = None) -> list:
    """The papers of `input` (None: the embedded sample), the first `limit` of them."""
    return read([input] if input else None, require_authors=False).papers[:limit]


def _timed_fresh(fresh: Callable[[], spacy.Language], run: Callable[[spacy.Language], object],
                 warm: bool = False) -> float:
    """Seconds of `run` on a new pipeline (made and warmed up untimed, with `warm` by a whole untimed
    `run` first), in a forked process where processes fork: kg's module-level caches (word facts,
    normalised forms) then start as empty as in a `kg build`, instead of filled by the runs before."""
    def timed() -> float:
        nlp = fresh()
        list(nlp.pipe(["Warm-up."]))
        if warm:
            run(nlp)
        start = time.perf_counter()
        run(nlp)
        return time.perf_counter() - start

    return parallel.Aside(timed, fork=parallel.can_fork()).result()


def main(argv: Sequence[str] | None = None) -> dict[str, dict[str, float]]:
    """Time each row on the input's abstracts; print the table and return the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", nargs="?", default=str(DATA) if DATA.exists() else None)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None, help="first N papers only")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row, the fastest counts (default: 3)")
    args = parser.parse_args(argv)
    papers = load_papers(args.input, args.limit)
    texts = [p.text for p in papers]
    words = sum(len(t.split()) for t in texts)

    # Every run starts from a fresh pipeline in a fresh process, as `kg build` does, so no run profits
    # from a cache another filled; a one-word warm-up loads lazy parts without warming the caches.
    def extracted(nlp: spacy.Language) -> object:
        return extract(papers, nlp=nlp, workers=args.workers)

    rows: dict[str, tuple[Callable[[], spacy.Language], Callable[[spacy.Language], object], bool]] = {
        'spacy.blank("en") alone': (lambda: spacy.blank("en"),
                                    lambda nlp: list(nlp.pipe(texts, n_process=args.workers)), False),
        "make_pipeline() nlp.pipe": (make_pipeline, lambda nlp: list(nlp.pipe(texts, n_process=args.workers)),
                                     False),
        "extract() (pipe + linking)": (make_pipeline, extracted, False),
        "extract(), words seen": (make_pipeline, extracted, True),
    }
    try:
        make_pipeline("en_core_web_sm")
        rows["extract() on en_core_web_sm"] = (lambda: make_pipeline("en_core_web_sm"), extracted, False)
    except ArgumentError:
        pass
    figures: dict[str, dict[str, float]] = {}
    for name, (fresh, run, warm) in rows.items():
        seconds = min(_timed_fresh(fresh, run, warm) for _ in range(args.repeat))
        figures[name] = {"seconds": seconds, "words_per_s": words / seconds}
    base = figures['spacy.blank("en") alone']["words_per_s"]
    print(f"{len(texts)} abstracts, {words} words, workers={args.workers}, "
          f"fresh pipeline and process per run, best of {args.repeat}")
    print(f"{'pipeline':<30} {'seconds':>8} {'words/s':>10} {'vs blank':>9}")
    for name, f in figures.items():
        f["ratio_to_blank"] = f["words_per_s"] / base
        print(f"{name:<30} {f['seconds']:>8.2f} {f['words_per_s']:>10.0f} {f['ratio_to_blank']:>8.2f}x")
    return figures


if __name__ == "__main__":
    main()
