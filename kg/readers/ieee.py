"""IEEE Xplore CSV exports (`Export` > `CSV` on a search result page).

Read: `Document Title`, `Authors` (`P. Kogge; J. Shalf`: initials first, as IEEE writes them),
`Publication Title` (venue), `Publication Year`, `Abstract`, `DOI`, `Author Keywords`, and the
article number from `PDF Link` (`...?arnumber=6634083`) as the record id. Not read: affiliations,
IEEE Terms, INSPEC terms, citation counts, dates, publisher, licence.
"""
from __future__ import annotations

import re

from kg.readers.fields import make_paper
from kg.readers.people import people, split_list
from kg.readers.rows import CsvExport
from kg.records import Paper, Source

#: The header columns that tell an IEEE Xplore export.
SIGNATURE = ("document title", "authors", "publication title", "publication year")
_ARNUMBER = re.compile(r"arnumber=(\d+)")


def _value(record: dict, column: str) -> str | None:
    value = (record.get(column) or "").strip()
    return value or None


def _convert(record: dict, source: Source, problems: list[str]) -> Paper:
    number = _ARNUMBER.search(record.get("pdf link") or "")
    return make_paper(abstract=_value(record, "abstract"),
                      authors=people(split_list(_value(record, "authors")), problems=problems),
                      title=_value(record, "document title"), year=_value(record, "publication year"),
                      venue=_value(record, "publication title"), doi=_value(record, "doi"),
                      id=f"ieee:{number[1]}" if number else None,
                      keywords=split_list(_value(record, "author keywords")), source=source)


#: The export: its header, read by `_convert`.
EXPORT = CsvExport("an IEEE Xplore CSV", SIGNATURE, _convert)
#: The rows of an IEEE Xplore CSV export as Papers.
iter_records = EXPORT.iter_records
