"""Named SPARQL queries, parameter binding and the local Oxigraph store behind `kg query`.

Named queries are the `queries/*.rq` files (shipped inside the package as `kg/queries/`). Each starts
with a comment header::

    # title: Co-authors of an author
    # description: Everyone who shares a paper with the author, with the number of shared papers.
    # param: author string Alice Smith        (name, type, default; no default = required)

Parameters are bound with pyoxigraph's native substitutions (SEP-0007), never pasted into the query
text, so a value with quotes or braces is only ever a value. SEP-0007 substitutes *projected*
variables: a parameter must appear in the query's SELECT clause (and GROUP BY, if it groups);
named queries echo their parameters as their first columns. Types: `name` (a string folded like
`kg:nameKey`, so `alice SMITH` finds Alice Smith by an indexed lookup), `string`, `integer`,
`decimal`, `boolean`, `iri`.

`query()` evaluates on Oxigraph (pyoxigraph), which answers one to two orders of magnitude faster
than rdflib's own engine (see benchmarks/sparql_stores.py); query text is given our prefixes
(`kg:`, `schema:`, `skos:`, ...) so ad-hoc queries may omit PREFIX lines.
"""
from __future__ import annotations

import csv
import difflib
import io
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.errors import InputError, QueryError, ArgumentError
from kg.names import fold
from kg.rdf.export import PREFIXES, iter_ntriples

#: Where the named queries live: `kg/queries` (a symlink to the top-level `queries/` in a checkout).
QUERIES_DIR = Path(__file__).with_name("queries")
#: `--data` when none is given: the first of these that exists (what `kg build` writes).
DEFAULT_DATA = (Path("exports/graph.nt"), Path("exports/graph.ttl"))
FORMATS = ("table", "csv", "tsv", "json")
PARAM_TYPES = ("name", "string", "integer", "decimal", "boolean", "iri")

_XSD = "http://www.w3.org/2001/XMLSchema#"
_INTEGER_TYPES = {f"{_XSD}{t}" for t in ("integer", "int", "long", "short", "byte", "nonNegativeInteger",
                                        "positiveInteger", "negativeInteger", "nonPositiveInteger",
                                        "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte", "gYear")}
_FLOAT_TYPES = {f"{_XSD}{t}" for t in ("decimal", "double", "float")}
_ERROR_AT = re.compile(r"^(?:error|Parser error) at (?:line )?(\d+)[:, ](?:between columns |column )?(\d+)")


# ---------------------------------------------------------------------------- named queries
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
    """The named queries (default: the shipped ones), sorted by name."""
    folder = Path(directory) if directory is not None else QUERIES_DIR
    return [parse_named_query(p.read_text(encoding="utf-8"), p.stem, p) for p in sorted(folder.glob("*.rq"))]


def get_named_query(name: str) -> NamedQuery:
    """The named query `name`, or a QueryError listing the close names."""
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


# ------------------------------------------------------------------------------------ store
def default_data() -> Path:
    """The export `kg query`/`serve`/`push` use without --data, or an InputError saying what to run."""
    for path in DEFAULT_DATA:
        if path.is_file():
            return path
    raise InputError(f"no data: {DEFAULT_DATA[0]} not found; run `kg build` first or pass --data FILE")


def rdf_format(path: Path) -> ox.RdfFormat:
    """The RDF format of a file, by extension (.nt, .ttl, .jsonld, .nq, .trig, .rdf, ...)."""
    fmt = ox.RdfFormat.from_extension(path.suffix.lstrip(".") or "-")
    if fmt is None:
        raise InputError(f"{path}: unknown RDF format; use .nt, .ttl, .jsonld, .nq, .trig or .rdf")
    return fmt


def load_store(source: Any = None) -> ox.Store:
    """An in-memory Oxigraph store holding `source`: a file path (None = the default export), an
    rdflib Graph, a `kg` NetworkX graph, or an existing `pyoxigraph.Store` (returned as is)."""
    import networkx as nx
    import rdflib

    if isinstance(source, ox.Store):
        return source
    store = ox.Store()
    if isinstance(source, rdflib.Graph):
        store.load(source.serialize(format="nt", encoding="utf-8"), ox.RdfFormat.N_TRIPLES)
    elif isinstance(source, nx.Graph):
        store.load("".join(iter_ntriples(source)), ox.RdfFormat.N_TRIPLES)
    else:
        path = Path(source) if source is not None else default_data()
        if not path.is_file():
            raise InputError(f"{path}: no such file; run `kg build` to make exports/graph.nt, or pass --data FILE")
        try:
            store.bulk_load(path=str(path), format=rdf_format(path))
        except SyntaxError as exc:
            raise InputError(f"{path}: {exc}") from None
    return store


# ---------------------------------------------------------------------------------- results
def python_value(term: object) -> object:
    """An RDF term as a plain Python value: IRI -> str, typed literal -> int/float/bool/str, None."""
    if term is None:
        return None
    if isinstance(term, ox.Literal):
        datatype = term.datatype.value
        try:
            if datatype in _INTEGER_TYPES:
                return int(term.value)
            if datatype in _FLOAT_TYPES:
                return float(term.value)
        except ValueError:
            return term.value
        if datatype == f"{_XSD}boolean":
            return term.value in ("true", "1")
        return term.value
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    return getattr(term, "value", str(term))


@dataclass
class QueryResult:
    """Rows of a query as Python values. ASK gives one column `boolean`; CONSTRUCT/DESCRIBE give
    `subject`, `predicate`, `object`."""

    columns: list[str]
    rows: list[tuple] = field(default_factory=list)

    def to_dicts(self) -> list[dict[str, object]]:
        return [dict(zip(self.columns, row)) for row in self.rows]

    def to_dataframe(self):
        """A pandas DataFrame (pandas must be installed)."""
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ArgumentError("to_dataframe() needs pandas: pip install pandas") from exc
        return pd.DataFrame(self.rows, columns=self.columns)

    def __len__(self) -> int:
        return len(self.rows)


def _result(answer: object) -> QueryResult:
    if isinstance(answer, ox.QueryBoolean):
        return QueryResult(["boolean"], [(bool(answer),)])
    if isinstance(answer, ox.QuerySolutions):
        columns = [v.value for v in answer.variables]
        return QueryResult(columns, [tuple(python_value(s[c]) for c in columns) for s in answer])
    return QueryResult(["subject", "predicate", "object"],
                       [(python_value(t.subject), python_value(t.predicate), python_value(t.object)) for t in answer])


def _query_error(exc: Exception, q: NamedQuery) -> QueryError:
    """A QueryError naming the file (or query) and the line:column of the problem."""
    message = " ".join(str(exc).split())
    message = message if len(message) <= 200 else message[:199] + "…"
    where = str(q.path) if q.path else q.name
    match = _ERROR_AT.match(message)
    if match:
        rest = message[match.end():].lstrip(" :,")
        return QueryError(f"{where}:{match[1]}:{match[2]}: {rest}")
    return QueryError(f"{where}: {message}")


def query(q: str | NamedQuery, data: Any = None, params: Mapping[str, object] | None = None) -> QueryResult:
    """Run a query (name, `.rq` path, SPARQL text or NamedQuery) on `data` (see `load_store`).

    `params` are bound by substitution: for a named query they are checked against its header and
    typed by it (defaults fill the rest); for ad-hoc text each value becomes a literal (int, float,
    bool, str) or is used as given if it is already a pyoxigraph term.
    """
    named = resolve_query(q)
    if named.params or named.path is not None:
        substitutions = named.bindings(params)
    else:
        substitutions = {ox.Variable(k): Param(k, _param_type(v)).term(v) for k, v in (params or {}).items()}
    store = load_store(data)
    try:
        return _result(store.query(named.text, prefixes=PREFIXES, substitutions=substitutions or None))
    except (SyntaxError, RuntimeError, OSError, ValueError) as exc:
        raise _query_error(exc, named) from None


def _param_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return "decimal" if isinstance(value, float) else "string"


# ------------------------------------------------------------------------------- formatting
def format_result(result: QueryResult, fmt: str = "table", max_width: int = 60) -> str:
    """`result` as text: an aligned `table` (cells cut at `max_width`), `csv`, `tsv`, or `json`
    (a list of objects, one per row)."""
    if fmt == "json":
        return json.dumps(result.to_dicts(), ensure_ascii=False, indent=2) + "\n"
    cells = [["" if v is None else str(v) for v in row] for row in result.rows]
    if fmt in ("csv", "tsv"):
        out = io.StringIO()
        writer = csv.writer(out, delimiter="," if fmt == "csv" else "\t", lineterminator="\n")
        writer.writerow(result.columns)
        writer.writerows(cells)
        return out.getvalue()
    if fmt != "table":
        raise ArgumentError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    cells = [[_cut(" ".join(c.split()), max_width) for c in row] for row in cells]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(result.columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(result.columns, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    lines.append(f"({len(result.rows)} row{'s' if len(result.rows) != 1 else ''})")
    return "\n".join(lines) + "\n"


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
