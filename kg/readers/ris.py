"""RIS (`TY  - ` ... `ER  - ` records), parsed by rispy.

Read: `AU`/`A1` (authors, `Last, First` -> `First Last`), `TI`/`T1` (title), `PY`/`Y1` (year, the
first four digits of `2023/05/01/`), `T2`/`JO`/`JF`/`J2` (venue: the first present), `AB`/`N2`
(abstract), `KW` (keywords, one per line), `DO` (DOI), `ID`/`AN` (the record id). Other tags
(pages, volume, URLs, notes, publisher, ...) are not read.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterator

import rispy

from kg.errors import RecordError
from kg.readers.fields import make_paper
from kg.readers.people import first_last, people
from kg.readers.rows import papers_from
from kg.readers.source import reads_text
from kg.records import Paper, Source

_START = re.compile(r"^\s*TY  - ", re.MULTILINE)
_YEAR = re.compile(r"^\s*(\d{4})")
_VENUES = ("secondary_title", "journal_name", "alternate_title3", "alternate_title1", "alternate_title2")


def _first(record: dict, *keys: str) -> object:
    for key in keys:
        value = record.get(key)
        if isinstance(value, list):
            value = next((item for item in value if isinstance(item, str) and item.strip()), None)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _convert(record: dict, source: Source, problems: list[str]) -> Paper:
    names = [first_last(name) for name in (record.get("authors") or record.get("first_authors") or [])
             if isinstance(name, str)]
    written = [name for name in (record.get("authors") or record.get("first_authors") or []) if isinstance(name, str)]
    year = _first(record, "year", "publication_year")
    found = _YEAR.match(year) if isinstance(year, str) else None
    if year is not None and found is None:
        problems.append(f"year {year!r} does not start with four digits; year not read")
    keywords = [" ".join(word.split()) for word in record.get("keywords") or []
                if isinstance(word, str) and word.strip()]
    return make_paper(abstract=_first(record, "abstract", "notes_abstract"), authors=people(written, names),
                      title=_first(record, "title", "primary_title"), year=found[1] if found else None,
                      venue=_first(record, *_VENUES), doi=_first(record, "doi"),
                      id=_first(record, "id", "accession_number"), keywords=keywords, source=source)


@reads_text
def _items(text: str, file: str) -> Iterator[tuple[int, str, object] | RecordError]:
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # rispy reads `ER  - \r` as no end of record
    starts = [text.count("\n", 0, match.start()) + 1 for match in _START.finditer(text)]
    try:
        entries = rispy.loads(text)
    except Exception as exc:  # rispy raises IOError/ValueError/KeyError on malformed input
        yield RecordError(file, starts[0] if starts else 1, f"unreadable RIS: {exc}; file skipped")
        return
    if len(entries) != len(starts):
        yield RecordError(file, 1, f"rispy read {len(entries)} records where {len(starts)} start with `TY  - `; "
                                   "line numbers below count records, not lines")
        starts = list(range(1, len(entries) + 1))
    for index, (line, entry) in enumerate(zip(starts, entries), start=1):
        yield line, f"record {index}: ", entry


def iter_records(path: str | os.PathLike[str]) -> Iterator[Paper | RecordError]:
    """The records of a RIS file as Papers."""
    return papers_from(_items(path), str(path), _convert)
