"""Scopus CSV exports, the current column set and the classic one.

Current: `Authors` (`Hao J.; High R.`), `Author full names` (`Hao, Jie (57221302630); ...`),
`Author(s) ID` (`57221302630; 6701683718`). Classic (before 2023): `Authors` separated by commas
(`Phillips J.C., Braun R.`), `Author(s) ID` ending in `;`, no full names. Both: `Title`, `Year`,
`Source title` (venue), `DOI`, `Abstract`, `Author Keywords`, `EID` (the record id). Scopus writes
`[No abstract available]` and `[No author name available]` for missing values: read as missing.
Rows may end in a trailing comma, and a row may hold more `Funding Text N` fields than the
header names (the header says `Funding Text 1`, a row with two funding texts has one more field):
those extra fields are set aside, as the funding columns are not read. Other columns (index
keywords, affiliations, references, funding, ...) are not read.
"""
from __future__ import annotations

import re

from kg.readers.fields import make_paper, parse_keywords
from kg.readers.people import first_last, people, split_list
from kg.readers.rows import CsvExport
from kg.records import Paper, Source

#: The header columns that tell a Scopus export (all of them present).
SIGNATURE = ("authors", "title", "year", "source title")
#: One of these too (a generic CSV with a `title` and `year` is not Scopus).
MARKERS = ("eid", "author(s) id", "author full names")
_FULL_NAME = re.compile(r"^(?P<name>.*?)\s*\((?P<id>\d+)\)\s*$")
_MISSING = re.compile(r"^\[no [a-z ]+ available\]$", re.IGNORECASE)


def _value(record: dict, column: str) -> str | None:
    value = (record.get(column) or "").strip()
    return None if not value or _MISSING.match(value) else value


def _authors(record: dict, problems: list[str]) -> list:
    short_cell = _value(record, "authors")
    if short_cell is None:
        return []
    short = split_list(short_cell, ";" if ";" in short_cell else ",")
    full, full_ids = [], []
    for item in split_list(_value(record, "author full names")):
        match = _FULL_NAME.match(item)
        full.append(first_last(match["name"] if match else item))
        full_ids.append(match["id"] if match else None)
    ids = split_list(_value(record, "author(s) id")) or [i for i in full_ids if i is not None]
    if full and ids and len(ids) == len(full) and any(a and a != b for a, b in zip(full_ids, ids)):
        problems.append("Author full names and Author(s) ID give different ids; Author(s) ID used")
    return people(short, full, [(("scopus", i),) for i in ids], problems,
                  ("Authors", "Author full names", "Author(s) ID"))


def _convert(record: dict, source: Source, problems: list[str]) -> Paper:
    return make_paper(abstract=_value(record, "abstract"), authors=_authors(record, problems),
                      title=_value(record, "title"), year=_value(record, "year"),
                      venue=_value(record, "source title"), doi=_value(record, "doi"),
                      id=_value(record, "eid"), keywords=parse_keywords(_value(record, "author keywords")),
                      source=source)


def _funding_texts(header: list[str], row: list[str]) -> list[str]:
    """A row with more fields than the header, fitted to it when the extra fields are further
    funding texts (right after the header's last `funding text N` column)."""
    last = max((i for i, name in enumerate(header) if name.startswith("funding text")), default=None)
    if last is None:
        return row
    extra = len(row) - len(header)
    return row[:last + 1] + row[last + 1 + extra:]


#: The export: its header (comma-delimited, as Scopus writes it), read by `_convert`.
EXPORT = CsvExport("a Scopus CSV", SIGNATURE, _convert, markers=MARKERS, reconcile=_funding_texts)
#: The rows of a Scopus CSV export as Papers.
iter_records = EXPORT.iter_records
