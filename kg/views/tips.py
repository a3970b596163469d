"""Tooltip contents: sections of cited papers, each paper and evidence sentence written once per page.

A tooltip is `{"title", "lines", "sections": [{"heading", "items", "more"}]}`; an item is either
`{"text", "detail"}` or a citation `{"paper": i, "quotes": [j, ...]}` of the page's rows of papers
(`meta.papers`) and evidence sentences (`meta.quotes`), which the page's script resolves.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Generic, TypeVar

import networkx as nx

from kg.graph import nodes_of_kind, paper_authors, paper_track

T = TypeVar("T")

#: Papers, co-authors or evidence sentences listed per tooltip section (the rest is counted).
TIP_ITEMS = 8
#: How the page names papers without a known track.
NO_TRACK = "(no track)"


class Numbered(Generic[T]):
    """Values listed once each, in order of first use: `number(key)` is the index in `values` of
    `make(key)`, made the first time `key` is asked for."""

    def __init__(self, make: Callable[[str], T]) -> None:
        self.values: list[T] = []
        self._make = make
        self._numbers: dict[str, int] = {}

    def number(self, key: str) -> int:
        number = self._numbers.get(key)
        if number is None:
            number = self._numbers[key] = len(self.values)
            self.values.append(self._make(key))
        return number


class Papers:
    """The papers of the graph a view shows, as its tooltips cite them.

    `track[paper]` is the paper's track label (`NO_TRACK` when unknown), `area[paper]` its track's
    area (the upper level of a two-level track), `year[paper]` its year
    (None when unknown); `cite(paper, quotes)` returns a tooltip item that refers to the paper by its
    number in `rows` (its title, or its label when it has none; track, year and first authors) and to its evidence sentences by their numbers in `quotes`, so a paper or a sentence
    cited by many nodes and links is written into the page once.
    """

    def __init__(self, H: nx.DiGraph) -> None:
        self.H = H
        self.track: dict[str, str] = {}
        self.area: dict[str, str] = {}
        self.year: dict[str, int | None] = {}
        for paper in nodes_of_kind(H, "paper"):
            node = paper_track(H, paper)
            self.track[paper] = NO_TRACK if node is None else H.nodes[node]["label"]
            self.area[paper] = NO_TRACK if node is None else H.nodes[node].get("area", H.nodes[node]["label"])
            self.year[paper] = _year(H.nodes[paper].get("year"))
        self.rows = Numbered(self._row)
        self.quotes = Numbered(str)

    def cite(self, paper: str, quotes: Sequence[str] = ()) -> dict:
        cited = [self.quotes.number(q) for q in dict.fromkeys(quotes) if q]
        return {"paper": self.rows.number(paper), **({"quotes": cited} if cited else {})}

    def tracks(self, papers: Iterable[str]) -> list[str]:
        return sorted({self.track[p] for p in papers})

    def _row(self, paper: str) -> dict:
        data = self.H.nodes[paper]
        authors = [self.H.nodes[a]["label"] for a in paper_authors(self.H, paper)]
        byline = ", ".join(authors[:3]) + (" et al." if len(authors) > 3 or data.get("authors_truncated") else "")
        year = self.year[paper]
        return {"text": data.get("title") or data["label"],
                "detail": " · ".join(filter(None, [self.track[paper], None if year is None else str(year), byline]))}


def _year(value: object) -> int | None:
    """A paper's year as an int (None when missing or not a year)."""
    try:
        return int(str(value)[:4]) if value not in (None, "") else None
    except ValueError:
        return None


def tip(title: str, lines: list[str], sections: list[dict]) -> dict:
    """A tooltip: its title, plain lines, and its non-empty sections."""
    return {"title": title, "lines": lines, "sections": [s for s in sections if s["items"]]}


def section(heading: str, items: Sequence[T], item: Callable[[T], dict]) -> dict:
    """A tooltip section: the first `TIP_ITEMS` of `items` made into tooltip items, the rest counted
    (only the items shown are cited, so the page holds no paper or sentence nobody sees)."""
    return {"heading": heading, "items": [item(x) for x in items[:TIP_ITEMS]],
            "more": max(len(items) - TIP_ITEMS, 0)}


def evidence_section(heading: str, sentences: Mapping[str, str], papers: Papers) -> dict:
    """A tooltip section citing papers (`sentences`: paper -> its evidence sentence, in order)."""
    return section(heading, list(sentences.items()), lambda item: papers.cite(item[0], [item[1]]))


def first_sentences(H: nx.DiGraph, members: Callable[[nx.DiGraph, str], list[str]]) -> dict[str, dict[str, str]]:
    """Node -> paper -> the first evidence sentence on the paper's edge to it, for the nodes
    `members(H, paper)` lists (`paper_methods`, `paper_datasets`); "" when the edge has none.

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.graph import paper_datasets
    >>> H = nx.DiGraph()
    >>> H.add_node("paper:1", kind="paper")
    >>> from kg.records import MethodMention
    >>> H.add_edge("paper:1", "dataset:mnist", rel="uses_dataset", evidence=(MethodMention("MNIST", 3, 8, "On MNIST."),))
    >>> dict(first_sentences(H, paper_datasets))
    {'dataset:mnist': {'paper:1': 'On MNIST.'}}
    """
    evidence: dict[str, dict[str, str]] = defaultdict(dict)
    for paper in nodes_of_kind(H, "paper"):
        for node in members(H, paper):
            mentions = H.edges[paper, node].get("evidence")
            evidence[node][paper] = mentions[0].sentence if mentions else ""
    return evidence


def link_detail(d: dict, counting: str) -> str:
    """A co-author link in words: its shared papers, and its weight when counted fractionally."""
    text = count(d["count"], "shared paper")
    return text if counting == "full" else f"{text} · weight {d['weight']:.3g}"


def count(n: int, word: str) -> str:
    """`n` and `word`, plural unless `n` is 1, with thousands separators."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"
