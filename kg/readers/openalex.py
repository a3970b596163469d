"""OpenAlex works: the API's JSON (one work, a list, or a page `{"meta": ..., "results": [...]}`) or
JSONL with a work per line, as saved by a user or pyalex.

Read: `title` (or `display_name`), `publication_year`, `doi`, `id` (`https://openalex.org/W...`,
the record id), the venue (`primary_location.source.display_name`), `abstract_inverted_index`
(rebuilt into the abstract: each word at its positions), and `authorships` in order: the author's
`display_name` as the name, `raw_author_name` as written, OpenAlex author id and ORCID as ids.
With `--format openalex-topics` the primary topic becomes the track (`subfield · topic`); by default
there is no track. Not read: OpenAlex's own `keywords`, `concepts` and `topics` (assigned by
OpenAlex, not by the authors), institutions, citations, open-access data, locations beyond the
primary one.
"""
from __future__ import annotations

import os
from collections.abc import Iterator

from kg.errors import RecordError
from kg.readers.fields import FieldError, make_author, make_paper
from kg.readers.rows import api_items, papers_from
from kg.records import Author, Paper, Source, Track

_OPENALEX = "https://openalex.org/"
_ORCID = "https://orcid.org/"


def rebuild_abstract(index: object) -> str | None:
    """The abstract text of an `abstract_inverted_index` (`{"word": [positions]}`), or None."""
    if index is None:
        return None
    if not isinstance(index, dict) or not all(isinstance(p, list) and all(isinstance(i, int) for i in p)
                                              for p in index.values()):
        raise FieldError("abstract_inverted_index must map each word to a list of positions")
    words = sorted((position, word) for word, positions in index.items() for position in positions)
    return " ".join(word for _, word in words) or None


def _name(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _authors(work: dict, problems: list[str]) -> list[Author]:
    authors = []
    for position, authorship in enumerate(work.get("authorships") or [], start=1):
        person = (authorship or {}).get("author") or {}
        name = _name(person.get("display_name")) or _name(authorship.get("raw_author_name"))
        if name is None:
            problems.append(f"authorship {position} has no name; that author left out")
            continue
        ids = []
        if _name(person.get("id")):
            ids.append(("openalex", person["id"].removeprefix(_OPENALEX)))
        if _name(person.get("orcid")):
            ids.append(("orcid", person["orcid"].removeprefix(_ORCID)))
        authors.append(make_author(name, _name(authorship.get("raw_author_name")), ids))
    return authors


def _track(work: dict) -> Track | None:
    topic = work.get("primary_topic") or {}
    name = _name(topic.get("display_name"))
    area = (_name((topic.get("subfield") or {}).get("display_name"))
            or _name((topic.get("field") or {}).get("display_name")))
    if name is None:
        return None
    return Track(area, name) if area else Track(name)


def _convert(work: dict, source: Source, problems: list[str], topics: bool = False) -> Paper:
    venue = (((work.get("primary_location") or {}).get("source")) or {}).get("display_name")
    return make_paper(abstract=rebuild_abstract(work.get("abstract_inverted_index")),
                      authors=_authors(work, problems), title=work.get("title") or work.get("display_name"),
                      year=work.get("publication_year"), venue=venue, doi=work.get("doi") or None,
                      id=(work.get("id") or "").removeprefix(_OPENALEX) or None,
                      track=_track(work) if topics else None, source=source)


def _with_topics(work: dict, source: Source, problems: list[str]) -> Paper:
    return _convert(work, source, problems, topics=True)


def iter_records(path: str | os.PathLike[str], *, topics: bool = False) -> Iterator[Paper | RecordError]:
    """The works of an OpenAlex JSON or JSONL file as Papers (`topics`: primary topic as the track)."""
    return papers_from(api_items(path), str(path), _with_topics if topics else _convert)
