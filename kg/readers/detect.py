"""`--format auto`: the input format from the file's content (its first 64 KiB), helped by its extension.

In order: a JSON/JSONL file whose records carry an API's own keys is that API's export (OpenAlex:
`abstract_inverted_index`/`authorships`/`openalex.org/W`; Semantic Scholar: `paperId`/`corpusid`;
OpenReview: a `content` object with a `forum` or `invitation(s)`); else `[` starts kg's JSON and `{`
kg's JSONL (`.jsonl`/`.ndjson` are JSONL, `.json` JSON, whatever the first character). A first line
`TY  - ` is RIS; `FN`/`VR`/`PT` tag lines are Web of Science plain text. A header row is a CSV:
Web of Science tab-delimited (`PT<tab>AU...`), Scopus, IEEE Xplore, Springer (by their columns), or
kg's CSV (an `abstract`, `text` or `title` column). An `@type{` entry is BibTeX (`.bib` always is).
Everything else is a listing; when a listing reads no record, the problem says what was tried.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from kg.errors import ArgumentError
from kg.readers import ieee, scopus, springer, wos
from kg.readers.rows import DELIMITERS, header_columns
from kg.readers.source import head_bytes

FORMATS = ("listing", "json", "jsonl", "csv", "bibtex", "scopus", "ieee", "springer", "wos", "wos-tab", "ris",
           "openalex", "openalex-topics", "openreview", "s2")
#: What `auto` tries, in words, for the problem of a file that matches none.
TRIED = ("OpenAlex, OpenReview and Semantic Scholar JSON/JSONL", "kg JSON/JSONL", "RIS",
         "Web of Science plain text", "CSV (Web of Science tab-delimited, Scopus, IEEE Xplore, Springer, kg)",
         "BibTeX")
_BIBTEX_ENTRY = re.compile(r"^\s*@[a-zA-Z]+\s*[{(]", re.MULTILINE)
_RIS = re.compile(r"^TY  - ", re.MULTILINE)
_WOS = re.compile(r"^(?:FN |VR |PT [A-Z]\s*$)", re.MULTILINE)
_API_KEYS = (("openalex", re.compile(r'"(?:abstract_inverted_index|authorships)"\s*:|"https://openalex\.org/W')),
             ("s2", re.compile(r'"(?:paperId|corpusid)"\s*:')),
             ("openreview", re.compile(r'"content"\s*:\s*\{')))
_OPENREVIEW_NOTE = re.compile(r'"(?:forum|invitations?|replyto|domain)"\s*:')
_KG_CSV_COLUMNS = ("abstract", "text", "title")


def check_format(format: str) -> str:
    """The format name if known (`auto` included), else a ArgumentError listing the choices."""
    if format != "auto" and format not in FORMATS:
        raise ArgumentError(f"unknown input format {format!r}; choose auto, {', '.join(FORMATS)}")
    return format


def _csv_format(line: str) -> str | None:
    """The CSV format whose columns the header line has (split at any delimiter), or None."""
    splits = [header_columns(line, delimiter) for delimiter in DELIMITERS if delimiter in line]
    for name, export in (("wos-tab", wos.TAB_EXPORT), ("scopus", scopus.EXPORT), ("ieee", ieee.EXPORT),
                         ("springer", springer.EXPORT)):
        if any(export.matches(columns) for columns in splits):
            return name
    return "csv" if any(column in _KG_CSV_COLUMNS for columns in splits for column in columns) else None


def _json_format(head: str, suffix: str) -> str:
    for name, pattern in _API_KEYS:
        if pattern.search(head) and (name != "openreview" or _OPENREVIEW_NOTE.search(head)):
            return name
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    if suffix == ".json" and not head.startswith("{"):
        return "json"
    return "json" if head.startswith("[") else "jsonl"


def matched_format(path: str | os.PathLike[str]) -> str | None:
    """The format whose signature `path` shows (see the module docstring), or None."""
    suffix = Path(path).suffix.lower()
    head = head_bytes(path).removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace").lstrip()
    if head.startswith(("[", "{")) or suffix in (".json", ".jsonl", ".ndjson"):
        return _json_format(head, suffix)
    if _RIS.match(head) or suffix == ".ris" and _RIS.search(head):
        return "ris"
    if _WOS.match(head):
        return "wos"
    if suffix in (".bib", ".bibtex"):
        return "bibtex"
    if (found := _csv_format(head.partition("\n")[0])) is not None:
        return found
    if suffix in (".csv", ".tsv"):
        return "csv"
    if _BIBTEX_ENTRY.search(head):
        return "bibtex"
    return None


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format `--format auto` reads `path` as: its matched format, else a listing."""
    return matched_format(path) or "listing"
