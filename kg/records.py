"""The records every stage passes on: frozen dataclasses, no behaviour beyond derived labels.

Data flows one way: readers make `Paper`s, extraction adds `Method`s (with their `MethodMention`
evidence), the graph is built from both.
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: The separator of a listing's track line (`Area · Subarea`), also used for display.
TRACK_SEPARATOR = " · "


@dataclass(frozen=True)
class Source:
    """Where a record came from: file path as given and 1-based line (or record number)."""

    file: str
    line: int


@dataclass(frozen=True)
class Author:
    """An author as written on one paper (`name`) and the normalised identity key (`key`)."""

    name: str
    key: str


@dataclass(frozen=True)
class Track:
    """A conference track: an area and an optional subarea (`Deep Learning · Large Language Models`)."""

    area: str
    subarea: str | None = None

    @property
    def label(self) -> str:
        return self.area if self.subarea is None else f"{self.area}{TRACK_SEPARATOR}{self.subarea}"


@dataclass(frozen=True)
class Paper:
    """One paper as read. `key` is a stable hash of its normalised cleaned abstract (not the authors,
    so a truncated listing record and its full JSONL version meet).

    `abstract` is kept exactly as given (LaTeX included); `text` is the cleaned text that
    extraction sees. `title` is None when the input has none (listings never do).
    """

    key: str
    authors: tuple[Author, ...]
    abstract: str
    text: str
    track: Track | None = None
    title: str | None = None
    id: str | None = None
    authors_truncated: bool = False
    year: int | None = None
    venue: str | None = None
    keywords: tuple[str, ...] = ()
    source: Source | None = None

    @property
    def node(self) -> str:
        """The paper's node key in the graph."""
        return f"paper:{self.key}"

    @property
    def display_id(self) -> str:
        """The record's own id when the input gives one, else its stable key."""
        return self.id if self.id is not None else self.key


@dataclass(frozen=True)
class MethodMention:
    """One occurrence of a method term: text as written, char offsets into `Paper.text`, sentence."""

    text: str
    start: int
    end: int
    sentence: str


@dataclass(frozen=True)
class Method:
    """A canonical method (or data-set) concept as mentioned by one paper.

    `key` is the concept's slug (shared across papers), `label` its preferred label, `alt_labels`
    the acronyms and variants merged into it, `mentions` the evidence in this paper, `kind`
    `"method"` or `"dataset"` (data sets and benchmarks, `kg.extract.extract_concepts`).
    """

    key: str
    label: str
    alt_labels: tuple[str, ...] = ()
    mentions: tuple[MethodMention, ...] = field(default_factory=tuple)
    kind: str = "method"

    @property
    def count(self) -> int:
        return len(self.mentions)


def paper_to_dict(paper: Paper) -> dict:
    """The JSON shape of a record, as `kg papers --json` prints it and `papers.jsonl` stores it."""
    return {
        "id": paper.id,
        "key": paper.key,
        "title": paper.title,
        "authors": [a.name for a in paper.authors],
        "authors_truncated": paper.authors_truncated,
        "track": None if paper.track is None else {"area": paper.track.area, "subarea": paper.track.subarea},
        "abstract": paper.abstract,
        "text": paper.text,
        "source": None if paper.source is None else {"file": paper.source.file, "line": paper.source.line},
    }
