"""Field parsers every reader shares: tracks, author lists, the content key, and Paper assembly.

A field that cannot be used raises `FieldError`; the reader turns it into a `RecordError` with the
file and line it knows.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from kg.names import author_key, fold, slugify
from kg.records import ID_SCHEMES, Author, Paper, Source, Track
from kg.text import clean_text

#: Track separators: U+00B7 `·` and its look-alikes `•` `・` `‧` `∙` `⋅` `･`, or an en/em dash,
#: with whitespace on both sides (a hyphen is not a separator: `Human-AI` stays whole).
TRACK_SEPARATOR = re.compile(r"\s+[\u00b7\u2022\u30fb\u2027\u2219\u22c5\uff65\u2013\u2014]\s+")
#: The same separators where a part may be empty: at either end of the text, or one after another.
_TRACK_PARTS = re.compile(r"\s*(?<!\S)[\u00b7\u2022\u30fb\u2027\u2219\u22c5\uff65\u2013\u2014](?!\S)\s*")
#: A trailing "et al." marker of an author list: `等` (with or without a space) or `et al.`.
_TRUNCATION = re.compile(r"(?:\s*等|[\s,]*\bet\s+al\.?)\s*$", re.IGNORECASE)
_DOI_PREFIX = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", re.IGNORECASE)
_DASHES = re.compile(r"[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]")


class FieldError(ValueError):
    """A field value a reader cannot use; the message says what is wrong."""


def has_track_separator(line: str) -> bool:
    """Whether a line contains a track separator (`Area · Subarea`, or a malformed `· Subarea`)."""
    return _TRACK_PARTS.search(line) is not None


def parse_track(value: object, problems: list[str] | None = None) -> Track | None:
    """A track from `Area · Subarea`, a one-level `Area`, `{"area", "subarea"}`, or nothing (None/"").

    Later separators stay in the subarea, normalised to ` · `. A track with an empty part (`· xxx`,
    `Area ·`, `A ·  · B`) is malformed: its problem goes to `problems` and the track is not used
    (never an area named `· xxx`); without `problems` it raises FieldError.
    """
    if value is None:
        return None
    if isinstance(value, dict):
        area, subarea = value.get("area"), value.get("subarea")
        if not isinstance(area, str) or not (subarea is None or isinstance(subarea, str)):
            raise FieldError("track object needs a string `area` and a string or null `subarea`")
        return parse_track(area if not subarea else f"{area} · {subarea}", problems)
    if not isinstance(value, str):
        raise FieldError(f"track must be a string like `Area · Subarea`, not {type(value).__name__}")
    text = " ".join(value.split())
    if not text:
        return None
    parts = _TRACK_PARTS.split(text)
    if not all(parts):
        message = f"track {text!r} has an empty area or subarea around its separator; track not used"
        if problems is None:
            raise FieldError(message)
        problems.append(message)
        return None
    return Track(parts[0], " · ".join(parts[1:]) or None)


def split_names(line: str, separators: str = ",，、", problems: list[str] | None = None) -> tuple[list[str], bool]:
    """Names from an author list and whether it ends in `等`/`et al.` (the marker is not a name).

    Names are whitespace-normalised (a line break inside a name is a space) and otherwise kept as
    written. A blank name between separators (`A, , B`) is left out and reported in `problems`.
    """
    text, truncated = line.strip(), False
    while _may_be_truncated(text) and (match := _TRUNCATION.search(text)) is not None:
        truncated, text = True, text[:match.start()].rstrip().rstrip(separators)
    parts = _parts(text, separators)
    return _names(parts, problems), truncated


def _names(parts: list[str], problems: list[str] | None) -> list[str]:
    """The non-blank parts; each blank one reported by its position (1-based) when `problems` is given."""
    if problems is not None:
        problems += [f"author {position} of {len(parts)} is blank; that author left out"
                     for position, part in enumerate(parts, start=1) if not part]
    return [part for part in parts if part]


def _may_be_truncated(text: str) -> bool:
    """A cheap test before `_TRUNCATION`, whose search of a long abstract paragraph is slow."""
    return text.rstrip()[-3:].casefold().endswith(("等", "al", "al."))


def parse_authors(value: object, problems: list[str] | None = None) -> tuple[list[str], bool]:
    """Authors (and the truncation flag) from a list of names or a string separated by `;` or `,`.

    A list item is one name whatever it contains (line breaks are collapsed, never split); a last
    item `et al.`/`等` (or a name ending in it) marks the list truncated. Blank names go to `problems`.
    """
    if isinstance(value, str):
        return split_names(value, _separators(value), problems)
    if isinstance(value, (list, tuple)) and all(isinstance(name, str) for name in value):
        parts, truncated = [" ".join(name.split()) for name in value], False
        while parts and _may_be_truncated(parts[-1]) and (match := _TRUNCATION.search(parts[-1])) is not None:
            truncated, parts[-1] = True, parts[-1][:match.start()].rstrip()
            if not parts[-1]:
                parts.pop()
        return _names(parts, problems), truncated
    if value is None:
        return [], False
    raise FieldError("authors must be a list of names or a string separated by `;` or `,`")


def parse_keywords(value: object) -> list[str]:
    """Keywords from a list of strings (one keyword each) or a string separated by `;` (if any) or `,`."""
    if isinstance(value, str):
        return _split(value, _separators(value))
    if isinstance(value, (list, tuple)) and all(isinstance(word, str) for word in value):
        return [word for word in (" ".join(item.split()) for item in value) if word]
    if value is None:
        return []
    raise FieldError("keywords must be a list of strings or a string separated by `;` or `,`")


def _separators(value: str) -> str:
    """`;` separates when present (names may then contain commas: `Liu, Jing; Xun, Zhou`), else `,`."""
    return ";；" if re.search("[;；]", value) else ",，、"


def _parts(text: str, separators: str) -> list[str]:
    """The whitespace-normalised parts between separators; a trailing separator adds no part."""
    if not text:
        return []
    parts = [" ".join(part.split()) for part in re.split(f"[{re.escape(separators)}]", text)]
    return parts[:-1] if len(parts) > 1 and not parts[-1] else parts


def _split(text: str, separators: str) -> list[str]:
    return [part for part in _parts(text, separators) if part]


def content_key(text: str) -> str:
    """The paper key: 16 hex chars of SHA-1 over the folded cleaned text, Unicode dashes as `-`.

    Only the text counts, so a listing record truncated by `等` and the full JSONL record of the
    same paper share a key; `kg.readers.dedupe` decides by the authors too, and re-keys a different
    paper that repeats an abstract.
    """
    return hashlib.sha1(fold(_DASHES.sub("-", text)).encode("utf-8")).hexdigest()[:16]


def make_author(name: str, written: str | None = None, ids: Sequence[tuple[str, str]] = ()) -> Author:
    """An Author with its identity key: from its first id in `ID_SCHEMES` order, else its name.

    `written` is kept only when it differs from `name`; ids with an unknown scheme or an empty
    value are an error of the reader that made them (ValueError).
    """
    if not ids:
        return Author(name, author_key(name), written if written and written != name else None)
    ids = tuple((scheme, str(value).strip()) for scheme, value in ids if str(value).strip())
    unknown = [scheme for scheme, _ in ids if scheme not in ID_SCHEMES]
    if unknown:
        raise ValueError(f"unknown author id schemes {unknown}; known: {', '.join(ID_SCHEMES)}")
    ranked = sorted(ids, key=lambda pair: ID_SCHEMES.index(pair[0]))
    key = f"{ranked[0][0]}-{slugify(ranked[0][1])}" if ranked else author_key(name)
    return Author(name, key, written if written and written != name else None, ids)


def normalise_doi(value: object) -> str | None:
    """A bare DOI (`10.1000/xyz`) from a DOI, `doi:` or resolver URL form; None when empty.

    A value that is not a DOI at all (no `10.` prefix) raises FieldError.
    """
    text = _optional_text(value, "doi")
    if text is None:
        return None
    bare = _DOI_PREFIX.sub("", text)
    if not bare.startswith("10."):
        raise FieldError(f"doi {text!r} is not a DOI (those start with `10.`)")
    return bare


def make_paper(*, abstract: object, authors: Sequence[str | Author], source: Source, truncated: bool = False,
               track: Track | None = None, title: object = None, id: object = None, year: object = None,
               venue: object = None, keywords: Sequence[str] = (), doi: object = None) -> Paper:
    """Validate the fields of one record and build its Paper (FieldError when one is unusable).

    A record without an abstract is kept (`abstract`/`text` ""; its key hashes its title and author
    names); one with neither abstract, title nor authors has nothing to keep and raises FieldError.
    Names given as strings become Authors keyed by name.
    """
    if abstract is not None and not isinstance(abstract, str):
        raise FieldError(f"abstract must be a string, not {type(abstract).__name__}")
    people = tuple(a if isinstance(a, Author) else Author(a, author_key(a)) for a in authors)
    title = _optional_text(title, "title")
    abstract = (abstract or "").strip()
    text = clean_text(abstract) if abstract else ""
    if not text and title is None and not people:
        raise FieldError("no abstract, title or author names: nothing to keep")
    key = content_key(text) if text else content_key("|".join([title or "", *(author_key(a.name) for a in people)]))
    return Paper(
        key=key,
        authors=people,
        abstract=abstract,
        text=abstract if text == abstract else text,  # most abstracts are clean: one string, not two
        track=track,
        title=title,
        id=_optional_id(id),
        authors_truncated=truncated,
        year=_optional_year(year),
        venue=_optional_text(venue, "venue"),
        keywords=tuple(keywords),
        source=source,
        doi=normalise_doi(doi),
    )


def _optional_text(value: object, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise FieldError(f"{name} must be a string, not {type(value).__name__}")
    return " ".join(value.split()) or None


def _optional_id(value: object) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return _optional_text(value, "id")


def _optional_year(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch("[0-9]{1,4}", value.strip()):
        return int(value.strip())
    raise FieldError(f"year must be a whole number like 2024, not {value!r}")
