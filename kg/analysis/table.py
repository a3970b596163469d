"""`Table`: one of the report's tables, its rows made from the graph when they are iterated, so
the report of a large corpus never holds all its rows at once; and the CSV layout of its columns.
"""
from __future__ import annotations

import csv
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from operator import itemgetter
from pathlib import Path

from kg._util.io import atomic_open, write_json
from kg.errors import ArgumentError

#: A CSV or Markdown column: its header and how a cell is read from a row.
Column = tuple[str, Callable[[dict], object]]


def cols(*names: str) -> list[Column]:
    """Columns read straight from the rows' keys of the same names."""
    return [(name, itemgetter(name)) for name in names]  # a C getter beats a lambda


def joined(name: str, field: str | None = None) -> Callable[[dict], object]:
    """A list cell as `a; b; c` (`field` picks a key out of list-of-dict cells)."""
    if field is None:
        return lambda row: "; ".join(map(str, row.get(name) or ()))
    return lambda row: "; ".join(str(x[field]) for x in row.get(name) or ())


def pair(name: str, index: int) -> Callable[[dict], object]:
    """Item `index` of a two-item list cell (as a track pair's two tracks)."""
    return lambda row: row[name][index]


class CsvSink:
    """Rows written as CSV lines through `columns` onto an open text file, header first."""

    def __init__(self, handle: object, columns: Sequence[Column]) -> None:
        self._writer = csv.writer(handle, lineterminator="\n")
        self._writer.writerow([name for name, _ in columns])
        self._getters = [get for _, get in columns]

    def write(self, rows: Iterable[dict]) -> None:
        getters = self._getters
        self._writer.writerows([get(row) for get in getters] for row in rows)

    def passing(self, rows: Iterable[dict]) -> Iterator[dict]:
        """`rows`, each written here as it passes on (to a JSON writer, say)."""
        write = self._writer.writerow
        getters = self._getters
        for row in rows:
            write([get(row) for get in getters])
            yield row


def write_csv(path: str | os.PathLike[str], rows: Iterable[dict], columns: Sequence[Column]) -> Path:
    """Write `rows` as CSV through `columns`, streamed to `path` atomically.

    Parameters
    ----------
    path : path
        The file to write (its folder is made if missing).
    rows : iterable of dict
        The rows, written as they come.
    columns : sequence of (name, getter)
        The header and how each cell is read from a row (a `Table`'s `csv_columns`).

    Returns
    -------
    pathlib.Path
        `path`. Header row, `\\n` line ends, UTF-8; None is an empty cell.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from kg.analysis.table import cols, write_csv
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "t.csv"
    >>> print(write_csv(out, [{"a": 1, "b": None}], cols("a", "b")).read_text(), end="")
    a,b
    1,
    """
    with atomic_open(path) as out:
        CsvSink(out, columns).write(rows)
    return Path(path)


class Table:
    """A report table: rows (dicts) made when iterated, its columns, its length, its files.

    Iterating twice makes the rows twice, from the graph and figures the table was made from (it
    keeps them alive); nothing is cached. `len()` is known without making a row.

    Parameters
    ----------
    name : str
        The table's name (`authors`, `coauthor_edges`, ...); its CSV file is `<name>.csv`.
    rows : callable
        Returns a new iterator over the rows, in the table's order.
    csv_columns : sequence of (name, getter)
        The CSV header and how each cell is read from a row (list cells joined with `; `).
    length : int
        The number of rows.

    Examples
    --------
    >>> from kg.analysis.table import Table, cols
    >>> t = Table.of("t", [{"a": 1}, {"a": 2}], cols("a"))
    >>> len(t), t.columns, t.head(1), [row["a"] for row in t]
    (2, ['a'], [{'a': 1}], [1, 2])
    >>> t == [{"a": 1}, {"a": 2}]
    True
    """

    __slots__ = ("name", "csv_columns", "_rows", "_length")
    __hash__ = None  # equal by content, which may change with the graph it reads

    def __init__(self, name: str, rows: Callable[[], Iterable[dict]], csv_columns: Sequence[Column],
                 length: int) -> None:
        self.name, self.csv_columns, self._rows, self._length = name, list(csv_columns), rows, length

    @classmethod
    def of(cls, name: str, rows: Sequence[dict], csv_columns: Sequence[Column]) -> Table:
        """A table over rows already made (a small table, or a test's)."""
        return cls(name, lambda: iter(rows), csv_columns, len(rows))

    @property
    def columns(self) -> list[str]:
        """The CSV header: the column names, in order."""
        return [name for name, _ in self.csv_columns]

    def __iter__(self) -> Iterator[dict]:
        return iter(self._rows())

    def __len__(self) -> int:
        return self._length

    def __eq__(self, other: object) -> bool:
        """Equal to a table of the same name, columns and rows, or to the list of its rows."""
        if isinstance(other, Table):
            if (self.name, self.columns) != (other.name, other.columns):
                return False
        elif not isinstance(other, list):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    def __repr__(self) -> str:
        return f"<Table {self.name}: {len(self)} rows; {', '.join(self.columns)}>"

    def head(self, n: int) -> list[dict]:
        """The first `n` rows (only they are made)."""
        return list(islice(self, n))

    def to_dicts(self) -> list[dict]:
        """Every row, as a list (the whole table in memory)."""
        return list(self)

    def to_dataframe(self):
        """Every row as a pandas DataFrame, one column per key of the rows (pandas must be installed)."""
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ArgumentError("to_dataframe() needs pandas: pip install pandas") from exc
        return pd.DataFrame.from_records(iter(self))

    def write_csv(self, path: str | os.PathLike[str]) -> Path:
        """Write the rows to `path` as CSV (`csv_columns`), streamed and atomically; return the path."""
        return write_csv(path, self, self.csv_columns)

    def write_json(self, path: str | os.PathLike[str]) -> Path:
        """Write the rows to `path` as a JSON list (one row a line), streamed and atomically; return the path."""
        return write_json(path, self)
