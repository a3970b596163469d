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


#: External author identifier schemes, in the order that picks an author's identity key: the
#: databases' own ids (present on every author of their exports) before ORCID (present on some).
ID_SCHEMES = ("scopus", "openalex", "s2", "openreview", "orcid", "researcherid")
#: Where an author id of each scheme resolves (`{}` is the id as stored in `Author.ids`).
ID_URLS = {
    "scopus": "https://www.scopus.com/authid/detail.uri?authorId={}",
    "openalex": "https://openalex.org/{}",
    "s2": "https://www.semanticscholar.org/author/{}",
    "openreview": "https://openreview.net/profile?id={}",
    "orcid": "https://orcid.org/{}",
    "researcherid": "https://www.webofscience.com/wos/author/rid/{}",
}


@dataclass(frozen=True)
class Author:
    """An author of one paper: `name` (the full name where the input has one), the identity `key`,
    the name `written` as the input's short form gives it when that differs (`Hao J.` for
    `Jie Hao`), and external `ids` as `(scheme, id)` pairs (schemes from `ID_SCHEMES`).

    `key` is made from the first id in `ID_SCHEMES` order when there is one (`scopus-57221302630`),
    else from the name (`kg.names.author_key`): one person written two ways with one id is one
    key; two people of one name with different ids are two.
    """

    name: str
    key: str
    written: str | None = None
    ids: tuple[tuple[str, str], ...] = ()

    def id(self, scheme: str) -> str | None:
        """The author's id in `scheme` (`orcid`, `scopus`, ...), or None."""
        return next((value for name, value in self.ids if name == scheme), None)


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
    """One paper as read. `key` is a stable hash of its normalised cleaned abstract; a paper whose
    abstract an earlier, different paper has (other authors or title) gets the hash of its abstract,
    author names and title instead (`kg.readers.dedupe`), so distinct papers never share a key.

    `abstract` is kept exactly as given (LaTeX included); `text` is the cleaned text that
    extraction sees; both are "" for a record without an abstract (kept: co-authorship needs none),
    whose key is then a hash of its title and author names. `title` is None when the input has
    none (listings never do). `keywords` are the author keywords as the input gives them (never
    extracted methods); `doi` is the bare DOI (`10.1000/xyz`, no resolver prefix).
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
    doi: str | None = None

    @property
    def node(self) -> str:
        """The paper's node key in the graph."""
        return f"paper:{self.key}"

    @property
    def display_id(self) -> str:
        """The record's own id when the input gives one, else its stable key."""
        return self.id if self.id is not None else self.key


@dataclass(frozen=True, slots=True)
class MethodMention:
    """One occurrence of a method term: text as written, char offsets into `Paper.text`, sentence.

    The evidence of every `mentions` and `uses_dataset` edge of the graph is a tuple of these. A
    slotted record holds its four fields and nothing else (no per-instance dict): a large corpus
    has millions of mentions. `mention_to_dict` gives its JSON shape.
    """

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
    """The JSON shape of a record, as `kg papers --json` prints it and `papers.jsonl` stores it.

    `authors` are the names; `authors_written` gives each name as the input's short form wrote it
    (null where the same) and `author_ids` each author's external ids (`{"scopus": "5720..."}`),
    both by position, so the output reads back through the JSON reader.
    """
    return {
        "id": paper.id,
        "key": paper.key,
        "title": paper.title,
        "authors": [a.name for a in paper.authors],
        "authors_truncated": paper.authors_truncated,
        "authors_written": [a.written for a in paper.authors],
        "author_ids": [dict(a.ids) for a in paper.authors],
        "track": None if paper.track is None else {"area": paper.track.area, "subarea": paper.track.subarea},
        "year": paper.year,
        "venue": paper.venue,
        "doi": paper.doi,
        "keywords": list(paper.keywords),
        "abstract": paper.abstract,
        "text": paper.text,
        "source": None if paper.source is None else {"file": paper.source.file, "line": paper.source.line},
    }


def mention_to_dict(mention: MethodMention) -> dict:
    """The JSON shape of one mention, `{"text", "start", "end", "sentence"}`: what `kg keywords
    --json` prints per mention and what GraphML/GEXF store as an edge's `evidence`.

    Also the `default=` hook of JSON encoders that meet mention records (`json.dumps(edge_data,
    default=mention_to_dict)`): any other object is a TypeError, as json raises it.

    Parameters
    ----------
    mention : MethodMention
        One mention.

    Returns
    -------
    dict
        Its fields by name, in field order.

    Examples
    --------
    >>> import json
    >>> mention = MethodMention("QAT", 7, 10, "We use QAT.")
    >>> mention_to_dict(mention)
    {'text': 'QAT', 'start': 7, 'end': 10, 'sentence': 'We use QAT.'}
    >>> json.dumps((mention,), default=mention_to_dict)
    '[{"text": "QAT", "start": 7, "end": 10, "sentence": "We use QAT."}]'
    """
    if not isinstance(mention, MethodMention):
        raise TypeError(f"Object of type {type(mention).__name__} is not JSON serializable")
    return {"text": mention.text, "start": mention.start, "end": mention.end, "sentence": mention.sentence}
