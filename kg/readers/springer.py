"""Springer Link CSV exports (`Download search results (CSV)`).

Read: `Item Title`, `Publication Title` (venue), `Item DOI`, `Authors`, `Publication Year`,
`Content Type` is not read, nor `Book Series Title`, volume, issue and `URL`. The export has no
abstracts (every record is kept and reported as having none) and no author keywords.

Springer writes the authors of a record joined without any separator (`Jane DoeJohn Smith`). The
names are split where a lower-case letter runs into an upper-case one (`...DoeJohn...`) once the
name so far has a space (so `JianWen Huang` stays whole), except after name prefixes written that
way (`McDonald`, `MacLeod`, `DeWitt`, `LeCun`, `DiCaprio`, `O'Neil`): a heuristic, so each record
whose names were split this way is reported for checking.
"""
from __future__ import annotations

import re

from kg.readers.fields import make_paper
from kg.readers.notices import Remark
from kg.readers.people import people
from kg.readers.rows import CsvExport
from kg.records import Paper, Source

#: The header columns that tell a Springer Link export.
SIGNATURE = ("item title", "item doi", "authors", "publication year")
#: A lower-case letter followed by an upper-case one, not inside a prefix like Mc/Mac/De/Le/Di/La/Van.
_JOIN = re.compile(r"(?<!\bMc)(?<!\bMac)(?<!\bDe)(?<!\bLe)(?<!\bDi)(?<!\bLa)(?<!\bDu)"
                   r"(?<=[a-zß-ÿ])(?=[A-ZÀ-Þ])")


def split_joined(value: str) -> list[str]:
    """`Jane DoeJohn Smith` -> [`Jane Doe`, `John Smith`] (see the module docstring for the rule).

    A join counts only once the name before it has a space: `JianWen HuangLingQi Zhang` is
    `JianWen Huang` and `LingQi Zhang`, its given names written in camel case kept whole.
    """
    text, names, start = value.strip(), [], 0
    for join in _JOIN.finditer(text):
        if " " in text[start:join.start()].strip():
            names.append(text[start:join.start()])
            start = join.start()
    names.append(text[start:])
    return [" ".join(name.split()) for name in names if name.strip()]


def _convert(record: dict, source: Source, problems: list[str]) -> Paper:
    joined = (record.get("authors") or "").strip()
    names = split_joined(joined)
    if len(names) > 1:
        problems.append(Remark(f"Springer joins author names without a separator; {joined!r} split into "
                        f"{len(names)} names ({'; '.join(names)}): check them"))
    return make_paper(abstract=None, authors=people(names), title=record.get("item title") or None,
                      year=(record.get("publication year") or "").strip() or None,
                      venue=(record.get("publication title") or "").strip() or None,
                      doi=(record.get("item doi") or "").strip() or None, source=source)


#: The export: its header, read by `_convert` (without abstracts: the export has none).
EXPORT = CsvExport("a Springer CSV", SIGNATURE, _convert)
#: The rows of a Springer Link CSV export as Papers.
iter_records = EXPORT.iter_records
