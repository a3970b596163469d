"""The records of JSON, JSONL and CSV files as `(line, label, record)` items, and the one loop that
turns them into Papers: what every JSON/CSV-shaped reader (kg's own, Scopus, IEEE, Springer, WoS
tab-delimited, OpenAlex, OpenReview, Semantic Scholar) shares; `CsvExport`, a database's CSV export
told by its header columns.

A JSON file is a list of records, an API page that holds one (`{"results": [...]}`, `{"data": [...]}`,
`{"notes": [...]}`), or one record; each item is reported as `record N` at the line it starts on.
A CSV row keeps the line it starts on; trailing empty fields beyond the header (Scopus ends every
row with a comma) are not an error.
"""
from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from kg.errors import RecordError
from kg.readers.fields import FieldError
from kg.readers.notices import FieldProblem, Notice, Remark
from kg.readers.source import head_bytes, iter_lines, reads_text
from kg.records import Paper, Source

#: The keys under which API pages hold their records (OpenAlex, Semantic Scholar, OpenReview).
ENVELOPES = ("results", "data", "notes")

Item = tuple[int, str, object]
Convert = Callable[[dict, Source, list[str]], Paper]


def papers_from(items: Iterator[Item | RecordError], file: str, convert: Convert) -> Iterator[Paper | RecordError]:
    """The Paper of each record (`convert(record, source, problems)`), after a FieldProblem per
    problem it reported (a Notice per `Remark`); a RecordError for a record that is not an object or
    cannot be used."""
    for item in items:
        if isinstance(item, RecordError):
            yield item
            continue
        line, label, record = item
        if not isinstance(record, dict):
            yield RecordError(file, line, f"{label}not a JSON object {{...}}; skipped")
            continue
        problems: list[str] = []
        try:
            paper = convert(record, Source(file, line), problems)
        except FieldError as exc:
            yield RecordError(file, line, f"{label}{exc}; skipped")
            continue
        yield from ((Notice if isinstance(problem, Remark) else FieldProblem)(file, line, f"{label}{problem}")
                    for problem in problems)
        yield paper


def _invalid_json(exc: json.JSONDecodeError | RecursionError) -> str:
    if isinstance(exc, RecursionError):
        return "invalid JSON: nested too deeply"
    return f"invalid JSON: {exc.msg} (column {exc.colno})"


def jsonl_items(path: str | os.PathLike[str], span: tuple[int, int, int] | None = None
                ) -> Iterator[Item | RecordError]:
    """One record per non-blank line; a line that is not JSON is reported by its number.
    `span`: only that part of the file (`iter_lines`)."""
    file = str(path)
    for number, text, problem in iter_lines(path, span):
        if problem is not None:
            yield problem
        elif text.strip():
            try:
                yield number, "", json.loads(text)
            except (json.JSONDecodeError, RecursionError) as exc:
                yield RecordError(file, number, _invalid_json(exc))


def api_items(path: str | os.PathLike[str]) -> Iterator[Item | RecordError]:
    """The records of an API export in JSON or JSONL, told apart by content: JSONL when the first
    line is a whole JSON value and more follows. In JSONL an API page on a line gives its records."""
    head = head_bytes(path).removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    first, _, rest = head.lstrip().partition("\n")
    try:
        json.loads(first)
    except (json.JSONDecodeError, RecursionError):
        return json_items(path)
    if not rest.strip():
        return json_items(path)
    return _expanded(jsonl_items(path))


def _expanded(items: Iterator[Item | RecordError]) -> Iterator[Item | RecordError]:
    for item in items:
        page = item[2] if not isinstance(item, RecordError) else None
        key = next((k for k in ENVELOPES if isinstance(page, dict) and isinstance(page.get(k), list)), None)
        if key is None:
            yield item
            continue
        for index, record in enumerate(page[key], start=1):
            yield item[0], f"record {index} of the line: ", record


@reads_text
def json_items(text: str, file: str, envelopes: bool = True) -> Iterator[Item | RecordError]:
    """The records of a JSON file: a top-level list's items, an API page's list (`envelopes`), or
    the one object; each labelled `record N` at the line it starts on."""
    position = _skip_space(text, 0)
    if envelopes and text.startswith("{", position):
        found = _envelope(text, position)
        if found is None:
            yield from _single(text, file, position)
            return
        position = found
    elif not text.startswith("[", position):
        yield RecordError(file, _line(text, position), "expected a JSON list of records `[{...}, ...]`")
        return
    yield from _list_items(text, file, position)


def _single(text: str, file: str, position: int) -> Iterator[Item | RecordError]:
    try:
        record, end = json.JSONDecoder().raw_decode(text, position)
    except (json.JSONDecodeError, RecursionError) as exc:
        yield RecordError(file, _line(text, getattr(exc, "pos", position)), _invalid_json(exc))
        return
    yield _line(text, position), "", record
    if (tail := _skip_space(text, end)) < len(text):
        yield RecordError(file, _line(text, tail), "invalid JSON: text after the record")


def _envelope(text: str, position: int) -> int | None:
    """The position of the `[` of an API page's record list (`"results": [`), or None when the
    object is not such a page (or is not valid JSON: the caller reports that)."""
    decoder = json.JSONDecoder()
    try:
        page, _ = decoder.raw_decode(text, position)
    except (json.JSONDecodeError, RecursionError):
        return None
    if not isinstance(page, dict) or not any(isinstance(page.get(key), list) for key in ENVELOPES):
        return None
    position = _skip_space(text, position + 1)
    while text.startswith('"', position):  # walk the top-level keys to the list's own `[`
        key, position = decoder.raw_decode(text, position)
        position = _skip_space(text, _skip_space(text, position) + 1)  # past the `:`
        if key in ENVELOPES and isinstance(page[key], list):
            return position
        _, position = decoder.raw_decode(text, position)
        position = _skip_space(text, position)
        position = _skip_space(text, position + 1) if text.startswith(",", position) else position
    return None


def _list_items(text: str, file: str, position: int) -> Iterator[Item | RecordError]:
    """The items of the list whose `[` is at `position`."""
    decoder, index = json.JSONDecoder(), 0
    start = position
    position = _skip_space(text, position + 1)
    while not text.startswith("]", position):
        index += 1
        try:
            record, end = decoder.raw_decode(text, position)
        except (json.JSONDecodeError, RecursionError) as exc:
            at = exc.pos if isinstance(exc, json.JSONDecodeError) else position
            yield RecordError(file, _line(text, at), f"record {index}: {_invalid_json(exc)}; rest of file skipped")
            return
        yield _line(text, position), f"record {index}: ", record
        position = _skip_space(text, end)
        if text.startswith(",", position):
            position = _skip_space(text, position + 1)
        elif not text.startswith("]", position):
            yield RecordError(file, _line(text, position), f"invalid JSON after record {index}: expected `,` or `]`")
            return
    if start == _skip_space(text, 0) and (tail := _skip_space(text, position + 1)) < len(text):
        yield RecordError(file, _line(text, tail), "invalid JSON: text after the closing `]`")


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def _line(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


Reconcile = Callable[[list[str], list[str]], list[str]]
DELIMITERS = (",", "\t", ";")


def header_columns(line: str, delimiter: str) -> list[str]:
    """The lower-cased, stripped column names of a CSV header line split at `delimiter` ([] if unreadable)."""
    try:
        return [column.strip().lower() for column in next(csv.reader(io.StringIO(line), delimiter=delimiter))]
    except (csv.Error, StopIteration):
        return []


def first_line(path: str | os.PathLike[str]) -> str:
    """The file's first line (BOM dropped), from its first 64 KiB."""
    return head_bytes(path).removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace").partition("\n")[0]


def csv_delimiter(path: str | os.PathLike[str], fits: Callable[[list[str]], bool]) -> str:
    """Whichever of `,`, tab, `;` splits the header line into columns that `fits` accepts (a
    spreadsheet re-saved in a `;` locale still reads); `,` when none does."""
    line = first_line(path)
    return next((d for d in DELIMITERS if fits(header_columns(line, d))), ",")


@reads_text
def csv_rows(text: str, file: str, delimiter: str, check: Callable[[list[str]], str | None] = lambda h: None,
             quoting: bool = True, reconcile: Reconcile | None = None) -> Iterator[Item | RecordError]:
    """One `{column: value}` record per row after the header (column names lower-cased and stripped).

    `check(header)` returns why the header cannot be read (the file is then skipped, one problem at
    line 1), or None. Trailing empty fields beyond the header are ignored; any other length
    mismatch is reported by the row's first line. A column repeated in the header is reported
    once; its first occurrence is read. `quoting=False` reads `"` as an ordinary character (Web of
    Science's tab-delimited files do not quote). `reconcile(header, row)` may fit a row longer than
    the header to it (a format whose rows carry unnamed extra columns), before the length check.
    """
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True,
                      quoting=csv.QUOTE_MINIMAL if quoting else csv.QUOTE_NONE)
    try:
        header = [name.strip().lower() for name in next(rows)]
    except (csv.Error, StopIteration) as exc:
        yield RecordError(file, 1, f"unreadable CSV header: {exc}")
        return
    while header and not header[-1]:
        header.pop()
    if (problem := check(header)) is not None:
        yield RecordError(file, 1, problem)
        return
    repeated = sorted({name for name in header if name and header.count(name) > 1})
    if repeated:
        yield FieldProblem(file, 1, f"column{'s' if len(repeated) > 1 else ''} {', '.join(map(repr, repeated))} "
                                    "repeated in the header; only the first of each is read")
    yield from _csv_records(rows, header, file, reconcile)


def _csv_records(rows: Iterator[list[str]], header: list[str], file: str, reconcile: Reconcile | None
                 ) -> Iterator[Item | RecordError]:
    line = rows.line_num + 1
    while True:
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error as exc:
            yield RecordError(file, line, f"unreadable CSV row: {exc}; check its quotes")
        else:
            while len(row) > len(header) and not row[-1].strip():
                row.pop()
            if reconcile is not None and len(row) > len(header):
                row = reconcile(header, row)
            if len(row) != len(header) and any(cell.strip() for cell in row):
                yield RecordError(file, line, f"row has {len(row)} fields, the header {len(header)}; "
                                              "check its quotes and delimiters")
            elif any(cell.strip() for cell in row):
                record: dict[str, str] = {}
                for name, cell in zip(header, row):
                    record.setdefault(name, cell)
                yield line, "", record
        line = rows.line_num + 1


@dataclass(frozen=True)
class CsvExport:
    """A bibliographic database's CSV export: the header columns that tell it, and how a row reads.

    Attributes
    ----------
    name : str
        The export as a problem names it, with its article (`"an IEEE Xplore CSV"`).
    signature : tuple of str
        Header columns (lower-cased) that must all be there.
    convert : callable
        `convert(record, source, problems)`: the Paper of a row (`papers_from`).
    markers : tuple of str
        One of these columns must be there too (none: no such condition).
    first : str or None
        The column the header must start with.
    delimiter : str or None
        The delimiter; None: whichever of `DELIMITERS` splits the header into a matching one.
    quoting : bool
        Whether `"` quotes fields (`csv_rows`).
    reconcile : callable, optional
        Fits a row longer than the header to it (`csv_rows`).

    Examples
    --------
    >>> from kg.readers.rows import CsvExport
    >>> export = CsvExport("a Demo CSV", ("title", "year"), convert=None, markers=("eid", "doi"))
    >>> export.matches(["title", "year", "doi"]), export.matches(["title", "year"])
    (True, False)
    >>> export.problem(["title"])
    'not a Demo CSV header: it needs the columns title, year and one of eid, doi; file skipped'
    """

    name: str
    signature: tuple[str, ...]
    convert: Convert
    markers: tuple[str, ...] = ()
    first: str | None = None
    delimiter: str | None = None
    quoting: bool = True
    reconcile: Reconcile | None = None

    def matches(self, header: list[str]) -> bool:
        """Whether header columns (lower-cased) are this export's."""
        return ((self.first is None or header[:1] == [self.first]) and all(name in header for name in self.signature)
                and (not self.markers or any(name in header for name in self.markers)))

    def problem(self, header: list[str]) -> str | None:
        """Why `header` is not this export's (the file is then skipped), or None when it is."""
        if self.matches(header):
            return None
        needs = ", ".join(self.signature) + (f" ({self.first} first)" if self.first else "")
        if self.markers:
            needs = f"the columns {needs} and one of {', '.join(self.markers)}"
        return f"not {self.name} header: it needs {needs}; file skipped"

    def iter_records(self, path: str | os.PathLike[str]) -> Iterator[Paper | RecordError]:
        """The rows of an export file as Papers; a RecordError per row (or header) that cannot be read."""
        delimiter = self.delimiter or csv_delimiter(path, self.matches)
        rows = csv_rows(path, delimiter, self.problem, quoting=self.quoting, reconcile=self.reconcile)
        return papers_from(rows, str(path), self.convert)
