"""Readers: input files -> `Paper` records, with every problem reported as `file:line: message`.

`read()` collects and merges (`reading()` hands out each paper as it goes); `iter_papers()` streams
for large corpora. Each format module (`listing`, `tabular` for JSON/JSONL/CSV, `bibtex`) has
`iter_records(path, ...)`, a generator of Papers and RecordErrors, so one bad record costs nothing else.
"""
from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from kg.errors import RecordError
from kg._util.progress import progress
from kg.readers import bibtex, listing, tabular
from kg.readers.dedupe import Deduper, Duplicate, merge
from kg.readers.detect import FORMATS, check_format, detect_format
from kg.readers.source import check_file
from kg.records import Paper

__all__ = ["FORMATS", "Duplicate", "ReadResult", "iter_papers", "iter_records", "read", "reading", "sample_path"]

Paths = Sequence[str | os.PathLike[str]] | None

_READERS: dict[str, Callable[..., Iterator[Paper | RecordError]]] = {
    "listing": listing.iter_records,
    "json": functools.partial(tabular.iter_records, format="json"),
    "jsonl": functools.partial(tabular.iter_records, format="jsonl"),
    "csv": functools.partial(tabular.iter_records, format="csv"),
    "bibtex": bibtex.iter_records,
}


def sample_path() -> Path:
    """The embedded sample listing (20 papers) shipped as package data."""
    return Path(str(resources.files("kg") / "data" / "sample_listing.txt"))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass
class ReadResult:
    """What `read()` found: the papers (input order, deduplicated) and the problems reported.

    `problems` holds the skipped records (RecordError) and a `Duplicate` notice per merged paper.
    """

    papers: list[Paper] = field(default_factory=list)
    problems: list[RecordError] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    @property
    def duplicates(self) -> int:
        return sum(isinstance(problem, Duplicate) for problem in self.problems)

    @property
    def skipped(self) -> int:
        return len(self.problems) - self.duplicates

    def summary(self) -> str:
        """`read 20 papers from 1 file (0 duplicates merged, 0 records skipped)`."""
        return (f"read {_plural(len(self.papers), 'paper')} from {_plural(len(self.files), 'file')} "
                f"({_plural(self.duplicates, 'duplicate')} merged, {_plural(self.skipped, 'record')} skipped)")


def _input_files(paths: Paths | str | os.PathLike[str]) -> list[str | os.PathLike[str]]:
    """The files to read: the given ones (a single path is one file, not its characters), else the sample."""
    if isinstance(paths, (str, os.PathLike)):
        return [paths]
    return list(paths) if paths else [sample_path()]


def iter_records(path: str | os.PathLike[str], *, format: str = "auto",
                 require_authors: bool = True) -> Iterator[Paper | RecordError]:
    """The records of one file in the given format (`auto`: detected), problems yielded, not raised.

    A missing or empty file raises InputError at once.
    """
    check_format(format)
    check_file(path)
    return _records_of(path, format, require_authors)


def _records_of(path: str | os.PathLike[str], format: str, require_authors: bool) -> Iterator[Paper | RecordError]:
    return _READERS[detect_format(path) if format == "auto" else format](path, require_authors=require_authors)


_YEAR_SUFFIX = re.compile(r"(?P<path>.+)@(?P<year>\d{4})")


def split_year(path: str | os.PathLike[str]) -> tuple[str | os.PathLike[str], int | None]:
    """`FILE@YEAR` -> (FILE, YEAR), the year of FILE's records that carry none; else (path, None).

    A path that exists as given is never split (a file may be called `x@2024`).
    """
    match = _YEAR_SUFFIX.fullmatch(os.fspath(path)) if isinstance(path, (str, os.PathLike)) else None
    if match is None or Path(path).exists():
        return path, None
    return match["path"], int(match["year"])


def _dated(records: Iterator[Paper | RecordError], year: int | None) -> Iterator[Paper | RecordError]:
    """The records, each Paper without a year given `year` (a record's own year is kept)."""
    for item in records:
        yield replace(item, year=year) if year is not None and isinstance(item, Paper) and item.year is None else item


def _classified(paths: Paths, format: str, strict: bool, require_authors: bool, quiet: bool = False
                ) -> Iterator[tuple[Paper | RecordError, tuple[int, str] | None]]:
    """Every record of every file with, for a duplicate, the position of its first occurrence and why.

    Positions count the distinct papers in order. With `strict`, the first malformed record raises.
    A progress bar counts the records of each file on a terminal unless `quiet`.
    """
    files = [split_year(path) for path in _input_files(paths)]
    check_format(format)
    for path, _ in files:  # fail on a missing or empty file before reading anything
        check_file(path)
    deduper, count = Deduper(), 0
    for path, year in files:
        records = _dated(_records_of(path, format, require_authors), year)
        for item in progress(records, f"reading {Path(path).name}", unit="record", quiet=quiet):
            if isinstance(item, RecordError):
                if strict:
                    raise item
                yield item, None
                continue
            found = deduper.find(item)
            deduper.add(item, count if found is None else found[0])
            if found is None:
                count += 1
            yield item, found


def iter_papers(paths: Paths = None, *, format: str = "auto", strict: bool = False, require_authors: bool = True,
                on_problem: Callable[[RecordError], None] | None = None, quiet: bool = False) -> Iterator[Paper]:
    """Stream the distinct papers of the inputs (`None`/empty: the sample), first occurrence kept.

    Skipped records and dropped duplicates go to `on_problem`. Unlike `read()`, a later duplicate is
    dropped, not merged into the record already yielded.
    """
    sources = []
    for item, found in _classified(paths, format, strict, require_authors, quiet):
        if isinstance(item, RecordError):
            problem = item
        elif found is None:
            sources.append(item.source)
            yield item
            continue
        else:
            problem = Duplicate(item.source, sources[found[0]], found[1], "dropped")
        if on_problem is not None:
            on_problem(problem)


def read(paths: Paths = None, *, format: str = "auto", strict: bool = False, require_authors: bool = True,
         quiet: bool = False) -> ReadResult:
    """Read and merge the inputs (`None`/empty: the embedded sample) into one `ReadResult`.

    `format` is `auto` or one of FORMATS, for every input. A path may end in `@YEAR`, the year of
    its records that have none (`split_year`). `strict` raises the first malformed
    record's RecordError instead of skipping it. `require_authors=False` accepts records without
    authors (JSON/JSONL/CSV with an id and an abstract or text). Duplicates are merged into the first
    occurrence, keeping the richer fields, and noted in `problems`. `quiet` hides the progress bar
    (shown only when stderr is a terminal).
    """
    result, papers = reading(paths, format=format, strict=strict, require_authors=require_authors, quiet=quiet)
    for _ in papers:
        pass
    return result


def reading(paths: Paths = None, *, format: str = "auto", strict: bool = False, require_authors: bool = True,
            quiet: bool = False) -> tuple[ReadResult, Iterator[Paper]]:
    """`read()` as it goes: the `ReadResult`, filled while the iterator runs and complete once it
    ends, and an iterator of each distinct paper as soon as it is read.

    A paper's key, abstract and text are final when it is yielded (a later duplicate only fills its
    other fields, in `result.papers`), so extraction can work on it while the rest is read.
    """
    result = ReadResult(files=[str(path) for path in _input_files(paths)])

    def papers() -> Iterator[Paper]:
        for item, found in _classified(paths, format, strict, require_authors, quiet):
            if isinstance(item, RecordError):
                result.problems.append(item)
            elif found is None:
                result.papers.append(item)
                yield item
            else:
                position, reason = found
                first = result.papers[position]
                result.papers[position], gained = merge(first, item)
                action = f"merged, taking its {', '.join(gained)}" if gained else "merged (it adds nothing)"
                result.problems.append(Duplicate(item.source, first.source, reason, action))

    return result, papers()
