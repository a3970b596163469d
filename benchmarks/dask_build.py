"""`kg build --scheduler local:N` on a synthetic corpus: time, papers/s, peak memory per worker and client.

    python benchmarks/dask_build.py --size 100000 --workers 1,2 [--seed 0]

For each worker count: a LocalCluster of that many single-threaded worker processes on 127.0.0.1,
`kg.build(jsonl, scheduler=its address)` into `benchmarks/out/dask<N>-<corpus>/`, then the peak
resident memory (`ru_maxrss`) of each worker process and of this client process, and how long the
cluster worked (first task start to last task end, from Dask's task stream) within the whole build.
Figures are printed, never asserted; the client's peak is the highest of the whole run so far.
"""
from __future__ import annotations

import argparse
import logging
import resource
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make the kg package importable
    sys.path.insert(0, str(ROOT))

import corpus  # noqa: E402


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(jsonl: Path, workers: int, n: int) -> None:
    from distributed import Client, LocalCluster, get_task_stream

    from kg.workflow import build

    out = corpus.OUT_DIR / f"dask{workers}-{jsonl.stem}"  # not under the corpus prefix, which ensure_corpus cleans
    shutil.rmtree(out, ignore_errors=True)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        start = time.perf_counter()
        with get_task_stream(client) as stream:
            build([jsonl], out, quiet=True, scheduler=cluster.scheduler_address)
        seconds = time.perf_counter() - start
        spans = [s for task in stream.data for s in task["startstops"] if s["action"] == "compute"]
        busy = max(s["stop"] for s in spans) - min(s["start"] for s in spans)
        workers_mb = sorted(client.run(_peak_mb).values())
    print(f"local:{workers}  {n} papers  {seconds:.0f} s  {n / seconds:.0f} papers/s  "
          f"cluster phase {busy:.0f} s ({len(stream.data)} tasks)  "
          f"peak per worker {', '.join(f'{mb:.0f}' for mb in workers_mb)} MB  client {_peak_mb():.0f} MB",
          flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts (default: 1,2)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    _, jsonl = corpus.ensure_corpus(args.size, args.seed)
    for workers in (int(w) for w in args.workers.split(",")):
        run(jsonl, workers, args.size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
