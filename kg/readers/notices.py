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


class Remark(str):
    """A reader's message about a record that is a notice (nothing left out: a value read by a
    heuristic the user should check), where a plain string is a `FieldProblem`."""


class SameName(Notice):
    """Two or more authors of one paper have one name (`Chao Liu, Chao Liu`): every position is kept,
    and who they are is ambiguous (two people unless an ID says one)."""

    def __init__(self, paper: Paper, name: str, positions: list[int]) -> None:
        self.positions = positions
        where = " and ".join(map(str, positions))
        author = paper.authors[positions[0] - 1]
        who = (f"one person by their id ({author.key}), listed at each position" if author.ids else
               "whether they are one person is unknown (two people unless an ID says one)")
        super().__init__(paper.source.file if paper.source else "?", paper.source.line if paper.source else 0,
                         f"authors {where} are {'both' if len(positions) == 2 else 'all'} named {name!r}; "
                         f"each position kept, {who}")


def same_names(paper: Paper) -> list[SameName]:
    """A `SameName` notice per name that occurs at more than one position of the paper's author list
    (one name with different external ids is two people, and not reported)."""
    if len(paper.authors) < 2:
        return []
    positions: dict[tuple[str, str], list[int]] = defaultdict(list)
    for position, author in enumerate(paper.authors, start=1):
        name = author.key if not author.ids else author_key(author.name)  # without ids the key is the name's
        positions[(name, author.key)].append(position)
    return [SameName(paper, paper.authors[found[0] - 1].name, found)
            for found in positions.values() if len(found) > 1]


#: What a record lacks, and what that costs: the words of a `Missing` notice.
_COSTS = {"abstract": "no abstract (so no methods)", "authors": "no author names (so no co-authors)",
          "title": "no title"}


class Missing(Notice):
    """A record kept without a field its format normally has: `no abstract (so no methods)`."""

    def __init__(self, paper: Paper, missing: list[str]) -> None:
        self.missing = missing
        super().__init__(paper.source.file if paper.source else "?", paper.source.line if paper.source else 0,
                         f"{', '.join(_COSTS[name] for name in missing)}; kept with what it has")


def missing(paper: Paper, expected: tuple[str, ...]) -> list[Missing]:
    """A `Missing` notice when the paper lacks any of the `expected` fields (`abstract`, `authors`, `title`)."""
    have = {"abstract": bool(paper.text), "authors": bool(paper.authors), "title": paper.title is not None}
    lacking = [name for name in expected if not have[name]]
    return [Missing(paper, lacking)] if lacking else []
