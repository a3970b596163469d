"""`make bench`: time and memory of every stage, at several corpus sizes, plus the peer benchmarks.

    python benchmarks/run.py [--sizes 1000,10000[,100000]] [--workers N] [--only SECTIONS] [--profile]

Sections (all by default): `pipeline` (read, extract, graph, RDF, analysis, views per corpus, each
corpus in a fresh subprocess), `stream` (streamed reading and extraction: memory against input size),
`speed` (benchmarks/extraction_speed.py), `peers` (benchmarks/extraction_peers.py), `sparql`
(benchmarks/sparql_stores.py on the 10k graph), `views` (benchmarks/views_large.py). `--profile`
re-runs the slowest stage of the largest corpus under pyinstrument. See benchmarks/README.md for
what each figure means; figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import json
import os
import platform
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
for _path in (str(ROOT), str(BENCH_DIR)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import psutil  # noqa: E402

import corpus  # noqa: E402

#: The real corpus, when the shared data folder is there.
IJCAI_LISTING = corpus.DATA_DIR / "ijcai2024_listing.txt"
IJCAI_JSONL = corpus.DATA_DIR / "ijcai2024.jsonl"

#: Targets of issue 24 (printed next to the measurements with ✓/✗, never asserted).
TARGET_10K_SECONDS = 20.0
TARGET_100K_PEAK_GB = 3.0
TARGET_100K_SECONDS = 300.0
TARGET_EXTRACT_WORDS_PER_S = 200_000
TARGET_QUERY_MS = 50.0
#: A stage still running after this many seconds is stopped (`--stage-timeout`), so one slow stage
#: cannot hold up the run; the later stages are still measured.
STAGE_TIMEOUT = 60.0
#: A worker whose RSS (with its children) passes this is stopped, so a runaway stage cannot swap.
MEMORY_CAP_BYTES = 16 * 2**30

STAGES = ("read", "extract", "graph", "rdf", "exports", "analysis", "views")
SECTIONS = ("pipeline", "stream", "speed", "peers", "sparql", "views")
#: The graph size (papers) the SPARQL benchmark runs on.
PEER_SIZE = 10_000
MB = 2**20


# ------------------------------------------------------------------------------- measuring
class PeakRss:
    """Peak resident memory of this process plus its child processes, phase by phase.

    A thread samples RSS every `interval` seconds: 20 times a second, as a sample of the process
    tree costs ~1 ms of CPU under the GIL of the process it measures (at 100 a second, a tenth of
    that process's time). A phase's peak is the larger of the sampled maximum and, when the
    high-water mark (`ru_maxrss`) of the process or of its largest finished child rose during the
    phase, that mark: it catches a peak the sampler missed while a C call held the GIL, or between
    two samples. Child RSS is summed (pages shared after a fork count once per process, so with
    workers the figure is an upper bound). With `pss_every` (seconds), the tree's proportional set
    size is sampled that often too (`pss_peak`): shared pages count once. It is read from
    `/proc/PID/smaps_rollup`, a walk of every page (tens of ms for GBs), hence far less often.
    """

    def __init__(self, interval: float = 0.05, cap: int = MEMORY_CAP_BYTES, pss_every: float | None = None) -> None:
        self._process = psutil.Process()
        self._interval = interval
        self._cap = cap
        self._peak = 0
        self._pss_every = pss_every
        #: The highest PSS sampled in the current phase (0 when not sampled).
        self.pss_peak = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _current(self) -> int:
        total = self._process.memory_info().rss
        for child in self._process.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                total += child.memory_info().rss
        return total

    def _pss(self) -> int:
        """The process tree's proportional set size (0 where Linux's smaps_rollup is missing)."""
        total = 0
        for process in [self._process, *self._process.children(recursive=True)]:
            with contextlib.suppress(OSError, psutil.Error, StopIteration), \
                    open(f"/proc/{process.pid}/smaps_rollup", encoding="ascii") as rollup:
                total += next(int(line.split()[1]) for line in rollup if line.startswith("Pss:")) * 1024
        return total

    def _sample(self) -> None:
        last_pss = 0.0
        while True:
            rss = self._current()
            with self._lock:
                self._peak = max(self._peak, rss)
            if self._pss_every is not None and time.monotonic() - last_pss >= self._pss_every:
                last_pss = time.monotonic()
                pss = self._pss()
                with self._lock:
                    self.pss_peak = max(self.pss_peak, pss)
            if rss > self._cap:
                print(f"run.py: worker stopped at {rss / 2**30:.1f} GB RSS (cap {self._cap / 2**30:.0f} GB)",
                      file=sys.stderr, flush=True)
                for child in self._process.children(recursive=True):  # a `kg build` it runs, with its writers
                    with contextlib.suppress(psutil.Error):
                        child.kill()
                os._exit(3)
            time.sleep(self._interval)

    @staticmethod
    def _high_water() -> int:
        """The high-water RSS of this process or of its largest finished child (a `kg build` run)."""
        marks = (resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
        return max(marks) * 1024  # KiB on Linux

    @contextlib.contextmanager
    def phase(self) -> Iterator[Callable[[], int]]:
        """Measure one phase; the yielded function gives its peak in bytes once the block is done."""
        before = self._high_water()
        with self._lock:
            self._peak = self._current()
            self.pss_peak = 0
        peak: list[int] = []
        try:
            yield lambda: peak[0]
        finally:
            after = self._high_water()
            with self._lock:
                peak.append(max(self._peak, after if after > before else 0))


@dataclass
class StageResult:
    """One measured stage of one corpus; `error` says why it has no figures."""

    stage: str
    seconds: float | None = None
    peak_rss: int | None = None
    papers: int | None = None
    error: str | None = None
    info: dict = field(default_factory=dict)


# ------------------------------------------------------------------------------- the stages
class StageTimeout(Exception):
    """Raised inside a stage that ran past its time limit."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise StageTimeout in the main thread once `seconds` have passed (SIGALRM; 0 = no limit)."""
    def expire(signum, frame):
        raise StageTimeout(f"stopped after {seconds:.0f} s (--stage-timeout)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class _Context:
    """What the stages hand on to each other inside one worker."""

    input: Path
    out_dir: Path
    workers: int
    papers: list | None = None
    methods: dict | None = None
    graph: object | None = None
    projections: dict = field(default_factory=dict)  # the analysis stage's, reused by the views as in kg build


def _stage_read(ctx: _Context) -> dict:
    from kg.readers import read

    result = read([ctx.input])
    ctx.papers = result.papers
    return {"problems": len(result.problems), "words": sum(len(p.text.split()) for p in ctx.papers)}


def _stage_extract(ctx: _Context) -> dict:
    from kg.extract import extract, make_pipeline

    ctx.methods = extract(ctx.papers, nlp=make_pipeline(None), workers=ctx.workers)
    return {"mentions": sum(m.count for ms in ctx.methods.values() for m in ms)}


def _stage_graph(ctx: _Context) -> dict:
    from kg.graph import build_graph

    ctx.graph = build_graph(ctx.papers, ctx.methods)
    return {"nodes": ctx.graph.number_of_nodes(), "edges": ctx.graph.number_of_edges()}


def _stage_rdf(ctx: _Context) -> dict:
    from kg.rdf import write_rdf

    files = write_rdf(ctx.graph, ctx.out_dir)
    return {"MB": round(sum(f.stat().st_size for f in files) / MB, 1)}


def _stage_exports(ctx: _Context) -> dict:
    from kg.exports import write_gexf, write_graphml

    files = [write_graphml(ctx.graph, ctx.out_dir / "graph.graphml"), write_gexf(ctx.graph, ctx.out_dir / "graph.gexf")]
    return {"MB": round(sum(f.stat().st_size for f in files) / MB, 1)}


def _stage_analysis(ctx: _Context) -> dict:
    """As `kg build`: both projections once, their VOSviewer maps, then the report on the same projections."""
    from kg.analysis import analyze
    from kg.exports import write_vosviewer
    from kg.graph import coauthor_graph, topic_graph
    from kg.analysis.report import write_report

    coauthors, topics = coauthor_graph(ctx.graph), topic_graph(ctx.graph, normalize="association")
    write_vosviewer(coauthors, ctx.out_dir / "coauthors.vosviewer.json", seed=42)
    write_vosviewer(topics, ctx.out_dir / "topics.vosviewer.json", seed=42)
    write_report(analyze(ctx.graph, seed=42, coauthors=coauthors, topics=topics), ctx.out_dir)
    ctx.projections = {"coauthors": coauthors, "topics": topics}
    return {"links": coauthors.number_of_edges() + topics.number_of_edges()}


def _stage_views(ctx: _Context) -> dict:
    from kg.views import write_views

    files = write_views(ctx.graph, ctx.out_dir, seed=42, quiet=True, **ctx.projections)
    return {"MB": round(sum(f.stat().st_size for f in files) / MB, 1)}


#: stage -> (function, the stages whose output it needs)
_STAGE_FUNCS: dict[str, tuple[Callable[[_Context], dict], tuple[str, ...]]] = {
    "read": (_stage_read, ()),
    "extract": (_stage_extract, ("read",)),
    "graph": (_stage_graph, ("read", "extract")),
    "rdf": (_stage_rdf, ("graph",)),
    "exports": (_stage_exports, ("graph",)),
    "analysis": (_stage_analysis, ("graph",)),
    "views": (_stage_views, ("graph",)),
}


def _profiled(fn: Callable[[], dict], report: Path) -> dict:
    """Run `fn` under pyinstrument; write the call tree and the top functions to `report`."""
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.001)
    with profiler:
        info = fn()
    session = profiler.last_session
    summary = _profile_summary(session.root_frame(), session.duration)
    report.write_text(summary + "\n\n" + profiler.output_text(unicode=True, show_all=False), encoding="utf-8")
    return {**info, "profile": str(report)}


def _profile_summary(root, duration: float, top: int = 15) -> str:
    """Functions by inclusive time (each counted once per stack) and by self time, with their share.

    pyinstrument's synthetic `[self]` frames are skipped (their time is in the parent's self time),
    and so are this driver's own wrapper frames.
    """
    inclusive: dict[str, float] = {}
    own: dict[str, float] = {}

    def walk(frame, on_stack: frozenset[str]) -> None:
        if frame.is_synthetic:
            return
        name = f"{frame.function} ({frame.file_path_short}:{frame.line_no})"
        if frame.file_path != __file__:
            own[name] = own.get(name, 0.0) + frame.total_self_time
            if name not in on_stack:
                inclusive[name] = inclusive.get(name, 0.0) + frame.time
        for child in frame.children:
            walk(child, on_stack | {name})

    walk(root, frozenset())
    lines = [f"profile: {duration:.2f} s sampled"]
    for title, table in (("inclusive", inclusive), ("self", own)):
        lines.append(f"-- top {top} by {title} time")
        for name, seconds in sorted(table.items(), key=lambda kv: -kv[1])[:top]:
            lines.append(f"{100 * seconds / duration:5.1f}%  {seconds:7.2f} s  {name}")
    return "\n".join(lines)


def run_pipeline(input: Path, out_dir: Path, workers: int, profile: str | None,
                 timeout: float = STAGE_TIMEOUT) -> Iterator[StageResult]:
    """Run the stages in order on `input`, yielding each one's figures (or why it has none).

    A stage past `timeout` seconds is stopped and reported with the time it had run and its peak.
    """
    yield from _run_stages(_Context(input=input, out_dir=out_dir, workers=workers), profile, timeout)


def _run_stages(ctx: _Context, profile: str | None, timeout: float) -> Iterator[StageResult]:
    meter, out_dir = PeakRss(), ctx.out_dir
    done: set[str] = set()
    for stage, (fn, needs) in _STAGE_FUNCS.items():
        missing = [n for n in needs if n not in done]
        if missing:
            yield StageResult(stage, error=f"skipped (needs {', '.join(missing)})")
            continue
        call = (lambda fn=fn: _profiled(lambda: fn(ctx), out_dir / f"profile-{stage}.txt")) \
            if stage == profile else (lambda fn=fn: fn(ctx))
        try:
            with meter.phase() as peak:
                start = time.perf_counter()
                try:
                    with _time_limit(timeout):
                        info = call()
                finally:
                    seconds = time.perf_counter() - start
        except StageTimeout as exc:
            yield StageResult(stage, peak_rss=peak(), papers=len(ctx.papers or ()), error=str(exc),
                              info={"stopped_at_s": round(seconds, 1)})
            continue
        except ImportError as exc:
            yield StageResult(stage, error=f"not available (ImportError: {exc})")
            continue
        except Exception as exc:  # a broken stage is reported, the others still measured
            yield StageResult(stage, error=f"failed ({type(exc).__name__}: {exc})")
            continue
        done.add(stage)
        yield StageResult(stage, seconds=seconds, peak_rss=peak(), papers=len(ctx.papers or ()), info=info)


def run_build(input: Path, out_dir: Path, workers: int, timeout: float) -> Iterator[StageResult]:
    """The `kg build` command on `input`, as users run it, timed as one stage from process start to
    exit: what the stages add up to, with imports, the writing processes of `--workers` > 1 and the
    interpreter's teardown (`timeout` 0 = none)."""
    shutil.rmtree(out_dir, ignore_errors=True)  # the files counted below are this run's
    cmd = [sys.executable, "-m", "kg", "build", str(input), "-o", str(out_dir), "--workers", str(workers), "--quiet"]
    meter = PeakRss(pss_every=1.0)
    with meter.phase() as peak:
        start = time.perf_counter()
        # its own process group, so that a timeout stops its forked writers too
        with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                              start_new_session=True) as proc:
            timed_out = False
            try:
                _, err = proc.communicate(timeout=timeout or None)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                _, err = proc.communicate()
                timed_out = True
        seconds = time.perf_counter() - start
    if timed_out or proc.returncode != 0:
        error = f"stopped after {timeout:.0f} s (--stage-timeout)" if timed_out else _exit_error(proc.returncode, err)
        yield StageResult("kg build", peak_rss=peak(), error=error, info={"stopped_at_s": round(seconds, 1)})
        return
    with open(out_dir / "papers.jsonl", encoding="utf-8") as lines:
        papers = sum(1 for _ in lines)  # one record a line
    files = [path for path in out_dir.iterdir() if path.is_file()]
    yield StageResult("kg build", seconds=seconds, peak_rss=peak(), papers=papers,
                      info={"files": len(files), "MB": round(sum(path.stat().st_size for path in files) / MB, 1),
                            "peak PSS MB (sampled each second)": round(meter.pss_peak / MB)})


def run_stream(input: Path, what: str) -> Iterator[StageResult]:
    """Stream `input` through `kg.readers.iter_papers` (and extraction), keeping only the methods.

    `what` = "read": count papers and words, keep nothing; "extract": also extract methods batch by
    batch from the stream, keep only the methods. Peak RSS should follow what is kept, not the input.
    """
    meter = PeakRss()
    try:
        from kg.readers import iter_papers

        with meter.phase() as peak:
            start = time.perf_counter()
            if what == "read":
                papers = words = 0
                for paper in iter_papers([input]):
                    papers += 1
                    words += len(paper.text.split())
                info = {"words": words}
            else:
                from kg.extract import extract, make_pipeline

                methods = extract(iter_papers([input]), nlp=make_pipeline(None))
                papers = len(methods)
                info = {"methods": sum(len(ms) for ms in methods.values())}
            seconds = time.perf_counter() - start
    except ImportError as exc:
        yield StageResult(what, error=f"not available (ImportError: {exc})")
        return
    yield StageResult(what, seconds=seconds, peak_rss=peak(), papers=papers, info=info)


def _worker(args: argparse.Namespace) -> int:
    """The `--worker` entry point: one corpus in this fresh process, results as JSON lines."""
    if args.worker == "pipeline":
        results = run_pipeline(args.input, args.out, args.workers, args.profile, args.stage_timeout)
    elif args.worker == "build":
        results = run_build(args.input, args.out, args.workers, args.stage_timeout * len(STAGES))
    else:
        results = run_stream(args.input, args.worker.removeprefix("stream-"))
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.result, "a", encoding="utf-8") as out:
        for result in results:
            out.write(json.dumps(asdict(result)) + "\n")
            out.flush()
    return 0


def _spawn(mode: str, input: Path, out_dir: Path, *extra: str) -> list[StageResult]:
    """Run one worker in a fresh interpreter; its results, plus a row saying why it stopped early."""
    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as tmp:
        result_file = Path(tmp.name)
    try:
        cmd = [sys.executable, __file__, "--worker", mode, "--input", str(input), "--out", str(out_dir),
               "--result", str(result_file), *extra]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        rows = [StageResult(**json.loads(line)) for line in result_file.read_text().splitlines()]
    finally:
        result_file.unlink(missing_ok=True)
    if proc.returncode != 0:
        rows.append(StageResult("(worker)", error=_exit_error(proc.returncode, proc.stderr)))
    return rows


def _exit_error(code: int, stderr: str) -> str:
    """Why a process failed: its exit code and the last line it wrote to stderr."""
    return f"exit {code}: {(stderr.strip().splitlines() or ['no message'])[-1]}"


# -------------------------------------------------------------------------------- printing
def _table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain text table: text columns left-aligned, numbers right-aligned."""
    cells = [[("" if c is None else str(c)) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    numeric = [all(_is_number(r[i]) for r in cells if r[i]) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in cells)])


def _is_number(text: str) -> bool:
    return text.replace(",", "").replace(".", "", 1).lstrip(">-").isdigit()


def _mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def _fmt_mb(n: int | None) -> str | None:
    return None if n is None else f"{n / MB:,.0f}"


def _header() -> str:
    """The machine and versions the figures were measured on."""
    try:
        import spacy
        spacy_version = spacy.__version__
    except ImportError:
        spacy_version = "not installed"
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (f"kg benchmarks — {platform.node()} {platform.machine()}, {os.cpu_count()} cores "
            f"({affinity} usable), {psutil.virtual_memory().total / 2**30:.0f} GB RAM\n"
            f"Python {platform.python_version()}, spaCy {spacy_version}, {platform.platform()}")


# ---------------------------------------------------------------------------------- sections
@dataclass
class _Corpus:
    """A corpus to measure: its name and files."""

    name: str
    listing: Path
    jsonl: Path
    papers: int


def _corpora(sizes: Sequence[int], seed: int, with_ijcai: bool) -> list[_Corpus]:
    vocab = corpus.load_vocabulary()
    found = []
    for n in sizes:
        listing, jsonl = corpus.ensure_corpus(n, seed, vocab=vocab)
        found.append(_Corpus(f"synthetic-{n // 1000}k" if n % 1000 == 0 else f"synthetic-{n}", listing, jsonl, n))
    if with_ijcai and IJCAI_LISTING.is_file():
        found.append(_Corpus("ijcai2024", IJCAI_LISTING, IJCAI_JSONL, 1044))
    print(f"corpora: {', '.join(c.name for c in found)} (vocabulary: {vocab.source}, seed {seed})")
    return found


def _seconds(r: StageResult) -> float | None:
    """A stage's seconds, or for a stopped stage the time it had run (a lower bound)."""
    return r.seconds if r.seconds is not None else r.info.get("stopped_at_s")


def _pipeline_section(corpora: Sequence[_Corpus], workers: int, timeout: float) -> dict[str, list[StageResult]]:
    """The per-stage table; returns the rows by corpus for the targets."""
    by_corpus: dict[str, list[StageResult]] = {}
    rows = []
    for c in corpora:
        stages = _spawn("pipeline", c.listing, BENCH_DIR / "out" / c.name, "--workers", str(workers),
                        "--stage-timeout", str(timeout))
        builds = _spawn("build", c.listing, BENCH_DIR / "out" / f"{c.name}-build", "--workers", str(workers),
                        "--stage-timeout", str(timeout))
        by_corpus[c.name] = stages + builds
        rows += [_stage_row(c, r) for r in stages]
        measured = [r for r in stages if _seconds(r) is not None]
        if measured:
            total = sum(_seconds(r) for r in measured)
            complete = sum(r.seconds is not None for r in measured) == len(STAGES)
            rows.append([c.name, "stages total" if complete else "stages total (incomplete)",
                         f"{'' if complete else '>'}{total:.2f}", f"{c.papers / total:,.0f}" if complete else None,
                         _fmt_mb(max(r.peak_rss for r in measured)), ""])
        rows += [_stage_row(c, r) for r in builds]
    print(f"\n== pipeline: per stage, each corpus in a fresh process, then `kg build` as one run (blank "
          f"pipeline, workers={workers}, stage timeout {timeout:.0f} s) ==")
    print(_table(["corpus", "stage", "seconds", "papers/s", "peak RSS MB", "notes"], rows))
    return by_corpus


def _stage_row(c: _Corpus, r: StageResult) -> list:
    rate = f"{r.papers / r.seconds:,.0f}" if r.seconds and r.papers else None
    seconds = _seconds(r)
    shown = None if seconds is None else f"{'' if r.seconds is not None else '>'}{seconds:.2f}"
    notes = r.error or ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}" for k, v in r.info.items())
    return [c.name, r.stage, shown, rate, _fmt_mb(r.peak_rss), notes]


def _stream_section(corpora: Sequence[_Corpus]) -> None:
    """Streamed reading (listing and JSONL) and streamed extraction: peak RSS against input size."""
    rows = []
    for c in corpora:
        for label, path, mode in (("listing", c.listing, "stream-read"), ("jsonl", c.jsonl, "stream-read"),
                                  ("listing", c.listing, "stream-extract")):
            for r in _spawn(mode, path, BENCH_DIR / "out" / c.name):
                rate = f"{r.papers / r.seconds:,.0f}" if r.seconds and r.papers else None
                rows.append([c.name, label, r.stage, f"{path.stat().st_size / MB:.1f}",
                             None if r.seconds is None else f"{r.seconds:.2f}", rate, _fmt_mb(r.peak_rss),
                             r.error or ""])
    print("\n== streaming: iter_papers keeps nothing, streamed extraction keeps only the methods ==")
    print(_table(["corpus", "format", "pass", "input MB", "seconds", "papers/s", "peak RSS MB", "notes"], rows))


def _call_main(module_name: str, argv: Sequence[str]) -> object:
    """Run `benchmarks/<module_name>.py`'s `main()` (with `argv` when it takes arguments)."""
    print(f"\n== {module_name} ==", flush=True)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        print(f"{module_name}: not available (ImportError: {exc})")
        return None
    takes_args = bool(inspect.signature(module.main).parameters)
    try:
        return module.main(list(argv)) if takes_args else module.main()
    except SystemExit as exc:
        if exc.code not in (0, None):
            print(f"{module_name}: exited with {exc.code}")
    except Exception as exc:  # one broken peer benchmark must not hide the others
        print(f"{module_name}: failed ({type(exc).__name__}: {exc})")
    return None


def _target(rows: list, name: str, measured: float | None, goal: float, unit: str, finished: bool = True) -> None:
    """Append one target row: the measurement (or why there is none), the goal, ✓/✗ (at most `goal`)."""
    if measured is None:
        rows.append([name, "not measured", f"<= {goal:g} {unit}", "✗"])
    else:
        shown = f"{measured:.2f} {unit}" if finished else f"> {measured:.2f} {unit} (did not finish)"
        rows.append([name, shown, f"<= {goal:g} {unit}", _mark(finished and measured <= goal)])


def _targets(by_corpus: dict[str, list[StageResult]], speed: dict | None, sparql: dict | None) -> None:
    """The issue's targets next to the measurements that answer them."""
    rows: list = []
    builds = {name: next((r for r in results if r.stage == "kg build"), None) for name, results in by_corpus.items()}
    if (ten_k := builds.get("synthetic-10k")) is not None:
        _target(rows, "10k papers end to end: kg build (blank pipeline)", _seconds(ten_k), TARGET_10K_SECONDS, "s",
                finished=ten_k.seconds is not None)
    if (hundred_k := builds.get("synthetic-100k")) is not None:
        _target(rows, "100k papers: kg build peak RSS", None if hundred_k.peak_rss is None else hundred_k.peak_rss / 2**30,
                TARGET_100K_PEAK_GB, "GB", finished=hundred_k.seconds is not None)
        _target(rows, "100k papers: kg build time", _seconds(hundred_k), TARGET_100K_SECONDS, "s",
                finished=hundred_k.seconds is not None)
    if speed:
        words_per_s = speed.get("extract() (pipe + linking)", {}).get("words_per_s")
        if words_per_s is not None:
            rows.append(["extraction words/s, one core (IJCAI 2024)", f"{words_per_s:,.0f}",
                         f">= {TARGET_EXTRACT_WORDS_PER_S:,}", _mark(words_per_s >= TARGET_EXTRACT_WORDS_PER_S)])
    if sparql and sparql.get("queries"):
        worst_name, worst = max(sparql["queries"].items(), key=lambda kv: kv[1]["oxigraph_ms"])
        _target(rows, f"slowest named query on Oxigraph, 10k papers ({worst_name})", worst["oxigraph_ms"],
                TARGET_QUERY_MS, "ms")
    if rows:
        print("\n== targets ==")
        print(_table(["target", "measured", "goal", ""], rows))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000", help="synthetic corpus sizes (default: 1000,10000)")
    parser.add_argument("--seed", type=int, default=0, help="corpus seed (default: 0)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                        help="extraction worker processes (default: 2, or 1 on a one-core machine)")
    parser.add_argument("--stage-timeout", type=float, default=STAGE_TIMEOUT,
                        help=f"stop a pipeline stage after this many seconds, 0 = never (default: {STAGE_TIMEOUT:.0f})")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"sections to run (default: {','.join(SECTIONS)})")
    parser.add_argument("--no-ijcai", action="store_true", help="leave out the real IJCAI 2024 corpus")
    parser.add_argument("--profile", action="store_true",
                        help="profile the slowest stage of the largest corpus with pyinstrument")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--input", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--profile-stage", dest="profile_stage", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        args.profile = args.profile_stage
        return _worker(args)

    sections = set(args.only.split(","))
    unknown = sections - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section(s) {', '.join(sorted(unknown))}; choose from {', '.join(SECTIONS)}")
    sizes = [int(s) for s in args.sizes.split(",")]
    print(_header(), flush=True)
    corpora = _corpora(sizes, args.seed, not args.no_ijcai)
    by_corpus = _pipeline_section(corpora, args.workers, args.stage_timeout) if "pipeline" in sections else {}
    if args.profile and by_corpus:
        _profile_section(corpora, by_corpus)
    if "stream" in sections:
        _stream_section(corpora)
    speed = _call_main("extraction_speed", []) if "speed" in sections else None
    if "peers" in sections:
        _call_main("extraction_peers", [])
    sparql = _call_main("sparql_stores", ["--papers", str(PEER_SIZE), "--rdflib-timeout", "30"]) \
        if "sparql" in sections else None
    if "views" in sections:
        _call_main("views_large", [])
    _targets(by_corpus, speed, sparql)
    return 0


def _profile_section(corpora: Sequence[_Corpus], by_corpus: dict[str, list[StageResult]]) -> None:
    """Re-run the largest synthetic corpus with its slowest stage under pyinstrument; print the summary.

    The profiled stage runs without a time limit and with workers=1 (the profiler sees one process).
    """
    largest = max((c for c in corpora if c.name != "ijcai2024"), key=lambda c: c.papers)
    measured = [r for r in by_corpus.get(largest.name, []) if _seconds(r) is not None]
    if not measured:
        return
    slowest = max(measured, key=_seconds).stage
    out_dir = BENCH_DIR / "out" / f"{largest.name}-profile"
    results = _spawn("pipeline", largest.listing, out_dir, "--workers", "1", "--profile-stage", slowest,
                     "--stage-timeout", "0")
    print(f"\n== profile: {slowest} on {largest.name} (pyinstrument, workers=1) ==")
    report = next((r.info.get("profile") for r in results if r.stage == slowest), None)
    print(Path(report).read_text(encoding="utf-8").split("\n\n")[0] if report else "no profile written")


if __name__ == "__main__":
    sys.exit(main())
