"""Instructions executed by extraction, counted by valgrind (cachegrind's `I refs`): a deterministic
figure for before/after comparisons, where wall-clock timings drift with the host (on ours the same
run varies by 1.5x from hour to hour; instruction counts repeat to 0.1%).

    python benchmarks/extraction_instructions.py [INPUT] [--limit N] [--jobs 2]

INPUT defaults to `../shared/data/ijcai2024.jsonl`, as in `extraction_speed.py`. Each workload runs
in its own `valgrind --tool=cachegrind` process with a fixed hash seed: `spacy.blank("en")` through
`nlp.pipe`, `make_pipeline()` through `nlp.pipe`, and `kg.extract.extract()`. The count of the same
process stopped before the texts (imports, pipeline, a warm-up) is subtracted, so a row is the work
on the texts alone. Needs valgrind (`apt-get install valgrind`); about 50x slower than a plain run.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from extraction_speed import DATA, load_papers

#: Workload -> (pipeline, what runs on the texts).
WORKLOADS = {
    'spacy.blank("en") alone': ("blank", "pipe"),
    "make_pipeline() nlp.pipe": ("kg", "pipe"),
    "extract() (pipe + linking)": ("kg", "extract"),
}
_IREFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def _workload(input: str | None, limit: int | None, pipeline: str, run: str) -> None:
    """In the measured process: read, make the pipeline, warm it up, then `run` on the texts
    (`none`: stop before them)."""
    import spacy

    from kg.extract import extract, make_pipeline

    papers = load_papers(input, limit)
    nlp = spacy.blank("en") if pipeline == "blank" else make_pipeline()
    list(nlp.pipe(["Warm-up."]))
    if run == "pipe":
        list(nlp.pipe(p.text for p in papers))
    elif run == "extract":
        extract(papers, nlp=nlp, quiet=True)


def _count(args: argparse.Namespace, pipeline: str, run: str) -> int:
    """Instructions of one workload process under cachegrind."""
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
               sys.executable, __file__, "--workload", f"{pipeline}:{run}"]
    if args.input:
        command.insert(len(command) - 2, args.input)
    if args.limit is not None:
        command += ["--limit", str(args.limit)]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = _IREFS.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind run {pipeline}:{run} failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    """Count each workload; print the table and return `{row: {"instructions", "ratio_to_blank"}}`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", nargs="?", default=str(DATA) if DATA.exists() else None)
    parser.add_argument("--limit", type=int, default=None, help="first N papers only")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="valgrind runs at a time")
    parser.add_argument("--workload", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.workload:
        _workload(args.input, args.limit, *args.workload.split(":"))
        return {}
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    runs = sorted({(p, "none") for p, _ in WORKLOADS.values()} | set(WORKLOADS.values()))
    with ThreadPoolExecutor(args.jobs) as pool:
        counts = dict(zip(runs, pool.map(lambda r: _count(args, *r), runs)))
    figures = {name: {"instructions": counts[p, r] - counts[p, "none"]} for name, (p, r) in WORKLOADS.items()}
    base = figures['spacy.blank("en") alone']["instructions"]
    print(f"{Path(args.input).name if args.input else 'embedded sample'}"
          f"{f', first {args.limit} papers' if args.limit else ''}: instructions on the texts (setup subtracted)")
    print(f"{'pipeline':<30} {'G instr.':>9} {'blank / row':>12}")
    for name, f in figures.items():
        f["ratio_to_blank"] = base / f["instructions"]
        print(f"{name:<30} {f['instructions'] / 1e9:>9.3f} {f['ratio_to_blank']:>11.2f}x")
    return figures


if __name__ == "__main__":
    main()
