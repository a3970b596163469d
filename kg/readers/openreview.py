"""OpenReview notes (API v1 and v2 JSON), as `openreview-py` or the API returns them: one note, a
list, or a page `{"notes": [...]}`; JSONL with a note per line too.

Read from `content` (v1: plain values; v2: each wrapped as `{"value": ...}`): `title`, `authors`,
`authorids` (profile ids `~First_Last1` become OpenReview author ids; emails and other URLs are not
kept), `abstract`, `keywords` (the authors' own), `venue`, and `primary_area` as the track. The
note `id` is the record id; the year is that of the publication date `pdate` (epoch
milliseconds), else the year in the venue's id (`venueid`, `domain` or the invitation:
`ICLR.cc/2023/Conference`), never the creation date `cdate` (the year of submission). Not read:
reviews and replies, TL;DR, PDFs, supplementary material, bibtex.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
import re
from datetime import datetime, timezone

from kg.errors import RecordError
from kg.readers.fields import FieldError, make_author, make_paper, parse_keywords, parse_track
from kg.readers.rows import api_items, papers_from
from kg.records import Paper, Source


_YEAR = re.compile(r"/((?:19|20)\d\d)/")


def _field(content: dict, name: str) -> object:
    """A content field's value, unwrapped from API v2's `{"value": ...}`."""
    value = content.get(name)
    return value.get("value") if isinstance(value, dict) and "value" in value else value


def _year(note: dict, content: dict) -> int | None:
    """The year of the publication date `pdate`, else the year the venue's id names
    (`ICLR.cc/2023/Conference`); not the creation date, which is the year of submission."""
    stamp = note.get("pdate")
    if stamp is not None:
        if not isinstance(stamp, (int, float)) or isinstance(stamp, bool):
            raise FieldError(f"pdate must be epoch milliseconds, not {stamp!r}")
        return datetime.fromtimestamp(stamp / 1000, tz=timezone.utc).year
    invitations = note.get("invitations") or [note.get("invitation")]
    for where in (_field(content, "venueid"), note.get("domain"), *invitations):
        if isinstance(where, str) and (found := _YEAR.search(where)):
            return int(found[1])
    return None


def _authors(content: dict, problems: list[str]) -> list:
    names, ids = _field(content, "authors") or [], _field(content, "authorids") or []
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise FieldError("content.authors must be a list of names")
    if ids and (not isinstance(ids, list) or len(ids) != len(names)):
        problems.append(f"content.authorids has {len(ids) if isinstance(ids, list) else 'no list of'} ids for "
                        f"{len(names)} authors; ids not used")
        ids = []
    authors = []
    for position, name in enumerate(names, start=1):
        if not name.strip():
            problems.append(f"author {position} of {len(names)} is blank; that author left out")
            continue
        profile = ids[position - 1] if ids else None
        kept = [("openreview", profile)] if isinstance(profile, str) and profile.startswith("~") else []
        authors.append(make_author(" ".join(name.split()), None, kept))
    return authors


def _convert(note: dict, source: Source, problems: list[str]) -> Paper:
    content = note.get("content")
    if not isinstance(content, dict):
        raise FieldError("note has no `content` object")
    return make_paper(abstract=_field(content, "abstract"), authors=_authors(content, problems),
                      title=_field(content, "title"), year=_year(note, content), venue=_field(content, "venue"),
                      id=note.get("id"), keywords=parse_keywords(_field(content, "keywords")),
                      track=parse_track(_field(content, "primary_area"), problems), source=source)


def iter_records(path: str | os.PathLike[str]) -> Iterator[Paper | RecordError]:
    """The notes of an OpenReview JSON or JSONL file as Papers."""
    return papers_from(api_items(path), str(path), _convert)
