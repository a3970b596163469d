"""kg's own JSON (a list of objects), JSONL (an object per line) and CSV (a header row): one dict per record.

Keys/columns: `abstract` (or `text`), `authors` (a list, or a string separated by `;` or `,`),
`track` (`Area · Subarea`, or `{"area", "subarea"}`), and optional `title`, `id`, `year`, `venue`,
`doi`, `keywords`, `authors_truncated`, `authors_written` and `author_ids` (lists by author
position); others are ignored, so `kg papers --json` output reads back. A record without an
abstract or authors is kept. CSV column names are matched case-insensitively; the delimiter (`,`,
tab or `;`) is the one that splits the header into a known `abstract`/`text`/`title` column.
"""
from __future__ import annotations

import os
from collections.abc import Iterator

from kg.errors import RecordError
from kg.readers.fields import FieldError, make_author, make_paper, parse_authors, parse_keywords, parse_track
from kg.readers.rows import csv_delimiter, csv_rows, json_items, jsonl_items, papers_from
from kg.records import ID_SCHEMES, Author, Paper, Source

_TEXT_KEYS = ("abstract", "text")


def paper_from_dict(record: dict, source: Source, problems: list[str] | None = None) -> Paper:
    """The Paper of one JSON object or CSV row (FieldError when a field is unusable).

    Problems that leave the record usable (a blank author, an empty track part) go to `problems`.
    """
    names, truncated = parse_authors(record.get("authors"), problems)
    flagged = _flag(record.get("authors_truncated"))
    abstract = next((record[key] for key in _TEXT_KEYS if record.get(key)), None)
    return make_paper(abstract=abstract, authors=_authors(names, record), truncated=truncated or flagged,
                      track=parse_track(record.get("track") or None, problems),
                      title=record.get("title"), id=record.get("id"), year=record.get("year"),
                      venue=record.get("venue"), keywords=parse_keywords(record.get("keywords")),
                      doi=record.get("doi") or None, source=source)


def _authors(names: list[str], record: dict) -> list[Author] | list[str]:
    """The names with what `kg papers --json` wrote beside them (`authors_written`, `author_ids`),
    when those lists match the names one to one (the names alone when there are none)."""
    written, ids = record.get("authors_written"), record.get("author_ids")
    if not written and not ids:
        return names
    written = written if isinstance(written, list) and len(written) == len(names) else [None] * len(names)
    ids = ids if isinstance(ids, list) and len(ids) == len(names) else [{}] * len(names)
    authors = []
    for name, short, known in zip(names, written, ids):
        if not isinstance(known, dict) or not all(s in ID_SCHEMES and isinstance(v, str) for s, v in known.items()):
            raise FieldError(f"author_ids must be objects like {{\"orcid\": \"0000-...\"}} with schemes from "
                             f"{', '.join(ID_SCHEMES)}")
        authors.append(make_author(name, short if isinstance(short, str) else None, tuple(known.items())))
    return authors


def _flag(value: object) -> bool:
    """A yes/no field: a JSON boolean, or in CSV `true`/`false`/`1`/`0`/empty."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "1", "yes", "false", "0", "no", ""):
        return value.strip().lower() in ("true", "1", "yes")
    raise FieldError("authors_truncated must be true or false")


def _convert(record: dict, source: Source, problems: list[str]) -> Paper:
    return paper_from_dict(record, source, problems)


def iter_jsonl(path: str | os.PathLike[str], span: tuple[int, int, int] | None = None
               ) -> Iterator[Paper | RecordError]:
    """One record per non-blank line; a line that is not a JSON object is reported by its number.
    `span` = (start, end, first line): only bytes start..end, cut at line ends (`kg.engine`)."""
    return papers_from(jsonl_items(path, span), str(path), _convert)


def iter_json(path: str | os.PathLike[str]) -> Iterator[Paper | RecordError]:
    """The items of a top-level JSON list, each reported as `record N` at the line it starts on."""
    return papers_from(json_items(path, envelopes=False), str(path), _convert)


def _check_header(header: list[str]) -> str | None:
    if any(name in header for name in (*_TEXT_KEYS, "title")):
        return None
    found = ", ".join(header)
    found = found if len(found) <= 100 else found[:99] + "…"
    return f"CSV header lacks an `abstract`, `text` or `title` column (found: {found}); file skipped"


def iter_csv(path: str | os.PathLike[str]) -> Iterator[Paper | RecordError]:
    """One record per row after the header; a row that cannot be read is reported by its first line."""
    delimiter = csv_delimiter(path, lambda columns: any(name in columns for name in (*_TEXT_KEYS, "title")))
    return papers_from(csv_rows(path, delimiter, _check_header), str(path), _convert)


_FORMATS = {"json": iter_json, "jsonl": iter_jsonl, "csv": iter_csv}


def iter_records(path: str | os.PathLike[str], *, format: str) -> Iterator[Paper | RecordError]:
    """The records of a `json`, `jsonl` or `csv` file: Papers, and a RecordError per skipped record."""
    return _FORMATS[format](path)
