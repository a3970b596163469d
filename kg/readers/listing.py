"""The listing format: records of `[track line]`, author line, abstract, separated by blank lines.

A record is recognised by its structure, not by line counting: the abstract is the prose paragraph
(it has a sentence end, or a comma-separated part longer than a name), the paragraph before it is the
author line, and the one before that, if any, the track line. A track line has a separator
(`Area · Subarea`, see `fields.TRACK_SEPARATOR`); a one-level track (`Computer Vision`) has none and is
told from a stray author line (one that lost its abstract) by position and by having no comma, or
by being a known area of the file (the area of some two-level track in it). Before the first record,
a single line with no separator that is not a known area is a page header and ignored (so a file
cannot start with an unknown one-level track: it would be read as the header). Leftover paragraphs (a record
that lost its abstract) are reported, never glued onto the next record, and a track is never
inherited from the previous record.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

from kg.errors import RecordError
from kg.names import fold
from kg.readers.fields import FieldError, has_track_separator, make_paper, parse_track, split_names
from kg.readers.notices import FieldProblem
from kg.readers.source import iter_lines
from kg.records import Paper, Source

#: Two lowercase letters then `.`, `!` or `?` and a space or the end: a sentence ends there
#: (initials like `E.J.` and `Jr.` do not match).
_SENTENCE_END = re.compile(r"[a-zß-ÿ]{2}[.!?](?:\s|$)")
_MAX_NAME_WORDS = 6
_MAX_NAME_CHARS = 60
_MAX_TRACK_CHARS = 300
_RECORD_SHAPE = "a record is: optional track line, author line, abstract, separated by blank lines"


@dataclass
class _Paragraph:
    """Consecutive non-blank lines: where they start, their text, a decoding problem if any."""

    line: int
    lines: list[str]
    problem: RecordError | None = None

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.lines).split())


def is_prose(text: str) -> bool:
    """Whether a paragraph reads as an abstract rather than an author or track line."""
    names, _ = split_names(text)  # without a trailing `et al.`, whose period ends no sentence
    if _SENTENCE_END.search(", ".join(names)):
        return True
    if has_track_separator(text):
        return len(text) > _MAX_TRACK_CHARS
    return any(len(name.split()) > _MAX_NAME_WORDS or len(name) > _MAX_NAME_CHARS for name in names)


def _paragraphs(path: str | os.PathLike[str]) -> Iterator[_Paragraph]:
    current: _Paragraph | None = None
    for number, text, problem in iter_lines(path):
        if not text.strip():
            if current is not None:
                yield current
            current = None
            continue
        if current is None:
            current = _Paragraph(number, [])
        current.lines.append(text.rstrip())
        current.problem = current.problem or problem
    if current is not None:
        yield current


class _Reader:
    """The record state of one listing file (its known areas are read on first need)."""

    def __init__(self, path: str | os.PathLike[str], require_authors: bool) -> None:
        self.path = path
        self.file = str(path)
        self.require_authors = require_authors
        self.at_start = True
        self._areas: set[str] | None = None

    def records(self) -> Iterator[Paper | RecordError]:
        leads: list[_Paragraph] = []
        for paragraph in _paragraphs(self.path):
            if not is_prose(paragraph.text):
                leads.append(paragraph)
                continue
            yield from self._record(leads, paragraph)
            leads, self.at_start = [], False
        if leads:
            yield self._skipped(leads, "record has no abstract paragraph; skipped")

    def known_areas(self) -> set[str]:
        """Folded areas of the file's two-level track lines (one pre-pass over the file; a malformed
        track's problem is reported when its record is read, not here)."""
        if self._areas is None:
            self._areas = {fold(track.area) for _, text, _ in iter_lines(self.path)
                           if len(text) <= _MAX_TRACK_CHARS and has_track_separator(text)
                           and not is_prose(text) and (track := parse_track(text, [])) is not None}
        return self._areas

    def _is_header(self, paragraph: _Paragraph) -> bool:
        return (self.at_start and len(paragraph.lines) == 1 and not has_track_separator(paragraph.text)
                and fold(paragraph.text) not in self.known_areas())

    def _is_track(self, paragraph: _Paragraph) -> bool:
        text = paragraph.text
        return has_track_separator(text) or "," not in text or fold(text) in self.known_areas()

    def _skipped(self, paragraphs: list[_Paragraph], message: str) -> RecordError:
        """Why these paragraphs are skipped: a line that is not UTF-8 if they hold one, else `message`."""
        problem = next((p.problem for p in paragraphs if p.problem is not None), None)
        return problem or RecordError(self.file, paragraphs[0].line, f"{message} ({_RECORD_SHAPE})")

    def _record(self, leads: list[_Paragraph], abstract: _Paragraph) -> Iterator[Paper | RecordError]:
        if len(leads) > 1 and self._is_header(leads[0]):
            leads = leads[1:]
        if not leads:
            yield self._skipped([abstract], "abstract without an author line before it; skipped")
            return
        *rest, authors = leads
        track = rest.pop() if rest and self._is_track(rest[-1]) else None
        if rest:
            yield self._skipped(rest, "record has no abstract paragraph; skipped")
        paragraphs = [p for p in (track, authors, abstract) if p is not None]
        if has_track_separator(authors.text) or any(p.problem for p in paragraphs):
            yield self._skipped(paragraphs, "no author line: the line before the abstract is a track line")
            return
        problems: list[str] = []
        names, truncated = split_names(authors.text, problems=problems)
        line = paragraphs[0].line
        if self.require_authors and not names:
            yield RecordError(self.file, line, "no author names; give at least one author; skipped")
            return
        try:
            paper = make_paper(abstract="\n".join(abstract.lines), authors=names, truncated=truncated,
                               track=None if track is None else parse_track(track.text, problems),
                               source=Source(self.file, line))
        except FieldError as exc:
            yield RecordError(self.file, line, f"{exc}; skipped")
            return
        yield from (FieldProblem(self.file, line, problem) for problem in problems)
        yield paper


def iter_records(path: str | os.PathLike[str], *, require_authors: bool = True) -> Iterator[Paper | RecordError]:
    """Stream the papers of a listing file, and a RecordError for each record that must be skipped."""
    return _Reader(path, require_authors).records()
