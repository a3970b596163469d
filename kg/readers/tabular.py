"""JSON (a list of objects), JSONL (an object per line) and CSV (a header row): one dict per record.

Keys/columns: `abstract` (or `text`), `authors` (a list, or a string separated by `;` or `,`),
`track` (`Area · Subarea`, or `{"area", "subarea"}`), and optional `title`, `id`, `year`, `venue`,
`keywords`, `authors_truncated`; others are ignored, so `kg papers --json` output reads back.
CSV column names are matched case-insensitively; the delimiter (`,`, tab or `;`) is the one that
splits the header into a known `abstract`/`text` column.
"""
from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterator

from kg.errors import RecordError
from kg.readers.fields import FieldError, make_paper, parse_authors, parse_keywords, parse_track
from kg.readers.notices import FieldProblem
from kg.readers.source import iter_lines, read_text
from kg.records import Paper, Source

_TEXT_KEYS = ("abstract", "text")
_CSV_DELIMITERS = (",", "\t", ";")


def paper_from_dict(record: dict, source: Source, require_authors: bool = True,
                    problems: list[str] | None = None) -> Paper:
    """The Paper of one JSON object or CSV row (FieldError when a field is unusable).

    Problems that leave the record usable (a blank author, an empty track part) go to `problems`.
    """
    authors, truncated = parse_authors(record.get("authors"), problems)
    flagged = _flag(record.get("authors_truncated"))
    abstract = next((record[key] for key in _TEXT_KEYS if record.get(key)), None)
    return make_paper(abstract=abstract, authors=authors, truncated=truncated or flagged,
                      require_authors=require_authors, track=parse_track(record.get("track") or None, problems),
                      title=record.get("title"), id=record.get("id"), year=record.get("year"),
                      venue=record.get("venue"), keywords=parse_keywords(record.get("keywords")),
                      source=source)


def _flag(value: object) -> bool:
    """A yes/no field: a JSON boolean, or in CSV `true`/`false`/`1`/`0`/empty."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "1", "yes", "false", "0", "no", ""):
        return value.strip().lower() in ("true", "1", "yes")
    raise FieldError("authors_truncated must be true or false")


def _record(record: object, file: str, line: int, label: str, require_authors: bool
            ) -> Iterator[Paper | RecordError]:
    """The Paper after a RecordError per problem it has, or the RecordError that skips it, each
    naming `file:line` and the record (`label`)."""
    if not isinstance(record, dict):
        yield RecordError(file, line, f"{label}not a JSON object {{...}}; skipped")
        return
    problems: list[str] = []
    try:
        paper = paper_from_dict(record, Source(file, line), require_authors, problems)
    except FieldError as exc:
        yield RecordError(file, line, f"{label}{exc}; skipped")
        return
    for problem in problems:
        yield FieldProblem(file, line, f"{label}{problem}")
    yield paper


def _invalid_json(exc: json.JSONDecodeError | RecursionError) -> str:
    if isinstance(exc, RecursionError):
        return "invalid JSON: nested too deeply"
    return f"invalid JSON: {exc.msg} (column {exc.colno})"


def iter_jsonl(path: str | os.PathLike[str], require_authors: bool = True) -> Iterator[Paper | RecordError]:
    """One record per non-blank line; a line that is not a JSON object is reported by its number."""
    file = str(path)
    for number, text, problem in iter_lines(path):
        if problem is not None:
            yield problem
        elif text.strip():
            try:
                record = json.loads(text)
            except (json.JSONDecodeError, RecursionError) as exc:
                yield RecordError(file, number, _invalid_json(exc))
                continue
            yield from _record(record, file, number, "", require_authors)


def iter_json(path: str | os.PathLike[str], require_authors: bool = True) -> Iterator[Paper | RecordError]:
    """The items of a top-level JSON list, each reported as `record N` at the line it starts on."""
    file = str(path)
    try:
        text = read_text(path)
    except RecordError as exc:
        yield exc
        return
    decoder, position, index = json.JSONDecoder(), _skip_space(text, 0), 0
    if not text.startswith("[", position):
        yield RecordError(file, _line(text, position), "expected a JSON list of records `[{...}, ...]`")
        return
    position = _skip_space(text, position + 1)
    while not text.startswith("]", position):
        index += 1
        try:
            record, end = decoder.raw_decode(text, position)
        except (json.JSONDecodeError, RecursionError) as exc:
            at = exc.pos if isinstance(exc, json.JSONDecodeError) else position
            yield RecordError(file, _line(text, at), f"record {index}: {_invalid_json(exc)}; rest of file skipped")
            return
        yield from _record(record, file, _line(text, position), f"record {index}: ", require_authors)
        position = _skip_space(text, end)
        if text.startswith(",", position):
            position = _skip_space(text, position + 1)
        elif not text.startswith("]", position):
            yield RecordError(file, _line(text, position), f"invalid JSON after record {index}: expected `,` or `]`")
            return
    if (tail := _skip_space(text, position + 1)) < len(text):
        yield RecordError(file, _line(text, tail), "invalid JSON: text after the closing `]`")


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def _line(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def iter_csv(path: str | os.PathLike[str], require_authors: bool = True) -> Iterator[Paper | RecordError]:
    """One record per row after the header; a row that cannot be read is reported by its first line."""
    file = str(path)
    try:
        text = read_text(path)
    except RecordError as exc:
        yield exc
        return
    first_line = text.partition("\n")[0]
    delimiter = next((d for d in _CSV_DELIMITERS if _has_text_column(first_line.split(d))), ",")
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    header, problem = _csv_header(rows, file, require_authors)
    if problem is not None:
        yield problem
        return
    line = rows.line_num + 1
    while True:
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error as exc:
            yield RecordError(file, line, f"unreadable CSV row: {exc}; check its quotes")
        else:
            if len(row) != len(header) and any(cell.strip() for cell in row):
                yield RecordError(file, line, f"row has {len(row)} fields, the header {len(header)}; "
                                              "check its quotes and delimiters")
            elif any(cell.strip() for cell in row):
                yield from _record(dict(zip(header, row)), file, line, "", require_authors)
        line = rows.line_num + 1


def _has_text_column(names: list[str]) -> bool:
    return any(name.strip().strip('"').lower() in _TEXT_KEYS for name in names)


def _csv_header(rows: Iterator[list[str]], file: str, require_authors: bool) -> tuple[list[str], RecordError | None]:
    """The lower-cased column names, or the problem that makes the whole file unreadable."""
    try:
        header = [name.strip().lower() for name in next(rows)]
    except (csv.Error, StopIteration) as exc:
        return [], RecordError(file, 1, f"unreadable CSV header: {exc}")
    missing = [name for name, ok in (("abstract", _has_text_column(header)),
                                     ("authors", "authors" in header or not require_authors)) if not ok]
    if missing:
        found = ", ".join(header)
        found = found if len(found) <= 100 else found[:99] + "…"
        return header, RecordError(file, 1, f"CSV header lacks the `{'` and `'.join(missing)}` column"
                                            f"{'s' if len(missing) > 1 else ''} (found: {found}); file skipped")
    return header, None


_FORMATS = {"json": iter_json, "jsonl": iter_jsonl, "csv": iter_csv}


def iter_records(path: str | os.PathLike[str], *, format: str, require_authors: bool = True
                 ) -> Iterator[Paper | RecordError]:
    """The records of a `json`, `jsonl` or `csv` file: Papers, and a RecordError per skipped record."""
    return _FORMATS[format](path, require_authors)
