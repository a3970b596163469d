"""`FILE@YEAR`: a year for the records of an input file that carry none (listings never do)."""
from __future__ import annotations

import json

import pytest

from kg.errors import InputError
from kg.readers import read, split_year

LISTING = "Deep Learning · LLMs\n\nAna Silva, Bo Li\n\nWe propose FooNet for sparse sketches.\n"


def test_listing_records_take_the_year_given_with_their_file(tmp_path):
    a, b = tmp_path / "conf2023.txt", tmp_path / "conf2024.txt"
    a.write_text(LISTING, encoding="utf-8")
    b.write_text(LISTING.replace("FooNet", "BarNet"), encoding="utf-8")
    result = read([f"{a}@2023", f"{b}@2024"])
    assert [p.year for p in result.papers] == [2023, 2024]
    assert result.files == [f"{a}@2023", f"{b}@2024"] and not result.problems
    assert [p.year for p in read([a, b]).papers] == [None, None]  # no year given: none guessed


def test_a_records_own_year_is_kept_and_a_path_that_exists_is_never_split(tmp_path):
    jsonl = tmp_path / "papers.jsonl"
    jsonl.write_text("\n".join(json.dumps({"id": f"p{i}", "authors": ["Ana Silva"], "abstract": f"Text {i}.",
                                           **({"year": 2020} if i == 0 else {})}) for i in range(2)) + "\n",
                     encoding="utf-8")
    assert [p.year for p in read([f"{jsonl}@2022"]).papers] == [2020, 2022]
    odd = tmp_path / "odd@2024"
    odd.write_text(LISTING, encoding="utf-8")
    assert split_year(odd) == (odd, None) and read([odd]).papers[0].year is None


def test_a_missing_file_with_a_year_names_the_file():
    with pytest.raises(InputError, match="nowhere.txt: no such file"):
        read(["nowhere.txt@2023"])
    assert split_year("x.txt@23") == ("x.txt@23", None)  # a year has four digits
