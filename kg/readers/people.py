"""Author lists of the bibliographic exports: `Last, First` names, parallel columns, ids by position.

Exports give an author list in up to three parallel columns (Scopus: `Authors` short, `Author full
names`, `Author(s) ID`; WoS: `AU`, `AF`, `OI`/`RI`). `people()` zips them into Authors, and reports
(never guesses) when their lengths disagree: the short names are then kept without the other column.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from kg.readers.fields import make_author
from kg.records import Author

_SPACES = re.compile(r"\s+")


def first_last(name: str) -> str:
    """`Last, First` -> `First Last` (`Last, First, Jr.` -> `First Last Jr.`); other names as written."""
    parts = [part.strip() for part in name.split(",")]
    if len(parts) == 2 and all(parts):
        return f"{parts[1]} {parts[0]}"
    if len(parts) == 3 and all(parts):
        return f"{parts[1]} {parts[0]} {parts[2]}"
    return _SPACES.sub(" ", name).strip()


def split_list(value: object, separator: str = ";") -> list[str]:
    """The whitespace-normalised, non-empty items of a `;`-separated cell (a trailing `;` adds none)."""
    if not isinstance(value, str):
        return []
    return [item for item in (_SPACES.sub(" ", part).strip() for part in value.split(separator)) if item]


def people(short: Sequence[str], full: Sequence[str] = (), ids: Sequence[Sequence[tuple[str, str]]] = (),
           problems: list[str] | None = None, columns: tuple[str, str, str] = ("short", "full", "id")
           ) -> list[Author]:
    """Authors from parallel lists: `full` names (else the `short` ones) with the short form as
    `written`, and `ids` per position. A list whose length differs from the author count is not
    used, and said so in `problems` (named by `columns`)."""
    count = len(full) or len(short)
    if full and short and len(short) != len(full):
        _report(problems, f"{columns[0]} lists {len(short)} names, {columns[1]} {len(full)}; "
                          f"{columns[1]} used, {columns[0]} not")
        short = ()
    if ids and len(ids) != count:
        _report(problems, f"{columns[2]} lists {len(ids)} entries for {count} authors; ids not used")
        ids = ()
    names = full or short
    return [make_author(name, short[i] if short and full else None, ids[i] if ids else ())
            for i, name in enumerate(names)]


def _report(problems: list[str] | None, message: str) -> None:
    if problems is not None:
        problems.append(message)
