"""The trend queries (issue 22) on a real on-disk store: `methods-by-year` and `rising-methods`."""
from __future__ import annotations

import pytest
from rdf_fixture import fixture_graph

from kg.rdf import STORE_NAME, query, write_rdf, write_store

#: 2023: p1, p3; 2024: p2, p4, p5.
YEARS = {"paper:p1": 2023, "paper:p2": 2024, "paper:p3": 2023, "paper:p4": 2024, "paper:p5": 2024}


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    G = fixture_graph()
    for paper, year in YEARS.items():
        G.nodes[paper]["year"] = year
    out = tmp_path_factory.mktemp("trends")
    write_rdf(G, out)
    write_store(out / "graph.nt", out / STORE_NAME)
    return out


def test_methods_by_year_counts_the_papers_of_each_year(build):
    # GP-UCB: p1 (2023), p2 and p5 (2024); any spelling of the method finds it
    assert query("methods-by-year", build, {"method": "gaussian process upper confidence bound"}).rows == [
        ("gaussian process upper confidence bound", 2023, 1), ("gaussian process upper confidence bound", 2024, 2)]


def test_rising_methods_ranks_by_the_change_of_share(build):
    rows = query("rising-methods", build, {"from": 2023, "to": 2024, "min_papers": 1}).to_dicts()
    assert [r["method"] for r in rows] == ["method:gp-ucb", "method:quantization-aware-training",
                                           "method:thompson-sampling"]
    gp = rows[0]
    assert (gp["papers_from"], gp["papers_to"]) == (1, 2)
    assert gp["share_from"] == pytest.approx(1 / 2) and gp["share_to"] == pytest.approx(2 / 3)
    assert gp["change"] == pytest.approx(2 / 3 - 1 / 2)
    assert rows[-1]["change"] == pytest.approx(-1.0)  # Thompson sampling: both 2023 papers, no 2024 one


def test_rising_methods_keeps_only_methods_with_enough_papers(build):
    rows = query("rising-methods", build, {"from": 2023, "to": 2024, "min_papers": 3}).to_dicts()
    assert [r["method"] for r in rows] == ["method:gp-ucb"]
    assert query("rising-methods", build, {"from": 2020, "to": 2024}).rows == []  # no paper in 2020
