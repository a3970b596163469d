"""Render the analysis report (`kg.analysis.analyze`): Markdown for people, JSON for programs,
CSV tables for pandas users. `write_report(report, out_dir)` writes all of them atomically.

Files: `report.md`, `report.json`, and from `report["tables"]` (every row, not just the top):
`authors.csv`, `coauthor_edges.csv`, `methods.csv`, `method_pairs.csv`, `tracks.csv`,
`cross_track.csv`, plus `possible_duplicates.csv`. List cells are joined with `; `. When the
papers have years, `trends.png` (`kg.analysis.figure`), a trends section, per-year columns in
`methods.csv` and first/last year columns in `coauthor_edges.csv`.
"""
from __future__ import annotations

import csv
import os
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from pathlib import Path

from kg._util.io import atomic_open, atomic_write, json_text, write_json

Column = tuple[str, Callable[[dict], object]]


def _get(name: str) -> Callable[[dict], object]:
    return itemgetter(name)  # every row of a table has every key; a C getter beats a lambda


def _joined(name: str, field: str | None = None) -> Callable[[dict], object]:
    """A list cell as `a; b; c` (`field` picks a key out of list-of-dict cells)."""
    if field is None:
        return lambda row: "; ".join(map(str, row.get(name) or ()))
    return lambda row: "; ".join(str(x[field]) for x in row.get(name) or ())


def _pair(name: str, index: int) -> Callable[[dict], object]:
    return lambda row: row[name][index]


def _cols(*names: str) -> list[Column]:
    return [(n, _get(n)) for n in names]


#: CSV file -> (the table in `report["tables"]`, or a top-level list; its columns).
CSV_TABLES: dict[str, tuple[str, list[Column]]] = {
    "authors.csv": ("authors", _cols("key", "label", "papers", "coauthors", "strength", "degree_centrality",
                                     "betweenness", "eigenvector", "component", "community")),
    "coauthor_edges.csv": ("coauthor_edges", _cols("source", "target", "source_label", "target_label", "count",
                                                   "weight") + [("papers", _joined("papers"))]),
    "methods.csv": ("methods", _cols("key", "label") + [("alt_labels", _joined("alt_labels"))]
                    + _cols("papers", "mentions", "cooccurring", "tracks")
                    + [("track_labels", _joined("track_labels"))] + _cols("community")),
    "method_pairs.csv": ("method_pairs", _cols("source", "target", "source_label", "target_label", "count",
                                               "association") + [("papers", _joined("papers"))]),
    "datasets.csv": ("datasets", _cols("key", "label") + [("alt_labels", _joined("alt_labels"))]
                     + _cols("papers", "mentions") + [("top_methods", _joined("top_methods"))]),
    "tracks.csv": ("tracks", _cols("key", "label", "area", "subarea", "papers", "authors")
                   + [("top_methods", _joined("top_methods", "label"))]),
    "cross_track.csv": ("cross_track", [("track_a", _pair("tracks", 0)), ("track_b", _pair("tracks", 1)),
                                        ("label_a", _pair("labels", 0)), ("label_b", _pair("labels", 1)),
                                        ("shared_authors", _get("shared_authors")),
                                        ("authors", _joined("authors"))]),
    "possible_duplicates.csv": ("possible_duplicates", [
        ("author_a", _pair("authors", 0)), ("author_b", _pair("authors", 1)),
        ("label_a", _pair("labels", 0)), ("label_b", _pair("labels", 1)), ("reason", _get("reason")),
        ("papers_a", _pair("papers", 0)), ("papers_b", _pair("papers", 1)),
        ("shared_coauthors", _get("shared_coauthors")), ("shared_tracks", _get("shared_tracks"))]),
}


def _rows(report: dict, table: str) -> list[dict]:
    return report["tables"][table] if table in report["tables"] else report[table]


def _by_year(name: str, year: str) -> Callable[[dict], object]:
    return lambda row: row[name][year]


def csv_columns(report: dict, name: str) -> list[Column]:
    """The columns of CSV file `name` for this report: those of `CSV_TABLES`, and when the report
    has years (a `trends` section), `papers_<year>` per year in methods.csv and `first_year`,
    `last_year` in coauthor_edges.csv."""
    columns = CSV_TABLES[name][1]
    if "trends" not in report:
        return columns
    if name == "methods.csv":
        return columns + [(f"papers_{y}", _by_year("papers_by_year", y)) for y in report["trends"]["years"]]
    if name == "coauthor_edges.csv":
        return columns + _cols("first_year", "last_year")
    return columns


def write_csv(path: str | os.PathLike[str], rows: Iterable[dict], columns: Sequence[Column]) -> Path:
    """Write `rows` as CSV through `columns`, streamed to `path` atomically.

    Parameters
    ----------
    path : path
        The file to write (its folder is made if missing).
    rows : iterable of dict
        The rows, written as they come.
    columns : sequence of (name, getter)
        The header and how each cell is read from a row (`CSV_TABLES` has the report's).

    Returns
    -------
    pathlib.Path
        `path`. Header row, `\\n` line ends, UTF-8; None is an empty cell.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from operator import itemgetter
    >>> from kg.analysis.report import write_csv
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "t.csv"
    >>> print(write_csv(out, [{"a": 1, "b": None}], [("a", itemgetter("a")), ("b", itemgetter("b"))]).read_text(), end="")
    a,b
    1,
    """
    with atomic_open(path) as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([name for name, _ in columns])
        getters = [get for _, get in columns]
        writer.writerows([get(row) for get in getters] for row in rows)
    return Path(path)


def to_json(report: dict) -> str:
    """The report as JSON text: keys in the report's (stable) order, UTF-8, one table row a line.

    Parameters
    ----------
    report : dict
        What `analyze` returns.

    Returns
    -------
    str
        The text `report.json` holds.

    Examples
    --------
    >>> import json
    >>> from kg.analysis import to_json
    >>> json.loads(to_json({"kg_report": 1, "tables": {"authors": [{"key": "author:a"}]}}))["kg_report"]
    1
    """
    return json_text(report) + "\n"


# ----------------------------------------------------------------------------------- Markdown
#: Input text in a Markdown table cell: HTML's characters become entities (renderers pass raw
#: HTML through, and not all honour a backslash before `<`); Markdown's inline syntax, the table's
#: `|` and the backslash itself are backslash-escaped (CommonMark, GFM and Python-Markdown agree);
#: line breaks become spaces (a row is one line).
_MD_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\\": "\\\\", "|": "\\|", "`": "\\`",
                             "*": "\\*", "_": "\\_", "[": "\\[", "]": "\\]", "~": "\\~", "$": "\\$",
                             "\n": " ", "\r": " "})


def _cell(value: object) -> str:
    """A value as the text of a Markdown table cell, escaped (`_MD_ESCAPES`); None is empty."""
    if value is None:
        return ""
    if isinstance(value, float):
        value = f"{value:.4g}"
    return str(value).translate(_MD_ESCAPES)


def md_table(rows: Sequence[dict], columns: Sequence[Column]) -> str:
    """A Markdown table of `rows` through `columns`; `_(none)_` when there are none.

    Parameters
    ----------
    rows : sequence of dict
        The rows.
    columns : sequence of (name, getter)
        Column headers and how each cell is read from a row.

    Returns
    -------
    str
        The table, one line per row, cells escaped for Markdown.

    Examples
    --------
    >>> from operator import itemgetter
    >>> from kg.analysis.report import md_table
    >>> print(md_table([{"x": 0.123456}], [("x", itemgetter("x"))]), end="")
    | x |
    |---|
    | 0.1235 |
    """
    if not rows:
        return "_(none)_\n"
    lines = ["| " + " | ".join(name for name, _ in columns) + " |",
             "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(_cell(get(row)) for _, get in columns) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _facts(data: dict) -> str:
    """A two-column table of a flat section (lists shown by their length)."""
    rows = [{"what": k.replace("_", " "), "value": len(v) if isinstance(v, list) else v}
            for k, v in data.items() if not isinstance(v, dict)]
    return md_table(rows, _cols("what", "value"))


def to_markdown(report: dict) -> str:
    """The report as readable Markdown: facts, then the top rows of each table.

    Parameters
    ----------
    report : dict
        What `analyze` returns (with `input` when the caller adds it).

    Returns
    -------
    str
        The text `report.md` holds.

    Examples
    --------
    >>> import kg
    >>> from kg.analysis import to_markdown
    >>> to_markdown(kg.analyze(kg.build_graph(kg.read().papers))).splitlines()[0]
    '# kg report'
    """
    p = report["parameters"]
    out = ["# kg report\n",
           f"Counting: **{p['counting']}** · Louvain seed **{p['seed']}**, resolution **{p['resolution']}** · "
           f"topic links: **{p['topic_normalization']}** strength · top **{p['top']}** rows per table "
           "(every row is in the CSV files).\n"]
    if report["notes"]:
        out += ["## Notes\n", "\n".join(f"- {n}" for n in report["notes"]) + "\n"]
    if "input" in report:
        out += ["## Input\n", _facts(report["input"])]
    out += ["## Corpus\n", _facts(report["corpus"]),
            "## Collaboration\n", _facts(report["collaboration"]),
            "Collaboration index = authors of multi-authored papers / multi-authored papers.\n",
            "## Co-author components\n", _facts(report["components"]),
            md_table(report["components"]["sizes"], _cols("size", "components"))]
    for name, title in (("coauthors", "Co-author communities"), ("topics", "Method communities")):
        c = report["communities"][name]
        out += [f"## {title}\n", f"{c['count']} communities, modularity {_cell(c['modularity'])} "
                f"(Louvain, seed {c['seed']}, resolution {c['resolution']}).\n",
                md_table(c["largest"], _cols("community", "size") + [("members", _joined("members"))])]
    out += ["## Top authors\n", md_table(report["top_authors"], _cols(
                "label", "papers", "coauthors", "strength", "degree_centrality", "betweenness", "eigenvector",
                "component", "community")),
            "## Tracks\n", md_table(report["tracks"], _cols("label", "papers", "authors")
                                    + [("top methods", _joined("top_methods", "label"))]),
            "## Cross-track collaboration (authors publishing in both tracks)\n",
            md_table(report["cross_track"], [("track A", _pair("labels", 0)), ("track B", _pair("labels", 1)),
                                             ("shared authors", _get("shared_authors")),
                                             ("authors", _joined("authors"))]),
            "## Top methods\n", md_table(report["top_methods"], _cols("label", "papers", "mentions", "cooccurring",
                                                                      "tracks", "community")),
            "## Top method pairs\n", md_table(report["method_pairs"], _cols(
                "source_label", "target_label", "count", "association")),
            "## Methods bridging tracks\n", md_table(report["bridging_methods"], _cols("label", "tracks", "papers")
                                                     + [("in tracks", _joined("track_labels"))]),
            "## Datasets and benchmarks\n", md_table(report.get("top_datasets", []), _cols("label", "papers", "mentions")
                                                      + [("used with", _joined("top_methods"))]),
            "## Possible duplicate authors (never merged; decide in an aliases file)\n",
            md_table(report["possible_duplicates"], CSV_TABLES["possible_duplicates.csv"][1][2:]),
            *(trends_markdown(report["trends"], figure="trends.png") if "trends" in report else []),
            "## Files\n", "\n".join(f"- `{name}`" for name in ("report.json", *CSV_TABLES)
                                    + (("trends.png",) if "trends" in report else ())) + "\n"]
    return "\n".join(out)


def _shares(years: Sequence[str]) -> list[Column]:
    """One column per year: the row's share of that year's papers, in percent."""
    return [(y, lambda row, y=y: f"{100 * row['share_by_year'][y]:.2f}%") for y in years]


def trends_markdown(trends: dict, *, top: int = 20, figure: str | None = None) -> list[str]:
    """The trends section of the report (`kg trends` prints it), as Markdown blocks.

    Parameters
    ----------
    trends : dict
        What `kg.trends` returns, or a report's `trends` section.
    top : int
        Rows per list.
    figure : str, optional
        The file name of the trends figure, shown under the rising methods.

    Returns
    -------
    list of str
        Markdown blocks (join them with blank lines).

    Examples
    --------
    >>> from kg.analysis.report import trends_markdown
    >>> t = {"years": {"2022": 10, "2023": 12}, "papers_without_year": 1, "rising": [], "declining": [],
    ...      "emerging": [], "bursts": [], "tracks": {}, "new_authors_by_year": {"2022": 30, "2023": 20},
    ...      "parameters": {"min_papers": 10, "emerging_years": 1, "min_emerging": 3}}
    >>> print(trends_markdown(t)[1], end="")
    | year | papers | new authors |
    |---|---|---|
    | 2022 | 10 | 30 |
    | 2023 | 12 | 20 |
    """
    years = list(trends["years"])
    if not years:
        return ["## Trends\n", f"No paper has a year ({trends['papers_without_year']} without one): nothing to show. "
                "A listing carries none; give its year on the command line as FILE@YEAR.\n"]
    p = trends["parameters"]
    per_year = [{"year": y, "papers": n, "new authors": trends["new_authors_by_year"].get(y, 0)}
                for y, n in trends["years"].items()]
    out = ["## Trends\n", md_table(per_year, _cols("year", "papers", "new authors")),
           f"{trends['papers_without_year']} paper(s) without a year (in no year's figures). Score: Theil–Sen slope "
           f"of the share of the year's papers, in percentage points per year, for methods with at least "
           f"{p['min_papers']} dated papers; emerging: first seen in the last {p['emerging_years']} year(s), "
           f"at least {p['min_emerging']} papers; bursts: Kleinberg's two-state automaton over the years.\n"]
    scored = _cols("label", "score", "papers") + _shares(years)
    for name, title in (("rising", "Rising methods"), ("declining", "Declining methods")):
        out += [f"### {title}\n", md_table(trends[name][:top], scored)]
        if name == "rising" and figure and trends[name]:
            out.append(f"![Top rising methods: share of papers by year]({figure})\n")
    out += ["### Emerging methods\n", md_table(trends["emerging"][:top], _cols("label", "first_year", "papers")),
            "### Bursts (Kleinberg)\n", md_table(trends["bursts"][:top], _cols("label", "start", "end", "weight"))]
    tracks = trends.get("tracks") or {}
    if tracks.get("rising") or tracks.get("declining") or tracks.get("bursts"):
        out += ["### Tracks: rising and declining\n",
                md_table((tracks["rising"] + tracks["declining"][::-1])[:top], scored),
                "### Tracks: bursts\n", md_table(tracks["bursts"][:top], _cols("label", "start", "end", "weight"))]
    return out


def write_report(report: dict, out_dir: str | os.PathLike[str]) -> list[Path]:
    """Write report.md, report.json and the CSV tables into `out_dir`, each atomically.

    Parameters
    ----------
    report : dict
        What `analyze` returns.
    out_dir : path
        The folder (made if missing).

    Returns
    -------
    list of pathlib.Path
        The files written: report.md, report.json, the CSV files of `CSV_TABLES`, then
        trends.png when the report has years.

    Examples
    --------
    >>> import tempfile
    >>> import kg
    >>> files = kg.write_report(kg.analyze(kg.build_graph(kg.read().papers)), tempfile.mkdtemp())
    >>> [f.name for f in files][:3]
    ['report.md', 'report.json', 'authors.csv']
    """
    out = Path(out_dir)
    files = [atomic_write(out / "report.md", to_markdown(report)), write_json(out / "report.json", report)]
    files += [write_csv(out / name, _rows(report, table), csv_columns(report, name))
              for name, (table, _) in CSV_TABLES.items()]
    if "trends" in report:
        from kg.analysis.figure import write_trends_figure

        files.append(write_trends_figure(report["trends"]["rising"], out / "trends.png"))
    return files
