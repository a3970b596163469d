"""Named SPARQL queries: the `queries/*.rq` files, their headers, and their parameters.

Each query starts with a comment header::

    # title: Co-authors of an author
    # description: Everyone who shares a paper with the author, with the number of shared papers.
    # param: author string Alice Smith        (name, type, default; no default = required)

Parameters are bound with pyoxigraph's native substitutions (SEP-0007), never pasted into the query
text, so a value with quotes or braces is only ever a value. SEP-0007 substitutes *projected*
variables: a parameter must appear in the query's SELECT clause (and GROUP BY, if it groups);
named queries echo their parameters as their first columns. Types: `name` (a string folded like
`kg:nameKey`, so `alice SMITH` finds Alice Smith by an indexed lookup), `string`, `integer`,
`decimal`, `boolean`, `iri`.
"""
from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox

from kg.errors import ArgumentError, QueryError
from kg.names import fold

#: Where the named queries live: `kg/rdf/queries` (a symlink to the top-level `queries/` in a checkout).
QUERIES_DIR = Path(__file__).with_name("queries")
PARAM_TYPES = ("name", "string", "integer", "decimal", "boolean", "iri")
_XSD = "http://www.w3.org/2001/XMLSchema#"

@dataclass(frozen=True)
class Param:
    """A declared query parameter: `default` None means the parameter is required."""

    name: str
    type: str = "string"
    default: str | None = None

    def term(self, value: object) -> ox.NamedNode | ox.Literal:
        """`value` (a command-line string or a Python value) as an RDF term of this type."""
        if isinstance(value, (ox.NamedNode, ox.Literal)):
            return value
        try:
            if self.type == "iri":
                return ox.NamedNode(str(value))
            if self.type == "integer":
                return ox.Literal(int(value))
            if self.type == "decimal":
                return ox.Literal(str(float(value)), datatype=ox.NamedNode(f"{_XSD}decimal"))
            if self.type == "boolean":
                return ox.Literal(_boolean(value))
            if self.type == "name":
                return ox.Literal(fold(str(value)))
        except ValueError as exc:
            raise ArgumentError(f"parameter {self.name}: {value!r} is not a valid {self.type}") from exc
        return ox.Literal(str(value))


def _boolean(value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text not in ("true", "false", "1", "0", "yes", "no"):
        raise ValueError(text)
    return text in ("true", "1", "yes")


@dataclass(frozen=True)
class NamedQuery:
    """A query with its header: `name` (file stem), `title`, `description`, `params`, full `text`."""

    name: str
    title: str
    description: str
    params: tuple[Param, ...]
    text: str
    path: Path | None = None

    def bindings(self, values: Mapping[str, object] | None = None) -> dict[ox.Variable, ox.NamedNode | ox.Literal]:
        """Substitutions for `values` plus the defaults; unknown or missing parameters are ArgumentErrors."""
        values = dict(values or {})
        declared = {p.name: p for p in self.params}
        unknown = sorted(set(values) - set(declared))
        if unknown:
            known = ", ".join(declared) or "none"
            raise ArgumentError(f"query {self.name} has no parameter {', '.join(unknown)} (parameters: {known})")
        out = {}
        for p in self.params:
            value = values.get(p.name, p.default)
            if value is None:
                raise ArgumentError(f"query {self.name} needs --param {p.name}=VALUE ({p.type})")
            out[ox.Variable(p.name)] = p.term(value)
        return out


def parse_named_query(text: str, name: str, path: Path | None = None) -> NamedQuery:
    """Read the `# key: value` header of a query text (leading comment lines)."""
    where = str(path) if path else name
    meta: dict[str, str] = {}
    params: list[Param] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            break
        key, sep, value = stripped.lstrip("#").strip().partition(":")
        key, value = key.strip().lower(), value.strip()
        if not sep or key not in ("title", "description", "param"):
            continue
        if key == "param":
            fields = value.split(None, 2)
            if len(fields) < 2 or fields[1] not in PARAM_TYPES or not re.fullmatch(r"\w+", fields[0]):
                raise QueryError(f"{where}:{number}: bad parameter line {value!r}; "
                                 f"expected `# param: NAME TYPE [DEFAULT]`, TYPE one of {', '.join(PARAM_TYPES)}")
            params.append(Param(fields[0], fields[1], fields[2] if len(fields) == 3 else None))
        else:
            meta[key] = value
    return NamedQuery(name, meta.get("title", name), meta.get("description", ""), tuple(params), text, path)


def named_queries(directory: str | os.PathLike[str] | None = None) -> list[NamedQuery]:
    """The named queries of a folder of `.rq` files, sorted by name.

    Parameters
    ----------
    directory : str or path, optional
        The folder; default: the shipped queries (`QUERIES_DIR`).

    Returns
    -------
    list of NamedQuery

    Examples
    --------
    >>> "coauthors" in [q.name for q in named_queries()]
    True
    """
    folder = Path(directory) if directory is not None else QUERIES_DIR
    return [parse_named_query(p.read_text(encoding="utf-8"), p.stem, p) for p in sorted(folder.glob("*.rq"))]


def get_named_query(name: str) -> NamedQuery:
    """The shipped named query `name`, or a QueryError listing the close names.

    Examples
    --------
    >>> [p.name for p in get_named_query("coauthors").params]
    ['author']
    >>> get_named_query("coauthor")
    Traceback (most recent call last):
    ...
    kg.errors.QueryError: no named query 'coauthor'; did you mean coauthors?
    """
    found = {q.name: q for q in named_queries()}
    if name in found:
        return found[name]
    close = difflib.get_close_matches(name, found, n=3)
    hint = f"did you mean {', '.join(close)}?" if close else "run `kg queries` for the list"
    raise QueryError(f"no named query {name!r}; {hint}")


def resolve_query(q: str | NamedQuery) -> NamedQuery:
    """A query name, a path to a `.rq` file, or SPARQL text, as a NamedQuery."""
    if isinstance(q, NamedQuery):
        return q
    if re.fullmatch(r"[\w.-]+", q) and not q.endswith(".rq"):
        return get_named_query(q)
    if q.endswith(".rq") and "\n" not in q:
        path = Path(q)
        if not path.is_file():
            raise QueryError(f"{q}: no such query file")
        return parse_named_query(path.read_text(encoding="utf-8"), path.stem, path)
    return parse_named_query(q, "query")


def queries_markdown_table(queries: Iterable[NamedQuery] | None = None) -> str:
    """The named queries as a Markdown table (name | title | parameters), for docs and the README."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = ["| name | title | parameters |", "|---|---|---|"]
    for q in queries if queries is not None else named_queries():
        params = ", ".join(f"`{p.name}` {p.type}" + (f" (default `{p.default}`)" if p.default else " (required)")
                           for p in q.params) or "—"
        lines.append(f"| `{q.name}` | {cell(q.title)} | {cell(params)} |")
    return "\n".join(lines) + "\n"
