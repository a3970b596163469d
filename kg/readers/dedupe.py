"""Duplicates across inputs: the same id, or the same content with the same authors, is the same paper.

A record is a duplicate of an earlier paper when it has the same id or DOI (an id from another file
only when the two records do not contradict each other: two conferences' files may number their
papers alike), or the same cleaned
abstract (its content key) and the same author list and title: an author list truncated by
`等`/`et al.` matches the full list it begins, and a title is compared only when both records have
one. The same abstract under other authors (or another title, another DOI, or another id in the
same file: one export's own distinct records) is a different paper, given a key of its own, and
reported (`SharedAbstract`): a copied abstract is itself a finding.

`compare` says what a duplicate adds (fields the first record lacks, or the full author list where the
first was truncated) and where the two disagree; `merge` applies it. Every disagreement is named in the
`Duplicate` notice, whose `lost` flag says that something of the later record was not kept.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from kg.errors import RecordError
from kg.names import author_key, fold
from kg.readers.fields import content_key
from kg.readers.notices import Notice
from kg.records import Author, Paper, Source

_FILLABLE = ("title", "id", "track", "year", "venue", "doi")
_SHOWN = 60  # characters of a differing value shown in a notice


class Duplicate(Notice):
    """The paper at `file:line` repeats the one at `first`: merged into it, or (streaming) dropped.

    `gained` names the fields it supplied (merged) or that were not kept (dropped); `differs` says
    where the two disagree (the first record's value is kept). `lost` is True when anything of the
    later record is not in the result.
    """

    def __init__(self, source: Source, first: Source, reason: str, gained: list[str] = (),
                 differs: list[str] = (), dropped: bool = False) -> None:
        self.first, self.reason = first, reason
        self.gained, self.differs = list(gained), list(differs)
        self.lost = bool(self.differs) or (dropped and bool(self.gained))
        where = f"{first.file}:{first.line} ({reason})"
        parts = [f"duplicate of {where}, dropped" if dropped else f"merged with {where}"]
        if self.gained:
            parts.append(f"its {', '.join(self.gained)} not kept" if dropped
                         else f"taking its {', '.join(self.gained)}")
        parts += [f"{difference} (the first kept)" for difference in self.differs]
        if not self.gained and not self.differs:
            parts.append("it adds nothing")
        super().__init__(source.file, source.line, "; ".join(parts))


class SharedAbstract(Notice):
    """The paper at `file:line` has the abstract of the earlier paper at `first` but other authors
    (or another title): two papers, both kept, reported because a copied abstract is worth a look.
    For records without abstracts, `shared` says what they share instead (`title and authors`)."""

    def __init__(self, source: Source, first: Source, difference: str, shared: str = "abstract") -> None:
        self.first = first
        super().__init__(source.file, source.line,
                         f"same {shared} as the paper at {first.file}:{first.line} but {difference}; "
                         "kept as two papers")


def _names(authors: tuple[Author, ...], truncated: bool = False) -> str:
    text = ", ".join(author.name for author in authors) or "no authors"
    return f"{text} et al." if truncated else text


def _shown(value: object) -> str:
    text = str(value)
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN - 1] + "…")


def _same_person(a: Author, b: Author) -> bool:
    """The same name (folded), or one external id in common (`Maria Rossi` and `Maria G. Rossi`)."""
    if a.key == b.key:
        return True
    if not a.ids and not b.ids:  # both keys are their name keys, and they differ
        return False
    return author_key(a.name) == author_key(b.name) or bool(set(a.ids) & set(b.ids))


def _begins(short: tuple[Author, ...], full: tuple[Author, ...]) -> bool:
    return len(short) <= len(full) and all(map(_same_person, short, full))


def same_authors(a: Paper, b: Paper) -> bool:
    """Whether two records name the same authors: the same list, or a truncated list and the list it
    begins. A record without authors matches any (its authors are unknown, not none)."""
    if not a.authors or not b.authors:
        return True
    if len(a.authors) == len(b.authors) and _begins(a.authors, b.authors):
        return True
    return (a.authors_truncated and _begins(a.authors, b.authors)) or \
           (b.authors_truncated and _begins(b.authors, a.authors))


def _other_file(first: Paper, other: Paper) -> bool:
    return first.source is None or other.source is None or first.source.file != other.source.file


def _difference(first: Paper, other: Paper) -> str | None:
    """Why two records with one abstract are two papers (`other authors (...)`), or None if one."""
    if not same_authors(first, other):
        return (f"other authors ({_names(other.authors, other.authors_truncated)} vs "
                f"{_names(first.authors, first.authors_truncated)})")
    if first.title is not None and other.title is not None and fold(first.title) != fold(other.title):
        return f"another title ({_shown(other.title)} vs {_shown(first.title)})"
    if first.doi is not None and other.doi is not None and first.doi.casefold() != other.doi.casefold():
        return f"another DOI ({other.doi} vs {first.doi})"
    same_file = first.source is not None and other.source is not None and first.source.file == other.source.file
    if same_file and first.id is not None and other.id is not None and first.id != other.id:
        return f"another id in the same file ({other.id} vs {first.id})"
    return None


def compare(first: Paper, other: Paper, same_text: bool) -> tuple[dict, list[str]]:
    """What `other` adds to `first` (field -> value) and how they disagree (one line per field).

    `same_text` says whether the two abstracts are the same once cleaned (the caller knows from the
    content keys, even when it no longer holds the first abstract).
    """
    changes: dict = {}
    differs: list[str] = []
    for name in _FILLABLE:
        mine, theirs = getattr(first, name), getattr(other, name)
        if mine is None and theirs is not None:
            changes[name] = theirs
        elif mine is not None and theirs is not None and not _same_value(mine, theirs):
            shown = (lambda track: track.label) if name == "track" else (lambda value: value)
            differs.append(f"{name} differs: {_shown(shown(theirs))} vs {_shown(shown(mine))}")
    known = {fold(word) for word in first.keywords}
    new_keywords = tuple(word for word in other.keywords if fold(word) not in known)
    if new_keywords:
        changes["keywords"] = first.keywords + new_keywords
    _compare_authors(first, other, changes, differs)
    if not same_text and other.text and not first.text:
        differs.append(f"its abstract not taken: {_shown(other.text)} (the first record has none, and was "
                       "handed on without one)")
    elif not same_text and other.text:
        differs.append(f"abstract differs: {_shown(other.text)} vs {_shown(first.text)}")
    return changes, differs


def _same_value(mine: object, theirs: object) -> bool:
    """Equal, or strings equal once folded (`PATTERN RECOGNITION LETTERS` is the journal WoS writes
    in capitals), or DOIs equal apart from case."""
    if isinstance(mine, str) and isinstance(theirs, str):
        return fold(mine) == fold(theirs)
    return mine == theirs


def _compare_authors(first: Paper, other: Paper, changes: dict, differs: list[str]) -> None:
    """The author list: taken when it completes the first (truncated, or none); else any difference
    (other people, or the same people written otherwise) is a disagreement."""
    if not other.authors:
        return
    completes = first.authors_truncated and not other.authors_truncated and _begins(first.authors, other.authors)
    if not first.authors or completes:
        changes["authors"], changes["authors_truncated"] = other.authors, other.authors_truncated
        return
    if not same_authors(first, other):
        differs.append(f"authors differ: {_names(other.authors, other.authors_truncated)} vs "
                       f"{_names(first.authors, first.authors_truncated)}")
        return
    written = [(b.name, a.name) for a, b in zip(first.authors, other.authors) if a.name != b.name]
    if written:
        differs.append("author names written differently: "
                       + "; ".join(f"{theirs!r} vs {mine!r}" for theirs, mine in written))


def merge(first: Paper, other: Paper, same_text: bool = True) -> tuple[Paper, list[str], list[str]]:
    """`first` completed from `other`; the names of the fields `other` supplied; the disagreements.

    `first` keeps its key, abstract and source; on a disagreement the first value wins (and is named).
    """
    changes, differs = compare(first, other, same_text)
    return replace(first, **changes), [name for name in changes if name != "authors_truncated"], differs


@dataclass(frozen=True)
class Placement:
    """Where `Deduper.place` put a record: `paper` (with its final key), `position` among the distinct
    papers, and for a duplicate `reason` and `same_text`; `shared` is the earlier paper whose
    abstract (or id, from another file) a new paper repeats, the difference and what is shared (for
    a `SharedAbstract` notice)."""

    paper: Paper
    position: int
    reason: str | None = None
    same_text: bool = True
    shared: tuple[int, str, str] | None = None

    @property
    def duplicate(self) -> bool:
        return self.reason is not None


class Deduper:
    """The distinct papers seen so far, by content key, id and DOI, each with its content key.

    With `keep_text` (a read that holds its papers anyway) each paper is remembered as given, the
    same object, so remembering costs no copy; without it (streaming) a copy without its abstract
    and text, so a streaming read holds no text.
    """

    def __init__(self, keep_text: bool = True) -> None:
        self._keep_text = keep_text
        self._seen: list[tuple[Paper, str]] = []  # (the paper, or it without abstract/text; its content key)
        self._by_content: dict[str, list[int]] = {}
        self._by_id: dict[str, int] = {}
        self._keys: set[str] = set()

    def _kept(self, paper: Paper) -> Paper:
        return paper if self._keep_text else replace(paper, abstract="", text="")

    def source(self, position: int) -> Source | None:
        """Where the paper at `position` was first read."""
        return self._seen[position][0].source

    def place(self, paper: Paper) -> Placement:
        """The earlier paper this record duplicates, or its place as a new paper (with a key of its
        own when another paper already has its content key)."""
        for position in self._by_content.get(paper.key, ()):
            if _difference(self._seen[position][0], paper) is None:
                return self._repeat(Placement(paper, position, "same content"))
        clash = None
        if paper.id is not None and paper.id in self._by_id:
            position = self._by_id[paper.id]
            first = self._seen[position][0]
            difference = _difference(first, paper) if _other_file(first, paper) else None
            if difference is None:
                same_text = self._seen[position][1] == paper.key
                return self._repeat(Placement(paper, position, f"same id {paper.id}", same_text))
            clash = (position, difference)  # two files' ids clash: two papers
        if paper.doi is not None and _doi(paper) in self._by_id:
            position = self._by_id[_doi(paper)]
            same_text = self._seen[position][1] == paper.key
            return self._repeat(Placement(paper, position, f"same DOI {paper.doi}", same_text))
        content, shared = paper.key, None
        if earlier := self._by_content.get(content):
            shared = (earlier[0], _difference(self._seen[earlier[0]][0], paper), "abstract" if paper.text
                      else "title and authors")
        elif clash is not None:
            shared = (*clash, f"id {paper.id}")
        if paper.key in self._keys:
            paper = replace(paper, key=distinct_key(paper, self._keys))
        position = len(self._seen)
        self._seen.append((self._kept(paper), content))
        self._by_content.setdefault(content, []).append(position)
        if paper.id is not None:
            self._by_id.setdefault(paper.id, position)
        if paper.doi is not None:
            self._by_id.setdefault(_doi(paper), position)
        self._keys.add(paper.key)
        return Placement(paper, position, shared=shared)

    def _repeat(self, placed: Placement) -> Placement:
        """A duplicate's content key and id lead to its paper too (a third copy of it is found)."""
        positions = self._by_content.setdefault(placed.paper.key, [])
        if placed.position not in positions:
            positions.append(placed.position)
        if placed.paper.id is not None:
            self._by_id.setdefault(placed.paper.id, placed.position)
        if placed.paper.doi is not None:
            self._by_id.setdefault(_doi(placed.paper), placed.position)
        return placed

    def update(self, position: int, paper: Paper) -> None:
        """The paper at `position` after a merge (a completed author list, an id it gained)."""
        self._seen[position] = (self._kept(paper), self._seen[position][1])
        if paper.id is not None:
            self._by_id.setdefault(paper.id, position)
        if paper.doi is not None:
            self._by_id.setdefault(_doi(paper), position)

    def first(self, position: int) -> Paper:
        """The paper at `position` as identity knows it (without abstract and text unless `keep_text`)."""
        return self._seen[position][0]


def identity_keys(paper: Paper) -> tuple[str, ...]:
    """The keys `Deduper` finds a paper by: its content key, its id, its DOI (case-folded). Two
    records can be judged one paper, or be named in one notice, only if they are linked through
    shared keys (directly or by way of other records), so groups linked so can be judged apart.

    Examples
    --------
    >>> identity_keys(Paper(key="0123456789abcdef", authors=(), abstract="A", text="A", doi="10.1/X"))
    ('key:0123456789abcdef', 'id:doi:10.1/x')
    """
    ids = ([paper.id] if paper.id is not None else []) + ([_doi(paper)] if paper.doi is not None else [])
    return (f"key:{paper.key}", *(f"id:{value}" for value in ids))


def _doi(paper: Paper) -> str:
    """The DOI as an index key (DOIs are case-insensitive), apart from record ids."""
    return f"doi:{paper.doi.casefold()}"


def distinct_key(paper: Paper, taken: set[str]) -> str:
    """The key of a paper whose abstract another paper already has: the content key of its text,
    author names and title together (and a counter if even that is taken). Deterministic for a given
    input order; papers whose abstracts no other paper shares keep their plain content key."""
    base = "|".join([paper.text, "; ".join(author_key(a.name) for a in paper.authors), paper.title or ""])
    key, count = content_key(base), 1
    while key in taken:
        count += 1
        key = content_key(f"{base}#{count}")
    return key


def fatal(problem: RecordError) -> bool:
    """Whether a strict read stops at `problem`: a malformed record or a left-out field (anything
    but a notice), or a merge that loses something of the later record."""
    return not isinstance(problem, Notice) or (isinstance(problem, Duplicate) and problem.lost)


def placements(records: Iterable[Paper | RecordError], strict: bool, deduper: Deduper
               ) -> Iterator[RecordError | Placement]:
    """Each record judged by `deduper` in its order: a `Placement` per paper (new, or the duplicate of
    which earlier paper), after a `SharedAbstract` notice when it repeats another paper's abstract
    or id; problems passed on (with `strict`, the first that is `fatal` raised)."""
    for item in records:
        if isinstance(item, RecordError):
            if strict and fatal(item):
                raise item
            yield item
            continue
        placed = deduper.place(item)
        if placed.shared is not None:
            position, difference, shared = placed.shared
            yield SharedAbstract(item.source, deduper.source(position), difference, shared)
        yield placed


def collected(papers: list[Paper], problems: list[RecordError], items: Iterable[RecordError | Placement],
              strict: bool, deduper: Deduper) -> Iterator[Paper]:
    """Each distinct paper as it is placed (appended to `papers`); a duplicate merged into its paper
    there, with a `Duplicate` notice; every problem appended to `problems`."""
    for item in items:
        if isinstance(item, RecordError):
            problems.append(item)
        elif not item.duplicate:
            papers.append(item.paper)
            yield item.paper
        else:
            first = papers[item.position]
            papers[item.position], gained, differs = merge(first, item.paper, item.same_text)
            deduper.update(item.position, papers[item.position])
            notice = Duplicate(item.paper.source, first.source, item.reason, gained, differs)
            if strict and fatal(notice):
                raise notice
            problems.append(notice)


def merge_numbered(records: Iterable[tuple[int, Paper | RecordError]], *, strict: bool = False
                   ) -> tuple[list[tuple[int, Paper]], list[tuple[int, RecordError]]]:
    """Records numbered in input order, deduplicated and merged as `kg.read` does: each distinct
    paper with the number of the record it first was, each problem with that of its record.

    Groups of records linked by no `identity_keys` never meet in a `Deduper`, so a part of the
    input that holds whole groups, merged on its own, gives their papers and problems as the whole
    input does (up to a collision of 16-hex content keys); the union of such parts sorted by number
    is `read()`'s result. `kg.engine` merges on each worker so after a shuffle on the groups.

    Parameters
    ----------
    records : iterable of (int, Paper or RecordError)
        The records with ascending numbers (any, e.g. partition and place in it).
    strict : bool
        Raise the first `fatal` problem, as `read()` does.

    Returns
    -------
    (list of (int, Paper), list of (int, RecordError))
        The distinct papers and the problems, each with its record's number, in that order.

    Examples
    --------
    >>> one = Paper(key="0123456789abcdef", authors=(), abstract="A", text="A", source=Source("a.jsonl", 1))
    >>> papers, problems = merge_numbered([(10, one), (42, replace(one, year=2024, source=Source("b.csv", 3)))])
    >>> [(number, paper.year) for number, paper in papers], [(number, str(p)) for number, p in problems]
    ([(10, 2024)], [(42, 'b.csv:3: merged with a.jsonl:1 (same content); taking its year')])
    """
    deduper, papers, problems, paper_numbers, problem_numbers = Deduper(), [], [], [], []
    for number, record in records:
        before = len(problems)
        for _ in collected(papers, problems, placements([record], strict, deduper), strict, deduper):
            paper_numbers.append(number)
        problem_numbers += [number] * (len(problems) - before)
    return list(zip(paper_numbers, papers)), list(zip(problem_numbers, problems))
