"""Time: papers per year, each method's and track's papers and share per year, rising, declining
and emerging ones, bursts (Kleinberg), authors' first and last year.

A paper's year is the one its record carries (or its file's, `FILE@YEAR`); a paper without one is
counted as such and in no year's figures, never guessed. Scores (docs/analysis.md, "Trends"):

- share of a year = papers of that year mentioning the method / papers of that year;
- `score` (rising > 0 > declining) = the Theil–Sen slope of the share, in percentage points per
  year: the median of the slopes between every two years, so one odd year cannot make a trend;
  computed for items with at least `min_papers` dated papers, ties broken by `log_ratio`
  = ln((c_last + ½)/(N_last + 1)) − ln((c_first + ½)/(N_first + 1)) between the first and last years;
- emerging = first seen in the last `emerging_years` years (the corpus has earlier ones), with at
  least `min_emerging` papers;
- bursts: Kleinberg's two-state automaton over the years (`kg.analysis.bursts`), items with at
  least `min_papers` dated papers.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping

import networkx as nx

from kg.analysis._common import rounded
from kg.analysis.bursts import kleinberg_bursts
from kg.graph import nodes_of_kind, paper_authors, paper_methods, paper_track

#: The version of the trends shape; bumped when a key changes meaning.
TRENDS_VERSION = 1


def paper_years(G: nx.DiGraph) -> dict[str, int]:
    """Paper node -> year, for the papers whose record has one (the others are left out, never guessed).

    Examples
    --------
    >>> import kg
    >>> from kg.analysis.trends import paper_years
    >>> paper_years(kg.build_graph(kg.read().papers))  # listings carry no year
    {}
    """
    return {p: G.nodes[p]["year"] for p in nodes_of_kind(G, "paper") if G.nodes[p].get("year") is not None}


def _theil_sen(xs: list[int], ys: list[float]) -> float:
    """The median of the slopes between every two points (Theil 1950, Sen 1968)."""
    from scipy.stats import theilslopes

    return float(theilslopes(ys, xs).slope)


def _series(G: nx.DiGraph, year_of: Mapping[str, int], members: Callable[[str], list[str]],
            years: list[int], totals: Counter, *, min_papers: int) -> list[dict]:
    """One row per node that `members(paper)` reaches from a dated paper: papers and share per year,
    first and last year, score and log-ratio (None below `min_papers`); most papers first."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for paper, year in year_of.items():
        for node in set(members(paper)):
            counts[node][year] += 1
    first, last = years[0], years[-1]
    rows = []
    for node, by_year in counts.items():
        papers = sum(by_year.values())
        shares = [by_year[y] / totals[y] for y in years]
        scored = papers >= min_papers and len(years) > 1
        rows.append({
            "key": node, "label": G.nodes[node]["label"], "papers": papers,
            "papers_by_year": {str(y): by_year[y] for y in years},
            "share_by_year": {str(y): rounded(share) for y, share in zip(years, shares)},
            "first_year": min(by_year), "last_year": max(by_year),
            "score": rounded(100 * _theil_sen(years, shares)) if scored else None,
            "log_ratio": rounded(math.log((by_year[last] + 0.5) / (totals[last] + 1))
                                 - math.log((by_year[first] + 0.5) / (totals[first] + 1))) if scored else None,
        })
    return sorted(rows, key=lambda r: (-r["papers"], r["key"]))


def _summary(rows: list[dict], years: list[int], totals: Counter, *, emerging_years: int, min_emerging: int,
             min_papers: int, s: float, gamma: float) -> dict:
    """Rising, declining, emerging and bursting rows of a `_series` table."""
    scored = [r for r in rows if r["score"] is not None]
    rising = sorted((r for r in scored if r["score"] > 0), key=lambda r: (-r["score"], -r["log_ratio"], r["key"]))
    declining = sorted((r for r in scored if r["score"] < 0), key=lambda r: (r["score"], r["log_ratio"], r["key"]))
    recent = years[-emerging_years:] if len(years) > emerging_years else []
    emerging = [r for r in rows if recent and r["first_year"] >= recent[0] and r["papers"] >= min_emerging]
    bursts = []
    for r in rows:
        if r["papers"] >= min_papers:
            for b in kleinberg_bursts([r["papers_by_year"][str(y)] for y in years], [totals[y] for y in years],
                                      s=s, gamma=gamma):
                bursts.append({"key": r["key"], "label": r["label"], "start": years[b.start], "end": years[b.end],
                               "weight": rounded(b.weight)})
    bursts.sort(key=lambda b: (-b["weight"], b["key"], b["start"]))
    return {"rising": rising, "declining": declining, "emerging": emerging, "bursts": bursts}


def trends(G: nx.DiGraph, *, min_papers: int = 10, emerging_years: int = 1, min_emerging: int = 3,
           burst_s: float = 2.0, burst_gamma: float = 1.0) -> dict:
    """Papers, methods, tracks and authors over the years of a knowledge graph.

    Parameters
    ----------
    G : networkx.DiGraph
        The knowledge graph (`build_graph`); a paper's year is its node's `year`.
    min_papers : int
        Dated papers an item needs for a score and for burst detection.
    emerging_years : int
        How many last years count as recent for `emerging`.
    min_emerging : int
        Papers an emerging item needs.
    burst_s, burst_gamma : float
        Kleinberg's rate ratio and transition cost (`kg.analysis.bursts`).

    Returns
    -------
    dict
        `kg_trends`, `parameters`, `years` ({"2023": papers}), `papers_without_year`, `methods`
        (every method of a dated paper: key, label, papers, papers_by_year, share_by_year,
        first_year, last_year, score, log_ratio), `rising`, `declining`, `emerging`, `bursts`
        (methods), `tracks` (the same five lists for tracks, under `items` ... `bursts`),
        `authors` (key, label, papers, first_year, last_year) and `new_authors_by_year`.
        Without any dated paper every list is empty.

    Examples
    --------
    >>> import kg
    >>> from kg.records import Author, Method, Paper
    >>> ana, bo = Author("Ana Silva", "ana-silva"), Author("Bo Li", "bo-li")
    >>> papers = [Paper(f"p{i}", (ana,) if i < 6 else (ana, bo), "x", "x", year=2020 + i // 3) for i in range(9)]
    >>> methods = {f"p{i}": (Method("gan", "GAN"),) for i in range(9) if i in (0, 4, 5, 7, 8)}
    >>> t = kg.trends(kg.build_graph(papers, methods), min_papers=2)
    >>> t["years"], t["methods"][0]["papers_by_year"], t["rising"][0]["score"]
    ({'2020': 3, '2021': 3, '2022': 3}, {'2020': 1, '2021': 2, '2022': 2}, 16.666667)
    >>> [(a["label"], a["first_year"], a["last_year"]) for a in t["authors"]]
    [('Ana Silva', 2020, 2022), ('Bo Li', 2022, 2022)]
    """
    year_of = paper_years(G)
    totals = Counter(year_of.values())
    years = sorted(totals)
    parameters = {"min_papers": min_papers, "emerging_years": emerging_years, "min_emerging": min_emerging,
                  "score": "theil-sen slope of the share, percentage points per year",
                  "burst_s": burst_s, "burst_gamma": burst_gamma}
    options = {"emerging_years": emerging_years, "min_emerging": min_emerging, "min_papers": min_papers,
               "s": burst_s, "gamma": burst_gamma}
    if not years:
        empty = {"rising": [], "declining": [], "emerging": [], "bursts": []}
        methods = tracks = {"items": [], **empty}
    else:
        rows = _series(G, year_of, lambda p: paper_methods(G, p), years, totals, min_papers=min_papers)
        methods = {"items": rows, **_summary(rows, years, totals, **options)}
        rows = _series(G, year_of, lambda p: [t] if (t := paper_track(G, p)) else [], years, totals,
                       min_papers=min_papers)
        tracks = {"items": rows, **_summary(rows, years, totals, **options)}
    span: dict[str, list[int]] = {}
    for paper, year in year_of.items():
        for author in paper_authors(G, paper):
            span.setdefault(author, []).append(year)
    authors = sorted(({"key": a, "label": G.nodes[a]["label"], "papers": len(ys), "first_year": min(ys),
                       "last_year": max(ys)} for a, ys in span.items()), key=lambda r: (-r["papers"], r["key"]))
    new = Counter(a["first_year"] for a in authors)
    return {
        "kg_trends": TRENDS_VERSION, "parameters": parameters,
        "years": {str(y): totals[y] for y in years},
        "papers_without_year": len(nodes_of_kind(G, "paper")) - len(year_of),
        "methods": methods["items"], "rising": methods["rising"], "declining": methods["declining"],
        "emerging": methods["emerging"], "bursts": methods["bursts"],
        "tracks": tracks,
        "authors": authors, "new_authors_by_year": {str(y): new[y] for y in years},
    }
