"""BibTeX: entries with `author` (an `and`-list; `and others` means et al.), `abstract`, `title`,
`year`, `booktitle`/`journal` (the venue), `doi`, `keywords` and an optional `track` field, parsed by
bibtexparser 2 (not regexes).

Names given as `Last, First` are written `First Last`; LaTeX accents in names and titles are decoded
(`M{\\"u}ller` -> `Müller`). The entry key becomes the paper's id, so an entry repeated under the same
key is merged as a duplicate. Any entry type with an abstract is a paper.
"""
from __future__ import annotations

import logging
from collections.abc import Iterator

import bibtexparser
from bibtexparser.middlewares import RemoveEnclosingMiddleware
from bibtexparser.middlewares.names import parse_single_name_into_parts, split_multiple_persons_names
from bibtexparser.model import DuplicateBlockKeyBlock, Entry, ParsingFailedBlock
from pylatexenc.latex2text import LatexNodes2Text

from kg.errors import RecordError
from kg.readers.fields import FieldError, make_paper, parse_keywords, parse_track
from kg.readers.notices import FieldProblem
from kg.readers.source import reads_text
from kg.records import Paper, Source

_LATEX = LatexNodes2Text()


def _decode(value: str) -> str:
    """LaTeX accents and braces out of a short field (a name, a title)."""
    try:
        return " ".join(_LATEX.latex_to_text(value).split())
    except Exception:  # pylatexenc raises assorted errors on malformed LaTeX; keep the text as written
        return " ".join(value.replace("{", "").replace("}", "").split())


def _authors(value: str | None, problems: list[str]) -> tuple[list[str], bool]:
    """`A and B and others` -> names in `First Last` order, and whether `others` truncated the list.

    A name that is blank once its LaTeX is decoded (`A and {} and B`) is left out and reported.
    """
    names, truncated = [], False
    persons = split_multiple_persons_names(value or "")
    for position, person in enumerate(persons, start=1):
        if person.strip().lower() == "others":
            truncated = True
            continue
        try:
            person = parse_single_name_into_parts(person).merge_first_name_first
        except Exception:  # bibtexparser's InvalidNameError and friends: keep the name as written
            pass
        if name := _decode(person):
            names.append(name)
        else:
            problems.append(f"author {position} of {len(persons)} is blank; that author left out")
    return names, truncated


def _paper(entry: Entry, file: str, problems: list[str]) -> Paper:
    fields = {key.lower(): field.value for key, field in entry.fields_dict.items()}
    authors, truncated = _authors(fields.get("author"), problems)
    title = fields.get("title")
    return make_paper(abstract=fields.get("abstract"), authors=authors, truncated=truncated,
                      track=parse_track(fields.get("track"), problems), doi=fields.get("doi") or None,
                      title=None if title is None else _decode(title), id=entry.key,
                      year=fields.get("year"), venue=fields.get("booktitle") or fields.get("journal"),
                      keywords=parse_keywords(fields.get("keywords")),
                      source=Source(file, _line(entry)))


def _line(block: object) -> int:
    start = getattr(block, "start_line", None)
    return 1 if start is None else start + 1


def _finish(entry: Entry, library: bibtexparser.Library) -> Entry:
    """An entry bibtexparser set aside (a repeated key) with its enclosing braces/quotes removed, as
    the parse did for every other entry."""
    return RemoveEnclosingMiddleware().transform_block(entry, library)


def _parse(text: str) -> bibtexparser.Library:
    """bibtexparser's library of `text`, its log warnings silenced (we report failed blocks ourselves)."""
    logger = logging.getLogger("bibtexparser")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        return bibtexparser.parse_string(text)
    finally:
        logger.setLevel(level)


@reads_text
def iter_records(text: str, file: str) -> Iterator[Paper | RecordError]:
    """The entries of a BibTeX file as Papers, in file order; a RecordError per entry that fails."""
    library = _parse(text)
    for block in library.blocks:
        if isinstance(block, DuplicateBlockKeyBlock) and isinstance(block.ignore_error_block, Entry):
            block = _finish(block.ignore_error_block, library)
        if isinstance(block, Entry):
            problems: list[str] = []
            try:
                paper = _paper(block, file, problems)
            except FieldError as exc:
                yield RecordError(file, _line(block), f"entry {block.key}: {exc}; skipped")
                continue
            yield from (FieldProblem(file, _line(block), f"entry {block.key}: {problem}") for problem in problems)
            yield paper
        elif isinstance(block, ParsingFailedBlock):
            reason = getattr(block.error, "abort_reason", None) or str(block.error) or type(block.error).__name__
            yield RecordError(file, _line(block), f"unreadable BibTeX: {' '.join(reason.split())}; entry skipped")
