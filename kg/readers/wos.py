"""Web of Science exports: plain text (tagged `PT` ... `ER` records) and tab-delimited.

Read, by field tag: `AU` (short names, `Hao, J`), `AF` (full names, `Hao, Jie`), `TI` (title),
`SO` (source: the venue), `PY` (year; else `EY`, the early-access year), `DE` (author keywords;
not `ID`, the Keywords Plus),
`AB` (abstract), `DI` (DOI), `UT` (accession number: the record id), `OI` (ORCIDs) and `RI`
(ResearcherIDs), given as `Name/ID; Name/ID` and matched to the author of that name. Not read:
addresses, references, citation counts, funding, categories and the other tags.

In plain text a tag starts a line (`AU Hao, J`), continuation lines start with three spaces, each
author is on a line of its own, and `ER` ends a record; `FN`/`VR` head the file and `EF` ends it.
The tab-delimited form has one row per record under a header of the same tags.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterator

from kg.errors import RecordError
from kg.names import author_key
from kg.readers.fields import make_paper
from kg.readers.people import first_last, people, split_list
from kg.readers.rows import CsvExport, Item, papers_from
from kg.readers.source import iter_lines
from kg.records import Paper, Source

_TAG = re.compile(r"^([A-Z][A-Z0-9]|ER|EF)(?: (.*))?$")
#: Tags whose continuation lines are items of a list (one author per line), not wrapped text.
_LIST_TAGS = {"AU", "AF"}
#: The header columns that tell a tab-delimited export.
SIGNATURE = ("pt", "au", "ti", "so")
_IDS = {"oi": "orcid", "ri": "researcherid"}


def _ids(record: dict, names: list[str], problems: list[str]) -> list[tuple[tuple[str, str], ...]]:
    """Each author's (scheme, id) pairs from the `OI`/`RI` fields, matched by name."""
    keys = [author_key(name) for name in names]
    found: list[list[tuple[str, str]]] = [[] for _ in names]
    for tag, scheme in _IDS.items():
        for entry in split_list(record.get(tag)):
            name, _, value = entry.rpartition("/")
            where = [i for i, key in enumerate(keys) if key == author_key(first_last(name))]
            if not name or not value.strip():
                problems.append(f"{tag.upper()} entry {entry!r} is not `Name/ID`; not used")
            elif len(where) != 1:
                problems.append(f"{tag.upper()} names {name!r}, which matches {len(where)} authors of the record; "
                                "its id not used")
            else:
                found[where[0]].append((scheme, value.strip()))
    return [tuple(pairs) for pairs in found]


def _convert(record: dict, source: Source, problems: list[str]) -> Paper:
    short = split_list(record.get("au"))
    full = [first_last(name) for name in split_list(record.get("af"))]
    names = full if full and len(full) == len(short) else full or short
    authors = people(short, full, _ids(record, names, problems) if names else (), problems, ("AU", "AF", "OI/RI"))
    return make_paper(abstract=record.get("ab") or None, authors=authors, title=record.get("ti") or None,
                      year=(record.get("py") or record.get("ey") or "").strip() or None, venue=record.get("so") or None,
                      doi=(record.get("di") or "").strip() or None, id=(record.get("ut") or "").strip() or None,
                      keywords=split_list(record.get("de")), source=source)


def _tagged_items(path: str | os.PathLike[str]) -> Iterator[Item | RecordError]:
    """The records of a plain-text export as `{tag: value}` (lower-case tags; list tags joined by `; `).

    A line that is not UTF-8 or not a field line costs its record (reported), not the file.
    """
    file, record, start, tag, broken = str(path), {}, 0, None, False
    for number, text, problem in iter_lines(path):
        match = None if problem is not None else _TAG.match(text)
        if broken:  # skip the rest of a broken record: to its `ER`, or a `PT` that starts the next
            if match is None or match[1] not in ("ER", "PT"):
                continue
            broken = False
            if match[1] == "ER":
                continue
        if not text.strip():
            continue
        if problem is None and text.startswith("   ") and tag is not None:
            record[tag].append(text.strip())
            continue
        if problem is not None or match is None:
            yield problem or RecordError(file, number, "not a Web of Science field line (a two-character tag, "
                                                       f"a space, the value): {text[:40]!r}; record skipped")
            record, tag, broken = {}, None, True
            continue
        tag, value = match[1], (match[2] or "").strip()
        if tag == "PT" or not record:
            record, start = {}, number
        if tag == "ER":
            if record:
                yield start, "", _joined(record)
            record, tag = {}, None
        elif tag not in ("FN", "VR", "EF"):
            record.setdefault(tag, []).append(value)
        else:
            tag = None
    if record:
        yield RecordError(file, start, "record has no closing `ER` line; skipped")


def _joined(record: dict[str, list[str]]) -> dict[str, str]:
    return {tag.lower(): ("; " if tag in _LIST_TAGS else " ").join(lines) for tag, lines in record.items()}


def iter_records(path: str | os.PathLike[str]) -> Iterator[Paper | RecordError]:
    """The records of a Web of Science plain-text export as Papers."""
    return papers_from(_tagged_items(path), str(path), _convert)


#: The tab-delimited export: its header (the tags, `PT` first), read by `_convert`.
TAB_EXPORT = CsvExport("a tab-delimited Web of Science", SIGNATURE, _convert, first="pt", delimiter="\t",
                       quoting=False)
#: The rows of a tab-delimited Web of Science export as Papers.
iter_tab_records = TAB_EXPORT.iter_records
