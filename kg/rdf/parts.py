"""`graph.nt` in parts for parallel bulk loading: `graph-00000.nt.gz`, `graph-00001.nt.gz`, ...

The build's N-Triples have no blank nodes, so any cut at a line end gives parts that load on
their own, in any order, into one store (`oxigraph load --file ... --file ...`, QLever, Virtuoso's
`ld_dir`; see docs/scaling.md). Each part is compressed from its byte range of `graph.nt`
(`compress_part`), so the parts can be made side by side: by the workers of a Dask cluster that
sees the build folder (`kg.engine`), or here one after another. Gzip headers carry no time or
name, so the same graph gives the same bytes.
"""
from __future__ import annotations

import gzip
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path

from kg._util.io import atomic_open, line_ranges

#: Bytes of N-Triples per part, about (some hundred thousand triples).
PART_BYTES = 64 * 1024 * 1024
#: A build writes the parts of a `graph.nt` larger than this even when not asked to (`kg.workflow`).
AUTO_BYTES = 1024 * 1024 * 1024
#: gzip's level for the parts: N-Triples repeat so much that a fast level compresses them nearly
#: as well as the slowest (benchmarks/README.md), in a fraction of the time.
LEVEL = 3
#: The name of part `i`.
PART_NAME = "graph-{:05d}.nt.gz"
_BLOCK = 1 << 20
_LINES = 1 << 12  # lines compressed at a time by `write_part`


@contextmanager
def _gzip_open(dest: str | os.PathLike[str]) -> Iterator[gzip.GzipFile]:
    """A part's gzip stream onto `dest`, written atomically, with no time or name in its header."""
    with atomic_open(dest, "wb") as raw, \
            gzip.GzipFile(filename="", mode="wb", compresslevel=LEVEL, fileobj=raw, mtime=0) as out:
        yield out


def write_part(lines: Iterable[str], dest: str | os.PathLike[str]) -> int:
    """N-Triples `lines` (each ending in a newline) gzip-compressed into the part `dest`, e.g. the
    lines a cluster worker made for its share of the graph (`kg.engine.lean`); how many lines."""
    lines = iter(lines)
    count = 0
    with _gzip_open(dest) as out:
        for chunk in iter(lambda: list(islice(lines, _LINES)), []):
            count += len(chunk)
            out.write("".join(chunk).encode("utf-8"))
    return count


def compress_part(nt_path: str | os.PathLike[str], start: int, end: int, dest: str | os.PathLike[str]) -> Path:
    """Bytes `start`..`end` of `nt_path` gzip-compressed into `dest` (written atomically)."""
    with open(nt_path, "rb") as source, _gzip_open(dest) as out:
        source.seek(start)
        remaining = end - start
        while remaining > 0:
            block = source.read(min(remaining, _BLOCK))
            if not block:
                break
            out.write(block)
            remaining -= len(block)
    return Path(dest)


def write_graph_parts(nt_path: str | os.PathLike[str], out_dir: str | os.PathLike[str],
                      part_bytes: int = PART_BYTES,
                      run: Callable[[Callable[..., Path], list[tuple]], Iterable[Path]] | None = None) -> list[Path]:
    """Cut `nt_path` at line ends into parts of about `part_bytes` and write each gzip-compressed
    as `out_dir/graph-NNNNN.nt.gz`.

    Parameters
    ----------
    nt_path : path
        The N-Triples file (the build's `graph.nt`).
    out_dir : path
        The folder the parts are written into.
    part_bytes : int
        About how many bytes of N-Triples go into one part.
    run : callable, optional
        `run(compress_part, argument tuples)` -> the paths, in order: how the parts are made (a
        cluster's map); by default one after another in this process.

    Returns
    -------
    list of Path
        The parts, in order; together, the lines of `nt_path` in its order.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "graph.nt").write_text("<a:s> <a:p> <a:o> .\\n" * 3)
    >>> parts = write_graph_parts(folder / "graph.nt", folder, part_bytes=30)
    >>> [p.name for p in parts], b"".join(gzip.decompress(p.read_bytes()) for p in parts).count(b"\\n")
    (['graph-00000.nt.gz', 'graph-00001.nt.gz'], 3)
    """
    jobs = [(str(nt_path), start, end, str(Path(out_dir) / PART_NAME.format(i)))
            for i, (start, end) in enumerate(line_ranges(nt_path, part_bytes))]
    if run is None:
        return [compress_part(*job) for job in jobs]
    return [Path(path) for path in run(compress_part, jobs)]
