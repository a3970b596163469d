"""kg.analysis.Table: the report's tables made as they are read, written as write_report writes them."""
from __future__ import annotations

import json

import pytest

import kg
from kg.analysis import Table, analyze, write_report
from kg.analysis.table import cols


@pytest.fixture(scope="module")
def report():
    papers = kg.read().papers
    return analyze(kg.build_graph(papers, kg.extract_methods(papers)))


def test_each_table_writes_the_files_write_report_writes(report, tmp_path):
    write_report(report, tmp_path / "report")
    written = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))["tables"]
    assert sorted(written) == sorted(report["tables"])
    for name, table in report["tables"].items():
        assert isinstance(table, Table) and table.name == name
        csv_bytes = table.write_csv(tmp_path / f"{name}.csv").read_bytes()
        assert csv_bytes == (tmp_path / "report" / f"{name}.csv").read_bytes(), name
        assert csv_bytes.decode("utf-8").split("\n", 1)[0] == ",".join(table.columns)
        assert json.loads(table.write_json(tmp_path / f"{name}.json").read_text(encoding="utf-8")) == written[name]
        assert len(table) == len(written[name]) and table == written[name] and table.to_dicts() == written[name]


def test_rows_are_made_again_on_each_reading_and_head_makes_only_its_rows():
    made = []

    def rows():
        for i in range(5):
            made.append(i)
            yield {"i": i}

    table = Table("t", rows, cols("i"), 5)
    assert made == []  # nothing is made before it is read
    assert table.head(2) == [{"i": 0}, {"i": 1}] and made == [0, 1]
    assert [row["i"] for row in table] == [0, 1, 2, 3, 4] and list(table) == table.to_dicts()
    assert table != [{"i": 0}] and table != Table("u", rows, cols("i"), 5) and repr(table) == "<Table t: 5 rows; i>"


def test_to_dataframe_has_a_column_per_key(report):
    pd = pytest.importorskip("pandas")
    frame = report["tables"]["coauthor_edges"].to_dataframe()
    assert isinstance(frame, pd.DataFrame) and len(frame) == report["corpus"]["coauthor_links"]
    assert list(frame.columns) == list(report["tables"]["coauthor_edges"].head(1)[0])
    assert frame["count"].is_monotonic_decreasing
