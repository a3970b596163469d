"""Problems of records that were read (not skipped): a field left out, or a notice worth a line.

`--strict` stops on a malformed record and on a `FieldProblem` (part of the input was left out); it
stops on a `Notice` only when the notice's `lost` says that something did not reach the result.
"""
from __future__ import annotations

from collections import defaultdict

from kg.errors import RecordError
from kg.names import author_key
from kg.records import Paper


class FieldProblem(RecordError):
    """A field (or part of one) that could not be used, in a record that was kept: a blank author
    name, a track with an empty part. The message says what was left out."""


class Notice(RecordError):
    """A notice about a record that was read; `lost` is True when part of it was not kept."""

    lost = False


class SameName(Notice):
    """Two or more authors of one paper have one name (`Chao Liu, Chao Liu`): every position is kept,
    and who they are is ambiguous (two people unless an ID says one)."""

    def __init__(self, paper: Paper, name: str, positions: list[int]) -> None:
        self.positions = positions
        where = " and ".join(map(str, positions))
        super().__init__(paper.source.file if paper.source else "?", paper.source.line if paper.source else 0,
                         f"authors {where} are {'both' if len(positions) == 2 else 'all'} named {name!r}; each position kept, whether they are "
                         "one person is unknown (two people unless an ID says one)")


def same_names(paper: Paper) -> list[SameName]:
    """A `SameName` notice per name that occurs at more than one position of the paper's author list."""
    if len(paper.authors) < 2:
        return []
    positions: dict[str, list[int]] = defaultdict(list)
    for position, author in enumerate(paper.authors, start=1):
        positions[author_key(author.name)].append(position)
    return [SameName(paper, paper.authors[found[0] - 1].name, found)
            for found in positions.values() if len(found) > 1]
