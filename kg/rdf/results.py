"""Query results as Python values, and as text (table, CSV, TSV, JSON)."""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field

import pyoxigraph as ox

from kg.errors import ArgumentError

FORMATS = ("table", "csv", "tsv", "json")
_XSD = "http://www.w3.org/2001/XMLSchema#"
_INTEGER_TYPES = {f"{_XSD}{t}" for t in ("integer", "int", "long", "short", "byte", "nonNegativeInteger",
                                        "positiveInteger", "negativeInteger", "nonPositiveInteger",
                                        "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte", "gYear")}
_FLOAT_TYPES = {f"{_XSD}{t}" for t in ("decimal", "double", "float")}


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


def to_result(answer: object) -> QueryResult:
    if isinstance(answer, ox.QueryBoolean):
        return QueryResult(["boolean"], [(bool(answer),)])
    if isinstance(answer, ox.QuerySolutions):
        columns = [v.value for v in answer.variables]
        return QueryResult(columns, [tuple(python_value(s[c]) for c in columns) for s in answer])
    return QueryResult(["subject", "predicate", "object"],
                       [(python_value(t.subject), python_value(t.predicate), python_value(t.object)) for t in answer])


def format_result(result: QueryResult, fmt: str = "table", max_width: int = 60) -> str:
    """`result` as text.

    Parameters
    ----------
    result : QueryResult
    fmt : {"table", "csv", "tsv", "json"}
        An aligned table (cells cut at `max_width`), CSV, TSV, or JSON (a list of objects, one per row).
    max_width : int
        The widest cell of a table.

    Returns
    -------
    str

    Examples
    --------
    >>> print(format_result(QueryResult(["name", "papers"], [("Ann", 2)])), end="")
    name  papers
    ----  ------
    Ann   2
    (1 row)
    >>> print(format_result(QueryResult(["author", "coauthor"], [("Ann", "Bo"), ("Ann", "Cy")])), end="")
    author: Ann
    coauthor
    --------
    Bo
    Cy
    (2 rows)
    >>> print(format_result(QueryResult(["name", "papers"], [("Ann", 2)]), "csv"), end="")
    name,papers
    Ann,2
    """
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
    # leading columns with one value in every row (the bound parameters) are said once, above the table
    same: list[int] = []
    while len(cells) > 1 and len(same) < len(result.columns) - 1 and len({row[len(same)] for row in cells}) == 1:
        same.append(len(same))
    lines = [f"{result.columns[i]}: {cells[0][i]}" for i in same]
    columns = result.columns[len(same):]
    cells = [row[len(same):] for row in cells]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip(),
              "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    lines.append(f"({len(result.rows)} row{'s' if len(result.rows) != 1 else ''})")
    return "\n".join(lines) + "\n"


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
