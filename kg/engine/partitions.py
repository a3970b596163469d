"""Inputs -> partitions a Dask worker reads on its own: a JSONL file in byte ranges, any other file whole.

A partition is a plain, picklable description (file, format, year, byte range); the worker opens the
file itself, so the inputs must be where every worker can read them (shared storage on a cluster).
The worker reads it with the readers' own `kg.readers.iter_part`, so a record reads as in one process;
the partitions in order hold the records in the order the in-process reader meets them.
"""
from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from kg._util.io import line_ranges
from kg.errors import RecordError
from kg.readers import iter_part, split_year
from kg.readers.detect import check_format, matched_format
from kg.readers.source import check_file
from kg.records import Paper

#: Bytes of JSONL a partition takes by default: some thousands of abstracts.
DEFAULT_PARTITION_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class Partition:
    """Bytes `start`..`end` of `path` (`end` None: the whole file) in `format`, its records without a
    year given `year` (`FILE@YEAR`); `first_line` is the line number of its first byte once the lines
    before it are counted (0 until then)."""

    index: int
    path: str
    format: str
    year: int | None = None
    start: int = 0
    end: int | None = None
    first_line: int = 0


def plan(paths: Sequence[str | os.PathLike[str]], format: str = "auto",
         partition_bytes: int = DEFAULT_PARTITION_BYTES) -> list[Partition]:
    """The partitions of `paths`: kg JSONL files cut into ranges of about `partition_bytes` that end
    at a line end, every other format one partition per file.

    Only the cut points are read here (a seek and a line each); missing or empty files raise
    `InputError` before any work starts.
    """
    check_format(format)
    files = [split_year(path) for path in paths]
    for path, _ in files:
        check_file(path)
    parts: list[Partition] = []
    for path, year in files:
        kind = matched_format(path) if format == "auto" else format
        if kind != "jsonl":
            parts.append(Partition(len(parts), str(path), format, year))
            continue
        for start, end in line_ranges(path, partition_bytes):
            parts.append(Partition(len(parts), str(path), kind, year, start, end))
    return parts


def count_lines(part: Partition) -> int:
    """The `\\n`s in a partition's range: the prefix sums give each partition its first line number."""
    with open(part.path, "rb") as handle:
        handle.seek(part.start)
        remaining = (part.end if part.end is not None else os.path.getsize(part.path)) - part.start
        count = 0
        while remaining > 0:
            block = handle.read(min(remaining, 1 << 20))
            if not block:
                break
            count += block.count(b"\n")
            remaining -= len(block)
    return count


def numbered(parts: Sequence[Partition], line_counts: Sequence[int]) -> list[Partition]:
    """The partitions with their `first_line` set from the line counts of the partitions before them."""
    out, line = [], 1
    for part, count in zip(parts, line_counts):
        line = 1 if part.start == 0 else line
        out.append(Partition(part.index, part.path, part.format, part.year, part.start, part.end, line))
        line += count
    return out


def read_partition(part: Partition, require_authors: bool = True) -> Iterator[Paper | RecordError]:
    """The records of one partition, problems yielded, not raised, as `kg.readers.iter_part` reads them."""
    span = (part.start, part.end, part.first_line) if part.end is not None else None
    return iter_part(part.path, format=part.format, require_authors=require_authors, year=part.year, span=span)
