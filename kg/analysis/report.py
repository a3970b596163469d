"""Render the analysis report (`kg.analysis.analyze`): Markdown for people, JSON for programs,
CSV tables for pandas users. `write_report(report, out_dir)` writes all of them atomically.

Files: `report.md`, `report.json`, and from `report["tables"]` (every row, not just the top; each
`Table` read once, its rows going to report.json and its CSV file as they are made):
`authors.csv`, `coauthor_edges.csv`, `methods.csv`, `method_pairs.csv`, `datasets.csv`,
`tracks.csv`, `cross_track.csv`, plus `possible_duplicates.csv`. List cells are joined with `; `. When the
papers have years, `trends.png` (`kg.analysis.figure`), a trends section, per-year columns in
`methods.csv` and first/last year columns in `coauthor_edges.csv`.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from operator import itemgetter
from pathlib import Path

from kg._util.io import atomic_open, atomic_write, json_text, write_json
from kg.analysis.table import Column, CsvSink, Table, cols, joined, pair, write_csv

#: The CSV files of a report, in the order they are listed: file -> the table in
#: `report["tables"]`, or (`possible_duplicates`) the top-level list.
CSV_TABLES: dict[str, str] = {
    "authors.csv": "authors", "coauthor_edges.csv": "coauthor_edges", "methods.csv": "methods",
    "method_pairs.csv": "method_pairs", "datasets.csv": "datasets", "tracks.csv": "tracks",
    "cross_track.csv": "cross_track", "possible_duplicates.csv": "possible_duplicates",
}

#: The columns of `possible_duplicates.csv`.
DUPLICATE_COLUMNS: list[Column] = [
    ("author_a", pair("authors", 0)), ("author_b", pair("authors", 1)),
    ("label_a", pair("labels", 0)), ("label_b", pair("labels", 1)), *cols("reason"),
    ("papers_a", pair("papers", 0)), ("papers_b", pair("papers", 1)), *cols("shared_coauthors", "shared_tracks")]

__all__ = ["CSV_TABLES", "DUPLICATE_COLUMNS", "md_table", "to_json", "to_markdown", "trends_markdown", "write_csv",
           "write_report"]


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
    return md_table(rows, cols("what", "value"))


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
            md_table(report["components"]["sizes"], cols("size", "components"))]
    for name, title in (("coauthors", "Co-author communities"), ("topics", "Method communities")):
        c = report["communities"][name]
        out += [f"## {title}\n", f"{c['count']} communities, modularity {_cell(c['modularity'])} "
                f"(Louvain, seed {c['seed']}, resolution {c['resolution']}).\n",
                md_table(c["largest"], cols("community", "size") + [("members", joined("members"))])]
    out += ["## Top authors\n", md_table(report["top_authors"], cols(
                "label", "papers", "coauthors", "strength", "degree_centrality", "betweenness", "eigenvector",
                "component", "community")),
            "## Tracks\n", md_table(report["tracks"], cols("label", "papers", "authors")
                                    + [("top methods", joined("top_methods", "label"))]),
            "## Cross-track collaboration (authors publishing in both tracks)\n",
            md_table(report["cross_track"], [("track A", pair("labels", 0)), ("track B", pair("labels", 1)),
                                             ("shared authors", itemgetter("shared_authors")),
                                             ("authors", joined("authors"))]),
            "## Top methods\n", md_table(report["top_methods"], cols("label", "papers", "mentions", "cooccurring",
                                                                      "tracks", "community")),
            "## Top method pairs\n", md_table(report["method_pairs"], cols(
                "source_label", "target_label", "count", "association")),
            "## Methods bridging tracks\n", md_table(report["bridging_methods"], cols("label", "tracks", "papers")
                                                     + [("in tracks", joined("track_labels"))]),
            "## Datasets and benchmarks\n", md_table(report.get("top_datasets", []), cols("label", "papers", "mentions")
                                                      + [("used with", joined("top_methods"))]),
            "## Possible duplicate authors (never merged; decide in an aliases file)\n",
            md_table(report["possible_duplicates"], DUPLICATE_COLUMNS[2:]),
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
    out = ["## Trends\n", md_table(per_year, cols("year", "papers", "new authors")),
           f"{trends['papers_without_year']} paper(s) without a year (in no year's figures). Score: Theil–Sen slope "
           f"of the share of the year's papers, in percentage points per year, for methods with at least "
           f"{p['min_papers']} dated papers; emerging: first seen in the last {p['emerging_years']} year(s), "
           f"at least {p['min_emerging']} papers; bursts: Kleinberg's two-state automaton over the years.\n"]
    scored = cols("label", "score", "papers") + _shares(years)
    for name, title in (("rising", "Rising methods"), ("declining", "Declining methods")):
        out += [f"### {title}\n", md_table(trends[name][:top], scored)]
        if name == "rising" and figure and trends[name]:
            out.append(f"![Top rising methods: share of papers by year]({figure})\n")
    out += ["### Emerging methods\n", md_table(trends["emerging"][:top], cols("label", "first_year", "papers")),
            "### Bursts (Kleinberg)\n", md_table(trends["bursts"][:top], cols("label", "start", "end", "weight"))]
    tracks = trends.get("tracks") or {}
    if tracks.get("rising") or tracks.get("declining") or tracks.get("bursts"):
        out += ["### Tracks: rising and declining\n",
                md_table((tracks["rising"] + tracks["declining"][::-1])[:top], scored),
                "### Tracks: bursts\n", md_table(tracks["bursts"][:top], cols("label", "start", "end", "weight"))]
    return out


def write_report(report: dict, out_dir: str | os.PathLike[str]) -> list[Path]:
    """Write report.md, report.json and the CSV tables into `out_dir`, each atomically.

    Each table of `report["tables"]` is read once: every row goes to report.json and to its CSV
    file as it is made, so no table is held whole.

    Parameters
    ----------
    report : dict
        What `analyze` returns (its `tables` are `Table`s).
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
    tables: dict[str, Table] = report.get("tables", {})
    files = [atomic_write(out / "report.md", to_markdown(report))]
    with contextlib.ExitStack() as stack:  # the CSV files are renamed into place with report.json, or not at all
        sinks = {name: CsvSink(stack.enter_context(atomic_open(out / f"{name}.csv")), table.csv_columns)
                 for name, table in tables.items()}
        teed = {name: sinks[name].passing(table) for name, table in tables.items()}
        files.append(write_json(out / "report.json", {**report, "tables": teed} if tables else report))
    write_csv(out / "possible_duplicates.csv", report["possible_duplicates"], DUPLICATE_COLUMNS)
    written = {*(f"{name}.csv" for name in tables), "possible_duplicates.csv"}
    files += [out / name for name in CSV_TABLES if name in written]
    files += [out / f"{name}.csv" for name in tables if f"{name}.csv" not in CSV_TABLES]
    if "trends" in report:
        from kg.analysis.figure import write_trends_figure

        files.append(write_trends_figure(report["trends"]["rising"], out / "trends.png"))
    return files

