"""Duplicates across inputs: the same content key or the same id is the same paper.

`Deduper` finds the first occurrence; `merge` keeps the richer record (title, id, track, year, venue,
keywords from whichever has them; the full author list over a truncated or shorter one).
"""
from __future__ import annotations

from dataclasses import replace

from kg.errors import RecordError
from kg.records import Paper, Source

_FILLABLE = ("title", "id", "track", "year", "venue")


class Duplicate(RecordError):
    """A notice, not a malformed record: the paper at `file:line` repeats the one at `first`."""

    def __init__(self, source: Source, first: Source, reason: str, action: str) -> None:
        self.first = first
        self.reason = reason
        super().__init__(source.file, source.line,
                         f"duplicate of the paper at {first.file}:{first.line} ({reason}); {action}")


class Deduper:
    """Remembers each paper's content key and id, and the position of the paper they belong to."""

    def __init__(self) -> None:
        self._by_key: dict[str, int] = {}
        self._by_id: dict[str, int] = {}

    def find(self, paper: Paper) -> tuple[int, str] | None:
        """The position of the earlier paper this one duplicates, and why; None if it is new."""
        if paper.key in self._by_key:
            return self._by_key[paper.key], "same content"
        if paper.id is not None and paper.id in self._by_id:
            return self._by_id[paper.id], f"same id {paper.id}"
        return None

    def add(self, paper: Paper, position: int) -> None:
        """Let later papers with this paper's key or id find `position`."""
        self._by_key.setdefault(paper.key, position)
        if paper.id is not None:
            self._by_id.setdefault(paper.id, position)


def merge(first: Paper, other: Paper) -> tuple[Paper, list[str]]:
    """`first` completed from `other`, and the names of the fields `other` supplied.

    `first` keeps its key, abstract and source; on a conflict the first value wins.
    """
    changes = {name: getattr(other, name) for name in _FILLABLE
               if getattr(first, name) is None and getattr(other, name) is not None}
    if not first.keywords and other.keywords:
        changes["keywords"] = other.keywords
    completes = first.authors_truncated and not other.authors_truncated and len(other.authors) >= len(first.authors)
    if completes or (not first.authors and other.authors):
        changes["authors"], changes["authors_truncated"] = other.authors, other.authors_truncated
    return replace(first, **changes), [name for name in changes if name != "authors_truncated"]
