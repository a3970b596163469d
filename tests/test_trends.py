"""kg.trends, Kleinberg bursts, the report's trends section, figure and year columns, and `kg trends`."""
from __future__ import annotations

import csv
import itertools
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

import kg
from kg.analysis import analyze, write_report
from kg.analysis.bursts import MAX_RATE, burst_states, kleinberg_bursts
from kg.analysis.figure import write_trends_figure
from kg.graph import build_graph
from kg.names import author_key
from kg.records import Author, Method, Paper, Track

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------- bursts
def _brute_force(relevant, totals, s=2.0, gamma=1.0):
    """The cheapest state sequence by trying all 2^n, straight from Kleinberg's cost definition."""
    n, base = len(totals), sum(relevant) / sum(totals)
    rates = (base, min(s * base, MAX_RATE))

    def cost(states):
        total, previous = 0.0, 0
        for state, r, d in zip(states, relevant, totals):
            p = rates[state]
            total += -(r * math.log(p) + (d - r) * math.log(1 - p))
            total += gamma * math.log(n) if state > previous else 0.0
            previous = state
        return total

    return min(itertools.product((0, 1), repeat=n), key=lambda states: (round(cost(states), 9), states))


def test_bursts_are_the_cheapest_state_sequence():
    rng = random.Random(11)
    for _ in range(200):
        n = rng.randint(2, 7)
        totals = [rng.randint(20, 200) for _ in range(n)]
        relevant = [rng.randint(0, d // rng.choice([2, 5, 20])) for d in totals]
        if sum(relevant) == 0:
            continue
        states = burst_states(relevant, totals)
        assert tuple(states) == _brute_force(relevant, totals), (relevant, totals)


def test_a_burst_is_found_where_the_rate_jumps_and_not_in_a_flat_stream():
    assert burst_states([5, 5, 5, 5], [100] * 4) == [0, 0, 0, 0]
    assert kleinberg_bursts([0, 0, 0], [10, 10, 10]) == []
    [burst] = kleinberg_bursts([2, 1, 2, 20, 25, 2], [100] * 6)
    assert (burst.start, burst.end) == (3, 4) and burst.weight > 0
    with pytest.raises(ValueError):
        burst_states([5], [3])


# ---------------------------------------------------------------------------------- trends
def _paper(i, names, year, track=None):
    return Paper(key=f"p{i:02d}", authors=tuple(Author(n, author_key(n)) for n in names), abstract=f"Text {i}.",
                 text=f"Text {i}.", track=track, year=year)


@pytest.fixture()
def dated():
    """10 papers a year 2020-2023 and 2 undated. `rise` grows 1, 2, 4, 8 papers a year, `fall` 8, 4, 2, 1,
    `flat` 3 each year, `new` appears in 2023 only (3 papers). Ana writes 2020-2023, Bo 2022-2023."""
    papers, methods = [], {}
    vision, nlp = Track("Vision"), Track("NLP")
    for y, year in enumerate(range(2020, 2024)):
        for j in range(10):
            i = 10 * y + j
            names = ["Ana Silva"] + (["Bo Li"] if year >= 2022 and j == 0 else []) + [f"Author {i}"]
            papers.append(_paper(i, names, year, vision if j < 2 + 2 * y else nlp))
            found = []
            if j < 2 ** y:
                found.append(Method("rise", "rise"))
            if j < 2 ** (3 - y):
                found.append(Method("fall", "fall"))
            if j >= 7:
                found.append(Method("flat", "flat"))
            if year == 2023 and j in (3, 4, 5):
                found.append(Method("new", "new"))
            methods[f"p{i:02d}"] = tuple(found)
    papers += [_paper(90, ["Cy Undated"], None), _paper(91, ["Cy Undated"], None)]
    methods["p90"] = (Method("rise", "rise"),)
    return build_graph(papers, methods)


def test_papers_methods_shares_and_scores_per_year(dated):
    t = kg.trends(dated, min_papers=5)
    assert t["years"] == {"2020": 10, "2021": 10, "2022": 10, "2023": 10} and t["papers_without_year"] == 2
    rows = {r["key"]: r for r in t["methods"]}
    assert rows["method:rise"]["papers_by_year"] == {"2020": 1, "2021": 2, "2022": 4, "2023": 8}  # p90: no year
    assert rows["method:rise"]["share_by_year"]["2023"] == 0.8 and rows["method:rise"]["papers"] == 15
    # Theil-Sen: the median of the six pairwise slopes of (10, 20, 40, 80) % is (20 + 70/3) / 2 pp per year
    assert rows["method:rise"]["score"] == pytest.approx((20 + 70 / 3) / 2, abs=1e-5)
    assert rows["method:flat"]["score"] == 0
    assert [r["key"] for r in t["rising"]] == ["method:rise"]
    assert [r["key"] for r in t["declining"]] == ["method:fall"]
    assert rows["method:new"]["score"] is None  # 3 papers: below min_papers
    assert [(r["key"], r["first_year"]) for r in t["emerging"]] == [("method:new", 2023)]
    bursts = {(b["key"], b["start"], b["end"]) for b in t["bursts"]}
    assert {("method:rise", 2023, 2023), ("method:fall", 2020, 2020)} <= bursts
    assert not any(key == "method:flat" for key, _, _ in bursts)
    tracks = {r["key"]: r for r in t["tracks"]["items"]}
    assert tracks["area:vision"]["papers_by_year"] == {"2020": 2, "2021": 4, "2022": 6, "2023": 8}
    assert t["tracks"]["rising"][0]["key"] == "area:vision" and t["tracks"]["declining"][0]["key"] == "area:nlp"
    authors = {a["label"]: a for a in t["authors"]}
    assert (authors["Ana Silva"]["first_year"], authors["Ana Silva"]["last_year"]) == (2020, 2023)
    assert (authors["Bo Li"]["first_year"], authors["Bo Li"]["last_year"]) == (2022, 2023)
    assert "Cy Undated" not in authors
    assert t["new_authors_by_year"] == {"2020": 11, "2021": 10, "2022": 11, "2023": 10}
    json.dumps(t)  # JSON-serialisable


def test_without_years_there_are_no_trends_and_no_year_columns():
    G = build_graph([_paper(1, ["Ana Silva", "Bo Li"], None)])
    t = kg.trends(G)
    assert t["years"] == {} and t["methods"] == [] and t["rising"] == [] and t["papers_without_year"] == 1
    report = analyze(G)
    assert "trends" not in report and "first_year" not in report["tables"]["coauthor_edges"].head(1)[0]


def test_report_has_a_trends_section_figure_and_year_columns(dated, tmp_path):
    report = analyze(dated)
    assert list(report)[list(report).index("notes") - 1] == "trends"
    assert report["trends"]["rising"][0]["label"] == "rise"
    assert any("2 paper(s) have no year" in n for n in report["notes"])
    files = write_report(report, tmp_path)
    assert (tmp_path / "trends.png") in files and (tmp_path / "trends.png").read_bytes()[:4] == b"\x89PNG"
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## Trends" in md and "![Top rising methods: share of papers by year](trends.png)" in md
    assert "| rise | " in md and "80.00%" in md
    with open(tmp_path / "methods.csv", encoding="utf-8", newline="") as handle:
        methods = {r["key"]: r for r in csv.DictReader(handle)}
    assert [methods["method:rise"][f"papers_{y}"] for y in range(2020, 2024)] == ["1", "2", "4", "8"]
    with open(tmp_path / "coauthor_edges.csv", encoding="utf-8", newline="") as handle:
        edges = {(r["source_label"], r["target_label"]): r for r in csv.DictReader(handle)}
    ana_bo = edges[("Ana Silva", "Bo Li")]
    assert (ana_bo["first_year"], ana_bo["last_year"], ana_bo["count"]) == ("2022", "2023", "2")


def test_the_figure_is_the_same_bytes_each_time(tmp_path):
    rows = [{"label": f"method {i}", "score": 1.0 / (i + 1), "share_by_year": {"2022": 0.01 * i, "2023": 0.02 * i}}
            for i in range(14)]
    a, b = write_trends_figure(rows, tmp_path / "a.png"), write_trends_figure(rows, tmp_path / "b.png")
    assert a.read_bytes() == b.read_bytes() and a.stat().st_size > 10_000


def test_kg_trends_command_json_and_markdown(tmp_path):
    listing = "Deep Learning · LLMs\n\n{names}\n\nWe propose {method} for sparse sketches {i}.\n\n"
    for year, method in ((2023, "FooNet"), (2024, "BarNet")):
        text = "".join(listing.format(names=f"Ana Silva, Author {year} {i}", method=method, i=i) for i in range(4))
        (tmp_path / f"conf{year}.txt").write_text(text, encoding="utf-8")
    args = [sys.executable, "-m", "kg", "trends", f"{tmp_path / 'conf2023.txt'}@2023",
            f"{tmp_path / 'conf2024.txt'}@2024", "--quiet", "--min-papers", "2", "--min-emerging", "2"]
    out = subprocess.run([*args, "--json"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    assert data["years"] == {"2023": 4, "2024": 4}
    methods = {m["label"]: m for m in data["methods"]}
    assert methods["FooNet"]["papers_by_year"] == {"2023": 4, "2024": 0}
    assert [m["label"] for m in data["rising"]] == ["BarNet"] and data["declining"][0]["label"] == "FooNet"
    assert [m["label"] for m in data["emerging"]] == ["BarNet"]
    text = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "## Trends" in text and "| BarNet | " in text
