"""JSON, JSONL, CSV and BibTeX readers: fields, and every error path named by file and line."""
from __future__ import annotations

from pathlib import Path

from kg.errors import RecordError
from kg.readers import iter_records, read
from kg.records import Track

DATA = Path(__file__).parent / "data" / "readers"


def _split(path: Path, **kwargs):
    items = list(iter_records(path, **kwargs))
    return ([i for i in items if not isinstance(i, RecordError)],
            {i.line: i.message for i in items if isinstance(i, RecordError)})


# ------------------------------------------------------------------------------------ JSONL
def test_jsonl_fields():
    papers, problems = _split(DATA / "papers.jsonl")
    assert problems == {}
    first, second, third = papers
    assert (first.id, first.title, first.year, first.venue) == ("p1", "FooNet", 2024, "IJCAI")
    assert [a.name for a in first.authors] == ["Ana Silva", "zhou Xun"]  # whitespace normalised
    assert first.track == Track("Machine Learning", "Federated learning")
    assert first.keywords == ("sketching", "FooNet")
    assert first.text.endswith("by 1.7 × on R^2.") and "$" in first.abstract
    assert [a.name for a in second.authors] == ["Bo Li", "Liu, Jing"] and second.authors_truncated
    assert second.source.line == 2 and third.source.line == 4  # the blank line 3 is skipped
    assert third.id == "3" and third.track == Track("Computer Vision")
    assert third.abstract.startswith("Only a text field")


def test_jsonl_errors_name_their_line_and_lose_nothing_else():
    papers, problems = _split(DATA / "bad.jsonl")
    assert [p.id for p in papers] == ["ok1", "noabs", "noauth", "ok2"]  # kept without abstract / authors
    assert problems[2].startswith("invalid JSON: Expecting ',' delimiter")
    assert "not a JSON object" in problems[3]
    assert problems[4] == "no abstract (so no methods); kept with what it has"
    assert problems[5] == "no author names (so no co-authors); kept with what it has"
    assert "year must be a whole number" in problems[6]
    assert "authors must be a list of names" in problems[7]
    assert "track must be a string" in problems[8]


def test_require_authors_false_takes_records_without_authors_silently():
    papers, problems = _split(DATA / "bad.jsonl", require_authors=False)
    assert "noauth" in [p.id for p in papers]
    assert 5 not in problems  # no notice: the caller needs no authors
    assert [p for p in papers if p.id == "noauth"][0].authors == ()


# ------------------------------------------------------------------------------------- JSON
def test_json_list_items_carry_their_line():
    papers, problems = _split(DATA / "papers.json")
    assert problems == {}
    assert [(p.id, p.source.line) for p in papers] == [("j1", 2), ("j2", 4)]
    assert papers[0].track == Track("Computer Vision", "3D vision")
    assert [a.name for a in papers[1].authors] == ["Bo Li", "Chen Wang"] and papers[1].authors_truncated


def test_json_errors_name_record_number_and_line():
    papers, problems = _split(DATA / "bad.json")
    assert [p.id for p in papers] == ["ok1", "noabs"]
    assert problems[3] == "record 2: not a JSON object {...}; skipped"
    assert problems[4] == "no abstract (so no methods); kept with what it has"
    assert problems[5].startswith("record 4: invalid JSON") and "rest of file skipped" in problems[5]


def test_json_that_is_not_a_list():
    _, problems = _split(DATA / "object.json", format="json")
    assert problems == {1: "expected a JSON list of records `[{...}, ...]`"}


def test_json_trailing_garbage(tmp_path):
    path = tmp_path / "tail.json"
    path.write_text('[{"authors": "A", "abstract": "Fine. Yes."}]\n  oops\n', encoding="utf-8")
    papers, problems = _split(path)
    assert len(papers) == 1 and "text after the closing" in problems[2]


# -------------------------------------------------------------------------------------- CSV
def test_csv_quoting_crlf_case_insensitive_header():
    papers, problems = _split(DATA / "papers.csv")
    assert problems == {}
    first, second = papers
    assert first.title == "Quoted, title" and first.id == "c1" and first.year == 2024
    assert [a.name for a in first.authors] == ["Ana Silva", "Bo Li"]
    assert first.abstract == "An abstract, with a comma.\r\nAnd a second line."
    assert first.text == "An abstract, with a comma. And a second line."
    assert second.source.line == 4  # the quoted abstract spans lines 2-3
    assert second.title is None and second.track is None and second.year is None


def test_tsv_is_sniffed_from_the_header():
    [paper], problems = _split(DATA / "papers.tsv")
    assert problems == {} and paper.track == Track("Robotics")
    assert [a.name for a in paper.authors] == ["Ann Lee", "Bo Li"]


def test_csv_bad_rows_are_reported_by_line():
    papers, problems = _split(DATA / "bad.csv")
    assert [p.title for p in papers] == ["Good", "NoAbs", "Good2"]
    assert problems[3].startswith("unreadable CSV row")
    assert problems[4].startswith("row has 2 fields, the header 3")
    assert problems[5].startswith("no abstract (so no methods)")


def test_csv_without_abstract_column_keeps_titles_and_authors():
    [paper], problems = _split(DATA / "noabstract.csv")
    assert (paper.title, [a.name for a in paper.authors], paper.abstract, paper.text) == ("X", ["Ana Silva"], "", "")
    assert problems == {2: "no abstract (so no methods); kept with what it has"}


def test_csv_without_abstract_text_or_title_column_is_one_problem(tmp_path):
    path = tmp_path / "names.csv"
    path.write_text("name,summary\nX,Not an abstract column.\n", encoding="utf-8")
    papers, problems = _split(path)
    assert papers == [] and list(problems) == [1]
    assert "lacks an `abstract`, `text` or `title` column" in problems[1] and "summary" in problems[1]


def test_csv_without_authors_column_keeps_its_records(tmp_path):
    path = tmp_path / "ids.csv"
    path.write_text("id,text\nx1,A text without authors. Fine for eval.\n", encoding="utf-8")
    [paper], problems = _split(path)
    assert paper.id == "x1" and problems == {2: "no author names (so no co-authors); kept with what it has"}
    [paper], problems = _split(path, require_authors=False)
    assert problems == {} and paper.id == "x1"


# ----------------------------------------------------------------------------------- BibTeX
def test_bibtex_fields():
    papers, problems = _split(DATA / "papers.bib")
    assert problems == {}
    first, second = papers
    assert first.id == "silva2024foonet" and first.source.line == 2
    assert [a.name for a in first.authors] == ["Ana Silva", "zhou Xun", "Jörg Müller"]
    assert first.title == "FooNet: Sparse Sketches" and first.year == 2024
    assert first.venue == "Proceedings of IJCAI" and first.keywords == ("sketching", "sparse methods")
    assert first.track == Track("Machine Learning", "Federated learning")
    assert first.text == "We propose FooNet, a method for ε-sparse sketches. It is fast."
    assert second.authors_truncated and [a.name for a in second.authors] == ["Bo Li", "Chen Wang"]
    assert second.venue == "AI Journal" and second.year == 2023


def test_bibtex_errors_and_repeated_key():
    papers, problems = _split(DATA / "bad.bib")
    assert [p.id for p in papers] == ["noabstract", "good", "good"]  # the repeat is a duplicate for read()
    assert problems[1] == "no abstract (so no methods); kept with what it has"
    assert papers[0].title == "No Abstract Here" and papers[0].year == 2024
    assert problems[7].startswith("unreadable BibTeX") and problems[7].endswith("entry skipped")
    result = read([DATA / "bad.bib"])
    assert [p.title for p in result.papers] == ["No Abstract Here", "Good"] and result.papers[1].year == 2020
    assert result.duplicates == 1 and result.skipped == 1 and result.notices == 1
