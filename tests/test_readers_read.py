"""read(): detection, several inputs, duplicates merged, strict mode, input errors, the CLI."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kg.cli import main
from kg.errors import InputError, RecordError, ArgumentError
from kg.readers import Duplicate, SharedAbstract, iter_papers, read, reading, sample_path
from kg.readers.detect import detect_format

DATA = Path(__file__).parent / "data" / "readers"
#: papers.jsonl's first paper as a listing record with the same authors (its duplicate).
FOONET_LISTING = ("Machine Learning · Federated learning\n\nAna Silva, zhou Xun\n\n"
                  "We propose FooNet, a method for sparse sketches. It beats the Johnson–Lindenstrauss "
                  "baseline by $1.7 \\times$ on $R^2$.\n")


@pytest.mark.parametrize("name, content, expected", [
    ("a.jsonl", "", "jsonl"), ("a.ndjson", "", "jsonl"), ("a.csv", "", "csv"), ("a.tsv", "", "csv"),
    ("a.bib", "", "bibtex"), ("a.json", "[]", "json"), ("a.json", '{"a": 1}\n', "jsonl"),
    ("a.txt", "  [\n]", "json"), ("a.txt", '{"abstract": "x"}', "jsonl"),
    ("a.txt", "% refs\n@article{k, title={x}}", "bibtex"), ("a.txt", "Title,Abstract\nx,y", "csv"),
    ("a.txt", "Ana Silva\n\nAn abstract. Yes.", "listing"), ("data", "\ufeffAna\n\nAbstract.", "listing"),
])
def test_detect_format(tmp_path, name, content, expected):
    path = tmp_path / name
    path.write_text(content or "x", encoding="utf-8")
    assert detect_format(path) == expected


def test_explicit_format_overrides_detection(tmp_path):
    path = tmp_path / "listing.data"
    shutil.copy(DATA / "papers.jsonl", path)
    assert len(read([path]).papers) == 3  # content says JSONL
    as_listing = read([path], format="listing")
    assert as_listing.papers == [] and [p.line for p in as_listing.problems] == [1, 4]
    [problem] = read([path], format="csv").problems
    assert "lacks an `abstract`, `text` or `title` column" in problem.message and "…" in problem.message


def test_unknown_format_is_a_usage_error():
    with pytest.raises(ArgumentError, match="unknown input format 'xml'"):
        read(None, format="xml")


@pytest.mark.parametrize("name, message", [("missing.txt", "no such file"), ("empty.txt", "empty input"),
                                           ("blank.jsonl", "empty input"), ("", "not a file")])
def test_missing_empty_and_directory_inputs_are_input_errors(name, message):
    with pytest.raises(InputError, match=message) as info:
        read([DATA / name])
    assert not isinstance(info.value, RecordError)


def test_missing_file_fails_before_anything_is_read():
    with pytest.raises(InputError, match="missing.txt: no such file"):
        read([sample_path(), DATA / "missing.txt"])


def test_a_single_path_is_one_file():
    assert read(sample_path()).files == [str(sample_path())]
    assert len(read(str(sample_path())).papers) == 20


def test_none_and_empty_mean_the_sample():
    assert read(None).files == read([]).files == [str(sample_path())]
    assert read([]).summary() == "read 20 papers from 1 file (0 duplicates merged, 0 records skipped)"


def test_strict_raises_the_first_malformed_record():
    with pytest.raises(RecordError) as info:
        read([DATA / "listing_malformed.txt"], strict=True)
    assert info.value.line == 1 and str(info.value).startswith(str(DATA / "listing_malformed.txt") + ":1: ")


def test_strict_does_not_fail_on_duplicates():
    result = read([DATA / "bad.bib"], format="bibtex", strict=False)
    assert result.duplicates == 1
    with pytest.raises(RecordError, match="unreadable BibTeX"):  # the entry without abstract is kept
        read([DATA / "bad.bib"], strict=True)
    assert read([sample_path(), sample_path()], strict=True).duplicates == 20


def test_same_abstract_under_other_authors_across_formats_is_two_papers():
    result = read([DATA / "listing_quirks.txt", DATA / "papers.jsonl"])
    assert len(result.papers) == 11 + 3  # papers.jsonl's p1 lacks the listing's third author, Zeng
    listed, jsonl = result.papers[0], result.papers[11]
    assert listed.abstract == jsonl.abstract and listed.key != jsonl.key
    assert listed.key == read([DATA / "listing_quirks.txt"]).papers[0].key  # the first keeps its key
    assert [a.name for a in jsonl.authors] == ["Ana Silva", "zhou Xun"] and jsonl.title == "FooNet"
    [notice] = [p for p in result.problems if isinstance(p, SharedAbstract)]
    assert (notice.line, notice.first.line) == (1, 3)
    assert "other authors (Ana Silva, zhou Xun vs Ana Silva, zhou Xun, Zeng)" in str(notice)
    assert result.summary() == "read 14 papers from 2 files (0 duplicates merged, 0 records skipped, 1 notice)"


def test_same_content_and_authors_across_formats_merges_into_the_richer_record(tmp_path):
    listing = tmp_path / "l.txt"
    listing.write_text(FOONET_LISTING, encoding="utf-8")
    result = read([listing, DATA / "papers.jsonl"])
    assert len(result.papers) == 1 + 2
    merged = result.papers[0]
    assert merged.source.line == 1 and merged.source.file == str(listing)
    assert (merged.id, merged.title, merged.year, merged.venue) == ("p1", "FooNet", 2024, "IJCAI")
    [notice] = [p for p in result.problems if isinstance(p, Duplicate)]
    assert notice.line == 1 and notice.first.line == 1 and notice.reason == "same content"
    assert str(notice).endswith(f"merged with {listing}:1 (same content); taking its title, id, year, venue, keywords")
    assert not notice.lost
    assert result.summary() == "read 3 papers from 2 files (1 duplicate merged, 0 records skipped)"


def test_a_truncated_author_list_is_completed_by_the_full_one(tmp_path):
    listing = tmp_path / "l.txt"
    listing.write_text("Ana Silva 等\n\nA shared abstract. It is the same paper.\n", encoding="utf-8")
    full = tmp_path / "f.jsonl"
    full.write_text(json.dumps({"authors": ["Ana Silva", "Bo Li"], "title": "T",
                                "abstract": "A shared  abstract. It is the same paper."}) + "\n", encoding="utf-8")
    [paper] = read([listing, full]).papers
    assert [a.name for a in paper.authors] == ["Ana Silva", "Bo Li"] and not paper.authors_truncated
    assert paper.title == "T"


def test_same_id_with_other_content_is_a_duplicate(tmp_path):
    path = tmp_path / "ids.jsonl"
    path.write_text('{"id": "x", "authors": "A", "abstract": "One text. Yes."}\n'
                    '{"id": "x", "authors": "A", "abstract": "Another text. Yes.", "title": "Kept"}\n'
                    '{"authors": "A", "abstract": "Another text. Yes."}\n', encoding="utf-8")
    result = read([path])
    [paper] = result.papers
    assert paper.text == "One text. Yes." and paper.title == "Kept"
    assert [p.reason for p in result.problems] == ["same id x", "same content"]
    assert result.duplicates == 2 and result.skipped == 0
    by_id = result.problems[0]
    assert by_id.lost and "taking its title" in str(by_id)
    assert "abstract differs: 'Another text. Yes.' vs 'One text. Yes.' (the first kept)" in str(by_id)
    with pytest.raises(Duplicate, match="abstract differs"):  # --strict: a disagreement loses data
        read([path], strict=True)


def test_iter_papers_streams_first_occurrences_and_reports_the_rest():
    problems = []
    papers = list(iter_papers([DATA / "listing_malformed.txt", DATA / "listing_malformed.txt"],
                              on_problem=problems.append))
    assert len(papers) == 2
    assert sum(isinstance(p, Duplicate) for p in problems) == 2
    assert sum(not isinstance(p, Duplicate) for p in problems) == 12
    assert all(str(p).endswith("dropped; it adds nothing") for p in problems if isinstance(p, Duplicate))


def test_reading_hands_out_each_paper_with_its_final_key_and_text_while_the_result_fills(tmp_path):
    listing = tmp_path / "l.txt"
    listing.write_text(FOONET_LISTING, encoding="utf-8")
    inputs = [listing, DATA / "listing_quirks.txt", DATA / "papers.jsonl"]
    result, papers = reading(inputs)
    assert result.files == [str(p) for p in inputs] and result.papers == []  # nothing read yet
    first = next(papers)
    assert result.papers == [first] and first.title is None  # its duplicate in papers.jsonl is not read yet
    rest = list(papers)
    whole = read(inputs)
    assert result.papers == whole.papers and list(map(str, result.problems)) == list(map(str, whole.problems))
    assert len([first, *rest]) == len(result.papers) == 1 + 11 + 2
    assert [(p.key, p.text) for p in [first, *rest]] == [(p.key, p.text) for p in result.papers]
    assert result.papers[0].title == "FooNet"  # merged from the later duplicate, which was not handed out


def test_summary_counts_skipped_and_merged():
    result = read([DATA / "bad.jsonl", DATA / "bad.jsonl"])
    assert result.summary() == "read 4 papers from 2 files (4 duplicates merged, 10 records skipped, 4 notices)"


# ---------------------------------------------------------------------------------- the CLI
def test_cli_papers_json(capsys):
    assert main(["papers", str(DATA / "listing_quirks.txt"), "--json"]) == 0
    out, err = capsys.readouterr()
    records = json.loads(out)
    assert len(records) == 11
    assert set(records[0]) == {"id", "key", "title", "authors", "authors_truncated", "authors_written",
                               "author_ids", "track", "year", "venue", "doi", "keywords", "abstract", "text", "source"}
    assert records[0]["track"] == {"area": "Machine Learning", "subarea": "Federated learning"}
    assert records[1]["track"] is None and records[1]["authors_truncated"] is True
    assert records[0]["source"] == {"file": str(DATA / "listing_quirks.txt"), "line": 3}
    assert "read 11 papers from 1 file" in err


def test_cli_json_output_reads_back(tmp_path, capsys):
    main(["papers", str(DATA / "listing_quirks.txt"), "--json", "-q"])
    out = tmp_path / "out.json"
    out.write_text(capsys.readouterr().out, encoding="utf-8")
    again = read([out])
    original = read([DATA / "listing_quirks.txt"])
    assert [(p.key, p.authors, p.track, p.authors_truncated) for p in again.papers] == \
           [(p.key, p.authors, p.track, p.authors_truncated) for p in original.papers]


def test_cli_reports_problems_and_strict_exits_1(capsys):
    assert main(["papers", str(DATA / "bad.csv")]) == 0
    err = capsys.readouterr().err
    assert f"kg: {DATA / 'bad.csv'}:3: unreadable CSV row" in err
    assert main(["papers", str(DATA / "bad.csv"), "--strict"]) == 1
    assert f"kg: error: {DATA / 'bad.csv'}:3:" in capsys.readouterr().err
    assert main(["papers", str(DATA / "missing.csv")]) == 1
