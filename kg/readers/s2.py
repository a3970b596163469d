"""Semantic Scholar papers: Graph API JSON (one paper, a batch list, or a search page
`{"data": [...]}`) and the bulk datasets' JSONL (lower-case keys: `corpusid`, `externalids`).

Read: `title`, `year`, `venue` (else `publicationVenue.name`), `abstract`, `authors` in order
(`name`, and `authorId` as the Semantic Scholar author id), the DOI from `externalIds.DOI`, and
`paperId` (else `corpusid`) as the record id. Not read: fields of study (assigned by Semantic
Scholar), citations and references, TL;DR, embeddings, open-access PDF.
"""
from __future__ import annotations

import os
from collections.abc import Iterator

from kg.errors import RecordError
from kg.readers.fields import FieldError, make_author, make_paper
from kg.readers.rows import api_items, papers_from
from kg.records import Paper, Source


def _get(paper: dict, *names: str) -> object:
    return next((paper[name] for name in names if paper.get(name) not in (None, "")), None)


def _authors(paper: dict, problems: list[str]) -> list:
    people = paper.get("authors") or []
    if not isinstance(people, list):
        raise FieldError("authors must be a list of {authorId, name} objects")
    authors = []
    for position, person in enumerate(people, start=1):
        name = person.get("name") if isinstance(person, dict) else None
        if not isinstance(name, str) or not name.strip():
            problems.append(f"author {position} of {len(people)} has no name; that author left out")
            continue
        author_id = _get(person, "authorId", "authorid")
        authors.append(make_author(" ".join(name.split()), None, [("s2", str(author_id))] if author_id else []))
    return authors


def _convert(paper: dict, source: Source, problems: list[str]) -> Paper:
    external = _get(paper, "externalIds", "externalids") or {}
    venue = _get(paper, "venue") or ((paper.get("publicationVenue") or {}).get("name"))
    paper_id = _get(paper, "paperId", "corpusid", "corpusId")
    doi = _get(external, "DOI", "doi") if isinstance(external, dict) else None
    return make_paper(abstract=paper.get("abstract"), authors=_authors(paper, problems), title=paper.get("title"),
                      year=paper.get("year"), venue=venue, doi=doi, id=None if paper_id is None else str(paper_id),
                      source=source)


def iter_records(path: str | os.PathLike[str]) -> Iterator[Paper | RecordError]:
    """The papers of a Semantic Scholar JSON or JSONL file as Papers."""
    return papers_from(api_items(path), str(path), _convert)
