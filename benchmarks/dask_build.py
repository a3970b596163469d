"""`kg build --scheduler local:N` on a synthetic corpus: time, papers/s, peak memory per worker and client.

    python benchmarks/dask_build.py --size 100000 --workers 1,2 [--seed 0] [--lean]

For each worker count: a LocalCluster of that many single-threaded worker processes on 127.0.0.1,
`kg.build(jsonl, scheduler=its address, lean=...)` into `benchmarks/out/dask<N>-<corpus>/`, then the
peak resident memory of each worker process and of this client process (RSS read from `/proc` by
`psutil` every second during the build), and how long the cluster worked (first task start to last
task end, from Dask's task stream) within the whole build, and the task stream's seconds per kind of
task. Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make the kg package importable
    sys.path.insert(0, str(ROOT))

import corpus  # noqa: E402


class Peaks(threading.Thread):
    """The highest RSS (MB) of each of `pids`, sampled every `every` seconds until `stop` is set."""

    def __init__(self, pids: list[int], every: float = 1.0) -> None:
        super().__init__(daemon=True)
        self.processes = [psutil.Process(pid) for pid in pids]
        self.peaks = [0.0] * len(pids)
        self.every, self.stop = every, threading.Event()

    def run(self) -> None:
        while not self.stop.wait(self.every):
            for i, process in enumerate(self.processes):
                try:
                    self.peaks[i] = max(self.peaks[i], process.memory_info().rss / 2**20)
                except psutil.Error:  # a worker replaced
                    pass


#: Tasks the task stream keeps (Dask's default: 100,000, fewer than a build of 1M papers runs).
TASK_STREAM = 2_000_000


def run(jsonl: Path, workers: int, n: int, lean: bool) -> None:
    import dask
    from distributed import Client, LocalCluster, get_task_stream

    from kg.workflow import build

    out = corpus.OUT_DIR / f"dask{workers}{'-lean' if lean else ''}-{jsonl.stem}"  # not under the corpus prefix
    shutil.rmtree(out, ignore_errors=True)
    # the scheduler (in this process) keeps every task of the stream, not the last 100,000
    with dask.config.set({"distributed.scheduler.dashboard.tasks.task-stream-length": TASK_STREAM}), \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                         dashboard_address=None, silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        peaks = Peaks([os.getpid(), *sorted(client.run(os.getpid).values())])
        peaks.start()
        start = time.perf_counter()
        with get_task_stream(client) as stream:
            build([jsonl], out, quiet=True, scheduler=cluster.scheduler_address, lean=lean)
        seconds = time.perf_counter() - start
        peaks.stop.set()
        peaks.join()
        spans = [s for task in stream.data for s in task["startstops"] if s["action"] == "compute"]
        busy = max(s["stop"] for s in spans) - min(s["start"] for s in spans)
    client_mb, *workers_mb = peaks.peaks
    print(f"local:{workers}{' --lean' if lean else ''}  {n} papers  {seconds:.0f} s  {n / seconds:.0f} papers/s  "
          f"cluster phase {busy:.0f} s ({len(stream.data)} tasks)  "
          f"peak RSS per worker {', '.join(f'{mb:.0f}' for mb in workers_mb)} MB  client {client_mb:.0f} MB",
          flush=True)
    print("  task stream, seconds per kind of task (compute / transfer / spill to disk):")
    for name, times in sorted(stream_summary(stream.data).items(), key=lambda item: -sum(item[1].values()))[:12]:
        print(f"    {name:28s} " + "  ".join(f"{action} {t:7.1f}" for action, t in sorted(times.items())), flush=True)


def stream_summary(tasks: list[dict]) -> dict[str, dict[str, float]]:
    """Seconds spent per kind of task (its key's name without the token) and per action."""
    summary: dict[str, dict[str, float]] = {}
    for task in tasks:
        key = task["key"][0] if isinstance(task["key"], tuple) else task["key"]
        name = str(key).rsplit("-", 1)[0]
        for span in task["startstops"]:
            times = summary.setdefault(name, {})
            times[span["action"]] = times.get(span["action"], 0.0) + span["stop"] - span["start"]
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts (default: 1,2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lean", action="store_true", help="kg build --lean: parts and tables made on the workers")
    args = parser.parse_args()
    _, jsonl = corpus.ensure_corpus(args.size, args.seed)
    for workers in (int(w) for w in args.workers.split(",")):
        run(jsonl, workers, args.size, args.lean)
    return 0


if __name__ == "__main__":
    sys.exit(main())
