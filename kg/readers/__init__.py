"""Readers: input files -> `Paper` records, with every problem reported as `file:line: message`.

`read()` collects and merges (`reading()` hands out each paper as it goes); `iter_papers()` streams
for large corpora. Each format module (`listing`, `tabular` for kg's JSON/JSONL/CSV, `bibtex`, and the
bibliographic exports `scopus`, `ieee`, `springer`, `wos`, `ris`, `openalex`, `openreview`, `s2`) has
`iter_records(path)`, a generator of Papers and RecordErrors, so one bad record costs nothing else.
docs/input-formats.md says what each reads.
"""
from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from kg.errors import ArgumentError, RecordError
from kg._util.progress import progress
from kg.readers import bibtex, ieee, listing, openalex, openreview, ris, s2, scopus, springer, tabular, wos
from kg.readers.dedupe import (Deduper, Duplicate, Placement, SharedAbstract, collected, compare, fatal,
                              identity_keys, merge_numbered, placements)
from kg.readers.detect import FORMATS, TRIED, check_format, matched_format
from kg.readers.notices import FieldProblem, Notice, missing, same_names
from kg.readers.source import check_file
from kg.records import Paper

__all__ = ["FORMATS", "Duplicate", "FieldProblem", "Notice", "ReadResult", "SharedAbstract", "fatal",
           "identity_keys", "iter_papers", "iter_part", "iter_records", "merge_numbered", "merge_records", "read",
           "reading", "sample_path", "split_year"]

Paths = Sequence[str | os.PathLike[str]] | None

_Reader = Callable[[str | os.PathLike[str]], Iterator[Paper | RecordError]]
_GENERIC = ("abstract", "authors")
_EXPORT = ("title", "abstract", "authors")
#: Each format's reader and the fields its records normally have (one missing is a `Missing` notice).
_READERS: dict[str, tuple[_Reader, tuple[str, ...]]] = {
    "listing": (listing.iter_records, ()),  # a listing record without abstract or authors is malformed
    "json": (functools.partial(tabular.iter_records, format="json"), _GENERIC),
    "jsonl": (functools.partial(tabular.iter_records, format="jsonl"), _GENERIC),
    "csv": (functools.partial(tabular.iter_records, format="csv"), _GENERIC),
    "bibtex": (bibtex.iter_records, _GENERIC),
    "scopus": (scopus.iter_records, _EXPORT),
    "ieee": (ieee.iter_records, _EXPORT),
    "springer": (springer.iter_records, _EXPORT),
    "wos": (wos.iter_records, _EXPORT),
    "wos-tab": (wos.iter_tab_records, _EXPORT),
    "ris": (ris.iter_records, _EXPORT),
    "openalex": (openalex.iter_records, _EXPORT),
    "openalex-topics": (functools.partial(openalex.iter_records, topics=True), _EXPORT),
    "openreview": (openreview.iter_records, _EXPORT),
    "s2": (s2.iter_records, _EXPORT),
}


def sample_path() -> Path:
    """The embedded sample listing (20 papers) shipped as package data."""
    return Path(str(resources.files("kg") / "data" / "sample_listing.txt"))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass
class ReadResult:
    """What `read()` found: the papers (input order, deduplicated) and the problems reported.

    `problems` holds the skipped records (RecordError), the fields left out of records that were
    kept (`FieldProblem`), a `Duplicate` notice per merged paper and other `Notice`s (an abstract
    shared by two papers, one name twice in an author list). `distinct`: how many papers there are
    when they were counted where they were read, not gathered here (`kg.engine.lean`); else None.
    """

    papers: list[Paper] = field(default_factory=list)
    problems: list[RecordError] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    distinct: int | None = None

    @property
    def duplicates(self) -> int:
        return sum(isinstance(problem, Duplicate) for problem in self.problems)

    @property
    def notices(self) -> int:
        """Notices other than duplicates (shared abstracts, repeated names)."""
        return sum(isinstance(p, Notice) and not isinstance(p, Duplicate) for p in self.problems)

    @property
    def left_out(self) -> int:
        """Fields (or parts of them) left out of records that were kept."""
        return sum(isinstance(problem, FieldProblem) for problem in self.problems)

    @property
    def skipped(self) -> int:
        """Records skipped as malformed."""
        return len(self.problems) - self.duplicates - self.notices - self.left_out

    def summary(self) -> str:
        """`read 20 papers from 1 file (0 duplicates merged, 0 records skipped)`, then the count of
        fields left out and of other notices when there are any."""
        extra = "".join(f", {_plural(count, word)}" for count, word in
                        ((self.left_out, "field problem"), (self.notices, "notice")) if count)
        papers = len(self.papers) if self.distinct is None else self.distinct
        return (f"read {_plural(papers, 'paper')} from {_plural(len(self.files), 'file')} "
                f"({_plural(self.duplicates, 'duplicate')} merged, {_plural(self.skipped, 'record')} skipped"
                f"{extra})")


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
    """The records of one file, each paper after its notices (a field its format normally has is
    missing, one name twice in its author list)."""
    found = format if format != "auto" else matched_format(path)
    reader, _ = _READERS[found or "listing"]
    records = _records(path, found or "listing", reader, require_authors)
    return _noticed(records if found else _tried(path, records), _expected(found or "listing", require_authors))


def _expected(format: str, require_authors: bool) -> tuple[str, ...]:
    """The fields a record of `format` normally has (one missing is a `Missing` notice)."""
    expected = _READERS[format][1]
    return expected if require_authors else tuple(name for name in expected if name != "authors")


def iter_part(path: str | os.PathLike[str], *, format: str = "auto", require_authors: bool = True,
              year: int | None = None, span: tuple[int, int, int] | None = None) -> Iterator[Paper | RecordError]:
    """The records of one input as `read()` sees them (notices, `year` for the records without one),
    or with `span` = (start, end, first line) those of bytes start..end of a JSONL file, cut at line
    ends and numbered from `first line`: a part of a large input read on its own (`kg.engine`).

    Parameters
    ----------
    path : path
        The file (without an `@YEAR` suffix: give `year`).
    format : str
        `auto` or one of FORMATS; with `span`, `jsonl`.
    require_authors, year, span
        As above.

    Returns
    -------
    iterator of Paper or RecordError
        Problems yielded, not raised, each before nothing of a later record.

    Examples
    --------
    >>> sum(isinstance(item, Paper) for item in iter_part(sample_path()))
    20
    """
    if span is None:
        return _dated(iter_records(path, format=format, require_authors=require_authors), year)
    if format != "jsonl":
        raise ArgumentError(f"a part of a file (span) is read only from JSONL, not {format!r}")
    return _dated(_noticed(tabular.iter_jsonl(path, span), _expected("jsonl", require_authors)), year)


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


def _noticed(records: Iterator[Paper | RecordError], expected: tuple[str, ...]) -> Iterator[Paper | RecordError]:
    for item in records:
        if isinstance(item, Paper):
            yield from missing(item, expected)
            yield from same_names(item)
        yield item


def _records(path: str | os.PathLike[str], format: str, reader: _Reader, require_authors: bool
             ) -> Iterator[Paper | RecordError]:
    return reader(path, require_authors=require_authors) if format == "listing" else reader(path)


def _tried(path: str | os.PathLike[str], records: Iterator[Paper | RecordError]) -> Iterator[Paper | RecordError]:
    """A file no format matched, read as a listing: if that finds no paper either, say what was tried."""
    found = False
    for item in records:
        found = found or isinstance(item, Paper)
        yield item
    if not found:
        yield RecordError(str(path), 1, f"no input format matched (tried {'; '.join(TRIED)}), and as a listing "
                                        "it holds no record; give --format if it is one of "
                                        f"{', '.join(FORMATS)}")


def _classified(paths: Paths, format: str, strict: bool, require_authors: bool, quiet: bool, deduper: Deduper
                ) -> Iterator[RecordError | Placement]:
    """Every record of every file: a `Placement` per paper (new, or the duplicate of which earlier
    paper, as `deduper` judges), a RecordError per problem, a `Notice` per thing worth saying.

    With `strict`, the first malformed record raises (notices do not). A progress bar counts the
    records of each file on a terminal unless `quiet`.
    """
    files = [split_year(path) for path in _input_files(paths)]
    check_format(format)
    for path, _ in files:  # fail on a missing or empty file before reading anything
        check_file(path)
    for path, year in files:
        records = _dated(_records_of(path, format, require_authors), year)
        yield from placements(progress(records, f"reading {Path(path).name}", unit="record", quiet=quiet),
                           strict, deduper)


def iter_papers(paths: Paths = None, *, format: str = "auto", strict: bool = False, require_authors: bool = True,
                on_problem: Callable[[RecordError], None] | None = None, quiet: bool = False) -> Iterator[Paper]:
    """Stream the distinct papers of the inputs (`None`/empty: the sample), first occurrence kept.

    Skipped records, notices and dropped duplicates go to `on_problem`. Unlike `read()`, a later
    duplicate is dropped, not merged into the record already yielded; its notice names what it had
    that was not kept, and with `strict` such a loss raises it.
    """
    deduper = Deduper(keep_text=False)
    for item in _classified(paths, format, strict, require_authors, quiet, deduper):
        if isinstance(item, Placement):
            if not item.duplicate:
                yield item.paper
                continue
            first = deduper.first(item.position)
            changes, differs = compare(first, item.paper, item.same_text)
            gained = [name for name in changes if name != "authors_truncated"]
            item = Duplicate(item.paper.source, first.source, item.reason, gained, differs, dropped=True)
            if strict and fatal(item):
                raise item
        if on_problem is not None:
            on_problem(item)


def read(paths: Paths = None, *, format: str = "auto", strict: bool = False, require_authors: bool = True,
         quiet: bool = False) -> ReadResult:
    """Read and merge the inputs (`None`/empty: the embedded sample) into one `ReadResult`.

    `format` is `auto` or one of FORMATS, for every input. A path may end in `@YEAR`, the year of
    its records that have none (`split_year`). `strict` raises the first malformed
    record's RecordError (or left-out field, or merge that loses data) instead of reporting it.
    Records without authors are kept and reported; `require_authors=False` keeps them without a
    notice (and lets a listing record lack them). Duplicates are merged into the first occurrence,
    keeping the richer fields, and noted in `problems`. `quiet` hides the progress bar (shown only
    when stderr is a terminal).
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
    other fields, in `result.papers`), so extraction can work on it while the rest is read. With
    `strict`, a merge that cannot keep everything (the records disagree) raises its `Duplicate`.
    """
    result = ReadResult(files=[str(path) for path in _input_files(paths)])
    deduper = Deduper()
    return result, collected(result.papers, result.problems,
                              _classified(paths, format, strict, require_authors, quiet, deduper), strict, deduper)


def merge_records(records: Iterable[Paper | RecordError], files: Sequence[str], *, strict: bool = False
                  ) -> ReadResult:
    """Records already read, in input order (`iter_part` over the parts of the inputs, as `kg.engine`
    reads them on a cluster), deduplicated and merged as `read()` does: the same papers, the same problems.

    Parameters
    ----------
    records : iterable of Paper or RecordError
        Every record and problem of the inputs, in the order `read()` meets them.
    files : sequence of str
        The inputs, as `ReadResult.files` names them.
    strict : bool
        Raise the first malformed record, or a merge that loses data, as `read()` does.

    Returns
    -------
    ReadResult

    Examples
    --------
    >>> merge_records(iter_part(sample_path()), [str(sample_path())]).papers == read().papers
    True
    """
    papers, problems = merge_numbered(enumerate(records), strict=strict)
    return ReadResult([paper for _, paper in papers], [problem for _, problem in problems], list(files))
