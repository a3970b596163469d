"""`--format auto`: the input format from the file's extension, and from its content when that is not decisive.

`.jsonl`/`.ndjson`, `.csv`/`.tsv` and `.bib`/`.bibtex` decide alone; a `.json` file whose content starts
with `{` is JSONL. Any other file is sniffed: `[` starts JSON, `{` JSONL, an `@type{` entry BibTeX,
a first line with an `abstract` or `text` column CSV; everything else is a listing.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from kg.errors import ArgumentError
from kg.readers.source import head_bytes

FORMATS = ("listing", "json", "jsonl", "csv", "bibtex")
_BY_EXTENSION = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".tsv": "csv",
                 ".bib": "bibtex", ".bibtex": "bibtex"}
_BIBTEX_ENTRY = re.compile(r"^\s*@[a-zA-Z]+\s*[{(]", re.MULTILINE)
_CSV_HEADER = re.compile(r"(?:^|[,;\t])\s*\"?(?:abstract|text)\"?\s*(?:[,;\t]|$)", re.IGNORECASE)


def check_format(format: str) -> str:
    """The format name if known (`auto` included), else a ArgumentError listing the choices."""
    if format != "auto" and format not in FORMATS:
        raise ArgumentError(f"unknown input format {format!r}; choose auto, {', '.join(FORMATS)}")
    return format


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format `--format auto` reads `path` as (see the module docstring for the rules)."""
    suffix = Path(path).suffix.lower()
    if suffix in _BY_EXTENSION:
        return _BY_EXTENSION[suffix]
    head = head_bytes(path).removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace").lstrip()
    if head.startswith("["):
        return "json"
    if head.startswith("{"):
        return "jsonl"
    if suffix == ".json":
        return "json"
    if _BIBTEX_ENTRY.search(head):
        return "bibtex"
    if _CSV_HEADER.search(head.partition("\n")[0]):
        return "csv"
    return "listing"
